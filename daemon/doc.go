// Package daemon runs the balancer for one switch: it keeps the running
// configuration (persisted atomically, with revisions), compiles it with
// the availability state into P4Runtime entities, keeps the switch
// programmed through a controlplane.Session, runs the keep-alive engine,
// and follows port status over gNMI. It implements Service, the
// management API that package apiserver serves, and publishes its status
// and counters to a Publisher, which package telemetry serves over gNMI
// and as Prometheus metrics; it imports neither.
package daemon
