package config_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
)

// TestValidateSentinels checks that problems wrap the sentinels callers
// test for with errors.Is, and are *FieldError values for errors.As.
func TestValidateSentinels(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want error
		path string
	}{
		{"unknown port", "ports: [{port: 9, speed: 100G}]\nlinks: [{name: L1, lan: P10, wan: P9}]", config.ErrUnknownPort, "links[0].lan"},
		{"ambiguous", "ports: [{port: 1, speed: 10G, breakout: 4}, {port: 11, speed: 100G}, {port: 12, speed: 100G}]\nlinks: [{name: L1, lan: '12/0', wan: P11}]", config.ErrAmbiguousPort, "links[0].wan"},
		{"lane on unbroken", "ports: [{port: 9, speed: 100G}]\nlinks: [{name: L1, lan: '9/2', wan: P9}]", config.ErrNoLane, "links[0].lan"},
		{"lane beyond breakout", "ports: [{port: 4, speed: 10G, breakout: 4}]\nlinks: [{name: L1, lan: P42, wan: P45}]", config.ErrLaneRange, "links[0].wan"},
		{"parity", "ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]\nlinks: [{name: L1, lan: P9, wan: P10}]", config.ErrParity, "links[0].lan"},
		{"port in use", "ports: [{port: 9, speed: 100G}, {port: 10, speed: 100G}]\nlinks: [{name: L1, lan: P10, wan: P9}, {name: L2, lan: P10, wan: P9}]", config.ErrPortInUse, "links[1].lan"},
		{"duplicate port", "ports: [{port: 9, speed: 100G}, {port: 9, speed: 100G}]", config.ErrDuplicate, "ports[1].port"},
		{"bad action", "rules: [{name: r, priority: 1, action: drop}]", config.ErrBadAction, "rules[0].action"},
		{"unknown group", "rules: [{name: r, priority: 1, action: balance g}]", config.ErrUnknownName, "rules[0].action"},
		{"platform", "platform: x", config.ErrUnknownPlatform, "platform"},
		{"slot bits out of range", "defaults: {slot_bits: 17}", config.ErrOutOfRange, "defaults.slot_bits"},
		{"slots below cores", "ports: [{port: 1, speed: 100G}, {port: 2, speed: 100G}]\nfilter_groups: [{name: F1, lan: P2, wan: P1, cores: 9}]\nbalance_groups: [{name: g, members: [F1], slot_bits: 3}]", config.ErrCapacity, "balance_groups[0].slot_bits"},
		{"empty balance group", "balance_groups: [{name: g, members: []}]", config.ErrEmpty, "balance_groups[0].members"},
		{"too many", "links: [" + strings.Repeat("{},", 65) + "]", config.ErrTooMany, "links"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse([]byte(tt.yaml))
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			var fe *config.FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.path, fe.Path)
			assert.ErrorIs(t, fe, tt.want)
		})
	}
}

// TestValidateUnsetValues covers values YAML cannot express (zero is "unset"
// and takes the default) but a program building a Config can.
func TestValidateUnsetValues(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *config.Config)
		want   []string
	}{
		{
			name:   "zero cores",
			mutate: func(c *config.Config) { c.FilterGroups[0].Cores = 0; c.Defaults.Cores = 0 },
			want: []string{
				"defaults.cores: 0 is out of range 1..1024 cores",
				"filter_groups[0].cores: 0 is out of range 1..1024 cores",
			},
		},
		{
			name: "profile zero interval and thresholds",
			mutate: func(c *config.Config) {
				p := c.ProfileByName("default")
				p.Interval, p.LossThreshold, p.RecoveryThreshold = 0, 0, 0
			},
			want: []string{
				"profiles[0].interval: 0s is out of range 10ms..60s (the keep-alive interval)",
				"profiles[0].loss_threshold: 0 is out of range 1..1000 keep-alives",
				"profiles[0].recovery_threshold: 0 is out of range 1..1000 keep-alives",
			},
		},
		{
			name:   "zero slot bits",
			mutate: func(c *config.Config) { c.BalanceGroups[0].SlotBits = 0 },
			want:   []string{"balance_groups[0].slot_bits: 0 is out of range 1..16 bits"},
		},
		{
			name:   "nil ids",
			mutate: func(c *config.Config) { c.Links[0].ID, c.FilterGroups[2].ID, c.BalanceGroups[0].ID = nil, nil, nil },
			want: []string{
				"links[0].id: missing",
				"filter_groups[2].id: missing",
				"balance_groups[0].id: missing",
			},
		},
		{
			name:   "range lo > hi in an l4 port",
			mutate: func(c *config.Config) { c.Rules[0].Match.L4Port = &config.Range{Lo: 200, Hi: 100} },
			want:   []string{"rules[0].match.l4_port: range 200-100 has lo > hi"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := config.Load("../examples/site.yaml")
			require.NoError(t, err)
			tt.mutate(c)
			assert.Equal(t, tt.want, messages(c.Validate()))
		})
	}
}

