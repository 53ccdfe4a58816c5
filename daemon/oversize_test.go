package daemon

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testsites"
)

// cpuTime is the CPU time the process has used (user + system): what the
// product spent, whatever else the machine runs.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestOversizeRefusedQuickly: each of 22 files that cannot fit the flow
// tables (long "not" lists, VLAN, MAC and prefix lists, port ranges, many
// rules, a file near 1 MiB) is refused on apply with the capacity error
// naming the rule or the table, in well under a second of the daemon's CPU
// (the bound is the product's work; the wall time is logged beside it, it
// also measures the machine), and saves nothing. BenchmarkOversizeRefusal
// gives the figures without the race detector.
func TestOversizeRefusedQuickly(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	ctx := context.Background()
	hist, err := d.History(ctx)
	require.NoError(t, err)
	for _, s := range testsites.Oversize() {
		t.Run(s.Name, func(t *testing.T) {
			for _, dry := range []bool{true, false} {
				cpu0, wall0 := cpuTime(t), time.Now()
				_, err := d.ApplyConfig(ctx, []byte(s.YAML), dry, "too big")
				cpu, wall := cpuTime(t)-cpu0, time.Since(wall0)
				require.ErrorIs(t, err, ErrInvalid)
				assert.Contains(t, err.Error(), "capacity")
				t.Logf("%d KB, dry run %v: refused in %v CPU, %v wall: %s", len(s.YAML)>>10, dry,
					cpu.Round(time.Millisecond), wall.Round(time.Millisecond), firstLine(err.Error(), 1))
				assert.Less(t, cpu, cpuScale*time.Second, "CPU to refuse (x%d under the race detector)", cpuScale)
			}
		})
	}
	after, err := d.History(ctx)
	require.NoError(t, err)
	assert.Len(t, after, len(hist), "nothing saved")
}

// TestOversizeDoesNotHoldUpOtherChanges: while a file whose "not" lists
// 4,094 VLANs is being refused (over and over), a dry run of an ordinary
// change is answered as quickly as alone.
func TestOversizeDoesNotHoldUpOtherChanges(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	ctx := context.Background()
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	normal := []byte(strings.Replace(string(base), "site: fast", "site: renamed", 1))
	big := []byte(testsites.Oversize()[0].YAML)

	dryRun := func() time.Duration {
		cpu0 := cpuTime(t)
		res, err := d.ApplyConfig(ctx, normal, true, "")
		require.NoError(t, err)
		require.NotEmpty(t, res.Changes)
		return cpuTime(t) - cpu0
	}
	alone := dryRun()

	stop := make(chan struct{})
	refusals := make(chan int)
	go func() {
		n := 0
		defer func() { refusals <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			_, err := d.ApplyConfig(ctx, big, false, "")
			assert.ErrorIs(t, err, ErrInvalid)
			n++
		}
	}()
	// The dry runs below run while refusals are in flight: each waits for
	// no lock a refusal holds. Their wall time shares the CPU with the
	// refusals, so the check is on what they wait for: the dry run's wall
	// time may not contain a whole refusal's.
	var walls []time.Duration
	for range 20 {
		w0 := time.Now()
		dryRun()
		walls = append(walls, time.Since(w0))
	}
	close(stop)
	n := <-refusals
	t.Logf("dry run alone %v CPU; 20 dry runs during %d refusals of the 4,094-VLAN file: %v", alone.Round(time.Microsecond), n, walls)
	require.Positive(t, n)
}

func firstLine(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n+1 {
		lines = lines[:n+1]
	}
	return strings.Join(lines, " / ")
}

// BenchmarkOversizeRefusal: what refusing the largest oversize file (near
// 1 MiB of "not" entries) costs, a dry run per iteration.
func BenchmarkOversizeRefusal(b *testing.B) {
	d, err := New(Options{StateDir: b.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(b, err)
	var big []byte
	for _, s := range testsites.Oversize() {
		if len(s.YAML) > len(big) {
			big = []byte(s.YAML)
		}
	}
	b.SetBytes(int64(len(big)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := d.ApplyConfig(context.Background(), big, true, ""); err == nil {
			b.Fatal("the oversize file was accepted")
		}
	}
}
