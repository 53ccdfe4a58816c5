package simcmd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/netip"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gopacket/gopacket/layers"
	"github.com/spf13/cobra"

	"github.com/dpi-balancer/balancer/config"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/profiles"
	"github.com/dpi-balancer/balancer/sim"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/sim/frames"
	"github.com/dpi-balancer/balancer/tlsfiles"
)

const simLong = `sim runs the software switch: a Go model of the balancer's P4 pipeline
that serves P4Runtime and gNMI like a real switch. Point the daemon at it
(balancer daemon --switch ADDR --switch-gnmi ADDR). It runs the program
the daemon pushes: the v1model build, or its sessions profile (the
session memory, for a site with sessions.enabled).

Ports are data-plane port numbers (platform sim: lane l of front-panel
port p is p*10+l, a whole port p is p*10):
  --port 41=veth1     a port on a Linux interface (AF_PACKET, needs root)
  --mem-port 41       an in-memory port with nothing attached
  --loop 20:10        two in-memory ports joined by a transparent "filter":
                      what the switch sends out of one comes back in on the
                      other (keep-alives pass; for demos and tests)
  --from-config FILE  in-memory ports for every link port, and a --loop for
                      every filter group of a site configuration; every
                      port and lane of the site exists, with the site's
                      speed and admin state (reported over gNMI)

--demo-traffic N sends about N packets per second of random sessions into
every link's ports (in-memory ports only), so counters move in a demo.

--tls-cert FILE --tls-key FILE serve P4Runtime and gNMI over TLS, and with
--tls-ca FILE mutual TLS (a client needs a certificate that CA signed), as
Stratum's -server_cert_file, -server_key_file and -ca_cert_file do; give the
daemon --switch-tls-ca, --switch-tls-cert and --switch-tls-key. Without
them any local user can take the primary role and rewrite the tables.

--pipes 2 models a 2-pipe Tofino for the data-plane verdict: each pipe keeps
its own evidence registers, a frame is judged in the pipe of the port it
arrives on (a keep-alive in the CPU port's), and every return is copied to the
other pipe as the TNA program mirrors it. A port's pipe is port/128 modulo
--pipes (the CPU port 255 is in pipe 1 of 2, as 192 on the 32-port box), or
--pipe-port 30,40=1.

--control ADDR serves a small HTTP API to break the demo's filters. It is a
lab tool: it has no authentication, so bind it to loopback
(--control 127.0.0.1:8080):
  curl ADDR/loops                          list the loops and their state
  curl -X POST 'ADDR/loops/20:10?state=dead'       the filter passes nothing
  curl -X POST 'ADDR/loops/20:10?state=drop-keepalives'
  curl -X POST 'ADDR/loops/20:10?state=pass-all' the filter failed open: it
                                           passes fail-open probes too
  curl -X POST 'ADDR/loops/20:10?state=ok'       healthy: passes all but the
                                           fail-open probes (its DPI blocks them)
  curl ADDR/pipes                          the pipes, and the returns copied
                                           between them (--pipes)`

