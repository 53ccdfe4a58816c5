package gnmi

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/openconfig/gnmi/cache"
	"github.com/openconfig/gnmi/ctree"
	"github.com/openconfig/gnmi/path"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/openconfig/gnmi/subscribe"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Errors returned by this package. Set handlers may wrap ErrInvalidArgument or
// ErrNotFound to choose the gRPC code the client sees.
var (
	// ErrClosed is returned by calls on a closed Server.
	ErrClosed = errors.New("gnmi: server closed")
	// ErrInvalidArgument marks a malformed request or notification
	// (codes.InvalidArgument at the gRPC boundary).
	ErrInvalidArgument = errors.New("gnmi: invalid argument")
	// ErrNotFound marks a request for something that does not exist
	// (codes.NotFound at the gRPC boundary).
	ErrNotFound = errors.New("gnmi: not found")
)

// DefaultTarget is the target name used when NewServer is given "".
const DefaultTarget = "default"

// Defaults for SAMPLE subscriptions.
const (
	// DefaultMinSampleInterval is the shortest sample_interval accepted unless
	// WithMinSampleInterval says otherwise.
	DefaultMinSampleInterval = 100 * time.Millisecond
	// DefaultSampleInterval is used when a SAMPLE subscription leaves
	// sample_interval at 0 ("the target's choice").
	DefaultSampleInterval = 10 * time.Second
)

// SetHandler applies a gNMI SetRequest. The request has already been checked
// to address this server's target. Returning an error that wraps
// ErrInvalidArgument or ErrNotFound gives the client that code; a gRPC status
// error is passed through; any other error becomes codes.Aborted. A nil
// response is answered with an empty SetResponse.
type SetHandler func(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error)

// ServerOption configures a Server.
type ServerOption func(*serverOptions)

type serverOptions struct {
	setHandler     SetHandler
	logger         *slog.Logger
	models         []*gpb.ModelData
	modelsSet      bool
	minSample      time.Duration
	defaultSample  time.Duration
	maxSubs        int
	maxSubsClient  int
	maxPaths       int // leaves a second (WithMaxLeafRate)
	maxPathsClient int
}

// WithSetHandler enables the Set RPC. Without it Set answers
// codes.Unimplemented.
func WithSetHandler(h SetHandler) ServerOption {
	return func(o *serverOptions) { o.setHandler = h }
}

// WithLogger sets the logger (default: discard).
func WithLogger(l *slog.Logger) ServerOption {
	return func(o *serverOptions) { o.logger = l }
}

// WithModels replaces the models announced by Capabilities (default: the
// OpenConfig interfaces model, as Stratum announces it). The balancer daemon
// uses it to announce its own telemetry model.
func WithModels(models ...*gpb.ModelData) ServerOption {
	return func(o *serverOptions) {
		o.models = models
		o.modelsSet = true
	}
}

// WithMinSampleInterval sets the shortest sample_interval a SAMPLE
// subscription may ask for (default DefaultMinSampleInterval); shorter ones
// are rejected with codes.InvalidArgument.
func WithMinSampleInterval(d time.Duration) ServerOption {
	return func(o *serverOptions) { o.minSample = d }
}

// Defaults of WithMaxSubscriptions.
const (
	DefaultMaxSubscriptions          = 128
	DefaultMaxSubscriptionsPerClient = 16
)

// WithMaxSubscriptions bounds the Subscribe RPCs open at once: total on the
// server and perClient from one client (its IP address). One more is
// refused with codes.ResourceExhausted naming the limit. Defaults
// DefaultMaxSubscriptions and DefaultMaxSubscriptionsPerClient; a limit
// below 1 is raised to 1.
func WithMaxSubscriptions(total, perClient int) ServerOption {
	return func(o *serverOptions) { o.maxSubs, o.maxSubsClient = max(total, 1), max(perClient, 1) }
}

// Defaults of WithMaxLeafRate: with about 10 µs of the server's CPU per
// leaf sent (BenchmarkSubscriptionCost), the total bounds the work of all
// subscriptions to about a fifth of a core.
const (
	DefaultMaxLeafRate          = 16384
	DefaultMaxLeafRatePerClient = 4096
)

// WithMaxLeafRate bounds what the open subscriptions ask of the server, in
// leaves sent a second (SubscriptionCost: every leaf under each path,
// once a second, or at its sample rate): total on the server and
// perClient from one client (its IP address). A subscription list that
// would exceed either is refused with codes.ResourceExhausted naming its
// costliest path and the limit. Defaults DefaultMaxLeafRate and
// DefaultMaxLeafRatePerClient; a limit below 1 is raised to 1.
func WithMaxLeafRate(total, perClient int) ServerOption {
	return func(o *serverOptions) { o.maxPaths, o.maxPathsClient = max(total, 1), max(perClient, 1) }
}

