package daemoncmd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"google.golang.org/grpc"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/controlplane"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/apiserver"
	"github.com/dpi-balancer/balancer/daemon/telemetry"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

const daemonLong = `daemon runs the balancer's control plane for one switch.

It keeps the running configuration in --state-dir (saved atomically, with a
revision history; --config is read only when the directory has none yet),
programs the switch over P4Runtime (--switch), reconciles it after every
reconnection (a restarted switch gets the pipeline and every entry back; a
restarted daemon writes nothing when nothing changed), sends keep-alives
through every filter, follows port status over the switch's gNMI
(--switch-gnmi), and serves:
  the management API   on --socket (unix, mode 0600; 0660 and group
                       --socket-group's with it), or --listen over
                       mutual TLS (--tls-cert, --tls-key, --tls-client-ca)
  telemetry (gNMI)     on --telemetry: the OpenConfig-style balancer tree
                       (at most --telemetry-max-subscriptions streams,
                       --telemetry-max-subscriptions-per-client per client,
                       sending --telemetry-max-leaf-rate leaves a second,
                       --telemetry-max-leaf-rate-per-client per client)
  Prometheus metrics   on --metrics (/metrics)
--telemetry-tls serves gNMI and metrics with mutual TLS too, with the
management API's certificate, key and client CA.

Every change made through the API (a revision, a manual bypass, a filter
group returned) records who made it: the user of a socket client (its
peer credentials), or the subject of a TLS client's certificate; config
history and monitor show it. --name names this balancer in its status,
telemetry and metrics (default: the host name), so that the boxes of one
site can be told apart.

The pipeline it pushes is chosen at start by the platform of the running
site, as its store holds it (the state directory, or etcd with --store
etcd; --config the first time): sim and bmv2 take the embedded v1model
build, wedge100bf-32x the Tofino build, which --device-config names,
packed for Stratum; or by --pipeline-format,
--p4info and --device-config. A P4Info whose names or ids differ from the
v1model build's is refused, naming the first difference.

Several daemons may drive one switch: the one with the highest election id
is primary and writes; the others stay connected as backups and take over
when the primary goes away. With --store etcd they share the configuration
and runtime state in etcd (--etcd-endpoints, --etcd-prefix per switch) and
an etcd leader election picks the primary: its election id comes from the
election, so a deposed leader's writes are refused by the switch, and a
leader cut off from etcd steps down before its lease (--etcd-lease-ttl)
can expire. When etcd loses its quorum the leader holds the switch, fails
over from its own state and refuses changes (--ha-on-quorum-loss hold), or
steps down (step-down). --etcd-tls-* connect to etcd over TLS. See
docs/ha.md.`

