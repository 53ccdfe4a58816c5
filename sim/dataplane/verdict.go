package dataplane

import (
	"sync"

	"github.com/dpi-balancer/balancer/p4src"
)

// evRegs is one pipe's copy of the data-plane verdict's registers
// (p4src/v1model/include/control/verdict.p4, itself the TNA algorithm
// transcribed; the same names, encodings and semantics): per filter group
// and direction e = fg<<1 | side the sends left by, and the verdict per
// filter group. Times are ticks of the pipeline clock (microseconds, as
// BMv2 counts), 32 bits; differences are signed (wrap-safe).
type evRegs struct {
	// ev_time: the window's tag (its since + detect; 0: none) and the
	// last send's deadline.
	tag  [p4src.FilterGroupSize * 2]uint32
	last [p4src.FilterGroupSize * 2]uint32
	// ev_ka: the oldest unanswered keep-alive's deadline (0: none).
	ka [p4src.FilterGroupSize * 2]uint32
	// ev_count: the window tag its count is of, and the buckets marked.
	cntTag [p4src.FilterGroupSize * 2]uint32
	count  [p4src.FilterGroupSize * 2]uint32
	// ev_seen: the window tag each bucket last sent data in.
	seen    [p4src.FilterGroupSize * 2 * p4src.VerdictBuckets]uint32
	verdict [p4src.FilterGroupSize]uint16
	// ev_copy_slot (more than one pipe): the copy slot (tick >> EvCopyShift)
	// of the last data return of e this pipe copied to the others.
	copySlot [p4src.FilterGroupSize * 2]uint32
}

// evCopy is an evidence copy on its way to another pipe: the return of e
// it stands for, or a proof (the verdict of e's filter group at epoch),
// taken by that pipe's ingress from tick due on.
type evCopy struct {
	due   uint32
	e     uint32
	proof bool
	epoch uint8
}

// evidence is the verdict's state: one set of registers per pipe (pipes.go),
// the evidence copies between them, and the digests.
type evidence struct {
	mu    sync.Mutex
	pipes []evRegs
	// Copies (more than one pipe): on, their delay in ticks, the copies
	// each pipe has yet to take (oldest first), and the statistics.
	copies    bool
	copyDelay uint32
	// noProofCopies models the program before proofs were copied (tests
	// compare with it); the TNA build copies them.
	noProofCopies bool
	inbound       [][]evCopy
	copyStats     CopyStats

	// Digests not yet taken by the P4Runtime server, and those sent and
	// not acknowledged: a repeat of one of them is not queued again (as PI
	// does until the list is acknowledged).
	queue   []p4src.VerdictDigest
	pending map[p4src.VerdictDigest]bool
	dropped uint64
	notify  chan struct{}
}

const (
	verdictSet = 0x8000
	// maxQueuedDigests bounds the digests waiting for the server.
	maxQueuedDigests = 1024
)

func (ev *evidence) reset() {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for i := range ev.pipes {
		ev.pipes[i] = evRegs{}
	}
	for i := range ev.inbound {
		ev.inbound[i] = ev.inbound[i][:0]
	}
	ev.copyStats = CopyStats{}
	ev.queue, ev.pending = nil, nil
	if ev.notify == nil {
		ev.notify = make(chan struct{}, 1)
	}
}

// tick is the pipeline clock in ticks (v1model: ingress_global_timestamp
// in µs, bits 31:0).
func (d *Dataplane) tick() uint32 { return uint32(d.now() / 1000) }

// verdictIn is what the ingress hands the Verdict control.
type verdictIn struct {
	send, ret, kaSend, forward bool
	kaRet                      bool   // ret: a keep-alive (else data with the core header)
	pipe                       uint8  // the ingress pipe of the frame's port
	index                      uint32 // fg<<1 | direction
	bucket                     uint32 // hash bits 20:16
	fg                         uint32
	epoch, detect              uint32
}

// verdictOut is what it returns.
type verdictOut struct {
	hit    bool // a standing verdict: the failure action
	proven bool // proven by this packet
	reason uint8
	age    uint32
}

// past reports whether now is past the deadline (signed, wrap-safe).
func past(now, deadline uint32) bool { return int32(now-deadline) > 0 }

