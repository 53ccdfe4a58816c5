package gnmi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// OperEvent is the oper-status of one interface as reported by the switch.
type OperEvent struct {
	Name string
	Up   bool      // oper-status is "UP"; any other value (DOWN, LOWER_LAYER_DOWN, ...) is down
	At   time.Time // the notification timestamp (receive time if the switch sent none)
}

// Backoff defaults for WatchOperStatus.
const (
	DefaultBackoffMin = 100 * time.Millisecond
	DefaultBackoffMax = 5 * time.Second
)

// DefaultSyncTimeout bounds the wait for a subscription's initial state
// (sync_response): a server that accepts the connection but sends
// nothing is taken as lost.
const DefaultSyncTimeout = 10 * time.Second

// DefaultKeepalive are the HTTP/2 keepalive pings of WatchOperStatus: one
// after 15s without any frame from the switch, answered within 5s, only
// while the subscription is open. Stratum accepts pings every 10s and
// more (--grpc_keepalive_min_ping_interval=10000, permit without calls);
// grpc-go servers need keepalive.EnforcementPolicy{MinTime: 10s} (their
// default of 5 minutes answers faster pings on an idle stream with GOAWAY
// too_many_pings), and grpc-go clients never ping faster than every 10s.
var DefaultKeepalive = keepalive.ClientParameters{Time: 15 * time.Second, Timeout: 5 * time.Second}

// WatchOption configures WatchOperStatus.
type WatchOption func(*watchOptions)

type watchOptions struct {
	backoffMin time.Duration
	backoffMax time.Duration
	log        *slog.Logger
	connState  func(bool)
	target     string
	keepalive  keepalive.ClientParameters
	syncWait   time.Duration
	reports    func(PortReport)
}

// PortReport is one admin-status or port-speed value of a watched
// interface (WithPortReports).
type PortReport struct {
	Name string
	// Leaf is LeafAdminStatus or LeafPortSpeed.
	Leaf string
	// AdminUp: admin-status is "UP" (LeafAdminStatus).
	AdminUp bool
	// SpeedBPS: the port-speed in bits per second, 0 for SPEED_UNKNOWN or
	// a value this package does not know (LeafPortSpeed).
	SpeedBPS uint64
	// Speed is the port-speed as the switch wrote it ("SPEED_100GB").
	Speed string
	// Deleted: the switch deleted the leaf (the port went away).
	Deleted bool
}

// The leaves WithPortReports follows, relative to
// /interfaces/interface[name=NAME].
const (
	LeafAdminStatus = "state/admin-status"
	LeafPortSpeed   = "ethernet/state/port-speed"
)

// WithPortReports also subscribes, in the same stream, to each
// interface's /state/admin-status and /ethernet/state/port-speed (as
// Stratum serves them) and calls f with every value and delete, from the
// watch goroutine, before the sync_response of the initial state is
// reported to WithConnState. f must not block.
func WithPortReports(f func(PortReport)) WatchOption {
	return func(o *watchOptions) { o.reports = f }
}

// WithBackoff sets the reconnect delay: it starts at min, doubles after each
// attempt that fails before reaching sync, is capped at max, and returns to
// min once a stream has synced. Each wait has up to 20 % jitter added (still
// capped at max).
func WithBackoff(min, max time.Duration) WatchOption {
	return func(o *watchOptions) { o.backoffMin, o.backoffMax = min, max }
}

// WithWatchLogger sets the logger (default: discard).
func WithWatchLogger(l *slog.Logger) WatchOption {
	return func(o *watchOptions) { o.log = l }
}

// WithConnState registers f, called with true when a subscription has
// delivered the full initial state (sync_response) and with false when that
// stream is lost or the watch ends. The state starts as not connected; f is
// called only on transitions, from the watch goroutine, and must not block.
// While disconnected the last events received are stale: the switch may have
// changed state since.
func WithConnState(f func(connected bool)) WatchOption {
	return func(o *watchOptions) { o.connState = f }
}

// WithSyncTimeout sets how long a subscription may take to deliver the
// initial state before it is taken as lost and redialled (default
// DefaultSyncTimeout).
func WithSyncTimeout(d time.Duration) WatchOption {
	return func(o *watchOptions) { o.syncWait = d }
}

// WithTarget sets the gNMI target in the request prefix (default none; this
// package's server and Stratum both accept that).
func WithTarget(target string) WatchOption {
	return func(o *watchOptions) { o.target = target }
}

