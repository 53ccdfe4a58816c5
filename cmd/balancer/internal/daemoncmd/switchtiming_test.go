package daemoncmd

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/controlplane"
)

func TestSwitchTimingFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		want    controlplane.Timing
		wantErr []string
	}{
		{name: "defaults", want: controlplane.Timing{RPCTimeout: 10 * time.Second, ReadTimeout: time.Minute, PipelineTimeout: 2 * time.Minute,
			StallTimeout: 3 * time.Second, ProbeInterval: time.Second, KeepaliveTime: 15 * time.Second, KeepaliveTimeout: 5 * time.Second,
			ReconcileInterval: 5 * time.Minute}},
		{name: "typed values are kept", args: []string{"--switch-stall-timeout", "1500ms", "--switch-reconcile-interval", "30s"},
			want: controlplane.Timing{RPCTimeout: 10 * time.Second, ReadTimeout: time.Minute, PipelineTimeout: 2 * time.Minute,
				StallTimeout: 1500 * time.Millisecond, ProbeInterval: time.Second, KeepaliveTime: 15 * time.Second, KeepaliveTimeout: 5 * time.Second,
				ReconcileInterval: 30 * time.Second}},
		{name: "reconcile 0 is off", args: []string{"--switch-reconcile-interval", "0"},
			want: controlplane.Timing{RPCTimeout: 10 * time.Second, ReadTimeout: time.Minute, PipelineTimeout: 2 * time.Minute,
				StallTimeout: 3 * time.Second, ProbeInterval: time.Second, KeepaliveTime: 15 * time.Second, KeepaliveTimeout: 5 * time.Second,
				ReconcileInterval: controlplane.ReconcileOff}},
		{name: "zero timeout refused", args: []string{"--switch-rpc-timeout", "0"}, wantErr: []string{"--switch-rpc-timeout 0s: must be positive (default 10s)"}},
		{name: "every bad value named", args: []string{"--switch-keepalive-time", "2s", "--switch-stall-timeout", "-1s"},
			wantErr: []string{"--switch-keepalive-time: keepalive time 2s: must be between 10s", "--switch-stall-timeout -1s: must be positive"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := pflag.NewFlagSet("daemon", pflag.ContinueOnError)
			get := switchTimingFlags(f)
			require.NoError(t, f.Parse(tc.args))
			got, err := get()
			if len(tc.wantErr) > 0 {
				require.Error(t, err)
				for _, w := range tc.wantErr {
					assert.Contains(t, err.Error(), w)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.NoError(t, got.Validate())
		})
	}
}