// DefaultModels are the models Capabilities announces unless WithModels is
// given.
func DefaultModels() []*gpb.ModelData {
	return []*gpb.ModelData{{
		Name:         "openconfig-interfaces",
		Organization: "OpenConfig working group",
		Version:      "2.4.1",
	}}
}

// Server is a gNMI target backed by an in-memory cache of the latest value of
// every published leaf. It is safe for concurrent use.
type Server struct {
	target string
	opts   serverOptions
	log    *slog.Logger
	cache  *cache.Cache
	sub    *subscribe.Server
	schema *listSchema

	pubMu  sync.Mutex // serialises cache writes and timestamp assignment
	lastTS int64

	mu      sync.Mutex // guards closed, rpcs.Add and the subscription counts
	closed  bool
	subs    int            // open Subscribe RPCs
	subsBy  map[string]int // by client address
	paths   int            // leaves a second the open subscriptions ask for (SubscriptionCost)
	pathsBy map[string]int // by client address
	rpcs    sync.WaitGroup
	doneCtx context.Context // cancelled by Close; ends active streams
	done    context.CancelFunc
}

// NewServer returns a server for target. It starts nothing: attach it to a
// grpc.Server with Register and publish data with Update or PublishInterface.
// It calls GlogToStderr.
func NewServer(target string, opts ...ServerOption) *Server {
	if target == "" {
		target = DefaultTarget
	}
	o := serverOptions{}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if o.logger == nil {
		o.logger = slog.New(slog.DiscardHandler)
	}
	if !o.modelsSet {
		o.models = DefaultModels()
	}
	if o.minSample <= 0 {
		o.minSample = DefaultMinSampleInterval
	}
	if o.maxSubs == 0 {
		o.maxSubs, o.maxSubsClient = DefaultMaxSubscriptions, DefaultMaxSubscriptionsPerClient
	}
	if o.maxPaths == 0 {
		o.maxPaths, o.maxPathsClient = DefaultMaxLeafRate, DefaultMaxLeafRatePerClient
	}
	o.defaultSample = max(DefaultSampleInterval, o.minSample)

	// The cache and subscribe packages log through glog: to stderr, never
	// to files in the temp directory (unless the program chose a -log_dir).
	if err := GlogToStderr(); err != nil {
		o.logger.Warn("glog output stays in files", "err", err)
	}
	c := cache.New([]string{target})
	// subscribe.NewServer never fails in v0.14.1; the error is part of its
	// signature only.
	sub, err := subscribe.NewServer(c)
	if err != nil {
		panic(fmt.Sprintf("gnmi: subscribe.NewServer: %v", err))
	}
	c.SetClient(sub.Update)
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		target:  target,
		opts:    o,
		log:     o.logger.With("target", target),
		cache:   c,
		sub:     sub,
		schema:  newListSchema(),
		subsBy:  map[string]int{},
		pathsBy: map[string]int{},
		doneCtx: ctx,
		done:    cancel,
	}
}

// Target returns the target name the server answers for.
func (s *Server) Target() string { return s.target }

// Register adds the gNMI service to g. The caller owns g: it calls Serve and
// Stop. Register must be called before g.Serve and at most once per g.
func (s *Server) Register(g *grpc.Server) {
	gpb.RegisterGNMIServer(g, &service{s: s})
}

// Close ends active Subscribe RPCs (the clients see codes.Unavailable), waits
// for all RPC handlers to return and makes later calls fail with ErrClosed.
// It does not stop the grpc.Server. Close is idempotent.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.done()
	s.rpcs.Wait()
	return nil
}

// begin registers an RPC handler; it reports false once the server is closed.
func (s *Server) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.rpcs.Add(1)
	return true
}

func (s *Server) end() { s.rpcs.Done() }

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Update publishes n: its updates replace the cached leaves, its deletes
// remove every cached leaf at or below the deleted paths. Subscribers see
// only leaves whose value changed. n is not retained or modified.
//
// The prefix target may be empty or this server's target. Origins other than
// "" and "openconfig" are rejected. A zero timestamp is replaced by the
// current time (kept strictly increasing); an explicit timestamp older than
// the cached leaf's is rejected by the cache (cache.ErrStale).
func (s *Server) Update(n *gpb.Notification) error {
	if n == nil {
		return fmt.Errorf("gnmi: update: %w: nil notification", ErrInvalidArgument)
	}
	return s.publish(proto.Clone(n).(*gpb.Notification))
}

