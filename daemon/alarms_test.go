package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
)

// alarmNamed is the raised alarm name of st, if any.
func alarmNamed(st *Status, name string) (Alarm, bool) {
	i := slices.IndexFunc(st.Alarms, func(a Alarm) bool { return a.Name == name })
	if i < 0 {
		return Alarm{}, false
	}
	return st.Alarms[i], true
}

// A runtime state that cannot be saved (a full disk) raises
// runtime-save-failed, naming the error and the state directory; the next
// save that succeeds clears it, with an alarm event each way.
func TestAlarmRuntimeSaveFailed(t *testing.T) {
	dir := t.TempDir()
	d, err := New(Options{StateDir: dir, InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()
	st, err := d.Status(ctx)
	require.NoError(t, err)
	require.Empty(t, st.Alarms, "a fresh state directory raises nothing")

	s := d.store.(*Store)
	healthy := s.write
	s.write = (&disk{left: 0}).write
	d.saveRuntime()
	st, err = d.Status(ctx)
	require.NoError(t, err)
	a, ok := alarmNamed(st, AlarmRuntimeSaveFailed)
	require.True(t, ok, "%+v", st.Alarms)
	assert.Equal(t, "runtime state", a.Object)
	assert.Contains(t, a.Message, "no space left on device")
	assert.Contains(t, a.Remedy, "make the state directory "+dir+" writable again")
	assert.False(t, a.Acknowledge)
	assert.False(t, a.Since.IsZero())
	assert.EqualValues(t, 1, d.RuntimeSaveErrors())

	// A second failure keeps the one alarm, raised at the first.
	d.saveRuntime()
	st, _ = d.Status(ctx)
	again, _ := alarmNamed(st, AlarmRuntimeSaveFailed)
	assert.Equal(t, a.Since, again.Since)
	assert.Len(t, st.Alarms, 1)

	s.write = healthy
	d.saveRuntime()
	st, err = d.Status(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Alarms, "cleared by the save that succeeded")
	var kinds []string
	require.NoError(t, d.Monitor(ctx, 100, "runtime state", false, func(e Event) error {
		kinds = append(kinds, e.Kind+" "+e.To)
		return nil
	}))
	assert.Equal(t, []string{"alarm raised", "alarm cleared"}, kinds)
}

// A shared store that does not answer is the store-unreachable alarm,
// naming the store and its error; it clears itself and cannot be
// acknowledged. Unknown and not raised names are refused naming them.
func TestAlarmStoreUnreachableAndAck(t *testing.T) {
	healthy := false
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1",
		HAStatus: func(context.Context) *HAStatus {
			return &HAStatus{Store: "etcd /balancer/site/sw1/", StoreHealthy: healthy, StoreError: "context deadline exceeded"}
		}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()
	st, err := d.Status(ctx)
	require.NoError(t, err)
	a, ok := alarmNamed(st, AlarmStoreUnreachable)
	require.True(t, ok, "%+v", st.Alarms)
	assert.Equal(t, "etcd /balancer/site/sw1/", a.Object)
	assert.Equal(t, "the store does not answer: context deadline exceeded", a.Message)
	assert.Contains(t, a.Remedy, "this clears when it does")

	_, err = d.AckAlarm(ctx, AlarmStoreUnreachable)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, "alarm store-unreachable clears itself when the store answers; it cannot be acknowledged")
	_, err = d.AckAlarm(ctx, "disk-full")
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, `alarm "disk-full": no such alarm`)
	_, err = d.AckAlarm(ctx, AlarmStateRepaired)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, "alarm state-repaired is not raised (none is raised)")

	healthy = true
	st, err = d.Status(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Alarms)
}

