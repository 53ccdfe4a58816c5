// Package telemetry serves what the daemon publishes (daemon.Publisher):
// its status and counters as the /balancer gNMI tree (docs/telemetry.md)
// and as Prometheus metrics. The daemon core does not import it: the
// caller makes a Publisher, gives it to daemon.New in Options.Telemetry,
// and serves its gNMI server and Registry.
package telemetry
