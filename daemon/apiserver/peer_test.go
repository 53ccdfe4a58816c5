package apiserver

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/testpki"
)

// TestPeerCredOfSocketpair: the credentials read from a unix socket are
// its peer's, as the kernel gives them.
func TestPeerCredOfSocketpair(t *testing.T) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	require.NoError(t, err)
	conns := make([]net.Conn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "socketpair")
		conns[i], err = net.FileConn(f)
		require.NoError(t, err)
		f.Close()
		defer conns[i].Close()
	}
	c, err := peerCredOf(conns[0])
	require.NoError(t, err)
	assert.Equal(t, uint32(os.Getuid()), c.UID)
	assert.Equal(t, uint32(os.Getgid()), c.GID)
	assert.Equal(t, int32(os.Getpid()), c.PID)

	// Handed to gRPC by the server handshake.
	_, info, err := PeerCredentials().ServerHandshake(conns[1])
	require.NoError(t, err)
	assert.Equal(t, c.UID, info.(PeerCred).UID)

	// Not a socket: said, not guessed.
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	_, _, err = PeerCredentials().ServerHandshake(a)
	assert.ErrorContains(t, err, "not a socket")
}

// TestPeerCredUser: a uid with a name is shown with it, one without by
// its number.
func TestPeerCredUser(t *testing.T) {
	assert.Equal(t, "root (uid 0)", PeerCred{UID: 0}.User())
	assert.Equal(t, "uid 4000000001", PeerCred{UID: 4000000001}.User())
}

// serveUnix serves f on a unix socket with the peer credentials, as the
// daemon does.
func serveUnix(t *testing.T, socket string, f *apiFake, opts ...UnixOption) {
	t.Helper()
	lis, err := ListenUnix(socket, opts...)
	require.NoError(t, err)
	srv := grpc.NewServer(grpc.Creds(PeerCredentials()))
	apiv1.RegisterBalancerServer(srv, New(f))
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve(lis) }()
	t.Cleanup(func() { srv.Stop(); <-done })
}

func unixClient(t *testing.T, socket string) apiv1.BalancerClient {
	t.Helper()
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return apiv1.NewBalancerClient(conn)
}

// TestWhoOnTheSocket: every change made over the socket reaches the
// service with its client's user.
func TestWhoOnTheSocket(t *testing.T) {
	socket := filepath.Join(t.TempDir(), "b.sock")
	f := &apiFake{apply: &daemon.ApplyResult{}}
	serveUnix(t, socket, f)
	cl := unixClient(t, socket)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := cl.SetBypass(ctx, &apiv1.SetBypassRequest{Group: "F1", On: true})
	require.NoError(t, err)
	_, err = cl.ReturnFilterGroup(ctx, &apiv1.ReturnFilterGroupRequest{FilterGroup: "F1"})
	require.NoError(t, err)
	_, err = cl.Rollback(ctx, &apiv1.RollbackRequest{Revision: 1})
	require.NoError(t, err)
	me := PeerCred{UID: uint32(os.Getuid())}.User()
	if os.Getuid() == 0 {
		require.Equal(t, "root (uid 0)", me)
	}
	assert.Equal(t, []string{me, me, me}, f.gotBy)
}

// TestWhoOverTLS: over mutual TLS, the client certificate's subject.
func TestWhoOverTLS(t *testing.T) {
	pki := testpki.New(t)
	lis, creds, err := ListenTLS("127.0.0.1:0", pki.ServerCert, pki.ServerKey, pki.CA)
	require.NoError(t, err)
	f := &apiFake{apply: &daemon.ApplyResult{}}
	srv := grpc.NewServer(creds)
	apiv1.RegisterBalancerServer(srv, New(f))
	go srv.Serve(lis)
	defer srv.Stop()
	caPEM, err := os.ReadFile(pki.CA)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(caPEM))
	pair, err := tls.LoadX509KeyPair(pki.ClientCert, pki.ClientKey)
	require.NoError(t, err)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(credentials.NewTLS(
		&tls.Config{RootCAs: roots, Certificates: []tls.Certificate{pair}})))
	require.NoError(t, err)
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = apiv1.NewBalancerClient(conn).SetBypass(ctx, &apiv1.SetBypassRequest{On: true})
	require.NoError(t, err)
	assert.Equal(t, []string{"CN=client"}, f.gotBy)
}

// TestSocketGroup: --socket-group gives the socket to the group, mode
// 0660; a group that does not exist is named, with the fix.
func TestSocketGroup(t *testing.T) {
	g, err := user.LookupGroupId(strconv.Itoa(os.Getgid()))
	require.NoError(t, err)
	socket := filepath.Join(t.TempDir(), "b.sock")
	opt, err := SocketGroup(g.Name)
	require.NoError(t, err)
	lis, err := ListenUnix(socket, opt)
	require.NoError(t, err)
	defer lis.Close()
	fi, err := os.Stat(socket)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o660), fi.Mode().Perm())
	assert.Equal(t, uint32(os.Getgid()), fi.Sys().(*syscall.Stat_t).Gid)

	_, err = SocketGroup("no-such-group-xq")
	assert.ErrorContains(t, err, `socket group "no-such-group-xq" does not exist on this host: create it (groupadd no-such-group-xq) or name an existing group`)
}

// nobodyClientEnv makes the test binary a client that sets a bypass over
// the socket it names, then exits (TestWhoAsAnotherUser runs it as
// nobody).
const nobodyClientEnv = "BALANCER_TEST_PEER_CLIENT"

func TestPeerClientHelper(t *testing.T) {
	socket := os.Getenv(nobodyClientEnv)
	if socket == "" {
		t.Skip("run by TestWhoAsAnotherUser")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := unixClient(t, socket).SetBypass(ctx, &apiv1.SetBypassRequest{Group: "F2", On: true})
	require.NoError(t, err)
}

// TestWhoAsAnotherUser: a client of another user (nobody, in the socket's
// group) is recorded as that user. It needs root, to run the client as
// nobody.
func TestWhoAsAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another user")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no user nobody on this host")
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	grp, err := user.LookupGroupId(nobody.Gid)
	require.NoError(t, err)
	// A directory nobody can reach, with a copy of this test binary it
	// can run.
	dir, err := os.MkdirTemp("", "peercred")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o755))
	self, err := os.Executable()
	require.NoError(t, err)
	bin := filepath.Join(dir, "client.test")
	copyFile(t, self, bin, 0o755)
	socket := filepath.Join(dir, "b.sock")
	f := &apiFake{}
	opt, err := SocketGroup(grp.Name)
	require.NoError(t, err)
	serveUnix(t, socket, f, opt)

	cmd := exec.Command(bin, "-test.run", "^TestPeerClientHelper$", "-test.count", "1")
	cmd.Env = append(os.Environ(), nobodyClientEnv+"="+socket)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, []string{"nobody (uid " + nobody.Uid + ")"}, f.gotBy)
	assert.Equal(t, []any{"F2", true}, f.gotBypass)
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	src, err := os.Open(from)
	require.NoError(t, err)
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	require.NoError(t, err)
	_, err = io.Copy(dst, src)
	require.NoError(t, err)
	require.NoError(t, dst.Close())
}