// TestTooManyObjects builds configurations past the data plane's limits.
func TestTooManyObjects(t *testing.T) {
	// 32 ports broken out give 64 LAN/WAN lane pairs.
	allLanes := func() []config.Port {
		ps := make([]config.Port, 32)
		for i := range ps {
			ps[i] = config.Port{Port: uint32(i + 1), Speed: "10G", Breakout: 4}
		}
		return ps
	}
	pair := func(i int) (lan, wan string) {
		p := i/2 + 1
		if i%2 == 0 {
			return fmt.Sprintf("%d/2", p), fmt.Sprintf("%d/1", p)
		}
		return fmt.Sprintf("%d/4", p), fmt.Sprintf("%d/3", p)
	}

	t.Run("65 links", func(t *testing.T) {
		c := &config.Config{Ports: allLanes()}
		for i := range 65 {
			lan, wan := pair(i % 64)
			c.Links = append(c.Links, config.Link{Name: fmt.Sprintf("L%d", i), LAN: lan, WAN: wan})
		}
		c.ApplyDefaults()
		assert.Equal(t, []string{
			"links: 65 links exceed the maximum of 64",
			"links[64].id: 64 is out of range 0..63",
			"links[64].lan: P12 is already used by links[0].lan",
			"links[64].wan: P11 is already used by links[0].wan",
		}, messages(c.Validate()))
	})

	t.Run("65 filter groups", func(t *testing.T) {
		c := &config.Config{Ports: allLanes()}
		for i := range 65 {
			lan, wan := pair(i % 64)
			c.FilterGroups = append(c.FilterGroups, config.FilterGroup{Name: fmt.Sprintf("F%d", i), LAN: lan, WAN: wan})
		}
		c.ApplyDefaults()
		assert.Equal(t, []string{
			"filter_groups: 65 filter groups exceed the maximum of 64",
			"filter_groups[64].id: 64 is out of range 0..63",
			"filter_groups[64].lan: P12 is already used by filter_groups[0].lan",
			"filter_groups[64].wan: P11 is already used by filter_groups[0].wan",
		}, messages(c.Validate()))
	})

	t.Run("17 balance groups", func(t *testing.T) {
		c := &config.Config{Ports: allLanes()}
		for i := range 17 {
			lan, wan := pair(i)
			f := fmt.Sprintf("F%d", i)
			c.FilterGroups = append(c.FilterGroups, config.FilterGroup{Name: f, LAN: lan, WAN: wan})
			c.BalanceGroups = append(c.BalanceGroups, config.BalanceGroup{Name: fmt.Sprintf("g%d", i), Members: []string{f}, SlotBits: 1})
		}
		c.ApplyDefaults()
		assert.Equal(t, []string{
			"balance_groups: 17 balance groups exceed the maximum of 16",
			"balance_groups[16].id: 16 is out of range 0..15",
		}, messages(c.Validate()))
	})

	t.Run("64 links fit", func(t *testing.T) {
		c := &config.Config{Ports: allLanes()}
		for i := range 64 {
			lan, wan := pair(i)
			c.Links = append(c.Links, config.Link{Name: fmt.Sprintf("L%d", i), LAN: lan, WAN: wan})
		}
		c.ApplyDefaults()
		assert.NoError(t, c.Validate())
	})
}

