package daemon

import (
	"context"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopacket/gopacket/layers"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/sessionmem"
	"github.com/dpi-balancer/balancer/sim/dataplane"
	"github.com/dpi-balancer/balancer/sim/frames"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// Trace implements Service: it builds the described packet and runs it
// through the software model of the pipeline (package sim/dataplane)
// loaded with the desired entries (the running configuration in the
// current availability state), and explains each table it meets. The
// loaded model is kept until the desired entries change.
//
// With the session memory on, a balanced packet's session is looked up in
// the switch's sessions table (one read of its entry; the learner's view
// when the switch cannot be read): a held session is traced with its
// entry, as the switch forwards it.
func (d *Daemon) Trace(ctx context.Context, req TraceRequest) (*TraceResult, error) {
	r := d.snapshot()
	cfg, site := r.cfg, r.site
	des := site.Desired()
	if err := checkTraceRequest(cfg, req); err != nil {
		return nil, err
	}
	m, err := d.traces.model(des, func() (*traceModel, error) { return newTraceModel(d.schema, cfg, des) })
	if err != nil {
		return nil, err
	}
	res, err := traceModelRun(m, cfg, req, nil)
	if err != nil || d.learner == nil || res.BalanceGroup == "" || !req.Src.IsValid() {
		return res, err
	}
	bg := cfg.BalanceGroupByName(res.BalanceGroup)
	k := sessionmem.AddrKey(uint8(*bg.ID), req.Src, req.Dst, req.Proto)
	held, from := d.heldEntry(ctx, k)
	res, err = traceModelRun(m, cfg, req, &sessionInModel{key: k, entry: held, from: from})
	if err == nil {
		res.Session = "not held"
		if held != nil {
			res.Session = "held"
		}
	}
	return res, err
}

// sessionInModel is what the switch holds of a traced session: its entry
// (nil: none) and where that was read.
type sessionInModel struct {
	key   sessionmem.Key
	entry *p4v1.TableEntry
	from  string // "the switch's table", or "the learner's view: ..."
}

// heldEntry is the sessions table's entry of a session on the switch (nil
// when it holds none), and where it was read from: the switch, or, when
// it cannot be read, the learner's view.
func (d *Daemon) heldEntry(ctx context.Context, k sessionmem.Key) (*p4v1.TableEntry, string) {
	l := d.learner
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	es, err := d.session.Read(rctx, &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: l.tbl.KeyEntry(k)}})
	switch {
	case err == nil:
		for _, e := range es {
			if h, err := l.tbl.Decode(e.GetTableEntry()); err == nil && h.Key == k {
				return l.tbl.Entry(k, h.FilterGroup, h.Core, h.Idle), "the switch's table"
			}
		}
		return nil, "the switch's table"
	case status.Code(err) == codes.NotFound:
		return nil, "the switch's table"
	}
	from := "the learner's view: the switch could not be read: " + err.Error()
	l.mu.Lock()
	at, ok := l.held[k]
	l.mu.Unlock()
	if !ok {
		return nil, from
	}
	return l.tbl.Entry(k, at.fg, at.core, 0), from
}

// traceCache keeps the model of the last desired entries traced or
// located. mu is a leaf lock on the cache alone (API requests only).
type traceCache struct {
	mu  sync.Mutex
	des *tables.Desired
	m   *traceModel
}

// model returns the cached model of des, building it when des changed.
func (c *traceCache) model(des *tables.Desired, build func() (*traceModel, error)) (*traceModel, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.des != des || c.m == nil {
		m, err := build()
		if err != nil {
			return nil, err
		}
		c.des, c.m = des, m
	}
	return c.m, nil
}

// traceModel is the software data plane loaded with the entries of a
// configuration in a state. Trace and locate share it: traces explain
// packets under mu's read lock; a locate holds mu to add its probe rules,
// run its probe packets and take the rules out again.
type traceModel struct {
	mu     sync.RWMutex
	dp     *dataplane.Dataplane
	des    *tables.Desired
	probes []*p4v1.Entity // locate's probe rules (probeRules)
}

