package e2e

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vishvananda/netlink"

	"github.com/dpi-balancer/balancer/bmv2"
	"github.com/dpi-balancer/balancer/daemon"
	"github.com/dpi-balancer/balancer/internal/rawport"
	"github.com/dpi-balancer/balancer/internal/testbed"
)

// startScript runs bmv2/run-bmv2.sh in the namespace on a unix socket and
// waits for its gRPC socket.
func (b *bed) startScript() {
	t := b.t
	sock := filepath.Join(b.dir, "p4rt.sock")
	args := []string{repoFile(t, "bmv2/run-bmv2.sh"), "--netns", b.ns.Name, "--grpc", "unix:" + sock,
		"--log", filepath.Join(b.dir, "bmv2.log")}
	for n, ifname := range b.switchPorts() {
		args = append(args, fmt.Sprintf("%d=%s", n, ifname))
	}
	cmd := exec.Command("bash", args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &logBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	require.NoError(t, cmd.Start())
	b.script, b.scriptWt = cmd, make(chan error, 1)
	go func() { b.scriptWt <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if bmv2.Serving(sock) {
			break
		}
		select {
		case err := <-b.scriptWt:
			b.scriptWt <- err
			t.Fatalf("run-bmv2.sh ended before serving: %v: %s", err, out.tail(20))
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("run-bmv2.sh: no gRPC socket after 30s: %s", out.tail(20))
		}
	}
	b.p4rt = "unix://" + sock
}

// stopSwitch ends the target (its process by PID on BMv2).
func (b *bed) stopSwitch() {
	b.swMu.Lock()
	defer b.swMu.Unlock()
	if b.script != nil {
		// The script execs the switch: its process group is the switch.
		_ = syscall.Kill(-b.script.Process.Pid, syscall.SIGTERM)
		select {
		case <-b.scriptWt:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-b.script.Process.Pid, syscall.SIGKILL)
			<-b.scriptWt
		}
		b.script = nil
		os.Remove(filepath.Join(b.dir, "p4rt.sock"))
	}
	if b.bm != nil {
		b.bm.Stop()
		b.bm = nil
		// The next start waits for a fresh socket.
		os.Remove(filepath.Join(b.dir, "p4rt.sock"))
		os.Rename(filepath.Join(b.dir, "bmv2.log"), filepath.Join(b.dir, fmt.Sprintf("bmv2.%d.log", time.Now().UnixNano())))
	}
	if b.swCancel != nil {
		b.swCancel()
		if err := <-b.swDone; err != nil {
			b.t.Logf("software switch ended: %v", err)
		}
		b.swCancel, b.simSw = nil, nil
	}
}

// ---- the daemon ----------------------------------------------------------

// startDaemon runs a daemon on the bed's state directory, with an
// election id above every earlier one.
func (b *bed) startDaemon() {
	t := b.t
	t.Helper()
	b.election++
	gnmiAddr := ""
	if b.tg.gnmi {
		gnmiAddr = b.gnmi
	}
	d, err := daemon.New(daemon.Options{StateDir: b.stateDir, InitialConfig: filepath.Join(b.dir, "site.yaml"),
		SwitchAddr: b.p4rt, SwitchGNMI: gnmiAddr, DeviceID: 1, ElectionLow: b.election,
		Tick: time.Millisecond, CounterInterval: time.Hour, Logger: b.logs.logger(fmt.Sprintf("daemon%d", b.election)),
		PacketInTap: b.taps.add})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Run(ctx)
	}()
	var once sync.Once
	b.d = d
	b.dStop = func() { once.Do(func() { cancel(); <-done }) }
}

func (b *bed) stopDaemon() {
	b.dStop()
	b.dStop = nil
}

// status returns the daemon's status (it never fails in-process).
func (b *bed) status() *daemon.Status {
	st, err := b.d.Status(context.Background())
	require.NoError(b.t, err)
	return st
}

func (b *bed) filterStatus(name string) daemon.FilterStatus {
	for _, f := range b.status().Filters {
		if f.Name == name {
			return f
		}
	}
	b.t.Fatalf("no filter group %s in the status", name)
	return daemon.FilterStatus{}
}

// waitAllUp waits until the daemon is primary and every filter is up.
func (b *bed) waitAllUp(within time.Duration) {
	b.t.Helper()
	b.eventually(within, func() bool {
		st := b.status()
		if !st.Switch.Primary || st.Switch.StatePending {
			return false // not primary, or the switch does not hold the state yet
		}
		for _, f := range st.Filters {
			if f.State != "up" {
				return false
			}
		}
		return true
	}, "the daemon never had every filter up")
}

