package dataplane

import (
	"encoding/binary"
	"fmt"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/symhash"
)

// ResultKind is what happened to a frame.
type ResultKind uint8

const (
	// Drop: the frame leaves nowhere (Result.DropReason says why; 0 for
	// a frame sent to v1model's drop port 511 or to a port beyond 9 bits).
	Drop ResultKind = iota
	// Forward: the frame leaves by data-plane port Result.Port.
	Forward
	// ToCPU: the frame goes to the controller as a packet-in
	// (Result.PacketIn).
	ToCPU
)

func (k ResultKind) String() string {
	switch k {
	case Drop:
		return "drop"
	case Forward:
		return "forward"
	case ToCPU:
		return "to-cpu"
	}
	return fmt.Sprintf("ResultKind(%d)", uint8(k))
}

// Result is the outcome of one frame through the pipeline.
type Result struct {
	Kind ResultKind
	// Port is the egress port (Forward) or the CPU port (ToCPU).
	Port uint32
	// Frame is the frame that leaves, without controller headers: the
	// input frame itself when the pipeline did not change it, else the
	// caller's buf resliced. nil for Drop.
	Frame []byte
	// DropReason is the drop_counters index of a dropped frame
	// (p4src.Drop*).
	DropReason uint8
	// PacketIn is the packet_in header of a ToCPU frame. A frame the
	// pipeline sent to the CPU port without one (a packet-out to the
	// CPU port, a peer port set to it) has Reason 0.
	PacketIn PacketInMeta
}

// PacketInMeta is the packet_in controller header.
type PacketInMeta struct {
	IngressPort uint32
	Reason      uint8
	// RxTimestamp is the ingress timestamp: the clock's low 48 bits.
	RxTimestamp uint64
}

// Packet is one frame of a ProcessBatch burst.
type Packet struct {
	InPort uint32
	Frame  []byte
	Buf    []byte
	Result Result
}

const (
	dropPort = 511 // v1model: egress_spec 511 drops (mark_to_drop)
)

// Process runs a frame received on a data-plane port through the
// pipeline. Output bytes go into buf, which the caller owns and which must
// have a capacity of at least len(frame)+4 (with less, Process allocates);
// buf may share frame's backing array (frame[:0]) for in-place
// processing. The result's Frame aliases frame or buf.
//
// A frame "received" on the CPU port is taken as BMv2 sees one: a
// packet_out header followed by the frame. Use PacketOut for frames from
// the controller.
func (d *Dataplane) Process(inPort uint32, frame []byte, buf []byte) Result {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.process(inPort, frame, buf)
}

// PacketOut runs a frame from the controller (a P4Runtime PacketOut with
// packet_out.egress_port = port and .flags = flags) through the pipeline.
func (d *Dataplane) PacketOut(port uint32, flags uint8, frame []byte, buf []byte) Result {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.packetOut(port, flags, frame, buf)
}

// ProcessBatch runs a burst of frames from data-plane ports under one
// acquisition of the lock; each Packet's Result is filled in.
func (d *Dataplane) ProcessBatch(pkts []Packet) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	for i := range pkts {
		p := &pkts[i]
		p.Result = d.process(p.InPort, p.Frame, p.Buf)
	}
}

// Explain runs a frame received on a data-plane port through the
// pipeline as Process does (counters count it) and also returns every
// table the pipeline applied to it, in order, with the entry that matched
// or the default action that ran.
func (d *Dataplane) Explain(inPort uint32, frame []byte) (Result, []Hit) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	var hits []Hit
	var m meta
	d.parse(frame, d.packetOutPort(inPort), &m)
	r := d.run(inPort, frame, make([]byte, len(frame)+wire.CoreHeaderLen), &m, uint64(len(frame)), &hits)
	return r, hits
}

func (d *Dataplane) process(inPort uint32, frame, buf []byte) Result {
	if d.tnaCopies && inPort&(p4src.TofinoPipePorts-1) == p4src.EvidenceCopyRecircPort {
		return d.copyArrival(inPort, frame)
	}
	var m meta
	d.parse(frame, d.packetOutPort(inPort), &m)
	return d.pipeline(inPort, frame, buf, &m, uint64(len(frame)))
}

