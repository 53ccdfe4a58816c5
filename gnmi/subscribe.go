package gnmi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"net"

	"github.com/openconfig/gnmi/ctree"
	"github.com/openconfig/gnmi/path"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Subscribe implements gpb.GNMIServer.
//
// The first request is validated and rewritten (target filled in, default
// origin dropped, list keys completed with wildcards) and then handed to the
// openconfig subscribe package, which serves ONCE, POLL and STREAM ON_CHANGE
// (TARGET_DEFINED is served as ON_CHANGE). STREAM SAMPLE subscriptions, and
// the heartbeats of ON_CHANGE subscriptions with a heartbeat_interval, are
// served by a sampler over the same cache; a list mixing both runs the two
// side by side and sends a single sync_response once both have sent their
// initial data. On a STREAM subscription any later request (a Poll, a
// second subscription list) ends the RPC with codes.InvalidArgument.
//
// At most WithMaxSubscriptions RPCs are open at once, in total and per
// client; one more is refused with codes.ResourceExhausted. What they send
// is bounded by WithMaxLeafRate, in leaves a second (SubscriptionCost,
// with the leaves under each path counted). ONCE and POLL on a path with
// no data answer codes.NotFound, as Get does.
func (v *service) Subscribe(stream gpb.GNMI_SubscribeServer) error {
	s := v.s
	if !s.begin() {
		return status.Error(codes.Unavailable, ErrClosed.Error())
	}
	defer s.end()
	release, err := s.admit(stream.Context())
	if err != nil {
		return err
	}
	defer release()

	ctx, cancel := context.WithCancel(stream.Context())
	defer cancel()
	stop := context.AfterFunc(s.doneCtx, cancel)
	defer stop()

	// The work runs in its own goroutine so that Close (or the client going
	// away) ends the RPC even while a Recv waits for a silent client or a
	// Send is stuck on one that does not read: returning from the handler
	// tears the stream down, which unblocks them.
	sender := &lockedSender{stream: stream}
	result := make(chan error, 1)
	go func() { result <- s.serveSubscribe(ctx, stream, sender) }()
	select {
	case err = <-result:
	case <-ctx.Done():
		sender.stop()
		err = ctx.Err()
	}
	if s.doneCtx.Err() != nil {
		return status.Error(codes.Unavailable, ErrClosed.Error())
	}
	if err != nil {
		return grpcError(err)
	}
	return nil
}

// clientOf is the client's IP address, the unit of the per-client limits.
func clientOf(ctx context.Context) string {
	client := "unknown"
	if p, ok := peer.FromContext(ctx); ok && p.Addr != nil {
		client = p.Addr.String()
		if host, _, err := net.SplitHostPort(client); err == nil {
			client = host
		}
	}
	return client
}

// perSecond is how often a subscription of a list of mode listMode sends
// each of its leaves, at most: at its sample rate (SAMPLE; defaultSample
// when it gives none), at its heartbeat rate (an ON_CHANGE heartbeat
// faster than once a second), else once a second (an ON_CHANGE leaf
// changes at most at each publication; ONCE and POLL send each leaf once
// per request).
func perSecond(listMode gpb.SubscriptionList_Mode, sub *gpb.Subscription, defaultSample time.Duration) float64 {
	rate := func(ns uint64) float64 {
		if ns == 0 {
			return 1
		}
		return float64(time.Second) / float64(ns)
	}
	if listMode != gpb.SubscriptionList_STREAM {
		return 1
	}
	switch sub.GetMode() {
	case gpb.SubscriptionMode_SAMPLE:
		iv := sub.GetSampleInterval()
		if iv == 0 {
			iv = uint64(defaultSample)
		}
		return rate(iv)
	default:
		if hb := sub.GetHeartbeatInterval(); hb > 0 {
			return max(1, rate(hb))
		}
		return 1
	}
}

// leafCost is what leaves leaves sent at perSec a second cost, in leaves a
// second: rounded up, at least 1, at most maxCost.
func leafCost(leaves int, perSec float64) int {
	const maxCost = 1 << 40
	c := math.Ceil(float64(max(leaves, 1)) * perSec)
	if c > maxCost {
		return maxCost
	}
	return max(int(c), 1)
}

