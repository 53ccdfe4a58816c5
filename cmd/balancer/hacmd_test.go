package main

import (
	"bytes"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/etcdstore/etcdtest"
)

func TestWriteHA(t *testing.T) {
	var b bytes.Buffer
	writeHA(&b, nil)
	assert.Empty(t, b.String(), "nothing with the state directory")
	writeHA(&b, &apiv1.HAStatus{Store: "etcd /b/sw1/", StoreHealthy: true, Name: "ctl-a", Leader: true,
		LeaderName: "ctl-a", Standbys: []string{"ctl-b", "ctl-c"}})
	assert.Equal(t, "store etcd /b/sw1/: healthy\n  this daemon (ctl-a): leader; leader ctl-a; standbys ctl-b, ctl-c\n", b.String())
	b.Reset()
	writeHA(&b, &apiv1.HAStatus{Store: "etcd /b/sw1/", StoreError: "context deadline exceeded", Name: "ctl-b"})
	assert.Equal(t, "store etcd /b/sw1/: UNREACHABLE: context deadline exceeded\n  this daemon (ctl-b): standby (not writing)\n", b.String())
}

func TestStoreFlagsSetup(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	var opts daemon.Options
	for _, c := range []struct {
		f        storeFlags
		election bool
		want     string
	}{
		{storeFlags{kind: "disk"}, false, `--store "disk": want dir or etcd`},
		{storeFlags{kind: "dir", prefix: "/x/"}, false, "need --store etcd"},
		{storeFlags{kind: "etcd", prefix: "/x/"}, false, "needs --etcd-endpoints and --etcd-prefix"},
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "/x/", timeout: time.Second}, true, "--election-id cannot be given with --store etcd"},
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "x", timeout: time.Second, ttl: 2 * time.Second}, false, "absolute key prefix"},
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: time.Second, name: "a"}, false, "at least 2s"},
	} {
		_, err := c.f.setup(&opts, c.election, log)
		require.Error(t, err, "%+v", c.f)
		assert.Contains(t, err.Error(), c.want)
	}
	h, err := (&storeFlags{kind: "dir"}).setup(&opts, true, log)
	require.NoError(t, err)
	assert.Nil(t, h, "the state directory needs nothing more")
	assert.Nil(t, opts.SharedStore)

	// The first daemon seeds the store from --config; the next finds it.
	addr := etcdtest.Start(t)
	f := storeFlags{kind: "etcd", endpoints: addr, prefix: "/balancer/t/sw1", name: "a", ttl: 2 * time.Second, timeout: 3 * time.Second}
	empty := daemon.Options{}
	_, err = f.setup(&empty, false, log)
	require.ErrorContains(t, err, "holds no running configuration and no --config was given")
	a := daemon.Options{InitialConfig: "../../examples/site.yaml"}
	ha, err := f.setup(&a, false, log)
	require.NoError(t, err)
	defer ha.cli.Close()
	require.NotNil(t, a.SharedStore)
	assert.True(t, a.FixedElection)
	assert.NotNil(t, a.HAStatus)
	_, rev, err := a.SharedStore.Running()
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev.Number)
	assert.Equal(t, "initial configuration from ../../examples/site.yaml", rev.Comment)
	f.name = "b"
	b := daemon.Options{InitialConfig: "../../examples/site.yaml"}
	hb, err := f.setup(&b, false, log)
	require.NoError(t, err)
	defer hb.cli.Close()
	h2, err := b.SharedStore.History()
	require.NoError(t, err)
	assert.Len(t, h2, 1, "the second daemon does not seed again")
}
