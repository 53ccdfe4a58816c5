package apiserver

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	"github.com/dpi-balancer/balancer/tlsfiles"
)

// ErrSocketInUse: ListenUnix found another process listening on the
// socket path.
var ErrSocketInUse = errors.New("socket in use")

// maxUnixPath is the longest socket path bind(2) takes (sun_path less its
// terminating NUL).
const maxUnixPath = 107

// UnixOption configures ListenUnix.
type UnixOption func(*unixOpts)

type unixOpts struct {
	group string
	gid   int // -1: none
}

// SocketGroup gives the socket to group (a name or a number) with mode
// 0660, so that its members, not only root (or the daemon's user), may
// drive the balancer; the API records each one's user with every change.
// A group that does not exist is an error naming it.
func SocketGroup(group string) (UnixOption, error) {
	g, err := user.LookupGroup(group)
	if err != nil {
		if _, numErr := strconv.Atoi(group); numErr != nil {
			return nil, fmt.Errorf("socket group %q does not exist on this host: create it (groupadd %s) or name an existing group", group, group)
		}
		if g, err = user.LookupGroupId(group); err != nil {
			return nil, fmt.Errorf("socket group %q: no group has that id on this host: create it or name an existing group", group)
		}
	}
	gid, err := strconv.Atoi(g.Gid)
	if err != nil {
		return nil, fmt.Errorf("socket group %q: id %q is not a number", group, g.Gid)
	}
	return func(o *unixOpts) { o.group, o.gid = group, gid }, nil
}

// ListenUnix listens on the unix socket at path for the management API.
// The socket is mode 0600 (0660 and the group's with SocketGroup) from
// the moment it can be reached (only root, or the daemon's user, may
// drive the balancer): it is bound inside a private directory, given its
// mode, then linked into place. The parent directory
// is created when missing. A socket file already at path is removed only
// when nothing listens on it (a stale socket after a crash); when a
// process does, the error wraps ErrSocketInUse. Closing the listener
// removes the socket file, unless another one has replaced it since.
func ListenUnix(path string, opts ...UnixOption) (net.Listener, error) {
	if path == "" {
		return nil, errors.New("listen unix: no socket path")
	}
	o := unixOpts{gid: -1}
	for _, opt := range opts {
		opt(&o)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	if err := removeStaleSocket(path); err != nil {
		return nil, err
	}
	tmpDir, err := os.MkdirTemp(filepath.Dir(path), ".sock")
	if err != nil {
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	defer os.RemoveAll(tmpDir)
	tmp := filepath.Join(tmpDir, "s")
	if len(tmp) > maxUnixPath {
		// The private name does not fit where path does: bind in place
		// and set the mode right after.
		return listenUnixInPlace(path, o)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmp, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	l.SetUnlinkOnClose(false)
	if err := o.setMode(tmp); err != nil {
		l.Close()
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	// link(2) fails when path exists: a daemon that started meanwhile
	// keeps its socket.
	if err := os.Link(tmp, path); err != nil {
		l.Close()
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("listen unix %s: another process created the socket meanwhile: %w", path, ErrSocketInUse)
		}
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	return newUnixListener(l, path)
}

// setMode gives the socket file at path its group and mode.
func (o unixOpts) setMode(path string) error {
	if o.gid < 0 {
		return os.Chmod(path, 0o600)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return err
	}
	if err := os.Chown(path, -1, o.gid); err != nil {
		return fmt.Errorf("giving the socket to group %s: %w (the daemon must run as root or be a member of the group)", o.group, err)
	}
	return os.Chmod(path, 0o660)
}

func listenUnixInPlace(path string, o unixOpts) (net.Listener, error) {
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	l.SetUnlinkOnClose(false)
	if err := o.setMode(path); err != nil {
		l.Close()
		os.Remove(path)
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	return newUnixListener(l, path)
}

func newUnixListener(l *net.UnixListener, path string) (net.Listener, error) {
	fi, err := os.Stat(path)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("listen unix %s: %w", path, err)
	}
	return &unixListener{UnixListener: l, path: path, fi: fi}, nil
}

// removeStaleSocket removes the socket file at path when nothing listens
// on it.
func removeStaleSocket(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listen unix %s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSocket == 0 {
		return fmt.Errorf("listen unix %s: the file exists and is not a socket; remove it or choose another socket path", path)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	switch {
	case err == nil:
		c.Close()
		return fmt.Errorf("listen unix %s: another process (a running daemon?) listens on it: %w", path, ErrSocketInUse)
	case errors.Is(err, syscall.ECONNREFUSED):
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("listen unix %s: removing the stale socket: %w", path, err)
		}
		return nil
	default:
		return fmt.Errorf("listen unix %s: cannot tell whether the socket is in use: %w", path, err)
	}
}

// unixListener removes its socket file on Close, when the file is still
// the one it bound.
type unixListener struct {
	*net.UnixListener
	path string
	fi   os.FileInfo
	once sync.Once
	err  error
}

// Addr is the socket's path (it was bound under a private name).
func (l *unixListener) Addr() net.Addr { return &net.UnixAddr{Name: l.path, Net: "unix"} }

func (l *unixListener) Close() error {
	l.once.Do(func() {
		l.err = l.UnixListener.Close()
		if fi, err := os.Stat(l.path); err == nil && os.SameFile(fi, l.fi) {
			os.Remove(l.path)
		}
	})
	return l.err
}

// ServerTLSConfig loads the server's certificate and key and the CA that
// signs the clients' certificates, for mutual TLS: a client must present
// a certificate that CA signed. TLS 1.2 is the minimum.
func ServerTLSConfig(certFile, keyFile, clientCAFile string) (*tls.Config, error) {
	if certFile == "" || keyFile == "" || clientCAFile == "" {
		return nil, errors.New("mutual TLS needs the server certificate, its key and the clients' CA certificate")
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("tls: server certificate %s / key %s: %w", certFile, keyFile, err)
	}
	pool, err := tlsfiles.Pool(clientCAFile)
	switch {
	case errors.Is(err, tlsfiles.ErrNoPEM):
		return nil, fmt.Errorf("tls: client CA %w", err)
	case err != nil:
		return nil, fmt.Errorf("tls: client CA: %w", err)
	}
	return tlsfiles.Server(cert, pool), nil
}

// ListenTLS listens on the TCP address addr for the management API and
// returns the server option that makes gRPC require mutual TLS on it
// (see ServerTLSConfig). The API is never served on TCP without it:
//
//	lis, creds, err := apiserver.ListenTLS(":9559", cert, key, ca)
//	srv := grpc.NewServer(creds)
//	apiv1.RegisterBalancerServer(srv, apiserver.New(d))
//	go srv.Serve(lis)
func ListenTLS(addr, certFile, keyFile, clientCAFile string) (net.Listener, grpc.ServerOption, error) {
	cfg, err := ServerTLSConfig(certFile, keyFile, clientCAFile)
	if err != nil {
		return nil, nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return l, grpc.Creds(credentials.NewTLS(cfg)), nil
}