// SubscriptionCost is what a subscription list asks of the server, in
// leaves sent a second, with every path counting as one leaf: a lower
// bound of its cost (the server counts the leaves under each path). A
// leaf sampled (SAMPLE, or an ON_CHANGE heartbeat) every D costs 1s/D
// (10 at 100 ms, 0.1 at 10 s); any other costs 1. Each path costs at
// least 1. defaultSample is the interval of a SAMPLE subscription that
// gives none.
func SubscriptionCost(list *gpb.SubscriptionList, defaultSample time.Duration) int {
	cost := 0
	for _, sub := range list.GetSubscription() {
		cost += leafCost(1, perSecond(list.GetMode(), sub, defaultSample))
	}
	return cost
}

// countLeaves is the number of cached leaves at or below the normalized
// path p.
func (s *Server) countLeaves(p *gpb.Path) int {
	n := 0
	_ = s.cache.Query(s.target, path.ToStrings(p, false), func([]string, *ctree.Leaf, any) error {
		n++
		return nil
	})
	return n
}

// listCost is what list asks of the server, in leaves sent a second: for
// each subscription the leaves under its path (full, normalized; at least
// one) times how often it sends them. It also describes the costliest
// subscription, as the client typed it. With ONCE and POLL a path with no
// leaf is codes.NotFound, as Get answers it; a STREAM may wait for a path
// that is published later (it counts one leaf).
func (s *Server) listCost(list *gpb.SubscriptionList, prefix *gpb.Path, full []*gpb.Path) (int, string, error) {
	cost, worst, worstCost := 0, "", -1
	for i, sub := range list.GetSubscription() {
		leaves := s.countLeaves(full[i])
		if leaves == 0 && list.GetMode() != gpb.SubscriptionList_STREAM {
			return 0, "", status.Errorf(codes.NotFound, "subscribe: no data at path %s", pathString(prefix, sub.GetPath()))
		}
		ps := perSecond(list.GetMode(), sub, s.opts.defaultSample)
		c := leafCost(leaves, ps)
		cost += c
		if c > worstCost {
			worstCost = c
			worst = fmt.Sprintf("its costliest is path %s: %d leaves %.3g times a second, %d", pathString(prefix, sub.GetPath()), leaves, ps, c)
		}
	}
	return cost, worst, nil
}

// admitPaths counts what a subscription list asks for, in leaves a second
// (cost; detail describes its costliest path), against the limits;
// release uncounts it. With count false it only checks cost alone
// against the limits, whatever the open subscriptions hold (release is
// nil): a list over a limit by itself is refused before its leaves are
// counted.
func (s *Server) admitPaths(client string, cost int, detail string, count bool) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	what := fmt.Sprintf("this subscription list asks for %d leaves a second (every leaf under each path once a second, or at its sample rate; %s)", cost, detail)
	const fix = "subscribe to narrower paths, sample them less often, or raise the limit"
	held, heldBy := s.paths, s.pathsBy[client]
	heldAll, heldClient := fmt.Sprintf(", and the open subscriptions hold %d", held), fmt.Sprintf(", and client %s holds %d", client, heldBy)
	if !count {
		held, heldBy, heldAll, heldClient = 0, 0, "", ""
	}
	if held+cost > s.opts.maxPaths {
		s.log.Warn("gnmi subscribe refused: server leaf rate limit", "client", client, "cost", cost, "limit", s.opts.maxPaths)
		return nil, status.Errorf(codes.ResourceExhausted,
			"subscribe: %s%s: over the limit of %d leaves a second this server sends in all; %s", what, heldAll, s.opts.maxPaths, fix)
	}
	if heldBy+cost > s.opts.maxPathsClient {
		s.log.Warn("gnmi subscribe refused: client leaf rate limit", "client", client, "cost", cost, "limit", s.opts.maxPathsClient)
		return nil, status.Errorf(codes.ResourceExhausted,
			"subscribe: %s%s: over the limit of %d leaves a second per client; %s", what, heldClient, s.opts.maxPathsClient, fix)
	}
	if !count {
		return nil, nil
	}
	s.paths += cost
	s.pathsBy[client] += cost
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.paths -= cost
		if s.pathsBy[client] -= cost; s.pathsBy[client] <= 0 {
			delete(s.pathsBy, client)
		}
	}, nil
}