func newDaemonCmd() *cobra.Command {
	var (
		cfgPath, stateDir              string
		name, socketGroup              string
		switchAddr, switchGNMI         string
		deviceID                       uint64
		election, role                 string
		swCA, swCert, swKey            string
		listen, tlsCert, tlsKey        string
		tlsClientCA                    string
		telemetryAddr, metricsAddr     string
		telemetryTLS                   bool
		maxSubs, maxSubsClient         int
		maxLeafRate, maxLeafRateClient int
		logLevel                       string
		pipe                           pipelineFlags
		switchTiming                   func() (controlplane.Timing, error)
		store                          storeFlags
	)
	cmd := &cobra.Command{
		Use:   "daemon",
		Short: "Run the control plane for one switch",
		Long:  daemonLong,
		Example: `  balancer daemon --config examples/site.yaml --state-dir /var/lib/balancer \
      --switch 127.0.0.1:9559 --switch-gnmi 127.0.0.1:9339`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			log, err := newLogger(logLevel)
			if err != nil {
				return err
			}
			// The gNMI library logs through glog: to stderr, never to
			// files in the temp directory.
			if err := bgnmi.GlogToStderr(); err != nil {
				return err
			}
			socket, _ := cmd.Flags().GetString("socket")
			histRevs, _ := cmd.Flags().GetInt("history-revisions")
			histBytes, _ := cmd.Flags().GetInt64("history-bytes")
			if histRevs < 1 || histBytes < 1 {
				return usagef("--history-revisions %d, --history-bytes %d: both must be at least 1 (the running revision is always kept)", histRevs, histBytes)
			}
			if name == "" {
				h, err := os.Hostname()
				if err != nil {
					return usagef("--name: the host name is unknown (%v): give the balancer a name", err)
				}
				name = h
			}
			if err := config.CheckText("--name", name, config.MaxSiteLen); err != nil {
				return usagef("%v", err)
			}
			var socketOpts []apiserver.UnixOption
			if socketGroup != "" {
				if listen != "" {
					return usagef("--socket-group is for the unix socket; with --listen the clients' certificates say who they are")
				}
				opt, err := apiserver.SocketGroup(socketGroup)
				if err != nil {
					return usagef("--socket-group: %v", err)
				}
				socketOpts = append(socketOpts, opt)
			}
			if store.name == "" {
				store.name = name // the name in the leader election
			}
			opts := daemon.Options{Name: name, StateDir: stateDir, InitialConfig: cfgPath, SwitchAddr: switchAddr, DeviceID: deviceID,
				Role: role, SwitchGNMI: switchGNMI, Logger: log,
				Store: []daemon.StoreOption{daemon.WithRetention(histRevs, histBytes)}}
			opts.CPUPort, _ = cmd.Flags().GetUint32("cpu-port")
			if opts.SwitchTiming, err = switchTiming(); err != nil {
				return usagef("%v", err)
			}
			// Resolved by the daemon for the platform of the site in its
			// store (the state directory or etcd), once that is open.
			opts.PipelineFrom = pipe.source()
			if election != "" {
				hi, lo, err := parseElection(election)
				if err != nil {
					return usagef("--election-id %q: %v", election, err)
				}
				opts.ElectionHigh, opts.ElectionLow = hi, lo
			}
			if swCA != "" || swCert != "" || swKey != "" {
				t, err := switchTLS(swCA, swCert, swKey)
				if err != nil {
					return err
				}
				opts.SwitchTLS = t
			}
			// Telemetry (gNMI and metrics) with mutual TLS: the management
			// API's certificates and client CA.
			var teleTLS *tls.Config
			if telemetryTLS {
				if teleTLS, err = apiserver.ServerTLSConfig(tlsCert, tlsKey, tlsClientCA); err != nil {
					return usagef("--telemetry-tls: %v: give --tls-cert, --tls-key and --tls-client-ca", err)
				}
			}
			if maxSubs < 1 || maxSubsClient < 1 {
				return usagef("--telemetry-max-subscriptions %d / --telemetry-max-subscriptions-per-client %d: want at least 1", maxSubs, maxSubsClient)
			}
			if maxLeafRate < 1 || maxLeafRateClient < 1 {
				return usagef("--telemetry-max-leaf-rate %d / --telemetry-max-leaf-rate-per-client %d: want at least 1", maxLeafRate, maxLeafRateClient)
			}
			var tele *bgnmi.Server
			var teleLis net.Listener
			if telemetryAddr != "" {
				if teleLis, err = net.Listen("tcp", telemetryAddr); err != nil {
					return fmt.Errorf("telemetry listener: %w", err)
				}
				tele = telemetry.NewServer(bgnmi.WithLogger(log), bgnmi.WithMaxSubscriptions(maxSubs, maxSubsClient),
					bgnmi.WithMaxLeafRate(maxLeafRate, maxLeafRateClient))
			}
			pub := telemetry.New(tele)
			pub.SetName(name)
			opts.Telemetry = pub
			ha, err := store.setup(&opts, election != "", log)
			if err != nil {
				return err
			}
			d, err := daemon.New(opts)
			if err != nil {
				return err
			}
			defer d.Close() // releases the state directory if Run never ran
			apiLis, srvOpts, err := apiListener(listen, socket, socketOpts, tlsCert, tlsKey, tlsClientCA)
			if err != nil {
				return err
			}
			srv := apiserver.Servers{API: apiLis, APIOptions: srvOpts, Telemetry: tele, TelemetryListener: teleLis, TLS: teleTLS, Logger: log,
				MetricsRegistry: pub.Registry(d)}
			if metricsAddr != "" {
				if srv.Metrics, err = net.Listen("tcp", metricsAddr); err != nil {
					apiLis.Close()
					if teleLis != nil {
						teleLis.Close()
					}
					return fmt.Errorf("metrics listener: %w", err)
				}
			}
			log.Info("balancer daemon", "api", apiLis.Addr().String(), "switch", switchAddr, "switch_gnmi", switchGNMI,
				"telemetry", telemetryAddr, "metrics", metricsAddr, "state_dir", stateDir)
			// With --store etcd the daemon runs inside the leader election.
			srv.Run = func(ctx context.Context) error { return ha.run(ctx, d) }
			runErr := apiserver.Serve(cmd.Context(), d, srv)
			log.Info("balancer daemon stopped")
			return runErr
		},
	}
	f := cmd.Flags()
	f.StringVar(&name, "name", "", "this balancer's name in its status, telemetry and metrics (default: the host name)")
	f.StringVar(&socketGroup, "socket-group", "", "give the --socket to this group, mode 0660, so that its members may drive the balancer (default: mode 0600)")
	f.StringVar(&cfgPath, "config", "", "initial site configuration (used when --state-dir has none)")
	f.StringVar(&stateDir, "state-dir", "/var/lib/balancer", "where the running configuration and its revisions live")
	f.Int("history-revisions", daemon.DefaultHistoryRevisions, "revisions kept in --state-dir, at least 1 (the oldest are pruned; the running one always stays)")
	f.Int64("history-bytes", daemon.DefaultHistoryBytes, "bytes of revisions kept in --state-dir, at least 1 (the oldest are pruned; the running one always stays)")
	f.StringVar(&switchAddr, "switch", "127.0.0.1:9559", "the switch's P4Runtime address (host:port or unix:///path)")
	f.StringVar(&switchGNMI, "switch-gnmi", "127.0.0.1:9339", "the switch's gNMI address for port status (empty: none, ports assumed up)")
	f.Uint64Var(&deviceID, "device-id", 1, "P4Runtime device id")
	f.Uint32("cpu-port", 0, "the switch's CPU port, written into the pipeline at run time (default: the platform's; on a Tofino 192 with 2 pipes, 320 with 4; BMv2's --cpu-port)")
	f.StringVar(&election, "election-id", "", "election id HIGH:LOW or LOW (default: from the start time, so the newest daemon is primary)")
	f.StringVar(&role, "role", "", "P4Runtime role (default: the default role, full access)")
	f.StringVar(&swCA, "switch-tls-ca", "", "CA certificate to verify the switch (enables TLS)")
	f.StringVar(&swCert, "switch-tls-cert", "", "client certificate for mutual TLS with the switch")
	f.StringVar(&swKey, "switch-tls-key", "", "client key for mutual TLS with the switch")
	f.StringVar(&listen, "listen", "", "serve the management API on TCP host:port with mutual TLS instead of the unix socket")
	f.StringVar(&tlsCert, "tls-cert", "", "server certificate for --listen")
	f.StringVar(&tlsKey, "tls-key", "", "server key for --listen")
	f.StringVar(&tlsClientCA, "tls-client-ca", "", "CA that signs the clients' certificates, for --listen")
	f.StringVar(&telemetryAddr, "telemetry", "127.0.0.1:9340", "gNMI telemetry listen address (empty: off)")
	f.StringVar(&metricsAddr, "metrics", "127.0.0.1:9341", "Prometheus metrics listen address (empty: off)")
	f.BoolVar(&telemetryTLS, "telemetry-tls", false, "serve --telemetry (gNMI) and --metrics with mutual TLS, with --tls-cert, --tls-key and --tls-client-ca")
	f.IntVar(&maxSubs, "telemetry-max-subscriptions", bgnmi.DefaultMaxSubscriptions, "most gNMI subscriptions open at once")
	f.IntVar(&maxSubsClient, "telemetry-max-subscriptions-per-client", bgnmi.DefaultMaxSubscriptionsPerClient, "most gNMI subscriptions one client (IP address) may have open")
	f.IntVar(&maxLeafRate, "telemetry-max-leaf-rate", bgnmi.DefaultMaxLeafRate, "most gNMI leaves a second the open subscriptions may ask for (every leaf under each path, at its sample rate or once a second): bounds the daemon's CPU")
	f.IntVar(&maxLeafRateClient, "telemetry-max-leaf-rate-per-client", bgnmi.DefaultMaxLeafRatePerClient, "most gNMI leaves a second one client (IP address) may ask for")
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error")
	pipe.register(f)
	store.register(f)
	switchTiming = switchTimingFlags(f)
	return cmd
}

