package controlplane

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/tables"
)

type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pool *x509.CertPool
}

func newCA(t *testing.T) *testCA {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return &testCA{cert: cert, key: key, pool: pool}
}

func (ca *testCA) issue(t *testing.T, cn string, server bool) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.IPAddresses = []net.IP{net.ParseIP("127.0.0.1")}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// The session speaks mutual TLS to a switch that requires it; without a
// client certificate it is refused and keeps retrying.
func TestMutualTLS(t *testing.T) {
	ca := newCA(t)
	sw, err := sim.New(sim.Options{Ports: map[uint32]sim.Port{}})
	require.NoError(t, err)
	g := grpc.NewServer(grpc.Creds(credentials.NewTLS(&tls.Config{Certificates: []tls.Certificate{ca.issue(t, "switch", true)},
		ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: ca.pool, MinVersion: tls.VersionTLS12})))
	sw.Register(g)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go g.Serve(lis)
	t.Cleanup(g.Stop)
	comp := compiler(t)
	schema, _ := p4src.Load()
	des, err := comp.Compile(bigSiteSmall(t), tables.State{})
	require.NoError(t, err)

	run := func(cfg *tls.Config) *Session {
		s := New(Options{Addr: lis.Addr().String(), DeviceID: 1, Program: comp, Guard: tables.NewWriteGuard(comp, tables.GuardOptions{}), TLS: cfg, MinBackoff: 20 * time.Millisecond,
			Pipeline: Pipeline{P4Info: schema.Info, DeviceConfig: p4src.BMv2JSON}})
		s.SetDesired(des.Entities)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { s.Run(ctx); close(done) }()
		t.Cleanup(func() { cancel(); <-done })
		return s
	}
	anon := run(&tls.Config{RootCAs: ca.pool, MinVersion: tls.VersionTLS12})
	require.Eventually(t, func() bool { return anon.Status().LastError != "" }, 10*time.Second, 10*time.Millisecond)
	assert.False(t, anon.Status().Primary, "no client certificate: refused")

	s := run(&tls.Config{RootCAs: ca.pool, Certificates: []tls.Certificate{ca.issue(t, "controller", false)}, MinVersion: tls.VersionTLS12})
	waitPrimary(t, s)
	assert.Equal(t, uint64(len(des.Entities)), s.Stats().Updates)
}

func bigSiteSmall(t *testing.T) *config.Config {
	cfg, err := config.Load("../examples/site.yaml")
	require.NoError(t, err)
	return cfg
}
