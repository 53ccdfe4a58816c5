package daemoncmd

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/etcdstore"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

// storeFlags choose where the daemon keeps its state: the state directory
// (one daemon) or etcd (several daemons per switch, one leader).
// storeKinds are the stores --store names.
var storeKinds = []string{"dir", "etcd"}

type storeFlags struct {
	kind      string
	endpoints string
	prefix    string
	name      string
	ttl       time.Duration
	timeout   time.Duration
	keep      uint64
	// onQuorumLoss: what the leader does when etcd loses its quorum.
	onQuorumLoss string
	// TLS to etcd: the CA that signed its members' certificates, this
	// daemon's client certificate and key.
	tlsCA, tlsCert, tlsKey string
}

func (s *storeFlags) register(f *pflag.FlagSet) {
	f.StringVar(&s.kind, "store", "dir", "where the configuration and runtime state live: dir (--state-dir, one daemon) or etcd (shared by the daemons of a switch, one leader)")
	f.StringVar(&s.endpoints, "etcd-endpoints", "", "etcd client URLs, comma-separated (--store etcd), e.g. http://10.0.0.1:2379,http://10.0.0.2:2379,http://10.0.0.3:2379")
	f.StringVar(&s.prefix, "etcd-prefix", "", "etcd key prefix of this switch, the same on all its daemons (--store etcd), e.g. /balancer/site-a/sw1/")
	f.StringVar(&s.name, "etcd-name", "", "this daemon's name in the leader election (default: --name, itself the host name by default)")
	f.DurationVar(&s.ttl, "etcd-lease-ttl", etcdstore.DefaultTTL, "leader lease (whole seconds, at least 2s): a dead leader is replaced after about this long")
	f.DurationVar(&s.timeout, "etcd-timeout", etcdstore.DefaultTimeout, "bound on each etcd request")
	f.Uint64Var(&s.keep, "etcd-keep-revisions", 1000, "configuration revisions kept in etcd, the oldest pruned on each change (0: all)")
	f.StringVar(&s.onQuorumLoss, "ha-on-quorum-loss", "hold", "what the leader does when etcd loses its quorum (the members it reaches have no leader): hold (stays primary, fails over from its own state, refuses changes) or step-down (nobody writes to the switch until etcd is back); see docs/ha.md")
	f.StringVar(&s.tlsCA, "etcd-tls-ca", "", "PEM file of the CA that signed the etcd members' certificates (https:// endpoints; default: the system's CAs)")
	f.StringVar(&s.tlsCert, "etcd-tls-cert", "", "PEM file of this daemon's client certificate for etcd (with --etcd-tls-key; for members run with --client-cert-auth)")
	f.StringVar(&s.tlsKey, "etcd-tls-key", "", "PEM file of the key of --etcd-tls-cert")
}

// etcdTLS is the TLS configuration of the etcd client (nil: plain
// connections). It refuses http:// endpoints with TLS flags and https://
// ones without a way to trust the members.
func (s *storeFlags) etcdTLS(endpoints []string) (*tls.Config, error) {
	secure := false
	for _, ep := range endpoints {
		switch {
		case strings.HasPrefix(ep, "https://"):
			secure = true
		case strings.HasPrefix(ep, "http://"), !strings.Contains(ep, "://"):
			if s.tlsCA != "" || s.tlsCert != "" || s.tlsKey != "" {
				return nil, usagef("--etcd-endpoints %s is not https://: the --etcd-tls-* flags need https:// endpoints", ep)
			}
		default:
			return nil, usagef("--etcd-endpoints %s: want http://host:port or https://host:port", ep)
		}
	}
	if !secure {
		return nil, nil
	}
	if (s.tlsCert == "") != (s.tlsKey == "") {
		return nil, usagef("--etcd-tls-cert and --etcd-tls-key go together")
	}
	var pool *x509.CertPool
	if s.tlsCA != "" {
		var err error
		if pool, err = tlsfiles.Pool(s.tlsCA); err != nil {
			return nil, usagef("--etcd-tls-ca: %v", err)
		}
	}
	var certs []tls.Certificate
	if s.tlsCert != "" {
		c, err := tls.LoadX509KeyPair(s.tlsCert, s.tlsKey)
		if err != nil {
			return nil, usagef("--etcd-tls-cert/--etcd-tls-key: %v", err)
		}
		certs = []tls.Certificate{c}
	}
	return tlsfiles.Client(certs, pool), nil
}

// haRun is a daemon's store and, with etcd, its leader election.
type haRun struct {
	cli *clientv3.Client
	st  *etcdstore.Store
	el  *etcdstore.Elector
	log *slog.Logger
}