// waitFilter waits until the daemon reports a filter group's state.
func (b *bed) waitFilter(name, state string, within time.Duration) {
	b.t.Helper()
	b.eventually(within, func() bool { return b.filterStatus(name).State == state },
		"filter group %s never became %s", name, state)
}

// waitWrite returns when the daemon's session has had more than since
// updates acknowledged by the switch (the failure action is in place from
// then on, for every frame sent after it).
func (b *bed) waitWrite(since uint64, within time.Duration) time.Time {
	b.t.Helper()
	b.eventually(within, func() bool { return b.d.Session().Stats().Updates > since },
		"the daemon wrote nothing to the switch after %d updates", since)
	return time.Now()
}

// eventually polls cond every millisecond until it holds or within ends.
func (b *bed) eventually(within time.Duration, cond func() bool, msg string, args ...any) {
	b.t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			b.t.Fatalf(msg+" (waited %v)", append(args, within)...)
		}
		time.Sleep(time.Millisecond)
	}
}

// placement is where the daemon says a session lands (locate).
func (b *bed) placement(f *flow) (fg string, core uint32) {
	b.t.Helper()
	src, dst, proto := f.triple(lanToWAN)
	ps, err := b.d.Locate(context.Background(), src, dst, proto)
	require.NoError(b.t, err)
	require.Len(b.t, ps, 1)
	return ps[0].FilterGroup, ps[0].Core
}

// setCarrier takes a host end of a veth down or up: the switch end loses
// or regains its carrier, as when a cable is pulled.
func (b *bed) setCarrier(port uint32, up bool) {
	b.t.Helper()
	err := rawport.InNetns(b.ns.Path, func() error {
		l, err := netlink.LinkByName(hostIf(port))
		if err != nil {
			return err
		}
		if up {
			return netlink.LinkSetUp(l)
		}
		return netlink.LinkSetDown(l)
	})
	require.NoError(b.t, err)
}

// operWatch records when the kernel tells the namespace's netlink
// listeners that an interface reached an oper state: the software switch
// learns a cable pull from the same broadcast, so this is when the switch
// could first know.
type operWatch struct {
	at   chan time.Time
	once sync.Once
	stop chan struct{}
}

// watchOper starts recording when ifname (in the bed's namespace) reaches
// oper state up (true) or not up (false).
func (b *bed) watchOper(ifname string, up bool) *operWatch {
	b.t.Helper()
	w := &operWatch{at: make(chan time.Time, 1), stop: make(chan struct{})}
	updates := make(chan netlink.LinkUpdate, 256)
	// The netlink socket belongs to the namespace of the thread that opens it.
	err := rawport.InNetns(b.ns.Path, func() error { return netlink.LinkSubscribe(updates, w.stop) })
	require.NoError(b.t, err)
	go func() {
		for u := range updates {
			if u.Attrs().Name == ifname && (u.Attrs().OperState == netlink.OperUp) == up {
				select {
				case w.at <- time.Now():
				default:
				}
			}
		}
	}()
	b.t.Cleanup(w.close)
	return w
}

func (w *operWatch) close() { w.once.Do(func() { close(w.stop) }) }

// wait returns when the state was reported, or false after d.
func (w *operWatch) wait(d time.Duration) (time.Time, bool) {
	defer w.close()
	select {
	case at := <-w.at:
		return at, true
	case <-time.After(d):
		return time.Time{}, false
	}
}

// operUp reports the oper state of the interfaces (switch and host ends).
func (b *bed) operUp(ports []uint32) map[string]bool {
	out := map[string]bool{}
	_ = rawport.InNetns(b.ns.Path, func() error {
		for _, p := range ports {
			for _, n := range []string{switchIf(p), hostIf(p)} {
				l, err := netlink.LinkByName(n)
				out[n] = err == nil && l.Attrs().OperState == netlink.OperUp
			}
		}
		return nil
	})
	return out
}

// ---- sending and checking ------------------------------------------------

// sent is one frame a test put on the wire.
type sent struct {
	f  *flow
	k  key
	at time.Time
}

// send puts one frame of f in direction d on the wire.
func (b *bed) send(f *flow, d dir) sent {
	seq := b.seq.Add(1)
	in, _ := b.links[f.link].port(d)
	fr := f.frame(d, seq)
	at := time.Now()
	require.NoError(b.t, b.hosts[in].Send(fr))
	return sent{f: f, k: key{flow: f.id, seq: seq, dir: d}, at: at}
}

// batchWindow is how many frames of a batch may be in flight (sent, not
// yet out of the switch). Without it a burst queues thousands of frames in
// front of the keep-alives (in the switch and in the filter emulators'
// sockets), which then arrive too late and fail the filters: the test
// would measure its own overload, not the balancer.
const batchWindow = 64