func newSimCmd() *cobra.Command {
	var (
		ports, memPorts, loops []string
		fromConfig             string
		p4rtAddr, gnmiAddr     string
		deviceID               uint64
		slotCap                int
		readLimit              int
		cpuPort                uint32
		demoPPS                int
		logLevel               string
		control                string
		tlsCert, tlsKey, tlsCA string
		kaTime, kaTimeout      time.Duration
		pipes                  int
		pipePorts              []string
	)
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run the software switch (P4Runtime + gNMI)",
		Long:  simLong,
		Example: `  balancer sim --from-config examples/site.yaml --p4rt 127.0.0.1:9559 --gnmi 127.0.0.1:9339
  balancer sim --port 20=veth-l1lan --port 10=veth-l1wan --port 40=veth-f1lan --port 30=veth-f1wan`,
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
			topo, err := newSimTopology(cmd.Context(), ports, memPorts, loops, fromConfig)
			if err != nil {
				return err
			}
			ps, peers, links, loopStates := topo.ports, topo.peers, topo.links, topo.loops
			speeds, disabled := topo.speeds, topo.disabled
			if len(ps) == 0 {
				return usagef("no ports: give --port, --mem-port, --loop or --from-config")
			}
			if cmd.Flags().Changed("slot-capacity") && slotCap <= 0 {
				return usagef("--slot-capacity %d: give a table size, like 16384 (leave the flag out for the P4Info's)", slotCap)
			}
			serverTLS, err := simTLS(tlsCert, tlsKey, tlsCA)
			if err != nil {
				return err
			}
			if serverTLS == nil {
				log.Warn("P4Runtime and gNMI are served in plaintext: any client that reaches them can take the primary role; give --tls-cert, --tls-key and --tls-ca for mutual TLS")
			}
			if cmd.Flags().Changed("cpu-port") && (cpuPort == 0 || cpuPort >= 512) {
				return usagef("--cpu-port %d: give a 9-bit data-plane port other than 0, like 255 (the default)", cpuPort)
			}
			if kaTime < 0 || kaTimeout <= 0 {
				return usagef("--keepalive-time %v, --keepalive-timeout %v: give durations like 5s (--keepalive-time 0: no pings)", kaTime, kaTimeout)
			}
			if kaTime == 0 {
				kaTime = sim.KeepaliveOff
			}
			placed, err := parsePipePorts(pipes, pipePorts)
			if err != nil {
				return err
			}
			sw, err := sim.New(sim.Options{DeviceID: deviceID, Ports: ps, SlotCapacity: slotCap, ReadLimit: readLimit, Logger: log, TLS: serverTLS,
				Speeds: speeds, Disabled: disabled, CPUPort: cpuPort, KeepaliveTime: kaTime, KeepaliveTimeout: kaTimeout,
				Pipes: pipes, PipePorts: placed})
			if err != nil {
				return err
			}
			if control != "" {
				addr, err := serveControl(cmd.Context(), control, loopStates, sw.Dataplane())
				if err != nil {
					return err
				}
				log.Warn("control API: a lab tool without authentication; anyone who reaches it can break the demo's filters", "address", addr)
			}
			lis, err := listenSwitch(p4rtAddr)
			if err != nil {
				return fmt.Errorf("p4runtime listener: %w", err)
			}
			var glis net.Listener
			if gnmiAddr != "" {
				if glis, err = listenSwitch(gnmiAddr); err != nil {
					lis.Close()
					return fmt.Errorf("gnmi listener: %w", err)
				}
			}
			nums := make([]int, 0, len(ps))
			for n := range ps {
				nums = append(nums, int(n))
			}
			sort.Ints(nums)
			log.Info("software switch", "p4runtime", lis.Addr().String(), "gnmi", gnmiAddr, "ports", fmt.Sprint(nums))
			if demoPPS > 0 {
				for _, l := range links {
					go demoTraffic(cmd.Context(), peers[l[0]], peers[l[1]], demoPPS)
				}
			}
			for n, peer := range peers {
				// Nothing is attached to a bare in-memory port: read and
				// discard what the switch sends there.
				if isLinkPort(links, n) && demoPPS > 0 {
					continue
				}
				go drain(cmd.Context(), peer)
			}
			return sw.Serve(cmd.Context(), lis, glis)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&ports, "port", nil, "NUMBER=INTERFACE: a port on a Linux interface (repeatable)")
	f.StringArrayVar(&memPorts, "mem-port", nil, "NUMBER[,NUMBER...]: in-memory ports (repeatable)")
	f.StringArrayVar(&loops, "loop", nil, "A:B: two in-memory ports joined by a transparent filter (repeatable)")
	f.StringVar(&fromConfig, "from-config", "", "site configuration: in-memory link ports and a loop per filter group")
	f.StringVar(&p4rtAddr, "p4rt", "127.0.0.1:9559", "P4Runtime listen address (host:port or unix:///path)")
	f.StringVar(&gnmiAddr, "gnmi", "127.0.0.1:9339", "gNMI listen address (host:port or unix:///path; empty: on the P4Runtime address)")
	f.Uint64Var(&deviceID, "device-id", 1, "P4Runtime device id")
	f.IntVar(&slotCap, "slot-capacity", 0, "slots table size (default the P4Info's 16384; 131072 to hold a Tofino layout): the P4Info the switch runs and takes from a controller has a slots table of that size")
	f.IntVar(&readLimit, "read-limit", 0, "most entities one P4Runtime Read returns (default: the whole state once)")
	f.Uint32Var(&cpuPort, "cpu-port", 255, "the switch's CPU port, as BMv2's --cpu-port (give the daemon the same --cpu-port)")
	f.IntVar(&demoPPS, "demo-traffic", 0, "packets per second of random sessions into every link (in-memory ports)")
	f.StringVar(&logLevel, "log-level", "info", "debug, info, warn or error")
	f.StringVar(&control, "control", "", "HTTP address to break and mend the --loop filters (a lab tool without authentication: bind it to loopback)")
	f.StringVar(&tlsCert, "tls-cert", "", "server certificate for P4Runtime and gNMI (TLS; with --tls-key)")
	f.StringVar(&tlsKey, "tls-key", "", "server key for P4Runtime and gNMI")
	f.StringVar(&tlsCA, "tls-ca", "", "CA certificate that signs the clients' certificates (mutual TLS; needs --tls-cert and --tls-key)")
	f.DurationVar(&kaTime, "keepalive-time", sim.DefaultKeepaliveTime, "ping a controller after this long without a frame from it (0: never; at least 1s): a controller cut off without a close is dropped and its election id freed")
	f.IntVar(&pipes, "pipes", 1, "pipes of a Tofino to model (1-4): each keeps its own data-plane verdict registers, and returns are copied between them as the TNA program does")
	f.StringArrayVar(&pipePorts, "pipe-port", nil, "PORT[,PORT...]=PIPE: the ports' pipe (repeatable; default Tofino's rule, port/128 modulo --pipes: the CPU port 255 is in pipe 1 of 2)")
	f.DurationVar(&kaTimeout, "keepalive-timeout", sim.DefaultKeepaliveTimeout, "drop a controller's connection whose ping is not answered within this")
	return cmd
}