func (d *Dataplane) packetOut(port uint32, flags uint8, frame, buf []byte) Result {
	if port >= portSpace {
		return Result{Kind: Drop} // not representable in packet_out.egress_port
	}
	if !d.packetOutPort(d.cpuPort) {
		// The program does not know the switch's CPU port (another
		// compiled-in one, the value set not set): the frame is parsed
		// as one from a data-plane port, packet_out header and all.
		po := make([]byte, d.poLen, d.poLen+len(frame))
		if d.poLen >= 3 {
			po[0], po[1], po[2] = byte(port>>1), byte(port&1)<<7, flags
		}
		return d.process(d.cpuPort, append(po, frame...), buf)
	}
	var m meta
	m.po, m.poPort, m.poFlags = true, port, flags
	d.parseEthernet(frame, 0, &m)
	// BMv2 counts the packet_out header in the ingress length.
	return d.pipeline(d.cpuPort, frame, buf, &m, uint64(len(frame)+d.poLen))
}

// decision is the part of local_md_t the ingress control computes.
type decision struct {
	outPort     uint32
	drop        bool
	dropReason  uint32
	toCPU       bool
	kaStamp     bool
	countLink   bool
	linkKind    uint32
	countFG     bool
	countCore   bool // a slot matched: core_counters[fgIndex, core]
	fgIndex     uint32
	fgKind      uint32
	push, pop   bool
	tpid        uint16
	core        uint32
	linkCounter uint32 // md.link_id at the end of ingress

	countVerdict bool // verdict_counters[fgIndex<<1 | verdictKind]
	verdictKind  uint32
	verdictFG    uint32

	explain *[]Hit // Explain: every table applied, in order; nil otherwise
}

// Hit is one table applied to an explained packet (see Explain).
type Hit struct {
	Table    string // P4Info name
	Matched  bool   // an entry matched; false: the default action ran
	Priority int32  // the matched entry's priority (tables with ternary or range keys)
	Action   string // P4Info name of the action that ran
	// Params are the action's parameters by name.
	Params map[string]uint64
}

// record notes a table's result for Explain. e is the matched entry, nil
// for a miss (the default action).
func (dc *decision) record(t *table, e *entry) {
	if dc.explain != nil {
		dc.note(t, e)
	}
}

// note is kept out of line so that record, on the hot path, inlines to a
// nil check.
//
//go:noinline
func (dc *decision) note(t *table, e *entry) {
	h := Hit{Table: t.name, Matched: e != nil}
	if e == nil {
		e = t.def
	} else {
		h.Priority = e.prio
	}
	if a := e.act.a; a != nil {
		h.Action = a.name
		h.Params = make(map[string]uint64, len(a.params))
		for i, p := range a.params {
			h.Params[p.name] = e.act.vals[i].lo
		}
	}
	*dc.explain = append(*dc.explain, h)
}

func (dc *decision) bypassToPeer(m *meta, kind uint32) {
	dc.outPort = m.peer
	dc.countLink = true
	dc.linkKind = kind
}

func (dc *decision) dropPacket(reason uint32) {
	dc.drop = true
	dc.dropReason = reason
}

// pipeline is BalancerIngress.apply, the v1model ingress finish, egress
// and the deparser (p4src/shared/ingress.p4, p4src/v1model/include).
func (d *Dataplane) pipeline(inPort uint32, frame, buf []byte, m *meta, inLen uint64) Result {
	return d.run(inPort, frame, buf, m, inLen, nil)
}

