package interop

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/antoninbas/p4runtime-go-client/pkg/client"
	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
)

const (
	repoRoot   = "../.."
	p4infoPath = repoRoot + "/p4src/build/v1model/balancer.p4info.txtpb"
	bmv2Path   = repoRoot + "/p4src/build/v1model/balancer.json"
	deviceID   = 1
	// The loop joins ports 20 and 10: what the switch sends out of 20
	// comes back in on 10, as through a filter.
	loopOut = 20
	loopIn  = 10
)

var balancerBin string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	balancerBin = os.Getenv("BALANCER_BIN")
	if balancerBin == "" {
		dir, err := os.MkdirTemp("", "interop-bin")
		if err != nil {
			fmt.Fprintln(os.Stderr, "interop:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		balancerBin = filepath.Join(dir, "balancer")
		// Built with the main module's own go.mod (its p4runtime version),
		// never with this module's.
		build := exec.Command("go", "build", "-o", balancerBin, "./cmd/balancer")
		build.Dir = repoRoot
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "interop: building the balancer binary:", err)
			return 1
		}
	}
	return m.Run()
}

var listenRE = regexp.MustCompile(`msg="software switch" p4runtime=(\S+)`)

// startSim runs `balancer sim` with a loop 20:10 and returns a connection
// to its P4Runtime server.
func startSim(t *testing.T) *grpc.ClientConn {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, balancerBin, "sim", "--p4rt", "127.0.0.1:0", "--gnmi", "",
		"--loop", fmt.Sprintf("%d:%d", loopOut, loopIn), "--mem-port", "30,40")
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listenRE.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
			if testing.Verbose() {
				fmt.Fprintln(os.Stderr, "sim:", sc.Text())
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	var a string
	select {
	case a = <-addr:
	case <-time.After(60 * time.Second):
		t.Fatal("balancer sim did not report its P4Runtime address")
	}
	conn, err := grpc.NewClient(a, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	return conn
}

// controller is one unmodified p4runtime-go-client with its stream running.
type controller struct {
	*client.Client
	arb  chan bool
	msgs chan *p4v1.StreamMessageResponse
	stop chan struct{}
	done chan error
}

func newController(t *testing.T, conn *grpc.ClientConn, election *p4v1.Uint128) *controller {
	t.Helper()
	c := &controller{Client: client.NewClient(p4v1.NewP4RuntimeClient(conn), deviceID, election),
		arb: make(chan bool, 16), msgs: make(chan *p4v1.StreamMessageResponse, 64),
		stop: make(chan struct{}), done: make(chan error, 1)}
	go func() { c.done <- c.Run(c.stop, c.arb, c.msgs) }()
	t.Cleanup(c.close)
	return c
}

func (c *controller) close() {
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
}

func (c *controller) nextArb(t *testing.T) bool {
	t.Helper()
	select {
	case p := <-c.arb:
		return p
	case err := <-c.done:
		t.Fatalf("stream ended: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("no arbitration update")
	}
	return false
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// oldProto reads the committed P4Info with this module's p4runtime
// (v1.4.0-rc.5, the client's): fields added later, such as the tables'
// initial_default_action that p4c 1.2.5 writes, are unknown to it and
// left out.
var oldProto = prototext.UnmarshalOptions{DiscardUnknown: true}

// p4infoText is the committed P4Info as the client's p4runtime version can
// parse it.
func p4infoText(t *testing.T) []byte {
	t.Helper()
	var info p4configv1.P4Info
	require.NoError(t, oldProto.Unmarshal(readFile(t, p4infoPath), &info))
	b, err := prototext.Marshal(&info)
	require.NoError(t, err)
	return b
}

func u128(low uint64) *p4v1.Uint128 { return &p4v1.Uint128{Low: low} }

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// grpcCode digs the per-update code out of a Write error (the client
// returns the gRPC error of the batch).
func grpcCode(err error) codes.Code {
	st := status.Convert(err)
	for _, d := range st.Details() {
		if pe, ok := d.(*p4v1.Error); ok && pe.GetCanonicalCode() != 0 {
			return codes.Code(pe.GetCanonicalCode())
		}
	}
	return st.Code()
}

// Arbitration with the client's own stream handling: the higher election
// id is primary, a lower one backup; only the primary writes; when the
// primary goes away a controller with a higher id takes over.
func TestArbitrationPrimaryAndBackup(t *testing.T) {
	conn := startSim(t)
	p := newController(t, conn, u128(10))
	require.True(t, p.nextArb(t), "first controller is primary")
	_, err := p.SetFwdPipeFromBytes(ctx(t), readFile(t, bmv2Path), p4infoText(t), 7)
	require.NoError(t, err)

	b := newController(t, conn, u128(5))
	require.False(t, b.nextArb(t), "lower election id is a backup")
	_, err = b.GetFwdPipe(ctx(t), client.GetFwdPipeP4InfoAndCookie)
	require.NoError(t, err, "a backup reads the pipeline")
	entry := b.NewTableEntry("BalancerIngress.links", map[string]client.MatchInterface{"link_id": &client.ExactMatch{Value: []byte{1}}},
		b.NewTableActionDirect("BalancerIngress.set_link", [][]byte{{0, 20}, {0, 10}}), nil)
	err = b.InsertTableEntry(ctx(t), entry)
	assert.Equal(t, codes.PermissionDenied, status.Code(err), "a backup cannot write")
	_, err = b.ReadTableEntryWildcard(ctx(t), "BalancerIngress.links")
	require.NoError(t, err, "a backup reads")

	// The primary leaves: the backup is told there is no primary; a
	// controller bidding above the old primary takes over and writes.
	p.close()
	assert.False(t, b.nextArb(t))
	n := newController(t, conn, u128(11))
	require.True(t, n.nextArb(t))
	_, err = n.GetFwdPipe(ctx(t), client.GetFwdPipeAll)
	require.NoError(t, err)
	require.NoError(t, n.InsertTableEntry(ctx(t), entry))
	assert.False(t, b.nextArb(t), "the backup hears of the new primary")
}

// P4Runtime 1.4 "Unset Election ID": the client with no election id is a
// backup that never becomes primary.
func TestUnsetElectionID(t *testing.T) {
	conn := startSim(t)
	u := newController(t, conn, nil)
	assert.False(t, u.nextArb(t), "no election id: backup, even with no primary")
	_, err := u.SetFwdPipeFromBytes(ctx(t), readFile(t, bmv2Path), p4infoText(t), 1)
	assert.Equal(t, codes.PermissionDenied, status.Code(err))
	p := newController(t, conn, u128(1))
	require.True(t, p.nextArb(t))
	assert.False(t, u.nextArb(t))
}

// Pipeline push (VERIFY_AND_SAVE + COMMIT and VERIFY_AND_COMMIT) and get.
func TestPipelinePushAndGet(t *testing.T) {
	conn := startSim(t)
	p := newController(t, conn, u128(1))
	require.True(t, p.nextArb(t))
	cfg, err := p.GetFwdPipe(ctx(t), client.GetFwdPipeAll)
	require.NoError(t, err)
	assert.Nil(t, cfg.P4Info, "no pipeline before the first push")

	_, err = p.SaveFwdPipeFromBytes(ctx(t), readFile(t, bmv2Path), p4infoText(t), 41)
	require.NoError(t, err)
	_, err = p.CommitFwdPipe(ctx(t))
	require.NoError(t, err)
	cfg, err = p.GetFwdPipe(ctx(t), client.GetFwdPipeCookieOnly)
	require.NoError(t, err)
	assert.Equal(t, uint64(41), cfg.Cookie)

	_, err = p.SetFwdPipeFromBytes(ctx(t), readFile(t, bmv2Path), p4infoText(t), 42)
	require.NoError(t, err)
	cfg, err = p.GetFwdPipe(ctx(t), client.GetFwdPipeAll)
	require.NoError(t, err)
	assert.Equal(t, uint64(42), cfg.Cookie)
	var want p4configv1.P4Info
	require.NoError(t, oldProto.Unmarshal(readFile(t, p4infoPath), &want))
	assert.Equal(t, len(want.GetTables()), len(cfg.P4Info.GetTables()))
	assert.Equal(t, readFile(t, bmv2Path), cfg.P4DeviceConfig)

	// A program that is not the balancer's is refused.
	var other p4configv1.P4Info
	require.NoError(t, oldProto.Unmarshal(readFile(t, p4infoPath), &other))
	other.Tables = other.Tables[1:]
	otherText, err := prototext.Marshal(&other)
	require.NoError(t, err)
	_, err = p.SetFwdPipeFromBytes(ctx(t), nil, otherText, 43)
	assert.Equal(t, codes.InvalidArgument, status.Code(err))
}

func programmed(t *testing.T) (*controller, *grpc.ClientConn) {
	conn := startSim(t)
	p := newController(t, conn, u128(1))
	require.True(t, p.nextArb(t))
	_, err := p.SetFwdPipeFromBytes(ctx(t), readFile(t, bmv2Path), p4infoText(t), 1)
	require.NoError(t, err)
	return p, conn
}

// Insert, read, modify, delete on every table kind: exact (one and two
// fields), ternary with priorities, a refused range on a ternary key, the default entry,
// a parser value set; and the codes a client sees for mistakes.
func TestTablesEveryKind(t *testing.T) {
	p, _ := programmed(t)
	c := ctx(t)
	exact := func(v ...byte) client.MatchInterface { return &client.ExactMatch{Value: v} }

	// Exact, one field.
	pr := p.NewTableEntry("BalancerIngress.port_role", map[string]client.MatchInterface{"port": exact(0, 30)},
		p.NewTableActionDirect("BalancerIngress.set_operator_port", [][]byte{{2}, {1}, {0, 40}}), nil)
	require.NoError(t, p.InsertTableEntry(c, pr))
	assert.Equal(t, codes.AlreadyExists, grpcCode(p.InsertTableEntry(c, pr)))
	got, err := p.ReadTableEntry(c, "BalancerIngress.port_role", []client.MatchInterface{exact(30)})
	require.NoError(t, err)
	assert.Equal(t, []byte{30}, got.GetMatch()[0].GetExact().GetValue(), "canonical bytes")
	assert.Equal(t, []byte{40}, got.GetAction().GetAction().GetParams()[2].GetValue())
	pr.Action = p.NewTableActionDirect("BalancerIngress.set_operator_port", [][]byte{{3}, {0}, {41}})
	require.NoError(t, p.ModifyTableEntry(c, pr))
	got, err = p.ReadTableEntry(c, "BalancerIngress.port_role", []client.MatchInterface{exact(30)})
	require.NoError(t, err)
	assert.Equal(t, []byte{3}, got.GetAction().GetAction().GetParams()[0].GetValue())

	// Exact, two fields; a value wider than its field is OUT_OF_RANGE.
	slot := func(g, s byte) *p4v1.TableEntry {
		return p.NewTableEntry("BalancerIngress.slots", map[string]client.MatchInterface{"balance_group": exact(g), "slot": exact(0, s)},
			p.NewTableActionDirect("BalancerIngress.to_filter", [][]byte{{1}, {0, 3}}), nil)
	}
	for s := byte(0); s < 8; s++ {
		require.NoError(t, p.InsertTableEntry(c, slot(2, s)))
	}
	slots, err := p.ReadTableEntryWildcard(c, "BalancerIngress.slots")
	require.NoError(t, err)
	assert.Len(t, slots, 8)
	assert.Equal(t, codes.OutOfRange, grpcCode(p.InsertTableEntry(c, slot(0x1f, 1))), "balance_group is 4 bits")

	// Ternary.
	hb := p.NewTableEntry("BalancerIngress.heartbeat", map[string]client.MatchInterface{
		"dst_mac": &client.TernaryMatch{Value: []byte{0, 0xe0, 0xed, 0xaa, 0xbb, 0xcc}, Mask: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}}},
		p.NewTableActionDirect("BalancerIngress.heartbeat_pass", nil), &client.TableEntryOptions{Priority: 10})
	require.NoError(t, p.InsertTableEntry(c, hb))
	hb0 := p.NewTableEntry("BalancerIngress.heartbeat", map[string]client.MatchInterface{
		"eth_type": &client.TernaryMatch{Value: []byte{0x88, 0x09}, Mask: []byte{0xff, 0xff}}},
		p.NewTableActionDirect("BalancerIngress.heartbeat_pass", nil), nil)
	assert.Equal(t, codes.InvalidArgument, grpcCode(p.InsertTableEntry(c, hb0)), "a ternary entry needs a priority")

	// Ternary keys with priorities (the flow rules' port keys are ternary:
	// the controller expands a port range into prefixes); a range match
	// on them is refused.
	rule := func(prio int32, v, mask uint16) *p4v1.TableEntry {
		return p.NewTableEntry("BalancerIngress.flow_rules", map[string]client.MatchInterface{
			"ip_proto": &client.TernaryMatch{Value: []byte{6}, Mask: []byte{0xff}},
			"l4_dst":   &client.TernaryMatch{Value: []byte{byte(v >> 8), byte(v)}, Mask: []byte{byte(mask >> 8), byte(mask)}}},
			p.NewTableActionDirect("BalancerIngress.bypass", nil), &client.TableEntryOptions{Priority: prio})
	}
	require.NoError(t, p.InsertTableEntry(c, rule(100, 179, 0xffff)))
	require.NoError(t, p.InsertTableEntry(c, rule(50, 1024, 0xfc00))) // 1024..2047
	rules, err := p.ReadTableEntryWildcard(c, "BalancerIngress.flow_rules")
	require.NoError(t, err)
	require.Len(t, rules, 2)
	prios := map[int32]bool{}
	for _, r := range rules {
		prios[r.GetPriority()] = true
	}
	assert.Equal(t, map[int32]bool{100: true, 50: true}, prios)
	require.NoError(t, p.DeleteTableEntry(c, rule(50, 1024, 0xfc00)))
	assert.Equal(t, codes.NotFound, grpcCode(p.DeleteTableEntry(c, rule(50, 1024, 0xfc00))))
	ranged := p.NewTableEntry("BalancerIngress.flow_rules", map[string]client.MatchInterface{
		"l4_dst": &client.RangeMatch{Low: []byte{0x03, 0xe8}, High: []byte{0x07, 0xd0}}},
		p.NewTableActionDirect("BalancerIngress.bypass", nil), &client.TableEntryOptions{Priority: 60})
	assert.Equal(t, codes.InvalidArgument, grpcCode(p.InsertTableEntry(c, ranged)), "l4_dst is a ternary key")

	// The default entry: modify, read back.
	def := p.NewTableEntry("BalancerIngress.flow_rules", nil, p.NewTableActionDirect("BalancerIngress.bypass", nil), nil)
	require.NoError(t, p.ModifyTableEntry(c, def))
	back, err := p.ReadEntitySingle(c, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{
		TableId: def.GetTableId(), IsDefaultAction: true}}})
	require.NoError(t, err)
	assert.True(t, back.GetTableEntry().GetIsDefaultAction())

	// A parser value set, through the client's raw update.
	var info p4configv1.P4Info
	require.NoError(t, oldProto.Unmarshal(readFile(t, p4infoPath), &info))
	var vsID uint32
	for _, vs := range info.GetValueSets() {
		if vs.GetPreamble().GetName() == "IngressParser.core_tpid" {
			vsID = vs.GetPreamble().GetId()
		}
	}
	require.NotZero(t, vsID)
	vs := &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: vsID,
		Members: []*p4v1.ValueSetMember{{Match: []*p4v1.FieldMatch{{FieldId: 1,
			FieldMatchType: &p4v1.FieldMatch_Exact_{Exact: &p4v1.FieldMatch_Exact{Value: []byte{0x88, 0xb5}}}}}}}}}}
	require.NoError(t, p.WriteUpdate(c, &p4v1.Update{Type: p4v1.Update_MODIFY, Entity: vs}))
	back, err = p.ReadEntitySingle(c, &p4v1.Entity{Entity: &p4v1.Entity_ValueSetEntry{ValueSetEntry: &p4v1.ValueSetEntry{ValueSetId: vsID}}})
	require.NoError(t, err)
	require.Len(t, back.GetValueSetEntry().GetMembers(), 1)

	// Delete the exact entry; reading it is NOT_FOUND.
	require.NoError(t, p.DeleteTableEntry(c, pr))
	_, err = p.ReadTableEntry(c, "BalancerIngress.port_role", []client.MatchInterface{exact(30)})
	assert.Error(t, err)
}