// sitePortStates gives, by data-plane port, the speed and admin state of
// every port and lane the site defines.
func sitePortStates(cfg *config.Config) (speeds map[uint32]uint64, disabled map[uint32]bool) {
	speeds, disabled = map[uint32]uint64{}, map[uint32]bool{}
	for _, d := range cfg.Ports {
		s := d.Settings()
		for _, n := range d.LaneNames() {
			num, err := cfg.PortNumber(n.Key())
			if err != nil {
				continue
			}
			speeds[num] = config.SpeedBPS(s.Speed)
			if !s.Enabled {
				disabled[num] = true
			}
		}
	}
	return speeds, disabled
}

// simTopology is the software switch's ports: on Linux interfaces, in
// memory (peers: what a test or the demo attaches), and pairs joined by a
// transparent filter (loops, by "A:B"); links are the site's link ports
// (--from-config).
type simTopology struct {
	ports map[uint32]sim.Port
	peers map[uint32]*sim.MemPeer
	links [][2]uint32
	loops map[string]*loopState
	// speeds and disabled: every port and lane of the site (--from-config),
	// as the switch reports them.
	speeds   map[uint32]uint64
	disabled map[uint32]bool
}

// newSimTopology makes the ports the flags describe and starts the loop
// filters (until ctx ends).
func newSimTopology(ctx context.Context, ports, memPorts, loops []string, fromConfig string) (*simTopology, error) {
	t := &simTopology{ports: map[uint32]sim.Port{}, peers: map[uint32]*sim.MemPeer{}, loops: map[string]*loopState{}}
	ps, peers := t.ports, t.peers
	add := func(n uint32, p sim.Port) error {
		if _, dup := ps[n]; dup {
			return usagef("port %d given twice", n)
		}
		ps[n] = p
		return nil
	}
	for _, spec := range ports {
		num, ifname, ok := strings.Cut(spec, "=")
		n, err := parsePortNum(num)
		if !ok || err != nil || ifname == "" {
			return nil, usagef("--port %q: want NUMBER=INTERFACE, e.g. 41=veth1", spec)
		}
		p, err := sim.OpenAFPacket(ifname)
		if err != nil {
			return nil, err
		}
		if err := add(n, p); err != nil {
			return nil, err
		}
	}
	for _, spec := range memPorts {
		for _, s := range strings.Split(spec, ",") {
			n, err := parsePortNum(s)
			if err != nil {
				return nil, usagef("--mem-port %q: %v", spec, err)
			}
			p, peer := sim.NewMemPort(1024)
			if err := add(n, p); err != nil {
				return nil, err
			}
			peers[n] = peer
		}
	}
	var loopPairs [][2]uint32
	for _, spec := range loops {
		a, b, ok := strings.Cut(spec, ":")
		na, errA := parsePortNum(a)
		nb, errB := parsePortNum(b)
		if !ok || errA != nil || errB != nil || na == nb {
			return nil, usagef("--loop %q: want A:B, two different port numbers", spec)
		}
		loopPairs = append(loopPairs, [2]uint32{na, nb})
	}
	if fromConfig != "" {
		fromSite, err := t.addSite(fromConfig)
		if err != nil {
			return nil, err
		}
		loopPairs = append(loopPairs, fromSite...)
	}
	for _, lp := range loopPairs {
		for _, n := range lp {
			if _, ok := ps[n]; ok {
				return nil, usagef("port %d is both a loop end and another port", n)
			}
		}
		pa, peerA := sim.NewMemPort(1024)
		pb, peerB := sim.NewMemPort(1024)
		ps[lp[0]], ps[lp[1]] = pa, pb
		st := &loopState{}
		t.loops[fmt.Sprintf("%d:%d", lp[0], lp[1])] = st
		go transparentFilter(ctx, peerA, peerB, st)
		go transparentFilter(ctx, peerB, peerA, st)
	}
	// Every other port and lane of the site exists too (nothing
	// attached), so the switch reports all of them, as one brought
	// up from the site's chassis config would.
	for n := range t.speeds {
		if _, ok := ps[n]; !ok {
			p, peer := sim.NewMemPort(1024)
			ps[n], peers[n] = p, peer
		}
	}
	return t, nil
}

