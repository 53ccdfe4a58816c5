// Package apiserver serves the daemon: the management API
// (balancer.v1.Balancer over gRPC) backed by a daemon.Service, the
// listeners it is served on (a unix socket of mode 0600, or TCP with
// mutual TLS), and Serve, which runs a daemon with its API, telemetry and
// metrics servers. It is the one place that maps the daemon's errors to
// gRPC status codes.
package apiserver
