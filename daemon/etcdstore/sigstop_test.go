package etcdstore

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/dpi-balancer/balancer/daemon"
)

// etcdProcs is a cluster of real etcd processes (Debian's etcd-server),
// so members can be paused with SIGSTOP: a stopped process keeps its
// sockets open and answers nothing, peers and clients alike.
type etcdProcs struct {
	bin     string
	cmds    []*exec.Cmd
	args    [][]string // each member's command line, to start it again
	clients []string
}

func startEtcdProcs(t *testing.T, n int) *etcdProcs {
	t.Helper()
	bin, err := exec.LookPath("etcd")
	if err != nil {
		t.Skip("no etcd binary (Debian package etcd-server): the SIGSTOP scenario needs real etcd processes")
	}
	port := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		defer l.Close()
		return l.Addr().String()
	}
	var peers, clients, names []string
	var initial []string
	for i := range n {
		names = append(names, fmt.Sprintf("m%d", i))
		peers = append(peers, port())
		clients = append(clients, port())
		initial = append(initial, fmt.Sprintf("m%d=http://%s", i, peers[i]))
	}
	p := &etcdProcs{bin: bin, clients: clients}
	for i := range n {
		args := []string{"--name", names[i], "--data-dir", filepath.Join(t.TempDir(), names[i]),
			"--listen-client-urls", "http://" + clients[i], "--advertise-client-urls", "http://" + clients[i],
			"--listen-peer-urls", "http://" + peers[i], "--initial-advertise-peer-urls", "http://" + peers[i],
			"--initial-cluster", strings.Join(initial, ","), "--initial-cluster-state", "new",
			"--heartbeat-interval", "50", "--election-timeout", "250", "--log-level", "error", "--logger", "zap"}
		cmd := exec.Command(bin, args...)
		require.NoError(t, cmd.Start())
		p.cmds, p.args = append(p.cmds, cmd), append(p.args, args)
	}
	t.Cleanup(p.stop)
	return p
}

// startEtcdUp is startEtcdProcs until every member answers, with a client
// of the cluster: a cluster that does not come up (a free port taken
// meanwhile by another process) is started again on other ports, once.
func startEtcdUp(t *testing.T, n int) (*etcdProcs, *clientv3.Client) {
	t.Helper()
	for try := 1; ; try++ {
		procs := startEtcdProcs(t, n)
		cli := newClient(t, procs.clients...)
		if procs.up(cli, 30*time.Second) {
			return procs, cli
		}
		require.Less(t, try, 2, "etcd never came up")
		t.Logf("etcd did not come up on %v: started again", procs.clients)
		procs.stop()
	}
}

// up says whether every member answers a status request within d.
func (p *etcdProcs) up(cli *clientv3.Client, d time.Duration) bool {
	return assert.Eventually(&quietT{}, func() bool {
		for _, ep := range p.clients {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			_, err := cli.Status(ctx, ep)
			cancel()
			if err != nil {
				return false
			}
		}
		return true
	}, d, 20*time.Millisecond)
}

// kill ends members is at once (SIGKILL: a crash) and waits for them.
func (p *etcdProcs) kill(t *testing.T, is ...int) {
	t.Helper()
	for _, i := range is {
		c := p.cmds[i]
		_ = c.Process.Signal(syscall.SIGCONT)
		require.NoError(t, c.Process.Kill())
		_ = c.Wait()
	}
}

// restart starts killed member i again on its addresses and data.
func (p *etcdProcs) restart(t *testing.T, i int) {
	t.Helper()
	require.NotNil(t, p.cmds[i].ProcessState, "member %d still runs", i)
	cmd := exec.Command(p.bin, p.args[i]...)
	require.NoError(t, cmd.Start())
	p.cmds[i] = cmd
}

// stop ends every member (also paused ones) and waits for them; again is
// a no-op.
func (p *etcdProcs) stop() {
	for _, c := range p.cmds {
		if c.ProcessState != nil {
			continue
		}
		_ = c.Process.Signal(syscall.SIGCONT)
		_ = c.Process.Kill()
		_ = c.Wait()
	}
}

