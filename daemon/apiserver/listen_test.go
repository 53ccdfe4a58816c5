package apiserver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/testpki"
)

func TestListenUnix(t *testing.T) {
	t.Run("mode 0600, parent created, removed on close", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "run", "balancer", "api.sock")
		l, err := ListenUnix(path)
		require.NoError(t, err)
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSocket|0o600, fi.Mode()&(os.ModeSocket|os.ModePerm))
		assert.Equal(t, path, l.Addr().String())
		ents, err := os.ReadDir(filepath.Dir(path))
		require.NoError(t, err)
		assert.Len(t, ents, 1, "no private directory left behind")

		accepted := make(chan error, 1)
		go func() {
			c, err := l.Accept()
			if err == nil {
				c.Close()
			}
			accepted <- err
		}()
		c, err := net.Dial("unix", path)
		require.NoError(t, err)
		c.Close()
		require.NoError(t, <-accepted)

		require.NoError(t, l.Close())
		require.NoError(t, l.Close(), "Close is idempotent")
		_, err = os.Stat(path)
		assert.True(t, errors.Is(err, os.ErrNotExist))
	})
	t.Run("stale socket replaced", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "api.sock")
		stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
		require.NoError(t, err)
		stale.SetUnlinkOnClose(false)
		require.NoError(t, stale.Close()) // the file stays; nobody listens
		l, err := ListenUnix(path)
		require.NoError(t, err)
		defer l.Close()
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	})
	t.Run("live socket kept", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "api.sock")
		first, err := ListenUnix(path)
		require.NoError(t, err)
		defer first.Close()
		go func() { // answer the probe
			for {
				c, err := first.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		_, err = ListenUnix(path)
		require.ErrorIs(t, err, ErrSocketInUse)
		assert.Contains(t, err.Error(), "another process")
		_, err = os.Stat(path)
		assert.NoError(t, err, "the live socket is still there")
	})
	t.Run("not a socket", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "api.sock")
		require.NoError(t, os.WriteFile(path, []byte("x"), 0o644))
		_, err := ListenUnix(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "exists and is not a socket")
	})
	t.Run("close leaves a newer socket alone", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "api.sock")
		l, err := ListenUnix(path)
		require.NoError(t, err)
		require.NoError(t, os.Remove(path))
		require.NoError(t, os.WriteFile(path, nil, 0o600))
		require.NoError(t, l.Close())
		_, err = os.Stat(path)
		assert.NoError(t, err)
	})
	t.Run("long path binds in place", func(t *testing.T) {
		dir := t.TempDir()
		// A path that fits, whose private name would not.
		name := strings.Repeat("s", maxUnixPath-len(dir)-1)
		path := filepath.Join(dir, name)
		require.LessOrEqual(t, len(path), maxUnixPath)
		l, err := ListenUnix(path)
		require.NoError(t, err)
		defer l.Close()
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	})
}

func TestListenTLS(t *testing.T) {
	pki := testpki.New(t)
	lis, creds, err := ListenTLS("127.0.0.1:0", pki.ServerCert, pki.ServerKey, pki.CA)
	require.NoError(t, err)
	srv := grpc.NewServer(creds)
	apiv1.RegisterBalancerServer(srv, New(&apiFake{history: []daemon.Revision{{Number: 1}}}))
	go srv.Serve(lis)
	defer srv.Stop()

	caPEM, err := os.ReadFile(pki.CA)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(caPEM))
	call := func(t *testing.T, cfg *tls.Config) error {
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(cfg)))
		require.NoError(t, err)
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = apiv1.NewBalancerClient(conn).History(ctx, &apiv1.HistoryRequest{})
		return err
	}
	cert := func(c, k string) []tls.Certificate {
		pair, err := tls.LoadX509KeyPair(c, k)
		require.NoError(t, err)
		return []tls.Certificate{pair}
	}
	t.Run("client certificate from the CA", func(t *testing.T) {
		assert.NoError(t, call(t, &tls.Config{RootCAs: roots, Certificates: cert(pki.ClientCert, pki.ClientKey)}))
	})
	t.Run("no client certificate", func(t *testing.T) {
		err := call(t, &tls.Config{RootCAs: roots})
		assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	})
	t.Run("client certificate from another CA", func(t *testing.T) {
		err := call(t, &tls.Config{RootCAs: roots, Certificates: cert(pki.OtherCert, pki.OtherKey)})
		assert.Equal(t, codes.Unavailable, status.Code(err), "%v", err)
	})
	t.Run("plain TCP", func(t *testing.T) {
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(t, err)
		defer conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = apiv1.NewBalancerClient(conn).History(ctx, &apiv1.HistoryRequest{})
		assert.Error(t, err)
	})
}

func TestServerTLSConfigErrors(t *testing.T) {
	pki := testpki.New(t)
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "x.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("hello"), 0o600))
	tests := []struct {
		name                string
		cert, key, ca, want string
	}{
		{"missing ca", pki.ServerCert, pki.ServerKey, "", "mutual TLS needs"},
		{"missing key file", pki.ServerCert, filepath.Join(dir, "nope.key"), pki.CA, "server certificate"},
		{"ca not PEM", pki.ServerCert, pki.ServerKey, notPEM, "holds no PEM certificate"},
		{"ca missing", pki.ServerCert, pki.ServerKey, filepath.Join(dir, "nope.crt"), "client CA"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ServerTLSConfig(tt.cert, tt.key, tt.ca)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			_, _, err = ListenTLS("127.0.0.1:0", tt.cert, tt.key, tt.ca)
			assert.Error(t, err)
		})
	}
	cfg, err := ServerTLSConfig(pki.ServerCert, pki.ServerKey, pki.CA)
	require.NoError(t, err)
	assert.Equal(t, tls.RequireAndVerifyClientCert, cfg.ClientAuth)
	assert.Equal(t, uint16(tls.VersionTLS12), cfg.MinVersion)
}