// addSite adds in-memory ports for the links of a site configuration (those
// not given already) and returns its filter groups' port pairs, to loop.
func (t *simTopology) addSite(path string) ([][2]uint32, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	t.speeds, t.disabled = sitePortStates(cfg)
	for _, l := range cfg.Links {
		lan, _ := cfg.PortNumber(l.LAN)
		wan, _ := cfg.PortNumber(l.WAN)
		t.links = append(t.links, [2]uint32{lan, wan})
		for _, n := range []uint32{lan, wan} {
			if _, ok := t.ports[n]; !ok {
				p, peer := sim.NewMemPort(1024)
				t.ports[n], t.peers[n] = p, peer
			}
		}
	}
	var loops [][2]uint32
	for _, f := range cfg.FilterGroups {
		lan, _ := cfg.PortNumber(f.LAN)
		wan, _ := cfg.PortNumber(f.WAN)
		loops = append(loops, [2]uint32{lan, wan})
	}
	return loops, nil
}

// simTLS is the software switch's server TLS: nil without files, TLS with
// a certificate and key, mutual TLS with the clients' CA too.
func simTLS(cert, key, ca string) (*tls.Config, error) {
	switch {
	case cert == "" && key == "" && ca == "":
		return nil, nil
	case cert == "" || key == "":
		return nil, usagef("--tls-cert and --tls-key go together (and --tls-ca needs both)")
	}
	c, err := tls.LoadX509KeyPair(cert, key)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s / --tls-key %s: %w", cert, key, err)
	}
	if ca == "" {
		return &tls.Config{Certificates: []tls.Certificate{c}, MinVersion: tls.VersionTLS12}, nil
	}
	pool, err := tlsfiles.Pool(ca)
	switch {
	case errors.Is(err, tlsfiles.ErrNoPEM):
		return nil, fmt.Errorf("--tls-ca %w", err)
	case err != nil:
		return nil, fmt.Errorf("--tls-ca: %w", err)
	}
	return tlsfiles.Server(c, pool), nil
}

