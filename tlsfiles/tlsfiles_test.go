package tlsfiles_test

import (
	"crypto/tls"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/internal/testpki"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

func TestPool(t *testing.T) {
	pki := testpki.New(t)
	pool, err := tlsfiles.Pool(pki.CA)
	require.NoError(t, err)
	assert.NotNil(t, pool)

	bad := filepath.Join(t.TempDir(), "x.pem")
	require.NoError(t, os.WriteFile(bad, []byte("hello"), 0o600))
	_, err = tlsfiles.Pool(bad)
	assert.ErrorIs(t, err, tlsfiles.ErrNoPEM)
	assert.Equal(t, bad+" holds no PEM certificate", err.Error())

	_, err = tlsfiles.Pool(filepath.Join(t.TempDir(), "none"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestConfigs(t *testing.T) {
	pki := testpki.New(t)
	cert, err := tls.LoadX509KeyPair(pki.ServerCert, pki.ServerKey)
	require.NoError(t, err)
	pool, err := tlsfiles.Pool(pki.CA)
	require.NoError(t, err)
	s := tlsfiles.Server(cert, pool)
	assert.Equal(t, tls.RequireAndVerifyClientCert, s.ClientAuth)
	assert.Equal(t, uint16(tls.VersionTLS12), s.MinVersion)
	assert.Same(t, pool, s.ClientCAs)
	c := tlsfiles.Client(nil, pool)
	assert.Empty(t, c.Certificates)
	assert.Same(t, pool, c.RootCAs)
	assert.Equal(t, uint16(tls.VersionTLS12), c.MinVersion)
}
