// Package gnmi serves and consumes gNMI telemetry for the balancer.
//
// One server type covers both users in the product:
//
//   - the software switch (sim) serves OpenConfig interface state to the
//     controller the way Stratum does (see [Server.PublishInterface] and
//     docs/gnmi.md for the exact paths and value types);
//   - the balancer daemon serves its own telemetry tree to collectors through
//     [Server.Update].
//
// The server keeps the latest value of every leaf in an
// github.com/openconfig/gnmi/cache and answers Subscribe with
// github.com/openconfig/gnmi/subscribe (ONCE, POLL, STREAM ON_CHANGE and
// TARGET_DEFINED, updates_only, sync_response). STREAM SAMPLE, which that
// package does not implement, is added here by sampling the same cache. The
// cache suppresses updates whose value did not change, so ON_CHANGE
// subscribers only see leaves that really changed.
//
// The controller side is [WatchOperStatus]: a STREAM ON_CHANGE subscription to
// the oper-status of a set of ports that reconnects with exponential backoff.
//
// # Lifecycle
//
// [NewServer] starts nothing; [Server.Register] attaches the gNMI service to a
// grpc.Server owned by the caller, who also starts and stops it.
// [Server.Close] ends every active Subscribe RPC (with codes.Unavailable),
// waits for their handlers, and makes later calls fail with [ErrClosed]. Close
// does not stop the grpc.Server.
//
// # Logging hazard
//
// The openconfig cache and subscribe packages log through
// github.com/golang/glog, which by default writes log files into
// os.TempDir() (one INFO line per Subscribe RPC). glog v1.2 has no way to
// hand its lines to another logger, so [NewServer] calls [GlogToStderr]
// (and the balancer's sim and daemon commands call it at startup): the
// lines go to standard error, beside the program's own log, and no file is
// written unless the program chose a glog -log_dir. This package's own logs
// go to the injected *slog.Logger.
package gnmi
