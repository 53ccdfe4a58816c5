package daemon

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/sim"
)

func TestPortAlarms(t *testing.T) {
	cfg, err := config.Parse([]byte(`
platform: sim
ports:
  - {port: 4, speed: 10G, breakout: 4}
  - {port: 9, speed: 100G}
  - {port: 10, speed: 100G}
  - {port: 1, speed: 100G, enabled: false}
links:
  - {name: L1, lan: P42, wan: P41}
`))
	require.NoError(t, err)
	yes, no := true, false
	up := func(bps uint64) SwitchPort {
		return SwitchPort{Oper: &yes, Admin: &yes, SpeedBPS: bps, Speed: speedName(bps)}
	}
	good := map[string]SwitchPort{
		"4/1": up(10e9), "4/2": up(10e9), "4/3": up(10e9), "4/4": up(10e9), "9/0": up(100e9), "10/0": up(100e9),
		"1/0": {Oper: &no, Admin: &no, SpeedBPS: 100e9, Speed: "SPEED_100GB"},
	}
	assert.Empty(t, PortAlarms(cfg, good))

	tests := []struct {
		name   string
		change func(m map[string]SwitchPort)
		want   []string
	}{
		{"speed", func(m map[string]SwitchPort) { m["9/0"] = up(40e9) },
			[]string{"port P9: the switch runs it at 40G, the site at 100G: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or set the site's speed (balancer port set 9 --speed 40G)"}},
		{"unknown speed", func(m map[string]SwitchPort) { p := up(0); p.Speed = "SPEED_UNKNOWN"; m["4/3"] = p },
			[]string{"port P43: the switch runs it at SPEED_UNKNOWN, the site at 10G: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or set the site's speed (balancer port set 4 --speed SPEED)"}},
		{"not reported", func(m map[string]SwitchPort) { delete(m, "10/0") },
			[]string{"port P10: the switch does not report it: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml)"}},
		{"admin down on the switch", func(m map[string]SwitchPort) { p := m["9/0"]; p.Admin = &no; p.Oper = &no; m["9/0"] = p },
			[]string{"port P9: admin down on the switch, enabled in the site: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or disable it in the site (balancer port set 9 --enabled=false)"}},
		{"admin up, disabled in the site", func(m map[string]SwitchPort) { m["1/0"] = up(100e9) },
			[]string{"port P1: admin up on the switch, disabled in the site: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or enable it in the site (balancer port set 1 --enabled)"}},
		{"used port oper down", func(m map[string]SwitchPort) { p := m["4/2"]; p.Oper = &no; m["4/2"] = p },
			[]string{"port P42 (link L1) is enabled but oper down: check its cable and optics, and that the far end runs 10G with fec none and autoneg off"}},
		{"unused port oper down is no alarm", func(m map[string]SwitchPort) { p := m["4/3"]; p.Oper = &no; m["4/3"] = p }, nil},
		{"speed only reported", func(m map[string]SwitchPort) { m["9/0"] = SwitchPort{Speed: "SPEED_100GB", SpeedBPS: 100e9} }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]SwitchPort{}
			for k, v := range good {
				m[k] = v
			}
			tt.change(m)
			assert.Equal(t, tt.want, PortAlarms(cfg, m))
		})
	}
}

func speedName(bps uint64) string {
	return map[uint64]string{10e9: "SPEED_10GB", 40e9: "SPEED_40GB", 100e9: "SPEED_100GB"}[bps]
}