func TestFieldErrorUnwrap(t *testing.T) {
	inner := fmt.Errorf("wrapped: %w", config.ErrParity)
	fe := &config.FieldError{Path: "links[0].lan", Err: inner}
	assert.Equal(t, "links[0].lan: wrapped: port parity", fe.Error())
	assert.ErrorIs(t, fe, config.ErrParity)
	assert.Equal(t, "no path", (&config.FieldError{Err: errors.New("no path")}).Error())

	joined := errors.Join(fe, fmt.Errorf("file.yaml: %w", &config.FieldError{Path: "x", Err: config.ErrEmpty}))
	fes := config.FieldErrors(joined)
	require.Len(t, fes, 2)
	assert.Equal(t, "links[0].lan", fes[0].Path)
	assert.Equal(t, "x", fes[1].Path)
	assert.Nil(t, config.FieldErrors(nil))
}

func TestProfileStallGuard(t *testing.T) {
	base := "profiles:\n  - {name: default, %s}\n"
	for _, tt := range []struct {
		field, want string
	}{
		{"stall_guard: sometimes", `profiles[0].stall_guard: "sometimes" is not one of hold, off`},
		{"stall_hold: 2m", "profiles[0].stall_hold: 2m0s is out of range"},
		{"stall_hold: 1ms", "profiles[0].stall_hold: 1ms is out of range"},
		{"stall_hold: 0s", "stall_hold"},
	} {
		t.Run(tt.field, func(t *testing.T) {
			_, err := config.Parse([]byte(fmt.Sprintf(base, tt.field)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := config.Parse([]byte(fmt.Sprintf(base, "stall_guard: off, stall_hold: 250ms")))
	require.NoError(t, err)
	assert.Equal(t, config.StallGuardOff, c.Profiles[0].StallGuard)
	assert.Equal(t, config.Duration(250*time.Millisecond), c.Profiles[0].StallHold)
}

func TestProfileFailback(t *testing.T) {
	base := "profiles:\n  - {name: default}\n  - {name: slow-return, %s}\n"
	for _, tt := range []struct {
		field, want string
	}{
		{"failback: sometimes", `profiles[1].failback: "sometimes" is not one of auto, manual (profile "slow-return")`},
		{"min_up_time: 2h", `profiles[1].min_up_time: 2h0m0s is out of range 0s..60m (profile "slow-return"`},
		{"min_up_time: -1s", `profiles[1].min_up_time: -1s is out of range 0s..60m (profile "slow-return"`},
	} {
		t.Run(tt.field, func(t *testing.T) {
			_, err := config.Parse([]byte(fmt.Sprintf(base, tt.field)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := config.Parse([]byte(fmt.Sprintf(base, "failback: manual, min_up_time: 30s")))
	require.NoError(t, err)
	assert.Equal(t, config.FailbackManual, c.Profiles[1].Failback)
	assert.Equal(t, config.Duration(30*time.Second), c.Profiles[1].MinUpTime)
	// The defaults: auto, 0 (today's recovery rules); an explicit 0 is
	// the operator's and kept.
	assert.Equal(t, config.FailbackAuto, c.Profiles[0].Failback)
	assert.Zero(t, c.Profiles[0].MinUpTime)
	c, err = config.Parse([]byte(fmt.Sprintf(base, "min_up_time: 0s")))
	require.NoError(t, err)
	assert.Zero(t, c.Profiles[1].MinUpTime)
	assert.Equal(t, config.FailbackAuto, c.Profiles[1].Failback)
}

func TestProfileHealthLimits(t *testing.T) {
	base := "profiles:\n  - {name: default}\n  - {name: health, interval: 40ms, %s}\n"
	for _, tt := range []struct {
		field, want string
	}{
		{"max_rtt: 40ms", `profiles[1].max_rtt: 40ms is not under the interval 40ms (profile "health"`},
		{"max_rtt: 100ns", `profiles[1].max_rtt: 100ns is out of range: 0s (no limit) or 1µs up to under the interval 40ms (profile "health")`},
		{"max_rtt: -1ms", `profiles[1].max_rtt: -1ms is out of range`},
		{"max_rtt: 10ms, rtt_rounds: 1001", `profiles[1].rtt_rounds: 1001 is out of range 1..1000 rounds (profile "health"`},
		{"max_loss: 100", `profiles[1].max_loss: 100 is out of range: 0 (no limit) or more than 0 and under 100 percent (profile "health")`},
		{"max_loss: -5", `profiles[1].max_loss: -5 is out of range`},
		{"max_loss: 20, loss_window: 5", `profiles[1].loss_window: 5 is out of range 10..10000 rounds (profile "health"`},
		{"max_loss: 20, loss_window: 10001", `profiles[1].loss_window: 10001 is out of range 10..10000 rounds`},
	} {
		t.Run(tt.field, func(t *testing.T) {
			_, err := config.Parse([]byte(fmt.Sprintf(base, tt.field)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := config.Parse([]byte(fmt.Sprintf(base, "max_rtt: 10ms, max_loss: 20")))
	require.NoError(t, err)
	p := c.Profiles[1]
	assert.Equal(t, config.Duration(10*time.Millisecond), p.MaxRTT)
	assert.Equal(t, uint32(config.DefaultRTTRounds), p.RTTRounds)
	assert.Equal(t, 20.0, p.MaxLoss)
	assert.Equal(t, uint32(config.DefaultLossWindow), p.LossWindow)
	// Off by default: no limit, and no count written.
	assert.Zero(t, c.Profiles[0].MaxRTT)
	assert.Zero(t, c.Profiles[0].RTTRounds)
	assert.Zero(t, c.Profiles[0].MaxLoss)
	assert.Zero(t, c.Profiles[0].LossWindow)
	c, err = config.Parse([]byte(fmt.Sprintf(base, "max_rtt: 5ms, rtt_rounds: 7, max_loss: 2.5, loss_window: 400")))
	require.NoError(t, err)
	assert.Equal(t, uint32(7), c.Profiles[1].RTTRounds)
	assert.Equal(t, 2.5, c.Profiles[1].MaxLoss)
	assert.Equal(t, uint32(400), c.Profiles[1].LossWindow)
}

func TestProfileFailOpenProbe(t *testing.T) {
	base := "profiles:\n  - {name: default}\n  - {name: dpi, interval: 40ms, %s}\n"
	for _, tt := range []struct {
		field, want string
	}{
		{`probe_payload: "X5O!", probe_payload_hex: "58"`, `profiles[1].probe_payload_hex: probe_payload and probe_payload_hex are both set (profile "dpi")`},
		{`probe_payload_hex: "5g"`, `profiles[1].probe_payload_hex: "5g" is not hex bytes (profile "dpi")`},
		{`probe_payload: "` + strings.Repeat("a", config.MaxProbePayload+1) + `"`, `profiles[1].probe_payload: 1025 bytes is over the 1024 bytes a fail-open probe carries (profile "dpi")`},
		{`probe_payload: "x", probe_every: 1001`, `profiles[1].probe_every: 1001 is out of range 1..1000 keep-alive intervals (profile "dpi"`},
		{`probe_every: 5`, `profiles[1].probe_every: 5 is set but the profile "dpi" has no probe payload`},
		{`fail_open_action: drop`, `profiles[1].fail_open_action: drop is set but the profile "dpi" has no probe payload`},
		{`probe_payload: "x", fail_open_action: pass`, `profiles[1].fail_open_action: "pass" is not one of alarm, bypass, drop, rebalance, spare (profile "dpi")`},
	} {
		t.Run(tt.field[:min(len(tt.field), 40)], func(t *testing.T) {
			_, err := config.Parse([]byte(fmt.Sprintf(base, tt.field)))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	c, err := config.Parse([]byte(fmt.Sprintf(base, `probe_payload_hex: "58:35 4f21"`)))
	require.NoError(t, err)
	p := c.Profiles[1]
	b, err := p.ProbeBytes()
	require.NoError(t, err)
	assert.Equal(t, []byte("X5O!"), b)
	assert.Equal(t, uint32(config.DefaultProbeEvery), p.ProbeEvery)
	assert.Equal(t, config.FailOpenAlarm, p.FailOpenAction)
	// Off by default: no probe, nothing written.
	assert.False(t, c.Profiles[0].Probes())
	assert.Zero(t, c.Profiles[0].ProbeEvery)
	assert.Empty(t, c.Profiles[0].FailOpenAction)
	c, err = config.Parse([]byte(fmt.Sprintf(base, `probe_payload: "block-me", probe_every: 3, fail_open_action: bypass`)))
	require.NoError(t, err)
	assert.Equal(t, uint32(3), c.Profiles[1].ProbeEvery)
	assert.Equal(t, config.FailOpenBypass, c.Profiles[1].FailOpenAction)
}
