package apiserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sync/errgroup"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/daemon"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// Servers are the servers Serve runs beside the daemon, on listeners the
// caller opened. Only API is required.
type Servers struct {
	// API is the management API's listener (ListenUnix, or ListenTLS with
	// its credentials in APIOptions).
	API        net.Listener
	APIOptions []grpc.ServerOption
	// Telemetry is the gNMI server (telemetry.NewServer, the one the
	// daemon's telemetry.Publisher updates), served on TelemetryListener.
	Telemetry         *bgnmi.Server
	TelemetryListener net.Listener
	// Metrics serves Prometheus /metrics: what MetricsRegistry gathers
	// (the daemon's telemetry publisher's Registry).
	Metrics         net.Listener
	MetricsRegistry prometheus.Gatherer
	// TLS, when set, serves telemetry and metrics with it (ServerTLSConfig).
	TLS *tls.Config
	// Run runs the daemon; nil means d.Run. A caller wraps the daemon's
	// run here (a leader election, for one).
	Run func(ctx context.Context) error
	// Logger gets the metrics server's errors, at debug level (nil:
	// discarded).
	Logger *slog.Logger
}

// Serve runs the daemon and its servers until ctx ends or one of them
// fails; then the daemon stops first, the servers after it, and Serve
// returns the first failure (nil when ctx ended it).
func Serve(ctx context.Context, d *daemon.Daemon, s Servers) error {
	if s.API == nil {
		return errors.New("serve: no management API listener")
	}
	if s.Metrics != nil && s.MetricsRegistry == nil {
		return errors.New("serve: a metrics listener and no metrics registry")
	}
	run := s.Run
	if run == nil {
		run = d.Run
	}
	log := s.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	g, gctx := errgroup.WithContext(ctx)

	api := grpc.NewServer(s.APIOptions...)
	stopping := make(chan struct{})
	apiv1.RegisterBalancerServer(api, &apiServer{svc: d, stopping: stopping})
	g.Go(func() error {
		if err := api.Serve(s.API); err != nil {
			return fmt.Errorf("management API: %w", err)
		}
		return nil
	})
	var tele *grpc.Server
	if s.Telemetry != nil && s.TelemetryListener != nil {
		var opts []grpc.ServerOption
		if s.TLS != nil {
			opts = append(opts, grpc.Creds(credentials.NewTLS(s.TLS)))
		}
		tele = grpc.NewServer(opts...)
		s.Telemetry.Register(tele)
		g.Go(func() error {
			if err := tele.Serve(s.TelemetryListener); err != nil {
				return fmt.Errorf("telemetry: %w", err)
			}
			return nil
		})
	}
	var metrics *http.Server
	if s.Metrics != nil {
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(s.MetricsRegistry, promhttp.HandlerOpts{}))
		metrics = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second,
			ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
		ml := s.Metrics
		if s.TLS != nil {
			ml = tls.NewListener(ml, s.TLS.Clone())
		}
		g.Go(func() error {
			if err := metrics.Serve(ml); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("metrics: %w", err)
			}
			return nil
		})
	}

	ran := make(chan struct{})
	g.Go(func() error {
		defer close(ran)
		return run(gctx)
	})
	g.Go(func() error {
		<-gctx.Done()
		<-ran
		// A following monitor never ends by itself: end it, so that the
		// graceful stop (which lets every other call finish) does not
		// wait for it forever, and its client hears the daemon stopped.
		close(stopping)
		api.GracefulStop()
		if tele != nil {
			tele.Stop()
			s.Telemetry.Close()
		}
		if metrics != nil {
			sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = metrics.Shutdown(sctx)
		}
		return nil
	})
	return g.Wait()
}