func (d *Dataplane) run(inPort uint32, frame, buf []byte, m *meta, inLen uint64, explain *[]Hit) Result {
	dc := decision{explain: explain}
	d.ingress(inPort, m, &dc, inLen)
	dc.linkCounter = m.linkID
	d.countDecision(&dc, inLen)
	if dc.drop {
		d.dropCtr.count(dc.dropReason, inLen)
		return Result{Kind: Drop, DropReason: uint8(dc.dropReason)}
	}
	egress := dc.outPort
	if dc.toCPU {
		egress = d.packetInPort()
	}
	if egress == dropPort {
		return Result{Kind: Drop}
	}

	// Egress.
	d.portTx.count(egress, inLen)
	// A TNA build with the verdict takes every frame to a recirculation
	// port as an evidence copy: its egress parser takes the first two
	// bytes (the bridged metadata and the frame's first byte) for the
	// copy's header and emits them back, the rest as payload, so the
	// bridged byte leaves in front and no keep-alive is stamped. Only a
	// misconfiguration sends a data frame there (config refuses such a
	// port); modelled so that the software switch does what the program
	// does.
	recirc := d.tnaCopies && egress%p4src.TofinoPipePorts == p4src.EvidenceCopyRecircPort && egress != d.cpuPort
	var bridged byte
	if recirc && dc.kaStamp {
		bridged, dc.kaStamp = 1, false
	}
	out := d.deparse(frame, buf, m, &dc)
	if recirc {
		out = append([]byte{bridged}, out...)
	}
	if egress == d.cpuPort {
		r := Result{Kind: ToCPU, Port: egress, Frame: out}
		if dc.toCPU {
			r.PacketIn = PacketInMeta{IngressPort: inPort, Reason: wire.PacketInReasonKeepAlive, RxTimestamp: d.now() & wire.TimestampMask}
		}
		return r
	}
	return Result{Kind: Forward, Port: egress, Frame: out}
}

// ingress decides a packet's fate: a packet-out leaves as the controller
// says, a malformed frame is dropped, any other goes by its port's role.
func (d *Dataplane) ingress(inPort uint32, m *meta, dc *decision, inLen uint64) {
	if inPort < portSpace {
		m.pipe = d.pipeOf[inPort]
	}
	switch {
	case m.po:
		// From the controller: out of the port it names.
		dc.outPort = m.poPort
		dc.kaStamp = m.poFlags&wire.PacketOutFlagKeepAlive != 0
		if dc.kaStamp && m.ka && m.kaFG < p4src.FilterGroupSize && d.verdictOn {
			// A keep-alive naming a filter group is a send of that group,
			// out of the side its direction says: only the group's
			// liveness parameters and state; it leaves as named.
			d.keepAliveSend(m, dc)
		}
	case m.malformed():
		// Neither balanced nor bypassed uninspected: dropped and counted.
		if inPort < portSpace {
			d.portRx.count(inPort, inLen)
		}
		dc.dropPacket(p4src.DropMalformed)
	default:
		if inPort < portSpace {
			d.portRx.count(inPort, inLen)
		}
		d.portRoleApply(inPort, m, dc, inLen)
	}
}

// portRoleApply looks up the port's role (port_role) and runs its branch
// of the ingress.
func (d *Dataplane) portRoleApply(inPort uint32, m *meta, dc *decision, inLen uint64) {
	act := d.portRole.def.act.dp
	var pe *entry
	if inPort < portSpace {
		if pe = d.portRole.lookupExact(inPort); pe != nil {
			act = pe.act.dp
		}
	}
	dc.record(d.portRole, pe)
	switch act.kind {
	case actSetOperatorPort:
		m.linkID, m.side, m.peer = act.p[0], act.p[1], act.p[2]
		d.operatorPort(m, dc, inLen)
	case actSetFilterPort:
		m.fg, m.side = act.p[0], act.p[1]
		d.filterPort(m, dc)
	case actUnknownPort:
		dc.dropPacket(p4src.DropUnknownPort)
	}
}

