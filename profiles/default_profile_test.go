package profiles

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

// A filter group in no balance group runs the site's "default" profile,
// the operator's when the file changes it, the built-in one otherwise.
func TestStandaloneFilterGroupRunsSiteDefaultProfile(t *testing.T) {
	const base = `
platform: sim
ports:
  - {port: 1, speed: 100G}
  - {port: 2, speed: 100G}
  - {port: 3, speed: 100G}
  - {port: 4, speed: 100G}
links:
  - {name: L1, lan: P2, wan: P1}
filter_groups:
  - {name: F1, lan: P4, wan: P3}
`
	for _, tt := range []struct {
		name, profiles string
		// probes sent in the first 300ms (nothing answers them): the
		// profile's keep-alives (LAN to WAN; once the group is down the
		// WAN-side keep-alive that clears the pipeline's evidence,
		// evidenceKeepAlive, goes too, not counted here)
		wantSent int
		// down after 300ms: losses past the profile's threshold
		wantDown bool
	}{
		// built-in: 1s initial delay, nothing sent yet.
		{"built-in default", "", 0, false},
		// the operator's: a probe every 20ms from 20ms (15 in 300ms), down after 2 losses.
		{"operator's default", "profiles:\n  - {name: default, initial_delay: 20ms, interval: 20ms, loss_threshold: 2, recovery_threshold: 2}\n", 15, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := config.Parse([]byte(base + tt.profiles))
			require.NoError(t, err)
			sent := 0
			e, err := New(cfg, func(_ uint32, f []byte) error {
				if k, err := wire.DecodeKeepAlive(f, cfg.Defaults.KeepAlive.EtherType); err == nil && k.Direction == wire.LANToWAN {
					sent++
				}
				return nil
			}, Options{})
			require.NoError(t, err)
			now := time.Unix(1000, 0)
			e.Start(now)
			for end := now.Add(300 * time.Millisecond); now.Before(end); {
				now = now.Add(10 * time.Millisecond)
				e.Tick(now)
			}
			assert.Equal(t, tt.wantSent, sent)
			st := e.Status()
			require.Len(t, st, 1)
			assert.Equal(t, tt.wantDown, st[0].State == StateDown, "state %v", st[0].State)
		})
	}
}
