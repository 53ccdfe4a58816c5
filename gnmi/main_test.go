package gnmi

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

func TestMain(m *testing.M) {
	// The openconfig cache/subscribe packages log through glog, which writes
	// files into os.TempDir() by default; keep them in a directory we remove.
	dir, err := os.MkdirTemp("", "gnmi-test-glog-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	_ = flag.Set("log_dir", dir)

	code := m.Run()
	if code == 0 {
		// goleak.VerifyNone needs a testing.TB; Find is its TestMain form.
		if err := goleak.Find(goleak.IgnoreTopFunction("github.com/golang/glog.(*fileSink).flushDaemon")); err != nil {
			fmt.Fprintf(os.Stderr, "goleak: %v\n", err)
			code = 1
		}
	}
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

const testTarget = "sw1"

// testTimeout bounds every wait for an event; tests poll or block on
// channels, never sleep for a fixed time.
const testTimeout = 10 * time.Second

// newTestServer returns a server closed at the end of the test.
func newTestServer(t testing.TB, opts ...ServerOption) *Server {
	t.Helper()
	srv := NewServer(testTarget, opts...)
	t.Cleanup(func() { require.NoError(t, srv.Close()) })
	return srv
}

// serve runs srv on a real gRPC server on addr ("127.0.0.1:0" for a fresh
// port) and returns the gRPC server and its address. It is stopped at the end
// of the test (Stop is idempotent).
func serve(t testing.TB, srv *Server, addr string) (*grpc.Server, string) {
	t.Helper()
	var lis net.Listener
	require.Eventually(t, func() bool {
		var err error
		lis, err = net.Listen("tcp", addr)
		return err == nil
	}, testTimeout, 10*time.Millisecond, "listen on %s", addr)
	g := grpc.NewServer()
	srv.Register(g)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = g.Serve(lis)
	}()
	t.Cleanup(func() {
		g.Stop()
		<-done
	})
	return g, lis.Addr().String()
}

// dial returns a gNMI client for addr, closed at the end of the test.
func dial(t *testing.T, addr string) gpb.GNMIClient {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return gpb.NewGNMIClient(conn)
}

// startClient is newTestServer + serve + dial.
func startClient(t *testing.T, opts ...ServerOption) (*Server, gpb.GNMIClient) {
	t.Helper()
	srv := newTestServer(t, opts...)
	_, addr := serve(t, srv, "127.0.0.1:0")
	return srv, dial(t, addr)
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	return ctx
}

// p parses a simple gNMI path string such as
// /interfaces/interface[name=P1]/state/oper-status (no escaping).
func p(s string) *gpb.Path {
	out := &gpb.Path{}
	for _, part := range splitPath(s) {
		e := &gpb.PathElem{}
		name, rest, hasKeys := cut(part, '[')
		e.Name = name
		for hasKeys {
			var kv string
			kv, rest, _ = cut(rest, ']')
			k, v, _ := cut(kv, '=')
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			e.Key[k] = v
			_, rest, hasKeys = cut(rest, '[')
		}
		out.Elem = append(out.Elem, e)
	}
	return out
}

func splitPath(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '/' && depth == 0:
			if i > start {
				parts = append(parts, s[start:i])
			}
			start = i + 1
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}

func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func strVal(s string) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_StringVal{StringVal: s}}
}

func uintVal(u uint64) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_UintVal{UintVal: u}}
}

func boolVal(b bool) *gpb.TypedValue {
	return &gpb.TypedValue{Value: &gpb.TypedValue_BoolVal{BoolVal: b}}
}

// leaves flattens notifications into path -> value.
func leaves(ns ...*gpb.Notification) map[string]*gpb.TypedValue {
	out := map[string]*gpb.TypedValue{}
	for _, n := range ns {
		for _, u := range n.GetUpdate() {
			out[pathString(n.GetPrefix(), u.GetPath())] = u.GetVal()
		}
	}
	return out
}

// deletes flattens the deletes of notifications into path strings.
func deletes(ns ...*gpb.Notification) []string {
	var out []string
	for _, n := range ns {
		for _, d := range n.GetDelete() {
			out = append(out, pathString(n.GetPrefix(), d))
		}
	}
	return out
}

var (
	p1 = InterfaceState{
		Name: "P1", OperUp: true, AdminUp: true,
		InOctets: 1000, InPkts: 10, OutOctets: 2000, OutPkts: 20, InDiscards: 1, OutDiscards: 2,
		LastChange: time.Unix(1700000000, 5),
	}
	p2 = InterfaceState{Name: "P2", AdminUp: true}
)

// publishFixture publishes P1 (up) and P2 (down).
func publishFixture(t *testing.T, srv *Server) {
	t.Helper()
	require.NoError(t, srv.PublishInterface(p1))
	require.NoError(t, srv.PublishInterface(p2))
}
