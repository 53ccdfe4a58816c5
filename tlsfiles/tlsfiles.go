// Package tlsfiles builds the TLS configurations of the balancer from PEM
// files: the management API and telemetry servers (mutual TLS), the CLI
// client and the daemon's connection to the switch. TLS 1.2 is the
// minimum everywhere.
package tlsfiles

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// ErrNoPEM is returned by Pool for a file without a PEM certificate.
var ErrNoPEM = errors.New("holds no PEM certificate")

// Pool reads a PEM file of CA certificates. A file that cannot be read
// returns the os error; one without a certificate "FILE holds no PEM
// certificate" (ErrNoPEM).
func Pool(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s %w", file, ErrNoPEM)
	}
	return pool, nil
}

// Server is a server configuration that requires a client certificate
// signed by clientCAs (mutual TLS).
func Server(cert tls.Certificate, clientCAs *x509.CertPool) *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientCAs:    clientCAs,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS12,
	}
}

// Client is a client configuration: its certificates (none: no client
// certificate) and the CAs it trusts (nil: the system's).
func Client(certs []tls.Certificate, roots *x509.CertPool) *tls.Config {
	return &tls.Config{Certificates: certs, RootCAs: roots, MinVersion: tls.VersionTLS12}
}