// newTraceModel loads des, the entries of cfg, into a software data plane
// of s, the P4Info pushed to the switch (it sizes the tables, the slots
// table too).
func newTraceModel(s *p4src.Schema, cfg *config.Config, des *tables.Desired) (*traceModel, error) {
	ms, err := probeRoom(s, len(cfg.BalanceGroups))
	if err != nil {
		return nil, err
	}
	dp, err := dataplane.New(ms)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	// An empty switch: every entry is an insert, in the desired order;
	// value sets and default entries exist already and are modified.
	us := make([]*p4v1.Update, len(des.Entities))
	for i, e := range des.Entities {
		us[i] = &p4v1.Update{Type: tables.FirstWrite(e), Entity: e}
	}
	for i, err := range dp.Write(us, p4v1.WriteRequest_CONTINUE_ON_ERROR) {
		if err != nil {
			return nil, fmt.Errorf("trace: loading the model: entity %d: %w", i, err)
		}
	}
	probes, err := probeRules(s, cfg)
	if err != nil {
		return nil, err
	}
	return &traceModel{dp: dp, des: des, probes: probes}, nil
}

// explain runs a frame through the model (see dataplane.Explain); with a
// held session's entry, through the model holding it (for this frame
// only).
func (m *traceModel) explain(inPort uint32, frame []byte, held *sessionInModel) (dataplane.Result, []dataplane.Hit, error) {
	if held == nil || held.entry == nil {
		m.mu.RLock()
		defer m.mu.RUnlock()
		r, hits := m.dp.Explain(inPort, frame)
		return r, hits, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e := &p4v1.Entity{Entity: &p4v1.Entity_TableEntry{TableEntry: held.entry}}
	if errs := m.dp.Write([]*p4v1.Update{{Type: p4v1.Update_INSERT, Entity: e}}, p4v1.WriteRequest_CONTINUE_ON_ERROR); errs[0] != nil {
		return dataplane.Result{}, nil, fmt.Errorf("trace: the held session's entry: %w", errs[0])
	}
	r, hits := m.dp.Explain(inPort, frame)
	if errs := m.dp.Write([]*p4v1.Update{{Type: p4v1.Update_DELETE, Entity: e}}, p4v1.WriteRequest_CONTINUE_ON_ERROR); errs[0] != nil {
		return dataplane.Result{}, nil, fmt.Errorf("trace: taking the held session's entry out: %w", errs[0])
	}
	return r, hits, nil
}

// trace compiles cfg in state st and traces req through it.
func trace(s *p4src.Schema, cfg *config.Config, st tables.State, req TraceRequest) (*TraceResult, error) {
	if err := checkTraceRequest(cfg, req); err != nil {
		return nil, err
	}
	m, err := compiledModel(s, cfg, st)
	if err != nil {
		return nil, err
	}
	return traceModelRun(m, cfg, req, nil)
}

// compiledModel compiles cfg in state st and loads the entries into a
// model.
func compiledModel(s *p4src.Schema, cfg *config.Config, st tables.State) (*traceModel, error) {
	comp, err := tables.New(s)
	if err != nil {
		return nil, err
	}
	des, err := comp.Compile(cfg, st)
	if err != nil {
		return nil, fmt.Errorf("compiling the configuration: %w", err)
	}
	return newTraceModel(s, cfg, des)
}

// MaxMPLSLabel is the widest MPLS label (20 bits) a traced packet may
// carry.
const MaxMPLSLabel = 1<<20 - 1

// checkTraceRequest refuses a request that names no link of cfg or
// describes a packet the data plane cannot parse.
func checkTraceRequest(cfg *config.Config, req TraceRequest) error {
	if cfg.LinkByName(req.Link) == nil {
		names := make([]string, 0, len(cfg.Links))
		for _, l := range cfg.Links {
			names = append(names, l.Name)
		}
		known := strings.Join(names, ", ")
		if known == "" {
			known = "none is configured"
		}
		return kindf(ErrNotFound, "unknown link %q (links: %s)", req.Link, known)
	}
	if s := strings.ToLower(req.Side); s != "lan" && s != "wan" {
		return kindf(ErrInvalid, "side must be lan or wan, not %q", req.Side)
	}
	if req.Src.IsValid() != req.Dst.IsValid() || (req.Src.IsValid() && req.Src.Is4() != req.Dst.Is4()) {
		return kindf(ErrInvalid, "give both addresses, of the same family")
	}
	if len(req.VLANs) > config.MaxVLANDepth {
		return kindf(ErrInvalid, "the data plane parses up to %d VLAN tags", config.MaxVLANDepth)
	}
	if len(req.MPLS) > config.MaxMPLSDepth {
		return kindf(ErrInvalid, "the data plane parses up to %d MPLS labels", config.MaxMPLSDepth)
	}
	for _, l := range req.MPLS {
		if l > MaxMPLSLabel {
			return kindf(ErrInvalid, "MPLS label %d is wider than 20 bits", l)
		}
	}
	_, err := traceFrame(req)
	return err
}

// traceModelRun traces a checked request through a loaded model of cfg
// (holding a session's entry when held is not nil).
func traceModelRun(m *traceModel, cfg *config.Config, req TraceRequest, held *sessionInModel) (*TraceResult, error) {
	link := cfg.LinkByName(req.Link)
	inName, side := link.LAN, config.SideLAN
	if strings.EqualFold(req.Side, "wan") {
		inName, side = link.WAN, config.SideWAN
	}
	frame, err := traceFrame(req)
	if err != nil {
		return nil, err
	}
	t := &tracer{cfg: cfg, m: m, req: req, r: &TraceResult{}, held: held}
	inPort, _ := cfg.PortNumber(inName)
	t.step("enters %s (port %d): link %s (id %d), %s side", inName, inPort, link.Name, *link.ID, side)
	if t.res, t.hits, err = m.explain(inPort, frame, held); err != nil {
		return nil, err
	}
	return t.out(t.verdict()), nil
}

// tracer explains a packet's path from the tables the model says it met.
type tracer struct {
	cfg  *config.Config
	m    *traceModel
	req  TraceRequest
	r    *TraceResult
	res  dataplane.Result
	hits []dataplane.Hit
	held *sessionInModel
}

func (t *tracer) step(f string, a ...any) { t.r.Steps = append(t.r.Steps, fmt.Sprintf(f, a...)) }

func (t *tracer) hit(table string) (dataplane.Hit, bool) {
	for _, h := range t.hits {
		if h.Table == table {
			return h, true
		}
	}
	return dataplane.Hit{}, false
}

// out ends the trace with the verdict (a drop whatever the verdict says
// when the model dropped the packet).
func (t *tracer) out(verdict string) *TraceResult {
	if t.res.Kind == dataplane.Drop {
		t.r.Verdict = "drop"
		return t.r
	}
	name := portName(t.cfg, t.res.Port)
	t.r.OutPort, t.r.OutPortNum, t.r.Verdict = name, t.res.Port, verdict
	t.step("leaves by %s (port %d): %s", name, t.res.Port, verdict)
	return t.r
}

// verdict walks the tables in pipeline order: heartbeats, flow rules, the
// balance group, its slot, the filter group.
func (t *tracer) verdict() string {
	if h, ok := t.hit(p4src.TableHeartbeat); ok && h.Matched {
		t.step("heartbeat entry matches: passed straight through")
		return "heartbeat"
	}
	balance, group := t.flowRule()
	if !balance {
		t.r.Action = "bypass"
		return "bypass by rule"
	}
	t.r.Action = "balance"
	bg, verdict := t.balanceGroup(group)
	if bg == nil {
		return verdict
	}
	return t.slot(bg)
}

// flowRule explains the flow rule the packet met (IPv6 packets only meet
// the IPv6 table): whether it balances, and to which group.
func (t *tracer) flowRule() (balance bool, group uint32) {
	table := p4src.TableFlowRules
	if t.req.Src.IsValid() && t.req.Src.Is6() {
		table = p4src.TableFlowRulesV6
	}
	fr, _ := t.hit(table)
	if !fr.Matched {
		t.step("%s: no rule matches: default bypass", table)
		return false, 0
	}
	p, negated := tables.DecodeRulePriority(fr.Priority)
	for _, rule := range t.cfg.Rules {
		if rule.Priority == p {
			t.r.Rule = rule.Name
		}
	}
	if fr.Action == p4src.ActionBalance || fr.Action == p4src.ActionBalanceV6 {
		balance, group = true, uint32(fr.Params["group"])
	}
	what := "bypass"
	if balance {
		what = "balance"
	}
	if negated {
		t.step("%s: rule %q (priority %d) matches one of its \"not\" exceptions: bypass", table, t.r.Rule, p)
	} else {
		t.step("%s: rule %q (priority %d) matches: %s", table, t.r.Rule, p, what)
	}
	return balance, group
}

// balanceGroup explains the balance group entry: the group when it
// balances, else nil and the verdict.
func (t *tracer) balanceGroup(group uint32) (*config.BalanceGroup, string) {
	gh, ok := t.hit(p4src.TableBalanceGroups)
	if !ok {
		t.step("not IP: nothing to hash on")
		return nil, "non-IP bypass"
	}
	var bg *config.BalanceGroup
	for i := range t.cfg.BalanceGroups {
		if *t.cfg.BalanceGroups[i].ID == group {
			bg = &t.cfg.BalanceGroups[i]
		}
	}
	if bg == nil || !gh.Matched {
		t.step("balance group id %d has no entry: group bypass", group)
		return nil, "group bypass"
	}
	t.r.BalanceGroup = bg.Name
	switch gh.Action {
	case p4src.ActionGroupBypass:
		t.step("balance group %s is in bypass (fewer filters alive than its minimum, or manual bypass)", bg.Name)
		return nil, "group bypass"
	case p4src.ActionGroupDrop:
		t.step("balance group %s drops (failure action drop)", bg.Name)
		return nil, "drop"
	}
	return bg, ""
}

// slot explains the hash, the slot and the filter group it sends to, and
// the core header the packet leaves with.
func (t *tracer) slot(bg *config.BalanceGroup) string {
	r, req := t.r, t.req
	in := symhash.Input(req.Src, req.Dst, req.Proto)
	r.Hash = symhash.Sum(req.Src, req.Dst, req.Proto)
	r.Slot = symhash.Slot(r.Hash, uint(bg.SlotBits))
	t.step("hash: CRC-32 of %x = %#08x; slot %d of %d", in, r.Hash, r.Slot, 1<<bg.SlotBits)
	names := fgNames(t.cfg)
	if sess, ok := t.hit(p4src.TableSessions); ok && sess.Matched && sess.Action == sessionmem.ActionKeep {
		// A held session: its entry, not its slot, decides.
		r.FilterGroup, r.Core = heldName(t.cfg, names, uint32(sess.Params[sessionmem.ParamFG])), uint32(sess.Params[sessionmem.ParamCore])
		where := ""
		if at, ok := activeTarget(t.m.des, bg.Name, r.Slot); ok {
			r.SlotFilterGroup, r.SlotCore = names[at.FilterGroup], at.Core
			where = fmt.Sprintf("; its slot %d now points to %s core %d", r.Slot, r.SlotFilterGroup, r.SlotCore)
			if at.FilterGroup == uint32(sess.Params[sessionmem.ParamFG]) && at.Core == r.Core {
				where = fmt.Sprintf("; its slot %d points there too", r.Slot)
			}
		}
		t.step("session memory (%s): the session is held: keep(filter group %s, core %d)%s: the slot is not looked up", t.held.from, r.FilterGroup, r.Core, where)
		return t.filterGroup()
	}
	if t.held != nil {
		t.step("session memory (%s): the session (%s) is not held: its slot decides, and the switch learns it from its first frame", t.held.from, t.held.key)
	}
	sh, _ := t.hit(p4src.TableSlots)
	if !sh.Matched {
		t.step("slot %d has no entry: group bypass", r.Slot)
		return "group bypass"
	}
	target := tables.Target{FilterGroup: uint32(sh.Params["filter_group"]), Core: uint32(sh.Params["core"])}
	r.FilterGroup, r.Core = names[target.FilterGroup], target.Core
	r.SlotFilterGroup, r.SlotCore = r.FilterGroup, r.Core
	if base, ok := baseTarget(t.m.des, bg.Name, r.Slot); ok && base != target && slices.Contains(bg.Spares, r.FilterGroup) {
		t.step("slot %d belongs to %s core %d, carried by its spare %s core %d", r.Slot, names[base.FilterGroup], base.Core, r.FilterGroup, r.Core)
	} else if ok && base != target {
		t.step("slot %d belongs to %s core %d, rebalanced to %s core %d", r.Slot, names[base.FilterGroup], base.Core, r.FilterGroup, r.Core)
	} else {
		t.step("slot %d: filter group %s, core %d", r.Slot, r.FilterGroup, r.Core)
	}
	return t.filterGroup()
}

// filterGroup explains the filter group's entry and the core header the
// packet leaves with.
func (t *tracer) filterGroup() string {
	r := t.r
	fh, _ := t.hit(p4src.TableFilterGroups)
	switch fh.Action {
	case p4src.ActionFilterSWBypass:
		t.step("filter group %s is in software bypass", r.FilterGroup)
		return "sw-bypass"
	case p4src.ActionFilterDrop:
		t.step("filter group %s drops (failure action drop)", r.FilterGroup)
		return "drop"
	}
	if t.res.Kind != dataplane.Forward || len(t.res.Frame) < wire.CoreHeaderOffset {
		return "to filter"
	}
	hdr := t.res.Frame[wire.CoreHeaderOffset:]
	h, ok := wire.ParseCoreHeader(hdr)
	if !ok {
		return "to filter"
	}
	r.HeaderHex = fmt.Sprintf("%x", hdr[:wire.CoreHeaderLen])
	t.step("core header %s inserted after the source MAC (TPID %#04x, link %d, core %d)", r.HeaderHex, h.TPID, h.Link, h.Core)
	return "to filter"
}

// traceFrame builds the frame a trace request describes.
func traceFrame(req TraceRequest) ([]byte, error) {
	srcMAC, err := parseMAC(req.SrcMAC, "00:00:00:00:00:01")
	if err != nil {
		return nil, err
	}
	dstMAC, err := parseMAC(req.DstMAC, "00:00:00:00:00:02")
	if err != nil {
		return nil, err
	}
	var enc frames.Encap
	for i, v := range req.VLANs {
		tpid := uint16(layers.EthernetTypeDot1Q)
		if i == 0 && len(req.VLANs) > 1 {
			tpid = uint16(layers.EthernetTypeQinQ)
		}
		enc.Tags = append(enc.Tags, frames.Tag{TPID: tpid, VID: v})
	}
	enc.MPLS = req.MPLS
	enc.PPPoE = req.PPPoE
	l3 := frames.L3{Src: req.Src, Dst: req.Dst, Proto: layers.IPProtocol(req.Proto), EtherType: req.EtherType}
	if req.Proto == uint8(layers.IPProtocolTCP) || req.Proto == uint8(layers.IPProtocolUDP) {
		l3.SrcPort, l3.DstPort = req.SrcPort, req.DstPort
	}
	f, err := frames.Build(srcMAC, dstMAC, enc, l3)
	if err != nil {
		return nil, kindf(ErrInvalid, "cannot build the packet: %v", err)
	}
	return f, nil
}

// baseTarget is where a slot of a balance group points in the layout from
// the configuration alone (before any rebalancing).
func baseTarget(des *tables.Desired, group string, slot uint32) (tables.Target, bool) {
	for _, l := range des.Layouts {
		if l.Name == group && int(slot) < len(l.Base.Slots) {
			return l.Base.Slots[slot], true
		}
	}
	return tables.Target{}, false
}

// activeTarget is where a slot of a balance group points now (the
// layout in use, rebalancing and spares included).
func activeTarget(des *tables.Desired, group string, slot uint32) (tables.Target, bool) {
	for _, l := range des.Layouts {
		if l.Name == group && l.Active != nil && int(slot) < len(l.Active.Slots) {
			return l.Active.Slots[slot], true
		}
	}
	return tables.Target{}, false
}

// portName is the configuration's name of a data-plane port number.
func portName(cfg *config.Config, num uint32) string {
	for _, name := range portNames(cfg) {
		if n, err := cfg.PortNumber(name); err == nil && n == num {
			return name
		}
	}
	return fmt.Sprintf("port %d", num)
}

func parseMAC(s, def string) (net.HardwareAddr, error) {
	if s == "" {
		s = def
	}
	m, err := net.ParseMAC(s)
	if err != nil || len(m) != 6 {
		return nil, kindf(ErrInvalid, "bad MAC address %q", s)
	}
	return m, nil
}