// publish is Update for a notification the server may keep and modify.
func (s *Server) publish(n *gpb.Notification) error {
	if s.isClosed() {
		return ErrClosed
	}
	if n.Prefix == nil {
		n.Prefix = &gpb.Path{}
	}
	switch t := n.Prefix.Target; t {
	case "":
		n.Prefix.Target = s.target
	case s.target:
	default:
		return fmt.Errorf("gnmi: update: %w: target %q, this server is %q", ErrInvalidArgument, t, s.target)
	}
	if err := clearOrigin(n.Prefix); err != nil {
		return fmt.Errorf("gnmi: update: %w", err)
	}
	if len(n.Prefix.GetElement()) > 0 {
		return fmt.Errorf("gnmi: update: %w: prefix uses the deprecated element field; use elem", ErrInvalidArgument)
	}
	if len(n.Update)+len(n.Delete) == 0 {
		return nil
	}
	for _, u := range n.Update {
		if u.GetPath() == nil {
			u.Path = &gpb.Path{}
		}
		if err := clearOrigin(u.Path); err != nil {
			return fmt.Errorf("gnmi: update %s: %w", pathString(n.Prefix, u.Path), err)
		}
		if len(u.Path.GetElement()) > 0 {
			return fmt.Errorf("gnmi: update %s: %w: path uses the deprecated element field; use elem", pathString(n.Prefix, u.Path), ErrInvalidArgument)
		}
		if u.GetVal() == nil {
			return fmt.Errorf("gnmi: update %s: %w: no value", pathString(n.Prefix, u.Path), ErrInvalidArgument)
		}
		if !n.Atomic && len(n.Prefix.GetElem())+len(u.Path.GetElem()) == 0 {
			return fmt.Errorf("gnmi: update: %w: a leaf update needs a path", ErrInvalidArgument)
		}
		s.schema.learn(joinPath(n.Prefix, u.Path))
	}
	for i, d := range n.Delete {
		if d == nil {
			n.Delete[i] = &gpb.Path{}
			d = n.Delete[i]
		}
		if err := clearOrigin(d); err != nil {
			return fmt.Errorf("gnmi: delete %s: %w", pathString(n.Prefix, d), err)
		}
		if len(d.GetElement()) > 0 {
			return fmt.Errorf("gnmi: delete %s: %w: path uses the deprecated element field; use elem", pathString(n.Prefix, d), ErrInvalidArgument)
		}
		if len(n.Prefix.GetElem())+len(d.GetElem()) == 0 {
			return fmt.Errorf("gnmi: delete: %w: deleting the whole tree is not supported", ErrInvalidArgument)
		}
	}

	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if n.Timestamp == 0 {
		n.Timestamp = max(time.Now().UnixNano(), s.lastTS+1)
	}
	s.lastTS = max(s.lastTS, n.Timestamp)
	if err := s.cache.GnmiUpdate(n); err != nil {
		return fmt.Errorf("gnmi: update: %w", err)
	}
	return nil
}

// clearOrigin maps the default origin to "" (how the cache stores it) and
// rejects any other origin.
func clearOrigin(p *gpb.Path) error {
	switch p.GetOrigin() {
	case "", originOpenConfig:
		if p != nil {
			p.Origin = ""
		}
		return nil
	default:
		return fmt.Errorf("%w: origin %q is not supported (only %q)", ErrInvalidArgument, p.GetOrigin(), originOpenConfig)
	}
}

// checkTarget accepts an empty target, "*" and this server's target.
func (s *Server) checkTarget(prefix *gpb.Path) error {
	switch t := prefix.GetTarget(); t {
	case "", "*", s.target:
		return nil
	default:
		return fmt.Errorf("%w: unknown target %q (this server is %q)", ErrNotFound, t, s.target)
	}
}

// requestPath joins a request prefix and path, checks origins and rewrites
// the result for the cache (see listSchema.normalize).
func (s *Server) requestPath(prefix, p *gpb.Path) (*gpb.Path, error) {
	var err error
	if prefix, err = withElems(prefix); err != nil {
		return nil, err
	}
	if p, err = withElems(p); err != nil {
		return nil, err
	}
	po, o := prefix.GetOrigin(), p.GetOrigin()
	if po != "" && o != "" {
		return nil, fmt.Errorf("%w: path %s: origin is set in both prefix and path", ErrInvalidArgument, pathString(prefix, p))
	}
	if origin := cmp.Or(po, o); origin != "" && origin != originOpenConfig {
		return nil, fmt.Errorf("%w: path %s: origin %q is not supported (only %q)", ErrInvalidArgument, pathString(prefix, p), origin, originOpenConfig)
	}
	return s.schema.normalize(joinPath(prefix, p))
}

