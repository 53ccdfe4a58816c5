package daemoncmd

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/etcdstore/etcdtest"
	"github.com/dpi-balancer/balancer/daemon/pipeline"
	"github.com/dpi-balancer/balancer/internal/testpki"
	"github.com/dpi-balancer/balancer/tables"
)

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
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "x", timeout: time.Second, ttl: 2 * time.Second, onQuorumLoss: "hold"}, false, "absolute key prefix"},
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: time.Second, name: "a", onQuorumLoss: "hold"}, false, "at least 2s"},
		{storeFlags{kind: "etcd", endpoints: "127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: 2 * time.Second, name: "a", onQuorumLoss: "stay"}, false, `--ha-on-quorum-loss "stay": want hold or step-down`},
		{storeFlags{kind: "etcd", endpoints: "http://127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: 2 * time.Second, name: "a", onQuorumLoss: "hold", tlsCA: "ca.crt"}, false, "is not https://: the --etcd-tls-* flags need https:// endpoints"},
		{storeFlags{kind: "etcd", endpoints: "https://127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: 2 * time.Second, name: "a", onQuorumLoss: "hold", tlsCert: "c.crt"}, false, "--etcd-tls-cert and --etcd-tls-key go together"},
		{storeFlags{kind: "etcd", endpoints: "https://127.0.0.1:1", prefix: "/x/", timeout: time.Second, ttl: 2 * time.Second, name: "a", onQuorumLoss: "hold", tlsCA: "/nonexistent/ca.crt"}, false, "--etcd-tls-ca: open /nonexistent/ca.crt"},
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
	f := storeFlags{kind: "etcd", endpoints: addr, prefix: "/balancer/t/sw1", name: "a", ttl: 2 * time.Second, timeout: 3 * time.Second, onQuorumLoss: "hold"}
	empty := daemon.Options{}
	_, err = f.setup(&empty, false, log)
	require.ErrorContains(t, err, "holds no running configuration and no --config was given")
	// The daemon seeds the store: rules past the flow tables are refused
	// before they reach it.
	big := daemon.Options{InitialConfig: "../../../../tables/testdata/too_many_rules.yaml"}
	hbig, err := f.setup(&big, false, log)
	require.NoError(t, err)
	defer hbig.cli.Close()
	_, err = daemon.New(big)
	require.ErrorContains(t, err, "entries for the IPv4 table exceed its 4096 capacity")
	_, _, err = big.SharedStore.Running()
	require.ErrorIs(t, err, os.ErrNotExist, "nothing reached the store")
	a := daemon.Options{InitialConfig: "../../../../examples/site.yaml"}
	ha, err := f.setup(&a, false, log)
	require.NoError(t, err)
	defer ha.cli.Close()
	require.NotNil(t, a.SharedStore)
	assert.True(t, a.FixedElection)
	assert.NotNil(t, a.HAStatus)
	_, err = daemon.New(a)
	require.NoError(t, err)
	_, rev, err := a.SharedStore.Running()
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev.Number)
	assert.Equal(t, "initial configuration from ../../../../examples/site.yaml", rev.Comment)
	f.name = "b"
	b := daemon.Options{InitialConfig: "../../../../examples/site.yaml"}
	hb, err := f.setup(&b, false, log)
	require.NoError(t, err)
	defer hb.cli.Close()
	_, err = daemon.New(b)
	require.NoError(t, err)
	h2, err := b.SharedStore.History()
	require.NoError(t, err)
	assert.Len(t, h2, 1, "the second daemon does not seed again")
}

// The pipeline is the running site's: a daemon whose state directory is
// empty takes the platform of the site etcd holds, so the Tofino site a
// first daemon seeded gets the Tofino pipeline from every daemon, and one
// without the Tofino build is refused instead of pushing the BMv2 one.
func TestEtcdSeededTofinoSitePicksTofinoPipeline(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	wedge := filepath.Join(t.TempDir(), "wedge.yaml")
	site, err := os.ReadFile("../../../../examples/site.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(wedge, bytes.Replace(site, []byte("platform: sim"), []byte("platform: wedge100bf-32x"), 1), 0o644))
	build := tnaBuild(t, tofinoSlots)
	addr := etcdtest.Start(t)
	f := storeFlags{kind: "etcd", endpoints: addr, prefix: "/balancer/t/sw1", name: "a", ttl: 2 * time.Second, timeout: 3 * time.Second, onQuorumLoss: "hold"}
	start := func(name, initial string, src pipeline.Source) (*daemon.Daemon, error) {
		f.name = name
		opts := daemon.Options{StateDir: filepath.Join(t.TempDir(), "state"), InitialConfig: initial, PipelineFrom: &src}
		h, err := f.setup(&opts, false, log)
		require.NoError(t, err)
		t.Cleanup(func() { h.cli.Close() })
		return daemon.New(opts)
	}

	first, err := start("a", wedge, pipeline.Source{DeviceConfig: build})
	require.NoError(t, err)
	assert.Equal(t, pipeline.FormatTofinoStratum, first.Pipeline().Format)

	second, err := start("b", "", pipeline.Source{DeviceConfig: build})
	require.NoError(t, err)
	assert.Equal(t, pipeline.FormatTofinoStratum, second.Pipeline().Format, "the platform of the site in etcd")
	assert.Equal(t, filepath.Join(build, "balancer.p4info.txtpb"), second.Pipeline().P4InfoFrom)
	assert.Equal(t, "tna", second.Pipeline().P4Info.GetPkgInfo().GetArch())

	// Given no Tofino build, it says so (it used to take the state
	// directory's missing site for the default platform and push BMv2's).
	_, err = start("c", "", pipeline.Source{})
	require.ErrorIs(t, err, pipeline.ErrPipeline)
	assert.Contains(t, err.Error(), `format tofino-stratum (platform "wedge100bf-32x") needs the Tofino build`)
	// The v1model build forced on it is refused: its tables are not the
	// Tofino ones the site was checked against.
	_, err = start("d", "", pipeline.Source{Format: pipeline.FormatBMv2})
	require.ErrorIs(t, err, tables.ErrPlatform)
}

// With an etcd that serves TLS and wants client certificates, the daemon
// connects with the CA and its certificate; without them, with another
// CA or without a client certificate it fails saying which flag to fix.
func TestStoreFlagsEtcdTLS(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	pki := testpki.New(t)
	url := etcdtest.StartTLS(t, pki.ServerCert, pki.ServerKey, pki.CA)
	base := storeFlags{kind: "etcd", endpoints: url, prefix: "/balancer/t/sw1", name: "a", ttl: 2 * time.Second,
		timeout: time.Second, onQuorumLoss: "hold"}
	for _, c := range []struct {
		name string
		edit func(*storeFlags)
		want string
	}{
		{"no TLS flags", func(f *storeFlags) {}, "its certificate is not trusted"},
		{"another CA", func(f *storeFlags) { f.tlsCA, f.tlsCert, f.tlsKey = pki.OtherCA, pki.ClientCert, pki.ClientKey }, "give --etcd-tls-ca the CA that signed the etcd members' certificates"},
		{"no client certificate", func(f *storeFlags) { f.tlsCA = pki.CA }, "refused this daemon's client certificate"},
		{"another CA's client certificate", func(f *storeFlags) { f.tlsCA, f.tlsCert, f.tlsKey = pki.CA, pki.OtherCert, pki.OtherKey }, "give --etcd-tls-cert/--etcd-tls-key a certificate signed by the CA the members trust"},
		{"http:// endpoint", func(f *storeFlags) { f.endpoints = "http://" + strings.TrimPrefix(url, "https://") }, "serves TLS: give https:// endpoints"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := base
			c.edit(&f)
			opts := daemon.Options{InitialConfig: "../../../../examples/site.yaml"}
			h, err := f.setup(&opts, false, log)
			if h != nil {
				h.cli.Close()
			}
			require.Error(t, err)
			t.Log(err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	f := base
	f.tlsCA, f.tlsCert, f.tlsKey = pki.CA, pki.ClientCert, pki.ClientKey
	opts := daemon.Options{InitialConfig: "../../../../examples/site.yaml"}
	h, err := f.setup(&opts, false, log)
	require.NoError(t, err)
	defer h.cli.Close()
	_, err = daemon.New(opts)
	require.NoError(t, err)
	_, rev, err := opts.SharedStore.Running()
	require.NoError(t, err)
	assert.Equal(t, uint64(1), rev.Number, "seeded over TLS")
}
