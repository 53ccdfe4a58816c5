package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/dpi-balancer/balancer/internal/testpki"
)

// `balancer daemon --telemetry-tls` serves gNMI and metrics only to clients
// with a certificate from the client CA.
func TestTelemetryMutualTLS(t *testing.T) {
	pki := testpki.New(t)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	start := func(args ...string) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out, errb bytes.Buffer
			if code := run(ctx, args, strings.NewReader(""), &out, &errb); code != exitOK && ctx.Err() == nil {
				t.Errorf("balancer %s exited %d: %s", strings.Join(args, " "), code, errb.String())
			}
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	p4rt, gnmiAddr, tele, metrics := freeAddr(t), freeAddr(t), freeAddr(t), freeAddr(t)
	dir := t.TempDir()
	start("sim", "--from-config", "../../examples/site.yaml", "--p4rt", p4rt, "--gnmi", gnmiAddr, "--log-level", "warn")
	start("daemon", "--config", "../../examples/site.yaml", "--state-dir", filepath.Join(dir, "state"), "--socket", filepath.Join(dir, "b.sock"),
		"--switch", p4rt, "--switch-gnmi", gnmiAddr, "--telemetry", tele, "--metrics", metrics, "--log-level", "warn",
		"--telemetry-tls", "--tls-cert", pki.ServerCert, "--tls-key", pki.ServerKey, "--tls-client-ca", pki.CA)

	caPEM, err := os.ReadFile(pki.CA)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(caPEM))
	clientTLS := func(cert, key string) *tls.Config {
		c := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
		if cert != "" {
			kp, err := tls.LoadX509KeyPair(cert, key)
			require.NoError(t, err)
			c.Certificates = []tls.Certificate{kp}
		}
		return c
	}
	capabilities := func(c *tls.Config) (*gpb.CapabilityResponse, error) {
		conn, err := grpc.NewClient(tele, grpc.WithTransportCredentials(credentials.NewTLS(c)))
		require.NoError(t, err)
		defer conn.Close()
		cctx, ccancel := context.WithTimeout(ctx, 5*time.Second)
		defer ccancel()
		return gpb.NewGNMIClient(conn).Capabilities(cctx, &gpb.CapabilityRequest{})
	}
	scrape := func(c *tls.Config) (string, error) {
		hc := &http.Client{Transport: &http.Transport{TLSClientConfig: c}, Timeout: 5 * time.Second}
		resp, err := hc.Get("https://" + metrics + "/metrics")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}

	good := clientTLS(pki.ClientCert, pki.ClientKey)
	var caps *gpb.CapabilityResponse
	require.Eventually(t, func() bool {
		caps, err = capabilities(good)
		return err == nil
	}, 30*time.Second, 50*time.Millisecond, "gNMI over mutual TLS")
	require.Len(t, caps.GetSupportedModels(), 1)
	assert.Equal(t, "balancer-telemetry", caps.GetSupportedModels()[0].GetName())
	var body string
	require.Eventually(t, func() bool {
		body, err = scrape(good)
		return err == nil
	}, 30*time.Second, 50*time.Millisecond, "metrics over mutual TLS")
	assert.Contains(t, body, "balancer_build_info")

	for name, c := range map[string]*tls.Config{"no client certificate": clientTLS("", ""), "another CA's certificate": clientTLS(pki.OtherCert, pki.OtherKey)} {
		_, err := capabilities(c)
		assert.Error(t, err, "gNMI, %s", name)
		_, err = scrape(c)
		assert.Error(t, err, "metrics, %s", name)
	}
	// Plain HTTP gets the TLS server's 400, never the metrics.
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + metrics + "/metrics")
	if err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.NotContains(t, string(b), "balancer_")
	}
}
