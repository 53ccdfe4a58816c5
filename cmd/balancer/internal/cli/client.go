package cli

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

// client returns the management API client, connecting on first use.
func (a *app) client() (apiv1.BalancerClient, error) {
	if a.conn == nil {
		conn, err := a.connect()
		if err != nil {
			return nil, err
		}
		a.conn = conn
	}
	return apiv1.NewBalancerClient(a.conn), nil
}

func (a *app) connect() (*grpc.ClientConn, error) {
	d := &dialState{timeout: a.timeout.String()}
	var creds credentials.TransportCredentials
	if a.addr != "" {
		if a.tlsCert == "" || a.tlsKey == "" || a.tlsCA == "" {
			return nil, usagef("--addr %s needs --tls-cert, --tls-key and --tls-ca: the daemon serves its API over TCP only with mutual TLS", a.addr)
		}
		cfg, err := clientTLSConfig(a.tlsCert, a.tlsKey, a.tlsCA)
		if err != nil {
			return nil, err
		}
		creds = credentials.NewTLS(cfg)
		d.network, d.address, d.where = "tcp", a.addr, a.addr
	} else {
		if a.tlsCert != "" || a.tlsKey != "" || a.tlsCA != "" {
			return nil, usagef("--tls-cert, --tls-key and --tls-ca go with --addr; the unix socket (--socket) needs none")
		}
		if a.socket == "" {
			return nil, usagef("--socket is empty; give the daemon's socket path, or --addr")
		}
		creds = insecure.NewCredentials()
		d.network, d.address, d.where = "unix", a.socket, a.socket
	}
	target := "passthrough:///" + d.address
	if d.network == "unix" {
		target = "passthrough:///balancer"
	}
	conn, err := grpc.NewClient(target,
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(d.dial),
		grpc.WithUnaryInterceptor(d.intercept),
	)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the balancer daemon at %s: %w", d.where, err)
	}
	a.dial = d
	return conn, nil
}

func clientTLSConfig(certFile, keyFile, caFile string) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w", certFile, keyFile, err)
	}
	pool, err := tlsfiles.Pool(caFile)
	switch {
	case errors.Is(err, tlsfiles.ErrNoPEM):
		return nil, fmt.Errorf("--tls-ca %w", err)
	case err != nil:
		return nil, fmt.Errorf("--tls-ca: %w", err)
	}
	return tlsfiles.Client([]tls.Certificate{cert}, pool), nil
}

// dialState dials the daemon and remembers why the last dial failed, so
// that an RPC failing for that reason says so plainly.
type dialState struct {
	network, address string
	where            string // for messages
	timeout          string

	mu      sync.Mutex
	lastErr error
}

func (d *dialState) dial(ctx context.Context, _ string) (net.Conn, error) {
	var nd net.Dialer
	c, err := nd.DialContext(ctx, d.network, d.address)
	d.mu.Lock()
	d.lastErr = err
	d.mu.Unlock()
	return c, err
}

func (d *dialState) dialErr() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lastErr
}

func (d *dialState) intercept(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
	// Before a change, the running revision: should the connection end
	// during the call, the operator is told what to check.
	before := uint64(0)
	change := isChange(method, req)
	if change {
		var cfg apiv1.GetConfigResponse
		if invoker(ctx, apiv1.Balancer_GetConfig_FullMethodName, &apiv1.GetConfigRequest{}, &cfg, cc, opts...) == nil {
			before = cfg.GetRevision().GetNumber()
		}
	}
	var trailer metadata.MD
	err := invoker(ctx, method, req, reply, cc, append(opts, grpc.Trailer(&trailer))...)
	if err == nil {
		return nil
	}
	fromDaemon := slices.Contains(trailer.Get(apiv1.OriginTrailer), apiv1.OriginDaemon)
	if change && !fromDaemon && d.dialErr() == nil && connectionEnded(err) {
		return d.unknownOutcome(method, before, err)
	}
	return d.translate(ctx, err, fromDaemon)
}

// isChange: the call changes the daemon's state (a configuration saved,
// a rollback, a manual bypass).
func isChange(method string, req any) bool {
	switch method {
	case apiv1.Balancer_ApplyConfig_FullMethodName:
		r, ok := req.(*apiv1.ApplyConfigRequest)
		return ok && !r.GetDryRun()
	case apiv1.Balancer_Rollback_FullMethodName, apiv1.Balancer_SetBypass_FullMethodName, apiv1.Balancer_ReturnFilterGroup_FullMethodName:
		return true
	}
	return false
}