// WatchOperStatus subscribes (STREAM, ON_CHANGE, one path per name) to
// /interfaces/interface[name=NAME]/state/oper-status on the gNMI server at
// addr and sends on events the initial state of each interface the server
// has, then every change. A delete of the leaf (the port disappeared) is sent
// as down.
//
// When the stream is lost it reconnects with exponential backoff and sends
// the initial state again; nothing is sent for the loss itself — use
// WithConnState to tell live state from stale. Each attempt dials a fresh
// grpc.ClientConn with dialOpts (which must include transport credentials)
// and HTTP/2 keepalive pings, DefaultKeepalive, which notice a switch that
// keeps the connection but stops answering (keepalive parameters in
// dialOpts take precedence). A server that accepts the connection but
// sends no initial state within the sync timeout, or stops answering
// pings, is taken as lost.
//
// WatchOperStatus blocks until ctx is done and then returns ctx.Err(). It
// returns earlier, with an error wrapping ErrInvalidArgument, only for bad
// arguments (no names, an empty name, nil events, a sync timeout that is
// not positive, or dial options grpc rejects). Sends on events block (until ctx is done), so the caller must
// keep reading.
func WatchOperStatus(ctx context.Context, addr string, names []string, dialOpts []grpc.DialOption,
	events chan<- OperEvent, opts ...WatchOption) error {
	o := watchOptions{backoffMin: DefaultBackoffMin, backoffMax: DefaultBackoffMax,
		keepalive: DefaultKeepalive, syncWait: DefaultSyncTimeout}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.log == nil {
		o.log = slog.New(slog.DiscardHandler)
	}
	if o.backoffMin <= 0 {
		o.backoffMin = DefaultBackoffMin
	}
	o.backoffMax = max(o.backoffMax, o.backoffMin)

	bad := func(format string, a ...any) error {
		return fmt.Errorf("gnmi: watch oper-status: %w: %s", ErrInvalidArgument, fmt.Sprintf(format, a...))
	}
	switch {
	case addr == "":
		return bad("empty address")
	case len(names) == 0:
		return bad("no interface names")
	case events == nil:
		return bad("nil events channel")
	case o.syncWait <= 0:
		return bad("sync timeout %v: must be positive", o.syncWait)
	}
	if o.keepalive != (keepalive.ClientParameters{}) {
		dialOpts = append([]grpc.DialOption{grpc.WithKeepaliveParams(o.keepalive)}, dialOpts...)
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if n == "" {
			return bad("empty interface name")
		}
		want[n] = true
	}
	// grpc.NewClient does not connect; it fails only on bad options or an
	// unparsable address, which no retry would fix.
	conn, err := grpc.NewClient(addr, dialOpts...)
	if err != nil {
		return bad("%v", err)
	}
	_ = conn.Close()

	w := &watcher{
		addr:     addr,
		dialOpts: dialOpts,
		events:   events,
		want:     want,
		o:        o,
		log:      o.log.With("addr", addr),
		req:      operStatusRequest(o.target, names, o.reports != nil),
	}
	return w.run(ctx)
}

// operStatusRequest builds the STREAM ON_CHANGE request, one path per name
// (three with reports: oper-status, admin-status, port-speed).
func operStatusRequest(target string, names []string, reports bool) *gpb.SubscribeRequest {
	list := &gpb.SubscriptionList{
		Mode:     gpb.SubscriptionList_STREAM,
		Encoding: gpb.Encoding_PROTO,
	}
	if target != "" {
		list.Prefix = &gpb.Path{Target: target}
	}
	for _, n := range names {
		list.Subscription = append(list.Subscription, &gpb.Subscription{
			Path: interfacePath(n, "state", "oper-status"),
			Mode: gpb.SubscriptionMode_ON_CHANGE,
		})
		if !reports {
			continue
		}
		for _, leaf := range []string{LeafAdminStatus, LeafPortSpeed} {
			list.Subscription = append(list.Subscription, &gpb.Subscription{
				Path: interfacePath(n, strings.Split(leaf, "/")...),
				Mode: gpb.SubscriptionMode_ON_CHANGE,
			})
		}
	}
	return &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: list}}
}

type watcher struct {
	addr      string
	dialOpts  []grpc.DialOption
	events    chan<- OperEvent
	want      map[string]bool
	o         watchOptions
	log       *slog.Logger
	req       *gpb.SubscribeRequest
	connected bool
}

func (w *watcher) setConnected(c bool) {
	if c == w.connected {
		return
	}
	w.connected = c
	if c {
		w.log.Info("gnmi oper-status stream synced")
	}
	if w.o.connState != nil {
		w.o.connState(c)
	}
}