// loopState is what a demo filter does: 0 pass (a healthy filter: it drops
// fail-open probes), 1 dead, 2 drop keep-alives, 3 pass everything (failed
// open: probes too);
// and the data frames (keep-alives aside) the switch sent it, whatever it
// did with them: what a dead filter was still given.
type loopState struct {
	v    atomic.Int32
	data atomic.Uint64
}

var loopStateNames = []string{"ok", "dead", "drop-keepalives", "pass-all"}

// controlBanner heads every answer of the control API.
const controlBanner = "balancer sim control API: a lab tool for demos and tests, without authentication; never expose it\n"

func serveControl(ctx context.Context, addr string, loops map[string]*loopState, dp *dataplane.Dataplane) (string, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("--control: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, controlBanner+"GET /loops lists the loops (state, data frames the switch sent them); POST /loops/A:B?state=ok|dead|drop-keepalives|pass-all sets one; GET /pipes shows the pipes and the evidence copies between them\n")
	})
	mux.HandleFunc("GET /pipes", func(w http.ResponseWriter, _ *http.Request) {
		if dp == nil {
			http.Error(w, "no switch", http.StatusServiceUnavailable)
			return
		}
		st := dp.EvidenceCopies()
		fmt.Fprintf(w, "pipes %d\ncpu-port %d pipe %d\n", dp.Pipes(), dp.CPUPort(), dp.PipeOf(dp.CPUPort()))
		fmt.Fprintf(w, "data-returns %d data-copies %d data-suppressed %d\n", st.DataReturns, st.DataCopies, st.DataSuppressed)
		fmt.Fprintf(w, "keepalive-returns %d keepalive-copies %d\n", st.KeepAliveReturns, st.KeepAliveCopies)
		fmt.Fprintf(w, "proof-copies %d proofs-taken %d\n", st.ProofCopies, st.ProofsTaken)
		fmt.Fprintf(w, "copies-taken %d copies-early %d copies-in-flight %d\n", st.Taken, st.Early, st.InFlight)
	})
	mux.HandleFunc("GET /loops", func(w http.ResponseWriter, _ *http.Request) {
		names := make([]string, 0, len(loops))
		for n := range loops {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			fmt.Fprintf(w, "%s %s data=%d\n", n, loopStateNames[loops[n].v.Load()], loops[n].data.Load())
		}
	})
	mux.HandleFunc("POST /loops/{name}", func(w http.ResponseWriter, r *http.Request) {
		l := loops[r.PathValue("name")]
		if l == nil {
			http.Error(w, "no loop "+r.PathValue("name")+"; GET /loops lists them", http.StatusNotFound)
			return
		}
		for i, n := range loopStateNames {
			if n == r.URL.Query().Get("state") {
				l.v.Store(int32(i))
				fmt.Fprintf(w, "%s %s\n", r.PathValue("name"), n)
				return
			}
		}
		http.Error(w, "state must be ok, dead, drop-keepalives or pass-all", http.StatusBadRequest)
	})
	labTool := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Balancer-Lab-Tool", "no authentication; never expose it")
		mux.ServeHTTP(w, r)
	})
	srv := &http.Server{Handler: labTool, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(lis)
	go func() { <-ctx.Done(); srv.Close() }()
	return lis.Addr().String(), nil
}

// parsePipePorts reads the --pipe-port values (PORT[,PORT...]=PIPE).
func parsePipePorts(pipes int, vals []string) (map[uint32]int, error) {
	if pipes < 1 || pipes > dataplane.MaxPipes {
		return nil, usagef("--pipes %d: give 1 to %d (a Tofino has 1, 2 or 4)", pipes, dataplane.MaxPipes)
	}
	if len(vals) > 0 && pipes == 1 {
		return nil, usagef("--pipe-port %s: there is one pipe; give --pipes 2 (or 4) too", vals[0])
	}
	out := map[uint32]int{}
	for _, v := range vals {
		ports, pipe, ok := strings.Cut(v, "=")
		p, err := strconv.Atoi(pipe)
		if !ok || err != nil || p < 0 || p >= pipes {
			return nil, usagef("--pipe-port %s: want PORT[,PORT...]=PIPE with PIPE 0 to %d, like 30,40=1", v, pipes-1)
		}
		for _, ps := range strings.Split(ports, ",") {
			n, err := strconv.ParseUint(ps, 10, 32)
			if err != nil || n >= 512 {
				return nil, usagef("--pipe-port %s: %q is not a data-plane port (0 to 511)", v, ps)
			}
			if q, dup := out[uint32(n)]; dup && q != p {
				return nil, usagef("--pipe-port %s: port %d is already placed in pipe %d", v, n, q)
			}
			out[uint32(n)] = p
		}
	}
	return out, nil
}