// sendBatch sends one frame per flow and direction, at most the target's
// batch rate and batchWindow frames in flight, and waits until they are
// all out (or the timeout passes).
func (b *bed) sendBatch(flows []*flow, dirs ...dir) []sent {
	b.t.Helper()
	out := make([]sent, 0, len(flows)*len(dirs))
	start := time.Now()
	base := b.sink.n.Load()
	for _, d := range dirs {
		for _, f := range flows {
			if due := start.Add(time.Duration(len(out)) * time.Second / time.Duration(b.tg.batchRate)); time.Until(due) > 0 {
				time.Sleep(time.Until(due))
			}
			for stall := time.Now(); int64(len(out))-(b.sink.n.Load()-base) >= batchWindow; {
				if time.Since(stall) > 50*time.Millisecond {
					// Lost frames never come out: forgive them.
					base -= int64(len(out)) - (b.sink.n.Load() - base)
					break
				}
				time.Sleep(50 * time.Microsecond)
			}
			out = append(out, b.send(f, d))
		}
	}
	b.waitOut(out, 5*time.Second+time.Duration(len(out))*time.Second/time.Duration(b.tg.batchRate))
	return out
}

// waitOut waits until every frame came out somewhere, or within passed.
func (b *bed) waitOut(ss []sent, within time.Duration) {
	deadline := time.Now().Add(within)
	for i := 0; i < len(ss); {
		if len(b.sink.get(ss[i].k)) > 0 {
			i++
			continue
		}
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// fate is what happened to a sent frame.
type fate struct {
	out   []arrival  // where it left the switch
	via   []sighting // the filters that saw it
	right bool       // exactly one copy, out of the paired port
}

func (b *bed) fate(s sent) fate {
	_, want := b.links[s.f.link].port(s.k.dir)
	ft := fate{out: b.sink.get(s.k), via: b.led.get(s.k)}
	ft.right = len(ft.out) == 1 && ft.out[0].port == want
	return ft
}

func (ft fate) delivered() bool { return len(ft.out) > 0 }

// filter is the filter that saw the frame ("" = none: bypassed).
func (ft fate) filter() string {
	if len(ft.via) == 0 {
		return ""
	}
	return ft.via[0].fg
}

func (ft fate) String() string {
	var ps []string
	for _, a := range ft.out {
		ps = append(ps, fmt.Sprint(a.port))
	}
	var fs []string
	for _, s := range ft.via {
		fs = append(fs, fmt.Sprintf("%s(link %d core %d)", s.fg, s.link, s.core))
	}
	return fmt.Sprintf("out of ports [%s] via filters [%s]", strings.Join(ps, " "), strings.Join(fs, " "))
}

// checkStrays fails the test when an operator port got a frame that is not
// one of the test's (a keep-alive or a corrupted frame leaking out).
func (b *bed) checkStrays() {
	b.t.Helper()
	n, first := b.sink.strayCount()
	if n > 0 {
		var hx []string
		for _, f := range first {
			hx = append(hx, fmt.Sprintf("%x", f))
		}
		b.t.Errorf("%d unknown frames left by operator ports, e.g.:\n%s", n, strings.Join(hx, "\n"))
	}
}

// ---- steady streams --------------------------------------------------------

// stream sends the flows round-robin, alternating directions, at a steady
// rate until end.
type stream struct {
	b    *bed
	once sync.Once
	mu   sync.Mutex
	sent []sent
	stop chan struct{}
	done chan struct{}
}

// startStream starts a stream; it is stopped when t ends at the latest (a
// sender left running after the test's sockets close would write into
// whatever file reuses their descriptors).
func (b *bed) startStream(t *testing.T, flows []*flow, rate int) *stream {
	s := &stream{b: b, stop: make(chan struct{}), done: make(chan struct{})}
	t.Cleanup(s.halt)
	type tmpl struct {
		f     *flow
		d     dir
		frame []byte
		in    *rawport.Port
	}
	var ts []tmpl
	for _, d := range []dir{lanToWAN, wanToLAN} {
		for _, f := range flows {
			in, _ := b.links[f.link].port(d)
			ts = append(ts, tmpl{f: f, d: d, frame: f.frame(d, 0), in: b.hosts[in]})
		}
	}
	go func() {
		defer close(s.done)
		start := time.Now()
		for n := 0; ; {
			select {
			case <-s.stop:
				return
			default:
			}
			due := int(time.Since(start) * time.Duration(rate) / time.Second)
			for ; n < due; n++ {
				tp := ts[n%len(ts)]
				seq := b.seq.Add(1)
				fr := append([]byte(nil), tp.frame...)
				setSeq(fr, seq)
				at := time.Now()
				if tp.in.Send(fr) != nil {
					continue
				}
				s.mu.Lock()
				s.sent = append(s.sent, sent{f: tp.f, k: key{flow: tp.f.id, seq: seq, dir: tp.d}, at: at})
				s.mu.Unlock()
			}
			time.Sleep(500 * time.Microsecond)
		}
	}()
	return s
}

// flowFor waits until the stream has sent n more frames than it had
// (traffic flowing, as an event: however long a starved sender takes)
// and every one of them came out of the switch, or was lost (waitOut).
func (s *stream) flowFor(n int) {
	s.b.t.Helper()
	s.mu.Lock()
	from := len(s.sent)
	s.mu.Unlock()
	var batch []sent
	s.b.eventually(60*time.Second, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		if len(s.sent) < from+n {
			return false
		}
		batch = append([]sent(nil), s.sent[from:from+n]...)
		return true
	}, "the stream never sent %d frames", n)
	s.b.waitOut(batch, 5*time.Second)
}

// sentPast waits until the stream has sent a frame after at: every frame
// of a window of send times that ends at at has been sent.
func (s *stream) sentPast(at time.Time) {
	s.b.t.Helper()
	s.b.eventually(time.Until(at)+60*time.Second, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.sent) > 0 && s.sent[len(s.sent)-1].at.After(at)
	}, "the stream never sent past %v", at)
}