// countDecision counts the packet in the link, filter group, core and
// verdict counters its decision names.
func (d *Dataplane) countDecision(dc *decision, inLen uint64) {
	if dc.countLink {
		d.linkCtr.count(p4src.LinkCounterIndex(dc.linkCounter, dc.linkKind), inLen)
	}
	if dc.countFG {
		d.fgCtr.count(p4src.FilterGroupCounterIndex(dc.fgIndex, dc.fgKind), inLen)
	}
	if dc.countCore {
		d.coreCtr.count(p4src.CoreCounterIndex(dc.fgIndex, dc.core), inLen)
	}
	if dc.countVerdict && d.verdictCtr != nil {
		d.verdictCtr.count(p4src.VerdictCounterIndex(dc.verdictFG, dc.verdictKind), inLen)
	}
}

// deparse returns the frame that leaves (from ethernet on): with the core
// header pushed or popped, or a keep-alive stamped, in buf; else the
// frame itself.
func (d *Dataplane) deparse(frame, buf []byte, m *meta, dc *decision) []byte {
	f := frame[m.ethOff:]
	out := f
	switch {
	case dc.push:
		out = grow(buf, len(f)+wire.CoreHeaderLen)
		copy(out[ethLen+wire.CoreHeaderLen:], f[ethLen:])
		copy(out[:ethLen], f[:ethLen])
		wire.CoreHeader{TPID: dc.tpid, Link: m.linkID, Core: dc.core}.Put(out[ethLen:])
	case dc.pop:
		out = grow(buf, len(f)-wire.CoreHeaderLen)
		copy(out[:ethLen], f[:ethLen])
		copy(out[ethLen:], f[ethLen+wire.CoreHeaderLen:])
	case dc.kaStamp && m.ka:
		out = grow(buf, len(f))
		copy(out, f)
		binary.BigEndian.PutUint64(out[m.kaOff-m.ethOff+wire.KeepAliveTxOffset:], d.now()&wire.TimestampMask)
	}
	return out
}

func grow(buf []byte, n int) []byte {
	if cap(buf) < n {
		return make([]byte, n)
	}
	return buf[:n]
}

