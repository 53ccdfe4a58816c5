// Package testpki writes a throw-away PKI for tests of mutual TLS.
package testpki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// PKI holds PEM file paths: a CA, a server certificate for 127.0.0.1 and
// a client certificate it signed, and another CA with a client
// certificate it signed (to be refused).
type PKI struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey, OtherCA, OtherCert, OtherKey string
}

// New writes the PKI into a temporary directory of the test.
func New(t testing.TB) PKI {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600))
		return p
	}
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		return k
	}
	serial := int64(1)
	newCA := func(name string) (*x509.Certificate, *ecdsa.PrivateKey, []byte) {
		k := newKey()
		serial++
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
			KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &k.PublicKey, k)
		require.NoError(t, err)
		c, err := x509.ParseCertificate(der)
		require.NoError(t, err)
		return c, k, der
	}
	leaf := func(ca *x509.Certificate, caKey *ecdsa.PrivateKey, name string, usage x509.ExtKeyUsage) (string, string) {
		k := newKey()
		serial++
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		require.NoError(t, err)
		kd, err := x509.MarshalECPrivateKey(k)
		require.NoError(t, err)
		return write(name+".crt", "CERTIFICATE", der), write(name+".key", "EC PRIVATE KEY", kd)
	}
	ca, caKey, caDER := newCA("ca")
	other, otherKey, otherDER := newCA("other-ca")
	var p PKI
	p.CA = write("ca.crt", "CERTIFICATE", caDER)
	p.OtherCA = write("other-ca.crt", "CERTIFICATE", otherDER)
	p.ServerCert, p.ServerKey = leaf(ca, caKey, "server", x509.ExtKeyUsageServerAuth)
	p.ClientCert, p.ClientKey = leaf(ca, caKey, "client", x509.ExtKeyUsageClientAuth)
	p.OtherCert, p.OtherKey = leaf(other, otherKey, "intruder", x509.ExtKeyUsageClientAuth)
	return p
}