// query returns the cached notifications at or below the normalized path p,
// sorted by path.
func (s *Server) query(p *gpb.Path) []*gpb.Notification {
	type hit struct {
		key string
		n   *gpb.Notification
	}
	var hits []hit
	// Query only fails for an unknown target, and ours always exists.
	_ = s.cache.Query(s.target, path.ToStrings(p, false), func(_ []string, _ *ctree.Leaf, v any) error {
		if n, ok := v.(*gpb.Notification); ok {
			hits = append(hits, hit{key: leafKey(n), n: n})
		}
		return nil
	})
	slices.SortFunc(hits, func(a, b hit) int { return cmp.Compare(a.key, b.key) })
	out := make([]*gpb.Notification, len(hits))
	for i, h := range hits {
		out[i] = h.n
	}
	return out
}

// leafKey is the path of a cached leaf notification as a string.
func leafKey(n *gpb.Notification) string {
	if len(n.GetUpdate()) != 1 || n.GetAtomic() {
		return pathString(n.GetPrefix(), nil)
	}
	return pathString(n.GetPrefix(), n.GetUpdate()[0].GetPath())
}

// service is the gRPC face of Server; it keeps gRPC methods off Server's API.
type service struct {
	gpb.UnimplementedGNMIServer
	s *Server
}

var _ gpb.GNMIServer = (*service)(nil)

// gnmiVersion is the gNMI specification version of the vendored proto.
var gnmiVersion = func() string {
	v, _ := proto.GetExtension(gpb.File_github_com_openconfig_gnmi_proto_gnmi_gnmi_proto.Options(), gpb.E_GnmiService).(string)
	return v
}()

var supportedEncodings = []gpb.Encoding{gpb.Encoding_JSON, gpb.Encoding_JSON_IETF, gpb.Encoding_PROTO}

// Capabilities implements gpb.GNMIServer.
func (v *service) Capabilities(context.Context, *gpb.CapabilityRequest) (*gpb.CapabilityResponse, error) {
	if !v.s.begin() {
		return nil, status.Error(codes.Unavailable, ErrClosed.Error())
	}
	defer v.s.end()
	models := make([]*gpb.ModelData, len(v.s.opts.models))
	for i, m := range v.s.opts.models {
		models[i] = proto.Clone(m).(*gpb.ModelData)
	}
	return &gpb.CapabilityResponse{
		SupportedModels:    models,
		SupportedEncodings: slices.Clone(supportedEncodings),
		GNMIVersion:        gnmiVersion,
	}, nil
}

// Get implements gpb.GNMIServer. Each leaf is returned as its own
// notification (with its publication timestamp), PROTO as typed scalars,
// JSON and JSON_IETF as one scalar JSON value per leaf.
func (v *service) Get(_ context.Context, req *gpb.GetRequest) (*gpb.GetResponse, error) {
	s := v.s
	if !s.begin() {
		return nil, status.Error(codes.Unavailable, ErrClosed.Error())
	}
	defer s.end()
	if err := s.checkTarget(req.GetPrefix()); err != nil {
		return nil, grpcError(err)
	}
	enc := req.GetEncoding()
	if !slices.Contains(supportedEncodings, enc) {
		return nil, status.Errorf(codes.InvalidArgument, "get: encoding %s is not supported; use PROTO, JSON_IETF or JSON", enc)
	}
	switch req.GetType() {
	case gpb.GetRequest_ALL, gpb.GetRequest_CONFIG, gpb.GetRequest_STATE, gpb.GetRequest_OPERATIONAL:
	default:
		return nil, status.Errorf(codes.InvalidArgument, "get: unknown data type %d", req.GetType())
	}
	paths := req.GetPath()
	if len(paths) == 0 {
		paths = []*gpb.Path{{}}
	}
	var out []*gpb.Notification
	for _, p := range paths {
		full, err := s.requestPath(req.GetPrefix(), p)
		if err != nil {
			return nil, grpcError(fmt.Errorf("get: %w", err))
		}
		found := 0
		for _, n := range s.query(full) {
			if !wantType(n, req.GetType()) {
				continue
			}
			r, err := encodeLeaf(n, enc)
			if err != nil {
				return nil, status.Errorf(codes.Internal, "get %s: %v", leafKey(n), err)
			}
			out = append(out, r)
			found++
		}
		if found == 0 {
			return nil, status.Errorf(codes.NotFound, "get: no data at path %s", pathString(req.GetPrefix(), p))
		}
	}
	return &gpb.GetResponse{Notification: out}, nil
}