// operatorPort is the set_operator_port branch of the ingress.
func (d *Dataplane) operatorPort(m *meta, dc *decision, inLen uint64) {
	if hb := d.heartbeat.tss; len(hb.shapes) > 0 {
		var k pktKey
		hb.packetKey(m, &k)
		if e := hb.lookup(&k); e != nil {
			dc.record(d.heartbeat, e)
			if e.act.dp.kind == actHeartbeatPass {
				dc.outPort = m.peer
				dc.countLink = true
				dc.linkKind = p4src.LinkCntHeartbeat
			}
			return
		}
	}
	dc.record(d.heartbeat, nil)
	t := d.flowRules
	if m.ipv6 {
		t = d.flowRulesV6
	}
	act := t.def.act.dp
	var fe *entry
	if len(t.tss.shapes) > 0 {
		var k pktKey
		t.tss.packetKey(m, &k)
		if fe = t.tss.lookup(&k); fe != nil {
			act = fe.act.dp
			fe.ctr.add(inLen)
		}
	}
	dc.record(t, fe)
	if act.kind != actBalance {
		dc.bypassToPeer(m, p4src.LinkCntRuleBypass)
		return
	}
	group := act.p[0]
	if (!m.ipv4 && !m.ipv6) || m.core {
		// Nothing to hash on (or a frame that already carries a core
		// TPID): pass it unfiltered.
		dc.bypassToPeer(m, p4src.LinkCntNonIPBypass)
		return
	}
	// The session memory (sessions.go): looked up before balance_groups;
	// a hit refreshes the entry whatever the group then does.
	// The session's hash (the slot's) is computed once, and indexes the
	// session table too.
	h := m.hash()
	var held *entry
	var skey sessionmem.Key
	var spk [2]uint64
	if st := d.sessions; st != nil {
		skey = m.sessionKey(group)
		spk = packKey(skey)
		if held = st.sidx.get(spk, h); held != nil {
			held.touch(int64(d.now()))
		}
		dc.record(st, held)
	}
	gact := d.balanceGroups.def.act.dp
	ge := d.balanceGroups.lookupExact(group)
	if ge != nil {
		gact = ge.act.dp
	}
	dc.record(d.balanceGroups, ge)
	switch gact.kind {
	case actGroupActive:
		var targetFG uint32
		learn := false
		if held != nil {
			// A held session in place of its slot.
			if held.act.dp.kind == actKeep {
				targetFG, dc.core = held.act.dp.p[0], held.act.dp.p[1]
			}
		} else {
			slot := h & 0xffff & gact.p[0]
			se := d.slots.lookupExact(d.slots.dindex.index2(group, slot))
			dc.record(d.slots, se)
			if se == nil {
				dc.bypassToPeer(m, p4src.LinkCntGroupBypass)
				return
			}
			if se.act.dp.kind == actToFilter {
				targetFG, dc.core = se.act.dp.p[0], se.act.dp.p[1]
			}
			learn = d.sessions != nil
		}
		verdictDigest := false
		dc.countCore = true
		dc.countFG = true
		dc.fgIndex = targetFG
		fact := d.filterGroups.def.act.dp
		fge := d.filterGroups.lookupExact(targetFG)
		if fge != nil {
			fact = fge.act.dp
		}
		dc.record(d.filterGroups, fge)
		switch fact.kind {
		case actFilterForward:
			dc.push = true
			dc.tpid = uint16(fact.p[2])
			if m.side == 0 {
				dc.outPort = fact.p[0]
			} else {
				dc.outPort = fact.p[1]
			}
			dc.countLink = true
			dc.linkKind = p4src.LinkCntToFilter
			dc.fgKind = p4src.FGCntToFilter
			if d.verdictOn {
				in := verdictIn{send: true, forward: true, index: targetFG<<1 | m.side&1, bucket: h >> 16 & 31,
					fg: targetFG, epoch: fact.p[3], detect: fact.p[4], pipe: m.pipe}
				if d.verdictApply(&in).hit {
					verdictDigest = true
					// A standing data-plane verdict: the failure action.
					dc.push = false
					dc.countVerdict, dc.verdictFG = true, targetFG
					if fact.p[5] != 0 {
						dc.dropPacket(p4src.DropVerdict)
						dc.countFG = false
						dc.linkKind = p4src.LinkCntDropped
						dc.verdictKind = p4src.VerdictCntDrop
					} else {
						dc.bypassToPeer(m, p4src.LinkCntSWBypass)
						dc.fgKind = p4src.FGCntSWBypass
						dc.verdictKind = p4src.VerdictCntBypass
					}
				}
			}
		case actFilterSWBypass:
			dc.bypassToPeer(m, p4src.LinkCntSWBypass)
			dc.fgKind = p4src.FGCntSWBypass
		case actFilterDrop:
			dc.dropPacket(p4src.DropFilterGroup)
			dc.countFG = false
			dc.countLink = true
			dc.linkKind = p4src.LinkCntDropped
		}
		if learn && !verdictDigest {
			// ARCH_INGRESS_FINISH: one digest per frame, the verdict's
			// first; the session's with the slot's filter group and core.
			d.sessQ.emit(skey, spk, uint8(targetFG), uint16(dc.core), h)
		}
	case actGroupBypass:
		dc.bypassToPeer(m, p4src.LinkCntGroupBypass)
	case actGroupDrop:
		dc.dropPacket(p4src.DropBalanceGroup)
		dc.countLink = true
		dc.linkKind = p4src.LinkCntDropped
	}
}

// keepAliveSend is the keep-alive packet-out's run of FilterGroups and
// Verdict: a send of the group named in the keep-alive when the group is
// in service; a standing verdict only repeats its digest.
func (d *Dataplane) keepAliveSend(m *meta, dc *decision) {
	fge := d.filterGroups.lookupExact(m.kaFG)
	dc.record(d.filterGroups, fge)
	if fge == nil || fge.act.dp.kind != actFilterForward {
		return
	}
	p := &fge.act.dp.p
	d.verdictApply(&verdictIn{send: true, kaSend: true, forward: true, index: m.kaFG<<1 | m.kaDir&1,
		fg: m.kaFG, epoch: p[3], detect: p[4], pipe: m.pipe})
}