// keepAlive is a keep-alive frame: EtherType 0x88B6 and a 20-byte
// keep-alive header, padded to 60 bytes.
func keepAlive(seq byte) []byte {
	f := []byte{0x02, 0, 0, 0, 0, 0x01, 0x02, 0, 0, 0, 0, 0x02, 0x88, 0xb6,
		0xba, 0x1a, 0x0c, 0xe0, 1, 0, 0, 0, 0, 0, 0, seq}
	return append(f, make([]byte, 60-len(f))...)
}

// Packet-out and packet-in through the client's stream, and the counters
// the packets moved. Ports 20 and 10 are the ends of a filter (a loop):
// a keep-alive sent out of 20 comes back in on 10 and goes to the
// controller.
func TestPacketIOAndCounters(t *testing.T) {
	p, _ := programmed(t)
	c := ctx(t)
	var info p4configv1.P4Info
	require.NoError(t, oldProto.Unmarshal(readFile(t, p4infoPath), &info))
	meta := map[string]map[string]uint32{}
	for _, h := range info.GetControllerPacketMetadata() {
		meta[h.GetPreamble().GetName()] = map[string]uint32{}
		for _, m := range h.GetMetadata() {
			meta[h.GetPreamble().GetName()][m.GetName()] = m.GetId()
		}
	}
	filterPort := func(port byte, side byte) *p4v1.TableEntry {
		return p.NewTableEntry("BalancerIngress.port_role", map[string]client.MatchInterface{"port": &client.ExactMatch{Value: []byte{port}}},
			p.NewTableActionDirect("BalancerIngress.set_filter_port", [][]byte{{0}, {side}}), nil)
	}
	require.NoError(t, p.InsertTableEntry(c, filterPort(loopOut, 0)))
	require.NoError(t, p.InsertTableEntry(c, filterPort(loopIn, 1)))

	const n = 5
	for i := byte(0); i < n; i++ {
		require.NoError(t, p.SendPacketOut(c, &p4v1.PacketOut{Payload: keepAlive(i), Metadata: []*p4v1.PacketMetadata{
			{MetadataId: meta["packet_out"]["egress_port"], Value: []byte{loopOut}},
			{MetadataId: meta["packet_out"]["flags"], Value: []byte{1}},
		}}))
	}
	for i := 0; i < n; i++ {
		var pin *p4v1.PacketIn
		select {
		case m := <-p.msgs:
			pin = m.GetPacket()
			require.NotNil(t, pin, "stream message %v", m)
		case <-time.After(10 * time.Second):
			t.Fatalf("packet-in %d of %d did not come", i+1, n)
		}
		md := map[uint32][]byte{}
		for _, m := range pin.GetMetadata() {
			md[m.GetMetadataId()] = m.GetValue()
		}
		assert.Equal(t, []byte{loopIn}, md[meta["packet_in"]["ingress_port"]], "ingress port")
		assert.Equal(t, []byte{1}, md[meta["packet_in"]["reason"]], "reason: keep-alive")
		assert.NotEmpty(t, md[meta["packet_in"]["rx_timestamp"]])
		assert.Len(t, pin.GetPayload(), 60)
		assert.Equal(t, keepAlive(0)[:14], pin.GetPayload()[:14])
	}

	// Indexed counters: one cell, the whole counter, a reset.
	rx, err := p.ReadCounterEntry(c, "BalancerIngress.port_rx", loopIn)
	require.NoError(t, err)
	assert.Equal(t, int64(n), rx.GetPacketCount())
	assert.Equal(t, int64(n*60), rx.GetByteCount())
	tx, err := p.ReadCounterEntry(c, "BalancerEgress.port_tx", loopOut)
	require.NoError(t, err)
	assert.Equal(t, int64(n), tx.GetPacketCount())
	all, err := p.ReadCounterEntryWildcard(c, "BalancerIngress.port_rx")
	require.NoError(t, err)
	assert.Len(t, all, 512)
	require.NoError(t, p.ModifyCounterEntry(c, "BalancerIngress.port_rx", loopIn, &p4v1.CounterData{}))
	rx, err = p.ReadCounterEntry(c, "BalancerIngress.port_rx", loopIn)
	require.NoError(t, err)
	assert.Zero(t, rx.GetPacketCount())
	_, err = p.ReadCounterEntry(c, "BalancerIngress.port_rx", 512)
	// The client flattens the gRPC error into its message.
	assert.ErrorContains(t, err, "code = OutOfRange", "index beyond the counter")

	// Direct counters, through the client's wildcard read.
	rule := p.NewTableEntry("BalancerIngress.flow_rules", map[string]client.MatchInterface{
		"ip_proto": &client.TernaryMatch{Value: []byte{17}, Mask: []byte{0xff}}},
		p.NewTableActionDirect("BalancerIngress.bypass", nil), &client.TableEntryOptions{Priority: 1})
	require.NoError(t, p.InsertTableEntry(c, rule))
	ch := make(chan *p4v1.Entity, 16)
	var direct []*p4v1.Entity
	done := make(chan struct{})
	go func() {
		for e := range ch {
			direct = append(direct, e)
		}
		close(done)
	}()
	require.NoError(t, p.ReadEntityWildcard(c, &p4v1.Entity{Entity: &p4v1.Entity_DirectCounterEntry{DirectCounterEntry: &p4v1.DirectCounterEntry{
		TableEntry: &p4v1.TableEntry{TableId: rule.GetTableId()}}}}, ch))
	<-done
	require.Len(t, direct, 1)
	assert.NotNil(t, direct[0].GetDirectCounterEntry().GetData())
}
