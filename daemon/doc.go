// Package daemon runs the balancer for one switch: it keeps the running
// configuration (persisted atomically, with revisions), compiles it with
// the availability state into P4Runtime entities, keeps the switch
// programmed through a controlplane.Session, runs the keep-alive engine,
// follows port status over gNMI, implements Service (the management API
// that package apiserver serves), and publishes telemetry over gNMI and
// Prometheus metrics.
package daemon