// admit counts a new Subscribe RPC against the limits; release uncounts it.
func (s *Server) admit(ctx context.Context) (release func(), err error) {
	client := clientOf(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs >= s.opts.maxSubs {
		s.log.Warn("gnmi subscribe refused: server limit", "client", client, "limit", s.opts.maxSubs)
		return nil, status.Errorf(codes.ResourceExhausted,
			"subscribe: %d subscriptions are open, the most this server serves at once (limit %d): close one or raise the limit", s.subs, s.opts.maxSubs)
	}
	if s.subsBy[client] >= s.opts.maxSubsClient {
		s.log.Warn("gnmi subscribe refused: client limit", "client", client, "limit", s.opts.maxSubsClient)
		return nil, status.Errorf(codes.ResourceExhausted,
			"subscribe: client %s has %d subscriptions open, the most one client may have (limit %d per client): close one or raise the limit", client, s.subsBy[client], s.opts.maxSubsClient)
	}
	s.subs++
	s.subsBy[client]++
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.subs--
		if s.subsBy[client]--; s.subsBy[client] <= 0 {
			delete(s.subsBy, client)
		}
	}, nil
}

// Subscriptions returns the number of open Subscribe RPCs.
func (s *Server) Subscriptions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.subs
}

// refuseLaterRequests reads a STREAM subscription's stream after its first
// request: the client may only close its side (nil). A Poll or anything else
// is an error for the client (the subscribe package would ignore it).
func refuseLaterRequests(stream gpb.GNMI_SubscribeServer) error {
	for {
		req, err := stream.Recv()
		if err != nil {
			return nil // closed by the client, or the RPC ended
		}
		switch req.GetRequest().(type) {
		case *gpb.SubscribeRequest_Poll:
			return status.Error(codes.InvalidArgument, "subscribe: poll on a STREAM subscription: polls are served only for a subscription list of mode POLL")
		case *gpb.SubscribeRequest_Subscribe:
			return status.Error(codes.InvalidArgument, "subscribe: a second subscription list on a STREAM subscription: open another Subscribe RPC")
		default:
			return status.Errorf(codes.InvalidArgument, "subscribe: unexpected request %T on a STREAM subscription", req.GetRequest())
		}
	}
}

