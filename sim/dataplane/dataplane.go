package dataplane

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dpi-balancer/balancer/p4src"
)

// Dataplane is the software switch's data plane: the entity store that
// P4Runtime writes and reads, and the pipeline that processes frames with
// it. All methods are safe for concurrent use. New starts nothing.
type Dataplane struct {
	// mu: Write and Reset hold it exclusively for a whole batch, so no
	// packet ever sees half a batch; packets (Process, PacketOut, one
	// burst of ProcessBatch) and the snapshot phase of Read hold it
	// shared. Counters are atomics, updated under the shared lock.
	mu sync.RWMutex

	schema  *p4src.Schema
	now     func() uint64
	cpuPort uint32
	slotCap int
	// readLimit is the most entities one Read may return (and so the most
	// state it copies and pins).
	readLimit int
	// poLen is the packet_out header's size in bytes: BMv2 counts it in
	// the ingress length of a packet-out.
	poLen int

	tables      []*table
	tableByID   map[uint32]*table
	actionByID  map[uint32]*action
	counters    []*counterArray
	counterByID map[uint32]*counterArray
	directByID  map[uint32]*table // direct counter id -> its table
	valueSets   []*valueSet
	vsByID      map[uint32]*valueSet

	// The pipeline's objects, resolved by name once.
	portRole, heartbeat, flowRules, flowRulesV6      *table
	balanceGroups, slots, filterGroups, links        *table
	portRx, portTx, linkCtr, fgCtr, dropCtr, coreCtr *counterArray
	coreTPID, keepAlive                              *valueSet

	// The CPU port as the program knows it: the compiled-in one
	// (progCPU), and for a program that takes the switch's at run time
	// the parser's cpu_port value set and the switch_info table (nil
	// otherwise). cpuPort above is the switch's own (the device's).
	progCPU  uint32
	cpuVS    *valueSet
	cpuTable *table

	// The data-plane verdict (verdict.go): on when the P4Info's
	// filter_forward has the liveness parameters.
	verdictOn bool
	// tnaCopies: the program is a TNA build with the verdict, whose
	// parser takes every frame on a recirculation port as an evidence
	// copy (copyArrival).
	tnaCopies     bool
	verdictCtr    *counterArray
	verdictDigest uint32 // digest id, 0 when the P4Info has none
	ev            evidence
	// The session memory (sessions.go): the sessions table when the
	// P4Info has it (nil otherwise), its digest's id and queue.
	sessions   *table
	sessDigest uint32
	sessQ      sessionDigests
	// pipeOf is each port's ingress pipe (pipes.go).
	pipeOf [portSpace]uint8

	// Writers' scratch space (exclusive lock held).
	undo     undoLog
	keyBuf   []byte
	matchBuf []matchVal
	valsBuf  []u128
}

// Option configures New.
type Option func(*options)

type options struct {
	now       func() uint64
	slotCap   int
	cpuPort   uint32
	cpuSet    bool
	readLimit int
	readSet   bool
	// pipes.go
	pipes                int
	pipePorts            map[uint32]int
	copiesSet, copiesOff bool
	copyDelay            int
}

// WithClock sets the clock of the ingress and egress timestamps, in
// nanoseconds; headers carry its low 48 bits. The default is monotonic
// nanoseconds since New.
func WithClock(now func() uint64) Option { return func(o *options) { o.now = now } }

// WithSlotCapacity sets the size of the slots table, for layouts of a
// larger target than the P4Info's (Tofino: 131072). The default is the
// P4Info size.
func WithSlotCapacity(n int) Option { return func(o *options) { o.slotCap = n } }

// WithCPUPort sets the switch's CPU port, the data-plane port of the
// controller (default 255, BMv2's usual --cpu-port). The program takes
// packet-outs from it when it is the compiled-in CPU_PORT or the
// controller set it in the cpu_port value set, and sends packet-ins to the
// port the switch_info table's default action names.
func WithCPUPort(port uint32) Option {
	return func(o *options) { o.cpuPort, o.cpuSet = port, true }
}