// verdictApply is control Verdict.apply: the cell and the standing check,
// the evidence, and a proof's cell write (the TNA build's second pass).
func (d *Dataplane) verdictApply(in *verdictIn) verdictOut {
	var out verdictOut
	ev := &d.ev
	ev.mu.Lock()
	defer ev.mu.Unlock()
	i := in.index
	now := d.tick()
	r := &ev.pipes[in.pipe]
	if len(ev.pipes) > 1 {
		// The copies of the other pipes' returns that reached this
		// pipe's ingress before this frame.
		ev.takeCopies(in.pipe, now)
	}
	key := uint16(verdictSet | in.epoch&0xff)
	if in.forward && r.verdict[in.fg] == key {
		out.hit = true
	}
	switch {
	case in.ret:
		r.tag[i] = 0
		r.ka[i] = 0
		if len(ev.pipes) > 1 {
			ev.copyReturn(r, in, now)
		}
	case in.send:
		deadline := now + in.detect
		tag := r.tag[i]
		if tag == 0 || past(now, r.last[i]) {
			tag = deadline
		}
		r.tag[i], r.last[i] = tag, deadline
		var kaOverdue uint32
		switch k := r.ka[i]; {
		case in.kaSend && k == 0:
			r.ka[i] = deadline
		case k != 0 && past(now, k):
			kaOverdue = now - k
		}
		overdue := now - tag
		var fresh uint32
		if !in.kaSend {
			j := i*p4src.VerdictBuckets + in.bucket
			if r.seen[j] != tag {
				r.seen[j], fresh = tag, 1
			}
		}
		enough := false
		if r.cntTag[i] != tag {
			r.cntTag[i], r.count[i] = tag, fresh
		} else {
			enough = r.count[i] >= p4src.VerdictMinBuckets
			r.count[i] += fresh
		}
		if !out.hit {
			switch {
			case kaOverdue != 0:
				out.proven, out.reason, out.age = true, p4src.VerdictKeepAlive, kaOverdue+in.detect
			case !in.kaSend && int32(overdue) >= 0 && enough:
				out.proven, out.reason, out.age = true, p4src.VerdictData, overdue+in.detect
			}
		}
	}
	if out.proven && in.forward {
		// The TNA build's second pass: the cell, and its proof copied to
		// the other pipes.
		r.verdict[in.fg] = key
		out.hit = true
		if len(ev.pipes) > 1 {
			ev.copyProof(in.pipe, in.fg, in.epoch, now)
		}
	}
	if out.hit && d.verdictDigest != 0 {
		dg := p4src.VerdictDigest{FilterGroup: uint8(in.fg), Direction: uint8(i & 1), Epoch: uint8(in.epoch), Reason: p4src.VerdictStanding}
		if out.proven {
			dg.Reason, dg.Age = out.reason, out.age
		}
		ev.emit(dg)
	}
	return out
}

// emit queues a digest unless the same one is queued or unacknowledged.
func (ev *evidence) emit(dg p4src.VerdictDigest) {
	if ev.pending[dg] {
		return
	}
	if len(ev.queue) >= maxQueuedDigests {
		ev.dropped++
		return
	}
	if ev.pending == nil {
		ev.pending = map[p4src.VerdictDigest]bool{}
	}
	ev.pending[dg] = true
	ev.queue = append(ev.queue, dg)
	select {
	case ev.notify <- struct{}{}:
	default:
	}
}

// VerdictDigests returns the digests the pipeline has sent since the last
// call (each verdict once until AckVerdictDigests) and a channel that is
// signalled when more arrive.
func (d *Dataplane) VerdictDigests() ([]p4src.VerdictDigest, <-chan struct{}) {
	ev := &d.ev
	ev.mu.Lock()
	defer ev.mu.Unlock()
	q := ev.queue
	ev.queue = nil
	return q, ev.notify
}

// AckVerdictDigests acknowledges digests the controller received: a
// repeat of one of them is sent again.
func (d *Dataplane) AckVerdictDigests(dgs []p4src.VerdictDigest) {
	ev := &d.ev
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for _, dg := range dgs {
		delete(ev.pending, dg)
	}
}

// VerdictDigestID is the P4Info id of the verdict digest, 0 when the
// program has none.
func (d *Dataplane) VerdictDigestID() uint32 { return d.verdictDigest }

// VerdictOn says whether the program keeps the data-plane verdict.
func (d *Dataplane) VerdictOn() bool { return d.verdictOn }

// Verdict returns the verdict register of a filter group: the epoch it
// holds for and whether it is set (for tests and the software switch's
// own diagnostics; P4Runtime cannot read it on BMv2). With more than one
// pipe, the first pipe's cell that is set (PipeVerdict reads one pipe's).
func (d *Dataplane) Verdict(fg uint32) (epoch uint8, set bool) {
	if fg >= p4src.FilterGroupSize {
		return 0, false
	}
	d.ev.mu.Lock()
	defer d.ev.mu.Unlock()
	for p := range d.ev.pipes {
		// With more than one pipe: the first pipe whose cell is set.
		if v := d.ev.pipes[p].verdict[fg]; v&verdictSet != 0 || p == len(d.ev.pipes)-1 {
			return uint8(v), v&verdictSet != 0
		}
	}
	return 0, false
}
