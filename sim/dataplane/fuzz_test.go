package dataplane

import (
	"bytes"
	"errors"
	"slices"
	"sync"
	"testing"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	pc "github.com/dpi-balancer/balancer/internal/pipelinecases"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/tables"
)

// fuzzPorts are the ingress choices of FuzzProcess: every port role of the
// site, the CPU port (raw: packet_out header in the frame), packet-outs
// (selector >= len) and a port beyond 9 bits.
var fuzzPorts = []uint32{pc.L1LAN, pc.L1WAN, pc.L2LAN, pc.L2WAN, pc.F1LAN, pc.F1WAN, pc.F2LAN, pc.F2WAN, pc.Unknown, p4src.CPUPortBMv2, 600}

var (
	fuzzOnce sync.Once
	fuzzD    *Dataplane
	fuzzPlan [][]*p4v1.Update // the site's writes, replayed by FuzzWrite
)

func fuzzSetup(tb testing.TB) {
	fuzzOnce.Do(func() {
		fuzzD = siteDP(tb)
		comp, desired := compileSite(tb, siteConfig(tb), tables.State{})
		for _, b := range comp.Diff(desired.Entities, nil).Batches {
			fuzzPlan = append(fuzzPlan, b.Updates)
		}
	})
}

func isPort(p uint32, ports ...uint32) bool { return slices.Contains(ports, p) }

// FuzzProcess sends arbitrary frames into every kind of port and checks
// that the pipeline never panics, never touches its input, and only ever
// makes the changes the P4 program can make.
func FuzzProcess(f *testing.F) {
	fuzzSetup(f)
	for _, c := range pc.Cases(siteConfig(f)) {
		if c.PacketOut != nil {
			f.Add(uint8(len(fuzzPorts)), uint16(c.PacketOut.Port), c.PacketOut.Flags, c.Frame)
			continue
		}
		f.Add(uint8(slices.Index(fuzzPorts, c.In)), uint16(0), uint8(0), c.Frame)
	}
	f.Add(uint8(9), uint16(0), uint8(0), append([]byte{pc.F1LAN >> 1, pc.F1LAN & 1 << 7, 1}, pc.KeepAlive(0, 1, 0)...))
	f.Fuzz(func(t *testing.T, sel uint8, poPort uint16, flags uint8, frame []byte) {
		d := fuzzD
		in := bytes.Clone(frame)
		buf := make([]byte, 0, len(frame)+4)
		var r Result
		var port uint32
		packetOut := int(sel) >= len(fuzzPorts)
		if packetOut {
			r = d.PacketOut(uint32(poPort), flags, frame, buf)
		} else {
			port = fuzzPorts[sel]
			r = d.Process(port, frame, buf)
		}
		require.Equal(t, in, frame, "input modified")
		switch r.Kind {
		case Drop:
			require.Nil(t, r.Frame)
			return
		case Forward, ToCPU:
		default:
			t.Fatalf("kind %v", r.Kind)
		}
		out := r.Frame
		body := frame
		if port == p4src.CPUPortBMv2 {
			require.GreaterOrEqual(t, len(frame), 3)
			body = frame[3:]
		}
		operator := isPort(port, pc.L1LAN, pc.L1WAN, pc.L2LAN, pc.L2WAN)
		filter := isPort(port, pc.F1LAN, pc.F1WAN, pc.F2LAN, pc.F2WAN)
		switch {
		case r.Kind == ToCPU && filter:
			// A keep-alive back from a filter.
			require.Equal(t, body, out)
			require.Equal(t, uint8(wire.PacketInReasonKeepAlive), r.PacketIn.Reason)
			require.Equal(t, port, r.PacketIn.IngressPort)
		case r.Kind == ToCPU:
			// Only a packet-out (or a raw CPU frame) can name the CPU port;
			// its keep-alive flag still stamps the frame.
			require.True(t, packetOut || port == p4src.CPUPortBMv2, "port %d to the CPU", port)
			require.Zero(t, r.PacketIn.Reason)
			require.Len(t, out, len(body))
			if !bytes.Equal(body, out) {
				require.Equal(t, body[:26], out[:26])
				require.Equal(t, body[34:], out[34:])
			}
		case operator && isPort(r.Port, pc.F1LAN, pc.F1WAN, pc.F2LAN, pc.F2WAN):
			// Balanced: the core header pushed after the source MAC, with
			// the link of the ingress port.
			require.Len(t, out, len(body)+4)
			require.Equal(t, body[:12], out[:12])
			require.Equal(t, body[12:], out[16:])
			require.Equal(t, []byte{0x88, 0xb5}, out[12:14])
			link := uint32(out[14] >> 2)
			require.True(t, (link == pc.L1ID && isPort(port, pc.L1LAN, pc.L1WAN)) || (link == pc.L2ID && isPort(port, pc.L2LAN, pc.L2WAN)), "link %d from port %d", link, port)
			lan := isPort(port, pc.L1LAN, pc.L2LAN)
			require.Equal(t, lan, isPort(r.Port, pc.F1LAN, pc.F2LAN), "side kept")
		case operator:
			// Bypassed to the peer port, byte for byte.
			require.Equal(t, map[uint32]uint32{pc.L1LAN: pc.L1WAN, pc.L1WAN: pc.L1LAN, pc.L2LAN: pc.L2WAN, pc.L2WAN: pc.L2LAN}[port], r.Port)
			require.Equal(t, body, out)
		case filter:
			// Returned: the core header popped, out of the link's port on
			// the same side.
			require.Len(t, out, len(body)-4)
			require.Equal(t, body[:12], out[:12])
			require.Equal(t, body[16:], out[12:])
			require.True(t, isPort(r.Port, pc.L1LAN, pc.L1WAN, pc.L2LAN, pc.L2WAN))
			require.Equal(t, isPort(port, pc.F1LAN, pc.F2LAN), isPort(r.Port, pc.L1LAN, pc.L2LAN), "side kept")
		case packetOut || port == p4src.CPUPortBMv2:
			// Unchanged, but for the keep-alive tx timestamp.
			require.Len(t, out, len(body))
			if !bytes.Equal(body, out) {
				require.GreaterOrEqual(t, len(body), 34)
				require.Equal(t, body[:26], out[:26])
				require.Equal(t, body[34:], out[34:])
			}
		default:
			t.Fatalf("port %d forwarded to %d", port, r.Port)
		}
	})
}