// apiListener is the management API's listener: TCP with mutual TLS
// (--listen), else the unix socket (with opts), whose connections carry
// their clients' peer credentials.
func apiListener(listen, socket string, opts []apiserver.UnixOption, cert, key, clientCA string) (net.Listener, []grpc.ServerOption, error) {
	if listen == "" {
		l, err := apiserver.ListenUnix(socket, opts...)
		if err != nil {
			return nil, nil, err
		}
		return l, []grpc.ServerOption{grpc.Creds(apiserver.PeerCredentials())}, nil
	}
	if cert == "" || key == "" || clientCA == "" {
		return nil, nil, usagef("--listen serves TCP only with mutual TLS: give --tls-cert, --tls-key and --tls-client-ca")
	}
	l, o, err := apiserver.ListenTLS(listen, cert, key, clientCA)
	if err != nil {
		return nil, nil, err
	}
	return l, []grpc.ServerOption{o}, nil
}

func parseElection(s string) (hi, lo uint64, err error) {
	h, l, ok := strings.Cut(s, ":")
	if !ok {
		lo, err = strconv.ParseUint(s, 10, 64)
		return 0, lo, err
	}
	if hi, err = strconv.ParseUint(h, 10, 64); err != nil {
		return 0, 0, err
	}
	lo, err = strconv.ParseUint(l, 10, 64)
	return hi, lo, err
}

func switchTLS(ca, cert, key string) (*tls.Config, error) {
	var pool *x509.CertPool
	if ca != "" {
		var err error
		pool, err = tlsfiles.Pool(ca)
		switch {
		case errors.Is(err, tlsfiles.ErrNoPEM):
			return nil, fmt.Errorf("--switch-tls-ca %w", err)
		case err != nil:
			return nil, fmt.Errorf("--switch-tls-ca: %w", err)
		}
	}
	var certs []tls.Certificate
	if cert != "" || key != "" {
		c, err := tls.LoadX509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("--switch-tls-cert/--switch-tls-key: %w", err)
		}
		certs = []tls.Certificate{c}
	}
	return tlsfiles.Client(certs, pool), nil
}
