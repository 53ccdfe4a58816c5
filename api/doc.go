// Package apiv1 is the balancer's management API (balancer.v1): the
// Balancer gRPC service the daemon serves and the `balancer` CLI calls,
// one RPC per daemon.Service method. The Go code is generated from
// balancer.proto by `make proto` and committed.
package apiv1