func (w *watcher) run(ctx context.Context) error {
	defer w.setConnected(false)
	delay := w.o.backoffMin
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		synced, err := w.session(ctx)
		w.setConnected(false)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if synced {
			delay = w.o.backoffMin
		}
		wait := min(delay+rand.N(delay/5+1), w.o.backoffMax)
		w.log.Warn("gnmi oper-status stream lost; reconnecting", "err", err, "retry_in", wait)
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		if !synced {
			delay = min(delay*2, w.o.backoffMax)
		}
	}
}

// session runs one subscription until it fails; synced reports whether it
// delivered the initial state.
func (w *watcher) session(ctx context.Context) (synced bool, err error) {
	conn, err := grpc.NewClient(w.addr, w.dialOpts...)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// No initial state within the sync timeout: the server is not
	// answering (a stalled switch keeps the TCP connection open).
	syncTimer := time.AfterFunc(w.o.syncWait, cancel)
	defer syncTimer.Stop()
	stalled := func(err error) error {
		if !synced && ctx.Err() != nil && !syncTimer.Stop() {
			return fmt.Errorf("gnmi: no initial state (sync_response) within %v: %w", w.o.syncWait, err)
		}
		return err
	}
	stream, err := gpb.NewGNMIClient(conn).Subscribe(ctx)
	if err != nil {
		return false, stalled(err)
	}
	if err := stream.Send(w.req); err != nil {
		return false, stalled(err)
	}
	known := make(map[string]bool)    // interfaces with a reported state in this session
	reported := make(map[string]bool) // name + "|" + leaf reported in this session (WithPortReports)
	for {
		resp, err := stream.Recv()
		if err != nil {
			return synced, stalled(err)
		}
		switch r := resp.GetResponse().(type) {
		case *gpb.SubscribeResponse_SyncResponse:
			if !synced {
				synced = true
				syncTimer.Stop()
				w.setConnected(true)
			}
		case *gpb.SubscribeResponse_Update:
			if w.o.reports != nil {
				w.portReports(r.Update, reported)
			}
			for _, ev := range w.operEvents(r.Update, known) {
				select {
				case w.events <- ev:
				case <-ctx.Done():
					return synced, ctx.Err()
				}
			}
		case *gpb.SubscribeResponse_Error:
			return synced, fmt.Errorf("gnmi: server error: %s", r.Error.GetMessage())
		}
	}
}

// operEvents extracts the oper-status events for watched interfaces from n.
func (w *watcher) operEvents(n *gpb.Notification, known map[string]bool) []OperEvent {
	at := time.Now()
	if n.GetTimestamp() > 0 {
		at = time.Unix(0, n.GetTimestamp())
	}
	var evs []OperEvent
	for _, u := range n.GetUpdate() {
		name, ok := operStatusLeaf(joinPath(n.GetPrefix(), u.GetPath()))
		if !ok || !w.want[name] {
			continue
		}
		up, err := operUp(u.GetVal())
		if err != nil {
			w.log.Warn("gnmi oper-status: bad value", "interface", name, "err", err)
			continue
		}
		known[name] = true
		evs = append(evs, OperEvent{Name: name, Up: up, At: at})
	}
	for _, d := range n.GetDelete() {
		full := joinPath(n.GetPrefix(), d)
		for name := range known {
			if coversOperStatus(full, name) {
				delete(known, name)
				evs = append(evs, OperEvent{Name: name, Up: false, At: at})
			}
		}
	}
	return evs
}

// portReports hands the admin-status and port-speed values and deletes in
// n to the WithPortReports callback.
func (w *watcher) portReports(n *gpb.Notification, reported map[string]bool) {
	for _, u := range n.GetUpdate() {
		name, leaf, ok := reportLeaf(joinPath(n.GetPrefix(), u.GetPath()))
		if !ok || !w.want[name] {
			continue
		}
		s, err := stringValue(u.GetVal())
		if err != nil {
			w.log.Warn("gnmi "+leaf+": bad value", "interface", name, "err", err)
			continue
		}
		r := PortReport{Name: name, Leaf: leaf}
		if leaf == LeafAdminStatus {
			r.AdminUp = s == StatusUp
		} else {
			r.Speed, r.SpeedBPS = s, ParseSpeed(s)
		}
		reported[name+"|"+leaf] = true
		w.o.reports(r)
	}
	for _, d := range n.GetDelete() {
		full := joinPath(n.GetPrefix(), d)
		for key := range reported {
			name, leaf, _ := strings.Cut(key, "|")
			if coversLeaf(full, name, strings.Split(leaf, "/")...) {
				delete(reported, key)
				w.o.reports(PortReport{Name: name, Leaf: leaf, Deleted: true})
			}
		}
	}
}