var sentinels = []error{ErrInvalidArgument, ErrAlreadyExists, ErrNotFound, ErrResourceExhausted, ErrUnimplemented, ErrPermissionDenied, ErrOutOfRange, ErrAborted}

// FuzzWrite decodes arbitrary bytes as a WriteRequest and writes it into a
// data plane holding the site. It checks: one error per update, each
// wrapping a sentinel; the indexes agree with the store; an atomic batch
// that failed changed nothing; the state reads back and writes into an
// empty data plane as the same state (read-write symmetry); packets still
// go through.
func FuzzWrite(f *testing.F) {
	fuzzSetup(f)
	id := testIDs(f)
	add := func(atomicity p4v1.WriteRequest_Atomicity, ups ...*p4v1.Update) {
		b, err := proto.Marshal(&p4v1.WriteRequest{Updates: ups, Atomicity: atomicity})
		require.NoError(f, err)
		f.Add(b)
	}
	for _, b := range fuzzPlan {
		add(p4v1.WriteRequest_CONTINUE_ON_ERROR, b[:min(len(b), 8)]...)
	}
	add(p4v1.WriteRequest_ROLLBACK_ON_ERROR, ins(id.role(5)), ins(id.role(5)))
	add(p4v1.WriteRequest_DATAPLANE_ATOMIC, ins(id.rule(7, 6)), del(id.rule(7, 6)), mod(id.vset(id.coreTPID, 1, 2)))
	add(p4v1.WriteRequest_CONTINUE_ON_ERROR, mod(counterE(id.portRx, i64(20), 5, 5)), mod(directE(id.rule(7, 6).GetTableEntry(), 1, 1)))
	add(p4v1.WriteRequest_CONTINUE_ON_ERROR, mod(&p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: &p4v1.TableEntry{TableId: id.balanceGroups, IsDefaultAction: true, Action: act(id.groupActive, b(0xff, 0xff))}}}))
	add(p4v1.WriteRequest_CONTINUE_ON_ERROR, ins(te(id.flowRules, 3, act(id.balance, b(0)), rangeM(2, b(1), b(0x0f, 0xfe)), rangeM(13, b(4), b(0xff, 0)), rangeM(14, b(1), b(0xff, 0xfe)))))
	for _, c := range writeErrorCases(id) {
		if c.u != nil {
			add(p4v1.WriteRequest_ROLLBACK_ON_ERROR, append(slices.Clone(c.setup), c.u)...)
		}
	}
	probes := pc.Cases(siteConfig(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		var req p4v1.WriteRequest
		if err := proto.Unmarshal(data, &req); err != nil {
			return
		}
		d := newDP(t)
		for _, b := range fuzzPlan {
			for _, err := range d.Write(b, 0) {
				require.NoError(t, err)
			}
		}
		before := state(t, d)
		errs := d.Write(req.Updates, req.Atomicity)
		require.Len(t, errs, len(req.Updates))
		failed := false
		for _, err := range errs {
			if err == nil {
				continue
			}
			failed = true
			found := false
			for _, s := range sentinels {
				found = found || errors.Is(err, s)
			}
			require.True(t, found, "error without a sentinel: %v", err)
		}
		checkInvariants(t, d)
		after := state(t, d)
		if failed && req.Atomicity != p4v1.WriteRequest_CONTINUE_ON_ERROR {
			requireSameState(t, before, after)
		}
		// Read-write symmetry: what reads back writes back as the same
		// state.
		d2 := newDP(t)
		var ups []*p4v1.Update
		for _, e := range after {
			switch {
			case e.GetTableEntry().GetIsDefaultAction():
				if !e.GetTableEntry().GetIsConst() {
					ups = append(ups, mod(e))
				}
			case e.GetTableEntry() != nil:
				ups = append(ups, ins(e))
			default:
				ups = append(ups, mod(e))
			}
		}
		for i, err := range d2.Write(ups, p4v1.WriteRequest_ROLLBACK_ON_ERROR) {
			require.NoError(t, err, "write back %d: %v", i, ups[i])
		}
		requireSameState(t, after, state(t, d2))
		// Packets go through whatever the tables hold.
		for _, c := range probes {
			if c.PacketOut != nil {
				d.PacketOut(c.PacketOut.Port, c.PacketOut.Flags, c.Frame, nil)
			} else {
				d.Process(c.In, c.Frame, nil)
			}
		}
	})
}
