package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/internal/testpki"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

// TestSimMutualTLS runs the software switch with mutual TLS on P4Runtime
// and gNMI and the daemon with its client certificate (--switch-tls-*):
// the daemon connects, becomes primary and watches the ports; a client
// without a certificate, or with one of another CA, is refused on both.
func TestSimMutualTLS(t *testing.T) {
	dir := t.TempDir()
	pki := testpki.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var simErr bytes.Buffer
	var simMu sync.Mutex
	start := func(errb io.Writer, args ...string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out bytes.Buffer
			if code := run(ctx, args, strings.NewReader(""), &out, errb); code != exitOK && ctx.Err() == nil {
				t.Errorf("balancer %s exited %d", strings.Join(args, " "), code)
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt, gnmi, control := freeAddr(t), freeAddr(t), freeAddr(t)
	socket := filepath.Join(dir, "b.sock")
	start(&lockedWriter{w: &simErr, mu: &simMu}, "sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", gnmi, "--log-level", "warn",
		"--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-ca", pki.CA, "--control", control)
	var daemonErr bytes.Buffer
	start(&lockedWriter{w: &daemonErr, mu: &simMu}, "daemon", "--config", "../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"), "--socket", socket,
		"--switch", p4rt, "--switch-gnmi", gnmi, "--telemetry", "", "--metrics", "", "--log-level", "warn",
		"--switch-tls-ca", pki.CA, "--switch-tls-cert", pki.ClientCert, "--switch-tls-key", pki.ClientKey)
	require.Eventually(t, func() bool {
		r := runCLI(t, "", "--socket", socket, "status")
		return r.code == exitOK && strings.Contains(r.stdout, "connected, primary") && strings.Contains(r.stdout, "port status watched")
	}, 30*time.Second, 50*time.Millisecond, "the daemon never became primary over mutual TLS")

	dial := func(cfg *tls.Config) *grpc.ClientConn {
		creds := insecure.NewCredentials()
		if cfg != nil {
			creds = credentials.NewTLS(cfg)
		}
		cc, err := grpc.NewClient(p4rt, grpc.WithTransportCredentials(creds))
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	dialG := func(cfg *tls.Config) *grpc.ClientConn {
		cc, err := grpc.NewClient(gnmi, grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
		require.NoError(t, err)
		t.Cleanup(func() { cc.Close() })
		return cc
	}
	roots, err := tlsfiles.Pool(pki.CA)
	require.NoError(t, err)
	mine, err := tls.LoadX509KeyPair(pki.ClientCert, pki.ClientKey)
	require.NoError(t, err)
	other, err := tls.LoadX509KeyPair(pki.OtherCert, pki.OtherKey)
	require.NoError(t, err)
	try := func(cc *grpc.ClientConn) error {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := p4v1.NewP4RuntimeClient(cc).Capabilities(c, &p4v1.CapabilitiesRequest{})
		return err
	}
	tryG := func(cc *grpc.ClientConn) error {
		c, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := gpb.NewGNMIClient(cc).Capabilities(c, &gpb.CapabilityRequest{})
		return err
	}
	require.NoError(t, try(dial(tlsfiles.Client([]tls.Certificate{mine}, roots))), "a client with the CA's certificate is served")
	require.NoError(t, tryG(dialG(tlsfiles.Client([]tls.Certificate{mine}, roots))))
	for _, c := range []struct {
		name string
		cfg  *tls.Config
	}{
		{"no certificate", tlsfiles.Client(nil, roots)},
		{"another CA's certificate", tlsfiles.Client([]tls.Certificate{other}, roots)},
	} {
		assert.Error(t, try(dial(c.cfg)), "P4Runtime, %s", c.name)
		assert.Error(t, tryG(dialG(c.cfg)), "gNMI, %s", c.name)
	}
	assert.Error(t, try(dial(nil)), "P4Runtime in plaintext")

	// The control API says what it is.
	resp, err := http.Get("http://" + control + "/")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Contains(t, string(body), "a lab tool for demos and tests, without authentication")
	assert.Equal(t, "no authentication; never expose it", resp.Header.Get("X-Balancer-Lab-Tool"))
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