// WithReadLimit sets the most entities one Read may return; a read that
// would return more fails with ErrResourceExhausted before it copies them.
// The default is the size of the whole state: every table entry, its
// direct counter, every counter cell and value set, once. So one read of
// everything passes, and a request repeating a wildcard query hundreds of
// times cannot pin hundreds of copies of the tables.
func WithReadLimit(n int) Option { return func(o *options) { o.readLimit, o.readSet = n, true } }

// New builds an empty data plane for the P4Info in schema. It resolves
// every table, action, parameter, counter and value set the pipeline uses
// by name; a missing one is an error naming it.
func New(schema *p4src.Schema, opts ...Option) (*Dataplane, error) {
	if schema == nil || schema.Info == nil {
		return nil, errors.New("dataplane: nil schema")
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.now == nil {
		start := time.Now()
		o.now = func() uint64 { return uint64(time.Since(start)) }
	}
	if !o.cpuSet {
		o.cpuPort = p4src.CPUPortBMv2
	}
	if o.cpuPort >= portSpace {
		return nil, fmt.Errorf("dataplane: cpu port %d is not a 9-bit port", o.cpuPort)
	}
	if o.slotCap < 0 {
		return nil, fmt.Errorf("dataplane: slot capacity %d is negative", o.slotCap)
	}
	d := &Dataplane{schema: schema, now: o.now, cpuPort: o.cpuPort, progCPU: schema.CompiledCPUPort(), slotCap: o.slotCap, valsBuf: make([]u128, 0, maxParams)}
	if err := d.resolve(); err != nil {
		return nil, fmt.Errorf("dataplane: %w", err)
	}
	if err := d.pipeSetup(&o); err != nil {
		return nil, fmt.Errorf("dataplane: %w", err)
	}
	d.tnaCopies = d.verdictOn && schema.Info.GetPkgInfo().GetArch() == p4src.ArchTNA
	d.readLimit = d.StateSize()
	if o.readSet {
		if o.readLimit <= 0 {
			return nil, fmt.Errorf("dataplane: read limit %d: want at least 1 entity", o.readLimit)
		}
		d.readLimit = o.readLimit
	}
	d.resetState()
	return d, nil
}

// StateSize is the number of entities a read of the whole state returns
// when every table is full: each table entry and default entry, each
// direct counter, each counter cell and each value set.
func (d *Dataplane) StateSize() int {
	n := len(d.valueSets)
	for _, t := range d.tables {
		n += t.size + 1
		if t.direct != 0 {
			n += t.size + 1
		}
	}
	for _, c := range d.counters {
		n += len(c.cells)
	}
	return n
}

// ReadLimit is the most entities one Read returns (WithReadLimit).
func (d *Dataplane) ReadLimit() int { return d.readLimit }

// CPUPort returns the controller's data-plane port.
func (d *Dataplane) CPUPort() uint32 { return d.cpuPort }

// packetOutPort says whether the parser takes a frame from port as a
// packet-out: the compiled-in CPU port, or one in the cpu_port value set.
func (d *Dataplane) packetOutPort(port uint32) bool {
	return port == d.progCPU || (d.cpuVS != nil && port < portSpace && d.cpuVS.has(uint16(port)))
}

// packetInPort is the port a frame the pipeline sends to the controller
// leaves by: the switch_info table's default action's, else the compiled-in
// CPU port.
func (d *Dataplane) packetInPort() uint32 {
	if t := d.cpuTable; t != nil {
		if act := t.def.act.dp; act.kind == actSetCPUPort {
			return act.p[0]
		}
	}
	return d.progCPU
}

// Schema returns the P4Info schema the data plane was built for.
func (d *Dataplane) Schema() *p4src.Schema { return d.schema }

// Reset drops every table entry, value set member and counter value, and
// restores every default action: the state of a freshly pushed pipeline.
func (d *Dataplane) Reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.resetState()
}

func (d *Dataplane) resetState() {
	for _, t := range d.tables {
		t.reset()
	}
	for _, vs := range d.valueSets {
		vs.set(nil)
	}
	for _, c := range d.counters {
		for i := range c.cells {
			c.cells[i].set(0, 0)
		}
	}
	d.ev.reset()
	d.sessQ.reset()
}