// reportLeaf returns NAME and the leaf for
// /interfaces/interface[name=NAME]/state/admin-status and
// /interfaces/interface[name=NAME]/ethernet/state/port-speed.
func reportLeaf(p *gpb.Path) (name, leaf string, ok bool) {
	e := p.GetElem()
	if len(e) < 4 || e[0].GetName() != "interfaces" || e[1].GetName() != "interface" {
		return "", "", false
	}
	name, ok = e[1].GetKey()["name"]
	if !ok {
		return "", "", false
	}
	rest := make([]string, 0, len(e)-2)
	for _, x := range e[2:] {
		rest = append(rest, x.GetName())
	}
	switch l := strings.Join(rest, "/"); l {
	case LeafAdminStatus, LeafPortSpeed:
		return name, l, true
	}
	return "", "", false
}

// coversLeaf reports whether deleting p removes
// /interfaces/interface[name=name]/elems...
func coversLeaf(p *gpb.Path, name string, elems ...string) bool {
	leaf := interfacePath(name, elems...).GetElem()
	e := p.GetElem()
	if len(e) > len(leaf) {
		return false
	}
	for i, pe := range e {
		if pe.GetName() != leaf[i].GetName() && pe.GetName() != "*" {
			return false
		}
		if v, ok := pe.GetKey()["name"]; ok && v != name && v != "*" {
			return false
		}
	}
	return true
}

// stringValue decodes a string leaf: a string, or a JSON string; an
// OpenConfig enum value loses its module prefix.
func stringValue(v *gpb.TypedValue) (string, error) {
	var s string
	switch tv := v.GetValue().(type) {
	case *gpb.TypedValue_StringVal:
		s = tv.StringVal
	case *gpb.TypedValue_JsonIetfVal:
		if err := json.Unmarshal(tv.JsonIetfVal, &s); err != nil {
			return "", fmt.Errorf("json_ietf_val %q is not a string", tv.JsonIetfVal)
		}
	case *gpb.TypedValue_JsonVal:
		if err := json.Unmarshal(tv.JsonVal, &s); err != nil {
			return "", fmt.Errorf("json_val %q is not a string", tv.JsonVal)
		}
	default:
		return "", errors.New("not a string")
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	return s, nil
}

// operStatusLeaf returns NAME for /interfaces/interface[name=NAME]/state/oper-status.
func operStatusLeaf(p *gpb.Path) (string, bool) {
	e := p.GetElem()
	if len(e) != 4 || e[0].GetName() != "interfaces" || e[1].GetName() != "interface" ||
		e[2].GetName() != "state" || e[3].GetName() != "oper-status" {
		return "", false
	}
	name, ok := e[1].GetKey()["name"]
	return name, ok
}

// coversOperStatus reports whether deleting p removes
// /interfaces/interface[name=name]/state/oper-status.
func coversOperStatus(p *gpb.Path, name string) bool {
	leaf := interfacePath(name, "state", "oper-status").GetElem()
	e := p.GetElem()
	if len(e) > len(leaf) {
		return false
	}
	for i, pe := range e {
		if pe.GetName() != leaf[i].GetName() && pe.GetName() != "*" {
			return false
		}
		if v, ok := pe.GetKey()["name"]; ok && v != name && v != "*" {
			return false
		}
	}
	return true
}

// operUp decodes an oper-status value: a string, or a JSON string.
func operUp(v *gpb.TypedValue) (bool, error) {
	var s string
	switch tv := v.GetValue().(type) {
	case *gpb.TypedValue_StringVal:
		s = tv.StringVal
	case *gpb.TypedValue_JsonIetfVal:
		if err := json.Unmarshal(tv.JsonIetfVal, &s); err != nil {
			return false, fmt.Errorf("json_ietf_val %q is not a string", tv.JsonIetfVal)
		}
	case *gpb.TypedValue_JsonVal:
		if err := json.Unmarshal(tv.JsonVal, &s); err != nil {
			return false, fmt.Errorf("json_val %q is not a string", tv.JsonVal)
		}
	default:
		return false, errors.New("oper-status is not a string")
	}
	// OpenConfig enum values may arrive module-qualified.
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		s = s[i+1:]
	}
	return s == StatusUp, nil
}