// connectionEnded: the call was sent on a connection that then ended
// without an answer (the daemon died or restarted during it).
func connectionEnded(err error) bool {
	st, ok := status.FromError(err)
	if !ok {
		return false
	}
	switch st.Code() {
	case codes.Unavailable, codes.Internal, codes.Unknown:
		m := st.Message()
		return strings.Contains(m, "EOF") || strings.Contains(m, "transport is closing") ||
			strings.Contains(m, "connection reset") || strings.Contains(m, "broken pipe") ||
			strings.Contains(m, "error reading from server") || strings.Contains(m, "connection closed")
	}
	return false
}

// unknownOutcome is the answer to a change whose connection ended during
// the call: it may or may not have been made, and how to find out.
func (d *dialState) unknownOutcome(method string, before uint64, err error) error {
	st, _ := status.FromError(err)
	msg := fmt.Sprintf("the connection to the balancer daemon at %s ended during the call (%s): the outcome is unknown", d.where, st.Message())
	switch method {
	case apiv1.Balancer_SetBypass_FullMethodName:
		return fmt.Errorf("%s; once the daemon answers again, `balancer status` shows whether the manual bypass is set (it is saved before it is applied, and survives restarts)", msg)
	case apiv1.Balancer_ReturnFilterGroup_FullMethodName:
		return fmt.Errorf("%s; once the daemon answers again, `balancer status` shows whether the filter group is up or still recovered, waiting for return (a return is saved before it is applied, and survives restarts); run the return again if it still waits", msg)
	default:
		rev := "the running revision before the call is unknown"
		if before > 0 {
			rev = fmt.Sprintf("the running revision was %d", before)
		}
		return fmt.Errorf("%s; %s: once the daemon answers again, `balancer config history` shows a newer revision if the change was saved (a saved change is programmed when the daemon runs), and `balancer status` whether it is on the switch", msg, rev)
	}
}

// apiError is an error the daemon returned: its message as the daemon
// wrote it (a rejected configuration lists every problem with its path).
type apiError struct {
	code codes.Code
	msg  string
}

func (e *apiError) Error() string { return e.msg }

// translate turns an RPC error into one an operator can act on.
// fromDaemon says the daemon sent the error: an Unavailable error then
// means the switch is unreachable, not the daemon.
func (d *dialState) translate(ctx context.Context, err error, fromDaemon bool) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	switch st.Code() {
	case codes.Unavailable:
		if derr := d.dialErr(); derr != nil {
			return fmt.Errorf("cannot reach the balancer daemon at %s: %s", d.where, d.explain(derr))
		}
		if !fromDaemon {
			msg := st.Message()
			if d.network == "tcp" {
				msg += " (does the daemon trust the CA of --tls-cert, and --tls-ca the daemon's certificate?)"
			}
			return fmt.Errorf("cannot reach the balancer daemon at %s: %s", d.where, msg)
		}
	case codes.DeadlineExceeded:
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("the balancer daemon at %s did not answer within %s (see --timeout): %s", d.where, d.timeout, st.Message())
		}
	case codes.Canceled:
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted: %w", ctx.Err())
		}
	}
	return &apiError{code: st.Code(), msg: st.Message()}
}

// notSocket reports whether path exists and is not a unix socket.
func notSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket == 0
}

// explain says why a dial failed, with what to do.
func (d *dialState) explain(err error) string {
	msg := err.Error()
	var se *os.SyscallError
	if errors.As(err, &se) {
		msg = se.Error()
	}
	switch {
	case d.network == "unix" && errors.Is(err, syscall.ENOENT):
		return msg + " (no socket there: is the daemon running? give its socket with --socket or $" + socketEnv + ")"
	case d.network == "unix" && notSocket(d.address):
		return d.address + " is not a socket: give the daemon's socket with --socket or $" + socketEnv + ", by default " + defaultSocket
	case errors.Is(err, syscall.ECONNREFUSED) && d.network == "unix":
		return msg + " (a socket file but no daemon listening: is the daemon running?)"
	case errors.Is(err, syscall.ECONNREFUSED):
		return msg + " (nothing listens there: is the daemon running with its TLS API on this address?)"
	case errors.Is(err, syscall.EACCES):
		return msg + " (the socket is mode 0600: run as root or as the daemon's user)"
	}
	return msg
}