// serveSubscribe reads and validates the first request and serves it.
func (s *Server) serveSubscribe(ctx context.Context, stream gpb.GNMI_SubscribeServer, sender *lockedSender) error {
	req, err := stream.Recv()
	switch {
	case errors.Is(err, io.EOF):
		return nil
	case err != nil:
		return err
	}
	list := req.GetSubscribe()
	if list == nil {
		return status.Error(codes.InvalidArgument, "subscribe: the first request must carry a subscription list")
	}
	// A lower bound (every path one leaf) is checked alone against the
	// limits before any work on the list: a list of many paths, or of
	// paths sampled very often, is refused whole at once. The leaves
	// under each path are counted then, and checked with what is held.
	client := clientOf(ctx)
	if _, err := s.admitPaths(client, SubscriptionCost(list, s.opts.defaultSample), "counting every path as one leaf", false); err != nil {
		return err
	}
	prefix := list.GetPrefix()
	onChange, samples, full, err := s.prepareList(list)
	if err != nil {
		return fmt.Errorf("subscribe: %w", err)
	}
	cost, worst, err := s.listCost(list, prefix, full)
	if err != nil {
		return err
	}
	release, err := s.admitPaths(client, cost, worst, true)
	if err != nil {
		return err
	}
	defer release()
	s.log.Debug("gnmi subscribe", "mode", list.GetMode(), "on_change", len(onChange), "sample", len(samples))

	if list.GetMode() != gpb.SubscriptionList_STREAM {
		return s.sub.Subscribe(newPkgStream(ctx, stream, withSubs(list, onChange), sender.send))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	served := make(chan error, 1)
	go func() {
		switch {
		case len(samples) == 0:
			served <- s.sub.Subscribe(newPkgStream(ctx, stream, withSubs(list, onChange), sender.send))
		case len(onChange) == 0:
			served <- s.runSampler(ctx, sender.send, samples, list.GetUpdatesOnly(), func() bool { return true })
		default:
			served <- s.runMixed(ctx, cancel, stream, sender, list, onChange, samples)
		}
	}()
	later := make(chan error, 1)
	go func() { later <- refuseLaterRequests(stream) }()
	for {
		select {
		case err := <-served:
			return err
		case err := <-later:
			if err == nil {
				later = nil // the client closed its side: keep serving
				continue
			}
			cancel()
			<-served
			return err
		}
	}
}

// runMixed serves a STREAM list with both ON_CHANGE and SAMPLE
// subscriptions. Whichever side finishes first ends the other.
func (s *Server) runMixed(ctx context.Context, cancel context.CancelFunc, stream gpb.GNMI_SubscribeServer,
	sender *lockedSender, list *gpb.SubscriptionList, onChange []*gpb.Subscription, samples []*sampleSub) error {
	var pending atomic.Int32 // parties that have not reached their sync yet
	pending.Store(2)
	arrive := func() bool { return pending.Add(-1) == 0 }

	pkgSend := func(r *gpb.SubscribeResponse) error {
		if r.GetSyncResponse() && !arrive() {
			return nil // the sampler sends the sync when it is done
		}
		return sender.send(r)
	}
	pkgErr := make(chan error, 1)
	go func() {
		pkgErr <- s.sub.Subscribe(newPkgStream(ctx, stream, withSubs(list, onChange), pkgSend))
		cancel()
	}()
	serr := s.runSampler(ctx, sender.send, samples, list.GetUpdatesOnly(), arrive)
	cancel()
	if perr := <-pkgErr; perr != nil && !errors.Is(perr, context.Canceled) {
		return perr
	}
	return serr
}

// prepareList validates list and rewrites it in place for the subscribe
// package. It returns the STREAM subscriptions served on change and the
// SAMPLE ones; for ONCE and POLL every subscription is in onChange. fulls
// are the subscriptions' normalized full paths, in the list's order.
func (s *Server) prepareList(list *gpb.SubscriptionList) (onChange []*gpb.Subscription, samples []*sampleSub, fulls []*gpb.Path, err error) {
	if err := s.checkTarget(list.GetPrefix()); err != nil {
		return nil, nil, nil, err
	}
	switch list.GetMode() {
	case gpb.SubscriptionList_ONCE, gpb.SubscriptionList_POLL, gpb.SubscriptionList_STREAM:
	default:
		return nil, nil, nil, fmt.Errorf("%w: unknown subscription list mode %d", ErrInvalidArgument, list.GetMode())
	}
	if enc := list.GetEncoding(); !slices.Contains(supportedEncodings, enc) {
		return nil, nil, nil, fmt.Errorf("%w: encoding %s is not supported; use PROTO, JSON_IETF or JSON", ErrInvalidArgument, enc)
	}
	if len(list.GetSubscription()) == 0 {
		return nil, nil, nil, fmt.Errorf("%w: subscription list has no subscriptions", ErrInvalidArgument)
	}
	prefix := list.GetPrefix()
	for _, sub := range list.GetSubscription() {
		full, err := s.requestPath(prefix, sub.GetPath())
		if err != nil {
			return nil, nil, nil, err
		}
		fulls = append(fulls, full)
		ns := &gpb.Subscription{
			Path:              full,
			Mode:              sub.GetMode(),
			SampleInterval:    sub.GetSampleInterval(),
			SuppressRedundant: sub.GetSuppressRedundant(),
			HeartbeatInterval: sub.GetHeartbeatInterval(),
		}
		if list.GetMode() != gpb.SubscriptionList_STREAM {
			onChange = append(onChange, ns)
			continue
		}
		switch sub.GetMode() {
		case gpb.SubscriptionMode_TARGET_DEFINED, gpb.SubscriptionMode_ON_CHANGE:
			onChange = append(onChange, ns)
			if hb := sub.GetHeartbeatInterval(); hb > 0 {
				// gNMI: with a heartbeat_interval the target re-sends the
				// current value of every leaf at that interval even when it
				// did not change. The sampler does it; the initial data
				// comes from the ON_CHANGE side.
				if hb > uint64(1<<63-1) || time.Duration(hb) < s.opts.minSample {
					return nil, nil, nil, fmt.Errorf("%w: subscription %s: heartbeat_interval %v is below the minimum %v", ErrInvalidArgument, pathString(nil, full), time.Duration(min(hb, uint64(1<<63-1))), s.opts.minSample)
				}
				samples = append(samples, &sampleSub{query: path.ToStrings(full, false), interval: time.Duration(hb), noInitial: true})
			}
		case gpb.SubscriptionMode_SAMPLE:
			interval := time.Duration(sub.GetSampleInterval())
			switch {
			case sub.GetSampleInterval() > uint64(1<<63-1):
				return nil, nil, nil, fmt.Errorf("%w: subscription %s: sample_interval %d ns is out of range", ErrInvalidArgument, pathString(nil, full), sub.GetSampleInterval())
			case interval == 0:
				interval = s.opts.defaultSample
			case interval < s.opts.minSample:
				return nil, nil, nil, fmt.Errorf("%w: subscription %s: sample_interval %v is below the minimum %v", ErrInvalidArgument, pathString(nil, full), interval, s.opts.minSample)
			}
			samples = append(samples, &sampleSub{
				query:     path.ToStrings(full, false),
				interval:  interval,
				suppress:  sub.GetSuppressRedundant(),
				heartbeat: time.Duration(min(sub.GetHeartbeatInterval(), uint64(1<<63-1))),
			})
		default:
			return nil, nil, nil, fmt.Errorf("%w: subscription %s: unknown mode %d", ErrInvalidArgument, pathString(nil, full), sub.GetMode())
		}
	}
	list.Prefix = &gpb.Path{Target: s.target}
	return onChange, samples, fulls, nil
}

// withSubs returns the first request handed to the subscribe package: list
// (already rewritten by prepareList) with subs as its subscriptions.
func withSubs(list *gpb.SubscriptionList, subs []*gpb.Subscription) *gpb.SubscribeRequest {
	l := proto.Clone(list).(*gpb.SubscriptionList)
	l.Subscription = subs
	return &gpb.SubscribeRequest{Request: &gpb.SubscribeRequest_Subscribe{Subscribe: l}}
}

// lockedSender serialises Send on one stream: gRPC forbids concurrent sends
// and a mixed subscription sends from two goroutines.
// After stop, sends fail without touching the stream.
type lockedSender struct {
	mu      sync.Mutex
	stream  gpb.GNMI_SubscribeServer
	stopped atomic.Bool
}

var errStreamEnded = errors.New("gnmi: subscribe stream ended")

func (l *lockedSender) send(r *gpb.SubscribeResponse) error {
	if l.stopped.Load() {
		return errStreamEnded
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.stopped.Load() {
		return errStreamEnded
	}
	return l.stream.Send(r)
}

// stop makes later sends fail; it does not wait for one in progress.
func (l *lockedSender) stop() { l.stopped.Store(true) }

// pkgStream is the stream the subscribe package sees: the first Recv returns
// the rewritten request, Context is cancelled by Close or by the other half
// of a mixed subscription, and Send goes through send.
type pkgStream struct {
	gpb.GNMI_SubscribeServer
	ctx   context.Context
	first atomic.Pointer[gpb.SubscribeRequest]
	sendF func(*gpb.SubscribeResponse) error
}

func newPkgStream(ctx context.Context, stream gpb.GNMI_SubscribeServer, first *gpb.SubscribeRequest,
	send func(*gpb.SubscribeResponse) error) *pkgStream {
	p := &pkgStream{GNMI_SubscribeServer: stream, ctx: ctx, sendF: send}
	p.first.Store(first)
	return p
}

func (p *pkgStream) Context() context.Context { return p.ctx }

func (p *pkgStream) Recv() (*gpb.SubscribeRequest, error) {
	if r := p.first.Swap(nil); r != nil {
		return r, nil
	}
	return p.GNMI_SubscribeServer.Recv()
}

func (p *pkgStream) Send(r *gpb.SubscribeResponse) error { return p.sendF(r) }

// sampleSub is one SAMPLE subscription of a stream.
type sampleSub struct {
	query     []string
	interval  time.Duration
	suppress  bool
	heartbeat time.Duration
	// noInitial: the heartbeat of an ON_CHANGE subscription, whose
	// initial data the subscribe package sends.
	noInitial bool

	next time.Time
	last map[string]sentLeaf // by cache path; what was last sent
}

type sentLeaf struct {
	n  *gpb.Notification
	at time.Time
}

// runSampler sends the initial sample of every subscription (unless
// updatesOnly), then a sync_response when synced reports it is the last
// party to finish its initial data, then samples each subscription at its
// interval until ctx ends.
func (s *Server) runSampler(ctx context.Context, send func(*gpb.SubscribeResponse) error, subs []*sampleSub,
	updatesOnly bool, synced func() bool) error {
	now := time.Now()
	for _, sub := range subs {
		sub.last = make(map[string]sentLeaf)
		if !updatesOnly && !sub.noInitial {
			if err := s.sample(sub, send, now); err != nil {
				return err
			}
		}
		sub.next = now.Add(sub.interval)
	}
	if synced() {
		if err := send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_SyncResponse{SyncResponse: true}}); err != nil {
			return err
		}
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next := subs[0].next
		for _, sub := range subs[1:] {
			if sub.next.Before(next) {
				next = sub.next
			}
		}
		timer.Reset(time.Until(next))
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timer.C:
		}
		now := time.Now()
		for _, sub := range subs {
			if now.Before(sub.next) {
				continue
			}
			if err := s.sample(sub, send, now); err != nil {
				return err
			}
			sub.next = sub.next.Add(sub.interval)
			if sub.next.Before(now) { // fell behind: skip missed samples
				sub.next = now.Add(sub.interval)
			}
		}
	}
}