// signal sends sig to members is. After SIGSTOP it returns once every one
// of them is stopped: the kernel stops a process when it next runs, and on
// a loaded machine a member waiting for a CPU could still finish what it
// was doing (answer a heartbeat) after the signal was sent.
func (p *etcdProcs) signal(t *testing.T, sig syscall.Signal, is ...int) {
	t.Helper()
	for _, i := range is {
		require.NoError(t, p.cmds[i].Process.Signal(sig))
	}
	if sig != syscall.SIGSTOP {
		return
	}
	for _, i := range is {
		pid := p.cmds[i].Process.Pid
		require.Eventually(t, func() bool { st := procState(pid); return st == "T" || st == "t" }, 10*time.Second, time.Millisecond,
			"etcd member %d (pid %d) not stopped 10s after SIGSTOP: state %s", i, pid, procState(pid))
	}
}

// procState is a process's state letter in /proc (R, S, T, ...).
func procState(pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err.Error()
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+3 > len(s) {
		return s
	}
	return s[i+2 : i+3]
}

// TestHAPausedMembers pauses two of three etcd processes (SIGSTOP, not
// killed) five times, a different pair each time: config history answers
// from the member left (its own copy), and a rollback and a change are
// refused with the quorum message, each within the store's timeout; after
// SIGCONT changes go through again. A healthy standby is never "pending".
func TestHAPausedMembers(t *testing.T) {
	t.Parallel()
	if os.Getenv("BALANCER_SHORT_HA") != "" {
		t.Skip("BALANCER_SHORT_HA set")
	}
	// startEtcdUp: beside the package's other parallel tests, a free port
	// picked for a member can be taken before the member binds it; the
	// cluster is then started again on other ports.
	cl, _ := startEtcdUp(t, 3)
	st, err := Open(newClient(t, cl.clients...), "/balancer/test/sw1/", 0)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return st.Health(context.Background()) == nil }, 30*time.Second, 20*time.Millisecond, "etcd never came up")
	initial, err := os.ReadFile("testdata/ha.yaml")
	require.NoError(t, err)
	_, err = st.Seed(initial, "initial", time.Now())
	require.NoError(t, err)
	d, err := daemon.New(daemon.Options{SharedStore: st, FixedElection: true, SwitchAddr: "127.0.0.1:1", DeviceID: 1})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	run := make(chan error, 1)
	go func() { run <- d.Run(ctx) }()
	defer func() { cancel(); <-run }()
	res, err := d.ApplyConfig(ctx, append(append([]byte(nil), initial...), "# two\n"...), false, "two")
	require.NoError(t, err)
	require.Positive(t, res.Revision.Number)

	pairs := [][2]int{{1, 2}, {0, 2}, {0, 1}, {1, 2}, {0, 2}}
	for round, pair := range pairs {
		cl.signal(t, syscall.SIGSTOP, pair[0], pair[1])
		start := time.Now()
		hist, err := d.History(ctx)
		took := time.Since(start)
		require.NoError(t, err, "round %d: history with members %v paused", round, pair)
		require.NotEmpty(t, hist)
		assert.Less(t, took, DefaultTimeout+2*time.Second, "round %d: history took %s", round, took)
		t.Logf("round %d (members %v paused): history answered in %s", round, pair, took.Round(time.Millisecond))

		start = time.Now()
		_, err = d.Rollback(ctx, hist[0].Number, false, "")
		took = time.Since(start)
		require.ErrorIs(t, err, ErrQuorumLost, "round %d: rollback", round)
		assert.Contains(t, err.Error(), "changes are refused until a majority of the etcd members is back")
		assert.NotContains(t, err.Error(), "reading revision")
		assert.Less(t, took, 2*DefaultTimeout+2*time.Second, "round %d: rollback took %s", round, took)
		t.Logf("round %d: rollback refused with the quorum message in %s", round, took.Round(time.Millisecond))

		cl.signal(t, syscall.SIGCONT, pair[0], pair[1])
		var last error
		resumed := time.Now()
		if !assert.Eventually(t, func() bool {
			_, last = d.ApplyConfig(ctx, append(append([]byte(nil), initial...), fmt.Sprintf("# after outage %d\n", round)...), false, "")
			return last == nil
		}, 30*time.Second, 50*time.Millisecond) {
			t.Fatalf("round %d: changes never went through again; the last answer: %v", round, last)
		}
		t.Logf("round %d: a change went through %s after SIGCONT", round, time.Since(resumed).Round(time.Millisecond))
	}
}
