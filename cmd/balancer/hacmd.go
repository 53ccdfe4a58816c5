package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/daemon/etcdstore"
)

// storeFlags choose where the daemon keeps its state: the state directory
// (one daemon) or etcd (several daemons per switch, one leader).
type storeFlags struct {
	kind      string
	endpoints string
	prefix    string
	name      string
	ttl       time.Duration
	timeout   time.Duration
	keep      uint64
}

func (s *storeFlags) register(f *pflag.FlagSet) {
	f.StringVar(&s.kind, "store", "dir", "where the configuration and runtime state live: dir (--state-dir, one daemon) or etcd (shared by the daemons of a switch, one leader)")
	f.StringVar(&s.endpoints, "etcd-endpoints", "", "etcd client URLs, comma-separated (--store etcd), e.g. http://10.0.0.1:2379,http://10.0.0.2:2379,http://10.0.0.3:2379")
	f.StringVar(&s.prefix, "etcd-prefix", "", "etcd key prefix of this switch, the same on all its daemons (--store etcd), e.g. /balancer/site-a/sw1/")
	f.StringVar(&s.name, "etcd-name", "", "this daemon's name in the leader election (default: the host name)")
	f.DurationVar(&s.ttl, "etcd-lease-ttl", etcdstore.DefaultTTL, "leader lease (whole seconds, at least 2s): a dead leader is replaced after about this long")
	f.DurationVar(&s.timeout, "etcd-timeout", etcdstore.DefaultTimeout, "bound on each etcd request")
	f.Uint64Var(&s.keep, "etcd-keep-revisions", 1000, "configuration revisions kept in etcd, the oldest pruned on each change (0: all)")
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
	cli, err := clientv3.New(clientv3.Config{Endpoints: strings.Split(s.endpoints, ","), DialTimeout: s.timeout,
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
	el, err := etcdstore.NewElector(cli, st, etcdstore.ElectorOptions{Name: name, TTL: s.ttl, Logger: log})
	if err != nil {
		cli.Close()
		return nil, usagef("--etcd-lease-ttl / --etcd-name: %v", err)
	}
	// The first daemon seeds the store with --config; the others (and
	// every later start) find it there.
	if _, _, err := st.Running(); errors.Is(err, os.ErrNotExist) {
		if opts.InitialConfig == "" {
			cli.Close()
			return nil, fmt.Errorf("etcd prefix %s holds no running configuration and no --config was given", st.Prefix())
		}
		data, err := os.ReadFile(opts.InitialConfig)
		if err != nil {
			cli.Close()
			return nil, err
		}
		if _, err := config.Parse(data); err != nil {
			cli.Close()
			return nil, fmt.Errorf("%s: %w", opts.InitialConfig, err)
		}
		if _, err := st.Seed(data, "initial configuration from "+opts.InitialConfig, time.Now()); err != nil {
			cli.Close()
			return nil, err
		}
	} else if err != nil {
		cli.Close()
		return nil, err
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

// writeHA prints the shared store and the leader election (nothing with
// the state directory).
func writeHA(w io.Writer, h *apiv1.HAStatus) {
	if h == nil {
		return
	}
	role := "standby (not writing)"
	if h.GetLeader() {
		role = "leader"
	}
	fmt.Fprintf(w, "store %s: ", h.GetStore())
	if !h.GetStoreHealthy() {
		fmt.Fprintf(w, "UNREACHABLE: %s\n", h.GetStoreError())
		fmt.Fprintf(w, "  this daemon (%s): %s\n", h.GetName(), role)
		return
	}
	fmt.Fprintln(w, "healthy")
	leader := h.GetLeaderName()
	if leader == "" {
		leader = "NONE"
	}
	standbys := "none"
	if len(h.GetStandbys()) > 0 {
		standbys = strings.Join(h.GetStandbys(), ", ")
	}
	fmt.Fprintf(w, "  this daemon (%s): %s; leader %s; standbys %s\n", h.GetName(), role, leader, standbys)
}