// sample sends the current value of every leaf under sub, skipping unchanged
// leaves when suppress_redundant is set (unless the heartbeat is due), and a
// delete for every leaf sent before that has disappeared since.
func (s *Server) sample(sub *sampleSub, send func(*gpb.SubscribeResponse) error, now time.Time) error {
	seen := make(map[string]bool, len(sub.last))
	var out []*gpb.Notification
	_ = s.cache.Query(s.target, sub.query, func(p []string, _ *ctree.Leaf, v any) error {
		n, ok := v.(*gpb.Notification)
		if !ok {
			return nil
		}
		k := strings.Join(p, "\x00")
		seen[k] = true
		prev, had := sub.last[k]
		if sub.suppress && had && sameUpdates(prev.n, n) && (sub.heartbeat == 0 || now.Sub(prev.at) < sub.heartbeat) {
			return nil
		}
		sub.last[k] = sentLeaf{n: n, at: now}
		out = append(out, n)
		return nil
	})
	for k, prev := range sub.last {
		if !seen[k] {
			delete(sub.last, k)
			if !sub.noInitial { // the ON_CHANGE side sends heartbeat leaves' deletes
				out = append(out, deleteOf(prev.n, now.UnixNano()))
			}
		}
	}
	for _, n := range out {
		if err := send(&gpb.SubscribeResponse{Response: &gpb.SubscribeResponse_Update{Update: n}}); err != nil {
			return err
		}
	}
	return nil
}

// sameUpdates reports whether two leaf notifications carry the same values
// (timestamps aside).
func sameUpdates(a, b *gpb.Notification) bool {
	if a == b {
		return true
	}
	return slices.EqualFunc(a.GetUpdate(), b.GetUpdate(), func(x, y *gpb.Update) bool { return proto.Equal(x, y) })
}

// deleteOf returns a notification deleting the leaf (or atomic subtree) n.
func deleteOf(n *gpb.Notification, ts int64) *gpb.Notification {
	d := &gpb.Notification{Timestamp: ts, Prefix: &gpb.Path{Target: n.GetPrefix().GetTarget()}}
	if n.GetAtomic() || len(n.GetUpdate()) != 1 {
		d.Delete = []*gpb.Path{joinPath(n.GetPrefix(), nil)}
	} else {
		d.Delete = []*gpb.Path{joinPath(n.GetPrefix(), n.GetUpdate()[0].GetPath())}
	}
	return d
}