// halt stops the sender (idempotent).
func (s *stream) halt() {
	s.once.Do(func() { close(s.stop) })
	<-s.done
}

// end stops the stream, waits for the frames in flight and returns every
// frame sent.
func (s *stream) end() []sent {
	s.halt()
	s.mu.Lock()
	defer s.mu.Unlock()
	// Wait for the frames of the last 100ms (the earlier ones are out or
	// lost by now), then a little for stragglers.
	i := len(s.sent)
	for i > 0 && s.sent[i-1].at.After(time.Now().Add(-100*time.Millisecond)) {
		i--
	}
	s.b.waitOut(s.sent[i:], 2*time.Second)
	// Wall time for stragglers: a frame lost in the kernel gives no
	// event, and the ones before these are out or lost by now.
	time.Sleep(20 * time.Millisecond)
	return s.sent
}

// ---- logs ----------------------------------------------------------------

// logBuffer keeps the daemon's log for the failure message (and streams it
// to stderr with E2E_LOG=1).
type logBuffer struct{ testbed.SyncBuffer }

func (l *logBuffer) logger(name string) *slog.Logger {
	var w io.Writer = l
	if os.Getenv("E2E_LOG") != "" {
		w = io.MultiWriter(l, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug})).With("who", name)
}

func (l *logBuffer) tail(n int) string {
	lines := strings.Split(strings.TrimRight(l.String(), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// ---- small helpers ---------------------------------------------------------

func addr(s string) netip.Addr { return netip.MustParseAddr(s) }

// stallWatch notes when a 1ms timer wakes more than 5ms late: the whole
// process (switch, daemon, emulators) did not run meanwhile, because the
// machine was starved (go test runs packages side by side) or the race
// detector paused it. A keep-alive cannot tell that from a dead filter, so
// failover bounds allow for the stalled time, and failure messages list
// the stalls.
type stallWatch struct {
	mu     sync.Mutex
	stalls []stall
}

type stall struct {
	at   time.Time // when the timer was set
	late time.Duration
}

func watchStalls(t *testing.T) *stallWatch {
	w := &stallWatch{}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			start := time.Now()
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
			if late := time.Since(start) - time.Millisecond; late > 5*time.Millisecond {
				w.mu.Lock()
				if len(w.stalls) < 10000 {
					w.stalls = append(w.stalls, stall{at: start, late: late})
				}
				w.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
	return w
}

// during sums the stalls that began between from and to.
func (w *stallWatch) during(from, to time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	var sum time.Duration
	for _, s := range w.stalls {
		if !s.at.Before(from) && s.at.Before(to) {
			sum += s.late
		}
	}
	return sum
}

func (w *stallWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for i, s := range w.stalls {
		if i == 30 {
			out = append(out, fmt.Sprintf("... %d more", len(w.stalls)-30))
			break
		}
		out = append(out, fmt.Sprintf("%s +%v", s.at.Format("15:04:05.000"), s.late.Round(time.Millisecond)))
	}
	return "[" + strings.Join(out, " ") + "]"
}

// repoFile returns the path of a file of this repository (the test binary
// may run from anywhere, go test runs it in the package directory).
func repoFile(t *testing.T, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, rel)
		}
		up := filepath.Dir(dir)
		require.NotEqual(t, dir, up, "no go.mod above the working directory")
		dir = up
	}
}