// listenSwitch listens on host:port, or on a unix socket given as
// unix:///path (the form the daemon's --switch takes), replacing a stale
// socket file.
func listenSwitch(addr string) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, "unix://")
	if !ok {
		return net.Listen("tcp", addr)
	}
	if path == "" {
		return nil, fmt.Errorf("%q: want unix:///path/to/socket", addr)
	}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
		_ = os.Remove(path)
	}
	return net.Listen("unix", path)
}

func parsePortNum(s string) (uint32, error) {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 9)
	if err != nil {
		return 0, fmt.Errorf("%q is not a port number 0..511", s)
	}
	return uint32(n), nil
}

func isLinkPort(links [][2]uint32, n uint32) bool {
	for _, l := range links {
		if l[0] == n || l[1] == n {
			return true
		}
	}
	return false
}

// transparentFilter passes every frame the switch sends out of one port
// back into the other, unchanged: a DPI filter that inspects nothing.
func transparentFilter(ctx context.Context, from, to *sim.MemPeer, st *loopState) {
	for ctx.Err() == nil {
		f, err := from.Recv(100 * time.Millisecond)
		if err != nil {
			continue
		}
		keepAlive := len(f) >= 14 && f[12] == 0x88 && f[13] == 0xB6
		if !keepAlive {
			st.data.Add(1)
		}
		state := st.v.Load()
		if keepAlive && state != 3 && profiles.IsProbe(f, wire.DefaultKeepAliveEtherType) {
			continue // a healthy filter's DPI blocks a fail-open probe
		}
		switch state {
		case 1:
			continue
		case 2:
			if keepAlive {
				continue
			}
		}
		_ = to.Send(f)
	}
}

func drain(ctx context.Context, p *sim.MemPeer) {
	for ctx.Err() == nil {
		_, _ = p.Recv(100 * time.Millisecond)
	}
}

// demoTraffic sends random sessions into a link's LAN and WAN ports and
// reads what comes back out of them.
func demoTraffic(ctx context.Context, lan, wan *sim.MemPeer, pps int) {
	go drain(ctx, lan)
	go drain(ctx, wan)
	r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	per := max(1, pps/100)
	src := []byte{0x02, 0, 0, 0, 0, 0x0a}
	dst := []byte{0x02, 0, 0, 0, 0, 0x0b}
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		for i := 0; i < per; i++ {
			a := netip.AddrFrom4([4]byte{100, 64, byte(r.UintN(4)), byte(r.UintN(250) + 1)})
			b := netip.AddrFrom4([4]byte{198, 51, 100, byte(r.UintN(250) + 1)})
			vlan := []frames.Tag{{TPID: 0x8100, VID: uint16(100 + r.UintN(11))}}
			if r.UintN(4) == 0 {
				vlan = nil
			}
			proto, sp, dp := layers.IPProtocolTCP, uint16(1024+r.UintN(60000)), uint16(443)
			if r.UintN(3) == 0 {
				proto, dp = layers.IPProtocolUDP, 53
			}
			_ = lan.Send(frames.Frame(src, dst, frames.Encap{Tags: vlan}, frames.L3{Src: a, Dst: b, Proto: proto, SrcPort: sp, DstPort: dp}))
			_ = wan.Send(frames.Frame(dst, src, frames.Encap{Tags: vlan}, frames.L3{Src: b, Dst: a, Proto: proto, SrcPort: dp, DstPort: sp}))
		}
	}
}