// wantType filters leaves by the OpenConfig convention: configuration lives
// under "config" containers, everything else is state.
func wantType(n *gpb.Notification, t gpb.GetRequest_DataType) bool {
	if t == gpb.GetRequest_ALL {
		return true
	}
	isConfig := false
	for _, u := range n.GetUpdate() {
		if hasElem(n.GetPrefix(), u.GetPath(), "config") {
			isConfig = true
		}
	}
	if t == gpb.GetRequest_CONFIG {
		return isConfig
	}
	return !isConfig
}

// encodeLeaf returns n in the requested encoding. For PROTO the cached
// notification itself is returned; it is never modified.
func encodeLeaf(n *gpb.Notification, enc gpb.Encoding) (*gpb.Notification, error) {
	if enc == gpb.Encoding_PROTO {
		return n, nil
	}
	ietf := enc == gpb.Encoding_JSON_IETF
	r := &gpb.Notification{
		Timestamp: n.GetTimestamp(),
		Prefix:    n.GetPrefix(),
		Atomic:    n.GetAtomic(),
		Update:    make([]*gpb.Update, 0, len(n.GetUpdate())),
	}
	for _, u := range n.GetUpdate() {
		b, err := jsonValue(u.GetVal(), ietf)
		if err != nil {
			return nil, err
		}
		val := &gpb.TypedValue{Value: &gpb.TypedValue_JsonVal{JsonVal: b}}
		if ietf {
			val = &gpb.TypedValue{Value: &gpb.TypedValue_JsonIetfVal{JsonIetfVal: b}}
		}
		r.Update = append(r.Update, &gpb.Update{Path: u.GetPath(), Val: val})
	}
	return r, nil
}

// Set implements gpb.GNMIServer by delegating to the SetHandler.
func (v *service) Set(ctx context.Context, req *gpb.SetRequest) (*gpb.SetResponse, error) {
	s := v.s
	if !s.begin() {
		return nil, status.Error(codes.Unavailable, ErrClosed.Error())
	}
	defer s.end()
	if s.opts.setHandler == nil {
		return nil, status.Errorf(codes.Unimplemented, "set: target %q is read-only", s.target)
	}
	if err := s.checkTarget(req.GetPrefix()); err != nil {
		return nil, grpcError(fmt.Errorf("set: %w", err))
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.doneCtx, cancel)()
	resp, err := s.opts.setHandler(ctx, req)
	if err != nil {
		s.log.Info("gnmi set rejected", "err", err)
		return nil, grpcError(err)
	}
	if resp == nil {
		resp = &gpb.SetResponse{}
	}
	if resp.Prefix == nil {
		resp.Prefix = req.GetPrefix()
	}
	if resp.Timestamp == 0 {
		resp.Timestamp = time.Now().UnixNano()
	}
	return resp, nil
}

// grpcError converts an error of this package to a gRPC status error.
func grpcError(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	switch {
	case errors.Is(err, ErrInvalidArgument):
		return status.Error(codes.InvalidArgument, err.Error())
	case errors.Is(err, ErrNotFound):
		return status.Error(codes.NotFound, err.Error())
	case errors.Is(err, ErrClosed):
		return status.Error(codes.Unavailable, err.Error())
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return status.FromContextError(err).Err()
	default:
		return status.Error(codes.Aborted, err.Error())
	}
}

// withElems returns p in the elem form. A path in the deprecated element
// form (clients such as the openconfig gnmi_cli send it, alone or beside
// elem) is converted; when both are set, elem wins.
func withElems(p *gpb.Path) (*gpb.Path, error) {
	if len(p.GetElement()) == 0 {
		return p, nil
	}
	out := &gpb.Path{Origin: p.GetOrigin(), Target: p.GetTarget(), Elem: p.GetElem()}
	if len(p.GetElem()) == 0 {
		elems, err := elementsToElems(p.GetElement())
		if err != nil {
			return nil, fmt.Errorf("%w: path %s: %v", ErrInvalidArgument, strings.Join(p.GetElement(), "/"), err)
		}
		out.Elem = elems
	}
	return out, nil
}