// setup fills opts.SharedStore (etcd) and checks the flags; nil means the state
// directory.
func (s *storeFlags) setup(opts *daemon.Options, electionSet bool, log *slog.Logger) (*haRun, error) {
	switch s.kind {
	case "dir":
		if s.endpoints != "" || s.prefix != "" {
			return nil, usagef("--etcd-endpoints and --etcd-prefix need --store etcd")
		}
		return nil, nil
	case "etcd":
	default:
		return nil, usagef("--store %q: want dir or etcd", s.kind)
	}
	if s.endpoints == "" || s.prefix == "" {
		return nil, usagef("--store etcd needs --etcd-endpoints and --etcd-prefix (the same prefix on every daemon of the switch)")
	}
	if electionSet {
		return nil, usagef("--election-id cannot be given with --store etcd: the leader election sets it")
	}
	if s.timeout <= 0 {
		return nil, usagef("--etcd-timeout %v: must be positive", s.timeout)
	}
	name := s.name
	if name == "" {
		h, err := os.Hostname()
		if err != nil {
			return nil, usagef("--etcd-name: the host name is unknown (%v): give one", err)
		}
		name = h
	}
	onLoss, err := etcdstore.ParseQuorumLoss(s.onQuorumLoss)
	if err != nil {
		return nil, usagef("--ha-on-quorum-loss %v", err)
	}
	eps := strings.Split(s.endpoints, ",")
	tlsCfg, err := s.etcdTLS(eps)
	if err != nil {
		return nil, err
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: eps, DialTimeout: s.timeout, TLS: tlsCfg,
		Logger: zap.NewNop()})
	if err != nil {
		return nil, fmt.Errorf("etcd %s: %w", s.endpoints, err)
	}
	st, err := etcdstore.Open(cli, s.prefix, s.timeout)
	if err != nil {
		cli.Close()
		return nil, usagef("--etcd-prefix: %v", err)
	}
	st.KeepRevisions(s.keep)
	el, err := etcdstore.NewElector(cli, st, etcdstore.ElectorOptions{Name: name, TTL: s.ttl, OnQuorumLoss: onLoss, Logger: log})
	if err != nil {
		cli.Close()
		return nil, usagef("--etcd-lease-ttl / --etcd-name: %v", err)
	}
	// The first daemon seeds the store with --config (daemon.New, after
	// checking it against the pipeline); the others (and every later
	// start) find it there.
	if _, _, err := st.Running(); errors.Is(err, os.ErrNotExist) {
		if opts.InitialConfig == "" {
			cli.Close()
			return nil, fmt.Errorf("etcd prefix %s holds no running configuration and no --config was given", st.Prefix())
		}
	} else if err != nil {
		cli.Close()
		return nil, fmt.Errorf("%w%s", err, connectHint(eps, tlsCfg))
	}
	opts.SharedStore, opts.FixedElection, opts.HAStatus = st, true, etcdstore.StatusFunc(st, el)
	log.Info("state in etcd", "endpoints", s.endpoints, "prefix", st.Prefix(), "name", name, "lease_ttl", s.ttl)
	return &haRun{cli: cli, st: st, el: el, log: log}, nil
}

// run runs d (under the leader election with etcd) until ctx ends.
func (h *haRun) run(ctx context.Context, d *daemon.Daemon) error {
	if h == nil {
		return d.Run(ctx)
	}
	defer h.cli.Close()
	return etcdstore.RunDaemon(ctx, d, h.st, h.el, h.log)
}

// connectHint says why etcd did not answer when a TLS handshake with its
// endpoints tells: a member whose certificate this daemon does not trust,
// one that wants a client certificate, or one that serves TLS to an
// http:// endpoint. "" when the handshakes tell nothing.
func connectHint(endpoints []string, cfg *tls.Config) string {
	var hints []string
	for _, ep := range endpoints {
		scheme, host, ok := strings.Cut(ep, "://")
		if !ok {
			scheme, host = "http", ep
		}
		c := &tls.Config{InsecureSkipVerify: true} // only: does it speak TLS?
		if scheme == "https" && cfg != nil {
			c = cfg.Clone()
		}
		if h, _, err := net.SplitHostPort(host); err == nil {
			c.ServerName = h
		}
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 2 * time.Second}, "tcp", host, c)
		if err == nil {
			// TLS 1.3: a missing client certificate is refused after the
			// handshake, in the first record the member sends.
			_ = conn.SetReadDeadline(time.Now().Add(time.Second))
			_, err = conn.Read(make([]byte, 1))
			conn.Close()
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				err = nil
			}
		}
		switch {
		case scheme != "https" && (err == nil || strings.Contains(fmt.Sprint(err), "remote error")):
			hints = append(hints, fmt.Sprintf("%s serves TLS: give https:// endpoints with --etcd-tls-ca (and --etcd-tls-cert/--etcd-tls-key if it asks for a client certificate)", ep))
		case scheme != "https" || err == nil:
		case errors.As(err, new(x509.UnknownAuthorityError)), errors.As(err, new(*tls.CertificateVerificationError)):
			hints = append(hints, fmt.Sprintf("%s: its certificate is not trusted (%v): give --etcd-tls-ca the CA that signed the etcd members' certificates", ep, err))
		case strings.Contains(err.Error(), "certificate required"), strings.Contains(err.Error(), "bad certificate"), strings.Contains(err.Error(), "unknown certificate"):
			hints = append(hints, fmt.Sprintf("%s refused this daemon's client certificate (%v): give --etcd-tls-cert/--etcd-tls-key a certificate signed by the CA the members trust", ep, err))
		default:
			hints = append(hints, fmt.Sprintf("%s: %v", ep, err))
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return "\n  " + strings.Join(hints, "\n  ")
}
