// Package apiv1 is the balancer's management API (balancer.v1): the
// Balancer gRPC service the daemon serves and the `balancer` CLI calls,
// one RPC per daemon.Service method. The Go code is generated from
// balancer.proto by `make proto` and committed.
package apiv1

// OriginTrailer is a trailer metadata key the daemon's API server sets
// (to OriginDaemon) on every error it returns. A client tells by it an
// error status the daemon sent (UNAVAILABLE: the switch is unreachable)
// from one its gRPC library made up (UNAVAILABLE: the daemon is
// unreachable).
const (
	OriginTrailer = "balancer-origin"
	OriginDaemon  = "daemon"
)