// A daemon started on a state directory whose files were removed (a
// revision in the middle of history, and the layouts file) raises one
// state-repaired alarm naming the directory and each repair; it stays
// after a save (which writes the layouts again) until acknowledged.
func TestAlarmStateRepaired(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no switch session runs: programming gives up at once
	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	edit := func(i int) []byte {
		return []byte(strings.Replace(string(base), "site: fast", fmt.Sprintf("site: fast%d", i), 1))
	}
	d, err := New(Options{StateDir: dir, InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	for i := range 2 {
		_, err := d.ApplyConfig(ctx, edit(i), false, "")
		require.NoError(t, err)
	}
	require.NoError(t, d.Close())
	for _, f := range []string{"revisions/00000002.yaml", "revisions/00000002.json", "layouts.json"} {
		require.NoError(t, os.Remove(filepath.Join(dir, f)))
	}

	d, err = New(Options{StateDir: dir, SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	a, ok := alarmNamed(st, AlarmStateRepaired)
	require.True(t, ok, "%+v", st.Alarms)
	assert.Equal(t, "state directory "+dir, a.Object)
	assert.Contains(t, a.Message, "layouts.json is missing: the slot layouts are dealt again from revision 3's configuration")
	assert.Contains(t, a.Message, "revision 2 is missing from history (its files were removed)")
	assert.True(t, a.Acknowledge)

	_, err = d.ApplyConfig(ctx, edit(9), false, "")
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(dir, "layouts.json"))
	st, _ = d.Status(context.Background())
	_, ok = alarmNamed(st, AlarmStateRepaired)
	assert.True(t, ok, "a save does not clear it")

	got, err := d.AckAlarm(context.Background(), AlarmStateRepaired)
	require.NoError(t, err)
	assert.Equal(t, a.Message, got.Message)
	st, _ = d.Status(context.Background())
	assert.Empty(t, st.Alarms)
}

// A task of the daemon that ends with an error is the daemon-task-ended
// alarm, naming each task and its error; it cannot be acknowledged.
func TestAlarmTaskEnded(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	d.taskEnded("port status", errors.New("boom"))
	d.taskEnded("telemetry", errors.New("bang"))
	st, err := d.Status(context.Background())
	require.NoError(t, err)
	a, ok := alarmNamed(st, AlarmTaskEnded)
	require.True(t, ok, "%+v", st.Alarms)
	assert.Equal(t, "a task of the daemon ended, what it does is no longer done: port status: boom; telemetry: bang", a.Message)
	assert.Contains(t, a.Remedy, "restart the daemon")
	_, err = d.AckAlarm(context.Background(), AlarmTaskEnded)
	assert.ErrorIs(t, err, ErrInvalid)
}

// A data-plane verdict for a filter group id the running configuration
// does not have raises verdict-unknown-filter-group naming the id; a
// verdict of a known group does not; the next configuration applied
// clears it.
func TestAlarmVerdictUnknownFilterGroup(t *testing.T) {
	d, err := New(Options{StateDir: t.TempDir(), InitialConfig: "testdata/fast.yaml", SwitchAddr: "127.0.0.1:1"})
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	ctx := context.Background()
	d.onVerdict(p4src.VerdictDigest{FilterGroup: 1})
	st, err := d.Status(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Alarms, "a verdict of a known filter group id is no alarm")

	d.onVerdict(p4src.VerdictDigest{FilterGroup: 77})
	st, err = d.Status(ctx)
	require.NoError(t, err)
	a, ok := alarmNamed(st, AlarmVerdictUnknown)
	require.True(t, ok, "%+v", st.Alarms)
	assert.Equal(t, "data-plane verdicts", a.Object)
	assert.Contains(t, a.Message, "unknown filter group id 77")
	assert.True(t, a.Acknowledge)

	base, err := os.ReadFile("testdata/fast.yaml")
	require.NoError(t, err)
	cctx, cancel := context.WithCancel(ctx)
	cancel() // no switch session runs: programming gives up at once
	_, err = d.ApplyConfig(cctx, []byte(strings.Replace(string(base), "site: fast", "site: fast2", 1)), false, "")
	require.NoError(t, err)
	st, err = d.Status(ctx)
	require.NoError(t, err)
	assert.Empty(t, st.Alarms, "cleared by the configuration applied")
}
