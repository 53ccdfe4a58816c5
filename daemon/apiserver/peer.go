package apiserver

import (
	"context"
	"crypto/x509"
	"fmt"
	"net"
	"os/user"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/peer"
)

// PeerCred is the AuthInfo of a management API client on the unix
// socket: the peer credentials (SO_PEERCRED) the kernel gives for the
// socket, taken when the client connected.
type PeerCred struct {
	credentials.CommonAuthInfo
	UID, GID uint32
	PID      int32
}

// AuthType implements credentials.AuthInfo.
func (PeerCred) AuthType() string { return "peercred" }

// User names the client's user: "root (uid 0)", or "uid 1042" when the
// uid has no name on this host.
func (c PeerCred) User() string {
	id := strconv.FormatUint(uint64(c.UID), 10)
	if u, err := user.LookupId(id); err == nil && u.Username != "" {
		return fmt.Sprintf("%s (uid %s)", u.Username, id)
	}
	return "uid " + id
}

// PeerCredentials are the unix socket's transport credentials: no
// encryption (the socket's file mode guards it), but every connection
// carries its client's peer credentials (PeerCred) as its gRPC AuthInfo,
// so that the API records who made each change. Serve the unix listener
// with grpc.Creds(PeerCredentials()).
func PeerCredentials() credentials.TransportCredentials { return peerCreds{} }

type peerCreds struct{}

func (peerCreds) ClientHandshake(_ context.Context, _ string, conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return conn, PeerCred{CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.NoSecurity}}, nil
}

func (peerCreds) ServerHandshake(conn net.Conn) (net.Conn, credentials.AuthInfo, error) {
	info, err := peerCredOf(conn)
	if err != nil {
		return nil, nil, fmt.Errorf("management API: reading the client's peer credentials: %w", err)
	}
	return conn, info, nil
}

func (peerCreds) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: "peercred"}
}

func (c peerCreds) Clone() credentials.TransportCredentials { return c }

func (peerCreds) OverrideServerName(string) error { return nil }

// peerCredOf reads the peer credentials of a unix socket connection.
func peerCredOf(conn net.Conn) (PeerCred, error) {
	info := PeerCred{CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.NoSecurity}}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return info, fmt.Errorf("a %T is not a socket", conn)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return info, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return info, err
	}
	if credErr != nil {
		return info, credErr
	}
	info.UID, info.GID, info.PID = cred.Uid, cred.Gid, cred.Pid
	return info, nil
}

// Who says who makes the API call of ctx: the user of a unix socket client
// ("root (uid 0)", PeerCredentials), or the subject of a mutual TLS
// client's certificate ("CN=ops1"); "" when the transport says neither.
func Who(ctx context.Context) string {
	p, ok := peer.FromContext(ctx)
	if !ok || p.AuthInfo == nil {
		return ""
	}
	switch a := p.AuthInfo.(type) {
	case PeerCred:
		return a.User()
	case credentials.TLSInfo:
		if certs := a.State.PeerCertificates; len(certs) > 0 {
			return subject(certs[0])
		}
	}
	return ""
}

// subject names a client certificate by its subject's common name, or its
// whole subject when it has none.
func subject(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return "CN=" + c.Subject.CommonName
	}
	return c.Subject.String()
}