// filterPort is the set_filter_port branch of the ingress.
func (d *Dataplane) filterPort(m *meta, dc *decision) {
	dc.countFG = true
	dc.fgIndex = m.fg
	switch {
	case m.ka:
		// A keep-alive crossed the filter: to the controller. Life for
		// the sends out of the other side when it is this group's and
		// was sent out of the other side.
		dc.toCPU = true
		dc.fgKind = p4src.FGCntKeepAlive
		if d.verdictOn && m.kaFG == m.fg && m.kaDir == (^m.side)&1 {
			d.verdictApply(&verdictIn{ret: true, kaRet: true, index: m.fg<<1 | (^m.side)&1, pipe: m.pipe})
		}
	case m.core:
		e := d.links.lookupExact(m.coreLink)
		dc.record(d.links, e)
		if e == nil {
			dc.dropPacket(p4src.DropUnknownLinkID)
			dc.countFG = false
			return
		}
		// Continue in the same direction, out of the link the packet
		// entered on.
		if e.act.dp.kind == actSetLink {
			if m.side == 0 {
				dc.outPort = e.act.dp.p[0]
			} else {
				dc.outPort = e.act.dp.p[1]
			}
		}
		if d.verdictOn {
			d.verdictApply(&verdictIn{ret: true, index: m.fg<<1 | (^m.side)&1, pipe: m.pipe})
		}
		dc.countLink = true
		m.linkID = m.coreLink
		dc.linkKind = p4src.LinkCntReturned
		dc.fgKind = p4src.FGCntReturned
		dc.pop = true
	default:
		dc.dropPacket(p4src.DropNoCoreHeader)
		dc.countFG = false
	}
}

// folded are the packet's addresses as the hash takes them (md.addr_x,
// md.addr_y: IPv6 folded to 32 bits).
func (m *meta) folded() (x, y uint32) {
	switch {
	case m.ipv4:
		x, y = m.v4src, m.v4dst
	case m.ipv6:
		x = uint32(m.v6src.hi>>32) ^ uint32(m.v6src.hi) ^ uint32(m.v6src.lo>>32) ^ uint32(m.v6src.lo)
		y = uint32(m.v6dst.hi>>32) ^ uint32(m.v6dst.hi) ^ uint32(m.v6dst.lo>>32) ^ uint32(m.v6dst.lo)
	}
	return x, y
}

// hash is the symmetric session hash of the packet (contract, §3.3).
func (m *meta) hash() uint32 {
	x, y := m.folded()
	return symhash.Folded(x, y, uint8(m.proto))
}

// packetKey builds the lookup key of a packet for this table.
func (x *tss) packetKey(m *meta, k *pktKey) {
	for i := range x.fields {
		f := &x.fields[i]
		var v uint64
		switch f.ext {
		case extLinkID:
			v = uint64(m.linkID)
		case extOuterVID:
			v = uint64(m.outerVID)
		case extInnerVID:
			v = uint64(m.innerVID)
		case extVLANDepth:
			v = uint64(m.vlanDepth)
		case extMPLSDepth:
			v = uint64(m.mplsDepth)
		case extSrcMAC:
			v = m.src
		case extDstMAC:
			v = m.dst
		case extEthType:
			v = uint64(m.ethType)
		case extIsIPv4:
			if m.ipv4 {
				v = 1
			}
		case extIPv4Src:
			v = uint64(m.v4src)
		case extIPv4Dst:
			v = uint64(m.v4dst)
		case extIPProto:
			v = uint64(m.proto)
		case extL4Src:
			v = uint64(m.l4src)
		case extL4Dst:
			v = uint64(m.l4dst)
		case extIPv6Src:
			x.place(k, f, m.v6src)
			continue
		case extIPv6Dst:
			x.place(k, f, m.v6dst)
			continue
		}
		k[f.word] |= (v & f.mask.lo) << f.shift
	}
}