// A daemon against a software switch whose port 10 (P1) runs at 40G
// while the site says 100G raises an alarm naming P1 within 2 s of its
// start; once the switch runs the site's speed the alarm clears, and a
// port the switch takes admin down raises its own.
func TestPortMismatchAlarm(t *testing.T) {
	dir := t.TempDir()
	site, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	cfgPath := filepath.Join(dir, "site.yaml")
	require.NoError(t, os.WriteFile(cfgPath, site, 0o600))
	cfg, err := config.Parse(site)
	require.NoError(t, err)

	ports := map[uint32]sim.Port{}
	peers := map[uint32]*sim.MemPeer{}
	speeds := map[uint32]uint64{}
	for _, d := range cfg.Ports {
		num, err := cfg.PortNumber(d.LaneNames()[0].Key())
		require.NoError(t, err)
		p, peer := sim.NewMemPort(1024)
		ports[num], peers[num] = p, peer
		speeds[num] = config.SpeedBPS(d.Speed)
	}
	speeds[10] = 40e9 // P1 (link L1 wan)
	ctx, cancel := context.WithCancel(context.Background())
	for _, pp := range [][2]uint32{{40, 30}, {60, 50}, {80, 70}} {
		f := &filterEmu{lan: peers[pp[0]], wan: peers[pp[1]]}
		f.alive.Store(true)
		f.run(ctx)
	}
	sw, err := sim.New(sim.Options{Ports: ports, Speeds: speeds, CounterInterval: time.Hour})
	require.NoError(t, err)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	glis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	swDone := make(chan error, 1)
	go func() { swDone <- sw.Serve(ctx, lis, glis) }()
	defer func() {
		cancel()
		<-swDone
	}()

	d, err := New(Options{StateDir: filepath.Join(dir, "state"), InitialConfig: cfgPath, SwitchAddr: lis.Addr().String(),
		SwitchGNMI: glis.Addr().String(), DeviceID: 1, Tick: time.Millisecond, CounterInterval: time.Hour, Logger: testLogger})
	require.NoError(t, err)
	dctx, dcancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		d.Run(dctx)
	}()
	defer func() {
		dcancel()
		wg.Wait()
	}()

	alarms := func() []string {
		st, err := d.Status(context.Background())
		require.NoError(t, err)
		return st.Switch.PortAlarms
	}
	want := "port P1: the switch runs it at 40G, the site at 100G: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml), or set the site's speed (balancer port set 1 --speed 40G)"
	waitFor := func(what string, within time.Duration, cond func([]string) bool) time.Duration {
		t.Helper()
		begin := time.Now()
		deadline := begin.Add(within)
		for {
			a := alarms()
			if cond(a) {
				return time.Since(begin)
			}
			if time.Now().After(deadline) {
				require.FailNow(t, "no "+what+" within "+within.String(), "port alarms: %q", a)
			}
			time.Sleep(5 * time.Millisecond) // polling, with a deadline
		}
	}
	waitFor("speed alarm", 2*time.Second-time.Since(start), func(a []string) bool { return slices.Equal(a, []string{want}) })
	t.Logf("speed mismatch alarm raised %v after the daemon started", time.Since(start))

	// The switch brings P1 up at the site's speed: the alarm clears.
	require.NoError(t, sw.SetSpeed(10, 100e9))
	waitFor("clear", 2*time.Second, func(a []string) bool { return len(a) == 0 })

	// The switch takes P3 (filter F1 wan) admin down.
	require.NoError(t, sw.SetAdmin(30, false))
	took := waitFor("admin alarm", 2*time.Second, func(a []string) bool {
		return len(a) == 1 && strings.HasPrefix(a[0], "port P3: admin down on the switch, enabled in the site")
	})
	t.Logf("admin mismatch alarm raised %v after the switch's change", took)
}

// TestPortRemedyByPlatform: a Stratum switch's ports are fixed by pushing
// the chassis config; the software switch has none (chassis-config
// refuses its platform): its remedy is a restart from the running site.
func TestPortRemedyByPlatform(t *testing.T) {
	for platform, want := range map[string]string{
		config.PlatformSim: "port P9: the switch does not report it: the software switch runs the ports of the site it was started with: restart it from the running site (balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; otherwise balancer sim --from-config run/site.yaml)",
		"wedge100bf-32x":   "port P9: the switch does not report it: render and push the site's chassis config (balancer switch chassis-config; docs/tofino.md)",
	} {
		cfg, err := config.Parse([]byte("platform: " + platform + "\nports: [{port: 9, speed: 100G}]\n"))
		require.NoError(t, err)
		assert.Equal(t, []string{want}, PortAlarms(cfg, map[string]SwitchPort{}), platform)
	}
}
