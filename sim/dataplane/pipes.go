package dataplane

import (
	"fmt"

	"github.com/dpi-balancer/balancer/p4src"
)

// Pipes. A Tofino keeps every register once per pipe, and a frame runs in
// the ingress pipe of the port it arrives on (a packet-out in the CPU
// port's). The data-plane verdict's evidence is so split: data sends are
// recorded in the pipe of the link port they arrived on, keep-alive sends
// in the CPU port's, returns in the filter port's. The TNA program mirrors
// every return as a 3-byte evidence copy to the recirculation port of every
// other pipe, whose ingress takes it as that return (clears the window tag
// and the pending keep-alive of its e) and drops it; data returns are
// copied at most once per copy slot (tick >> EvCopyShift) per e and pipe,
// keep-alive returns always. A proof is copied the same way: the proving
// frame's second pass, which writes its pipe's verdict cell, mirrors a
// proof copy (the filter group and the epoch), and every other pipe's
// ingress writes its own cell from it, so the failure action applies to
// the group's frames in every pipe, not only in the one that proved it.
//
// WithPipes models that: each pipe its own evidence registers and
// ev_copy_slot, and the copies, which reach the other pipes' ingress
// EvCopyDelay ticks after the return (a small queue per pipe, taken by
// that pipe's next frame that touches the evidence: the registers are
// read only by frames, so a copy taken then acts exactly as one taken on
// arrival). With one pipe (the default) nothing of it runs.

const (
	// MaxPipes is the most pipes a Tofino has.
	MaxPipes = 4
	// EvCopyShift: a data return is copied at most once per 2^EvCopyShift
	// ticks per e and pipe (the P4 program's EV_COPY_SHIFT).
	EvCopyShift = 4
	// EvCopyDelay is the ticks between a return and its copy's arrival
	// in another pipe by default (mirror and recirculation: 1-2 µs on
	// the hardware; the software switch's tick is 1 µs).
	EvCopyDelay = 2
	// maxInbound bounds the copies a pipe holds not yet taken: when full,
	// the oldest is taken at once (early, never lost).
	maxInbound = 256
)

// DefaultPipe is the pipe of a port that WithPipes does not place: Tofino's
// device-port rule, pipe = port bits 8:7 (ports 0-127 pipe 0, 128-255 pipe
// 1, ...), modulo the number of pipes. The software switch's CPU port 255
// is so in pipe 1 of 2, as port 192 is on a 2-pipe Tofino.
func DefaultPipe(port uint32, pipes int) int {
	if pipes <= 1 {
		return 0
	}
	return int(port>>7) % pipes
}

// WithPipes gives the data plane n pipes (1 to MaxPipes; default 1), each
// with its own verdict registers. ports places ports in pipes (port ->
// pipe); a port not in it is in DefaultPipe's. Evidence copies between
// pipes are on (WithEvidenceCopies).
func WithPipes(n int, ports map[uint32]int) Option {
	return func(o *options) { o.pipes, o.pipePorts = n, ports }
}

// WithEvidenceCopies turns the evidence copies between pipes on or off
// (default on) and sets their delay in ticks (negative: EvCopyDelay). Off
// is not what the P4 program does: it shows what the copies prevent (a
// pipe that sends and never sees the returns proves a healthy filter
// dead).
func WithEvidenceCopies(on bool, delay int) Option {
	return func(o *options) { o.copiesSet, o.copiesOff, o.copyDelay = true, !on, delay }
}

// pipeSetup validates the pipe options and sizes the registers.
func (d *Dataplane) pipeSetup(o *options) error {
	n := o.pipes
	if n == 0 {
		n = 1
	}
	if n < 1 || n > MaxPipes {
		return fmt.Errorf("%d pipes: a switch has 1 to %d", n, MaxPipes)
	}
	for port, p := range o.pipePorts {
		if port >= portSpace {
			return fmt.Errorf("port %d placed in pipe %d is not a 9-bit port", port, p)
		}
		if p < 0 || p >= n {
			return fmt.Errorf("port %d placed in pipe %d: the switch has pipes 0 to %d", port, p, n-1)
		}
	}
	for port := range d.pipeOf {
		p, ok := o.pipePorts[uint32(port)]
		if !ok {
			p = DefaultPipe(uint32(port), n)
		}
		d.pipeOf[port] = uint8(p)
	}
	d.ev.pipes = make([]evRegs, n)
	if n > 1 {
		d.ev.copies = !o.copiesOff
		d.ev.copyDelay = EvCopyDelay
		if o.copiesSet && o.copyDelay >= 0 {
			d.ev.copyDelay = uint32(o.copyDelay)
		}
		d.ev.inbound = make([][]evCopy, n)
	}
	return nil
}

// Pipes is the number of pipes (WithPipes).
func (d *Dataplane) Pipes() int { return len(d.ev.pipes) }

// PipeOf is the ingress pipe of a port (a port beyond 9 bits: pipe 0).
func (d *Dataplane) PipeOf(port uint32) int {
	if port >= portSpace {
		return 0
	}
	return int(d.pipeOf[port])
}

// CopyStats counts the verdict's returns and the evidence copies between
// pipes since the pipeline was pushed (all zero with one pipe).
type CopyStats struct {
	// Returns the evidence took, in any pipe: data frames with the core
	// header of a known link from a filter port, and keep-alives of the
	// group back on the other side.
	DataReturns, KeepAliveReturns uint64
	// Returns copied to the other pipes: data returns the first of their
	// e in a copy slot in their pipe, and every keep-alive return.
	DataCopies, KeepAliveCopies uint64
	// DataSuppressed: data returns not copied (their e's copy for the
	// slot already went).
	DataSuppressed uint64
	// ProofCopies: proofs (verdict cells written by a proving frame)
	// copied to the other pipes; ProofsTaken: of the copies taken, those
	// that wrote a pipe's verdict cell.
	ProofCopies, ProofsTaken uint64
	// Taken: copies the other pipes' ingress took (one per copy and
	// receiving pipe); Early: of those, taken before their delay had
	// passed because the pipe held maxInbound not yet taken.
	Taken, Early uint64
	// InFlight: copies made and not yet taken (their pipe has had no
	// frame touching the evidence since they arrived, or they have not).
	InFlight uint64
	// Off: copies that would have been made had they been on
	// (WithEvidenceCopies(false, ...)).
	Off uint64
}

// EvidenceCopies returns the copy statistics.
func (d *Dataplane) EvidenceCopies() CopyStats {
	d.ev.mu.Lock()
	defer d.ev.mu.Unlock()
	st := d.ev.copyStats
	for _, q := range d.ev.inbound {
		st.InFlight += uint64(len(q))
	}
	return st
}

// PipeVerdict returns one pipe's verdict cell of a filter group, as
// Verdict.
func (d *Dataplane) PipeVerdict(pipe int, fg uint32) (epoch uint8, set bool) {
	if fg >= p4src.FilterGroupSize || pipe < 0 || pipe >= len(d.ev.pipes) {
		return 0, false
	}
	d.ev.mu.Lock()
	defer d.ev.mu.Unlock()
	v := d.ev.pipes[pipe].verdict[fg]
	return uint8(v), v&verdictSet != 0
}

// copyReturn is control EvidenceCopy for a return in r's pipe (ev.mu
// held): the copy to every other pipe, data returns at most once per copy
// slot per e.
func (ev *evidence) copyReturn(r *evRegs, in *verdictIn, now uint32) {
	st := &ev.copyStats
	if in.kaRet {
		st.KeepAliveReturns++
	} else {
		st.DataReturns++
		slot := now >> EvCopyShift
		if r.copySlot[in.index] == slot {
			st.DataSuppressed++
			return
		}
		r.copySlot[in.index] = slot
	}
	if !ev.copies {
		st.Off++
		return
	}
	if in.kaRet {
		st.KeepAliveCopies++
	} else {
		st.DataCopies++
	}
	ev.send(in.pipe, evCopy{due: now + ev.copyDelay, e: in.index})
}

// copyProof is control EvidenceCopy for a proving frame's second pass in
// pipe p (ev.mu held): its verdict cell, written, copied to every other
// pipe.
func (ev *evidence) copyProof(p uint8, fg, epoch, now uint32) {
	if ev.noProofCopies {
		return
	}
	if !ev.copies {
		ev.copyStats.Off++
		return
	}
	ev.copyStats.ProofCopies++
	ev.send(p, evCopy{due: now + ev.copyDelay, proof: true, e: fg << 1, epoch: uint8(epoch)})
}

// send queues a copy made in pipe from to every other pipe (ev.mu held).
func (ev *evidence) send(from uint8, c evCopy) {
	for p := range ev.pipes {
		if p == int(from) {
			continue
		}
		if len(ev.inbound[p]) >= maxInbound {
			ev.take(p, ev.inbound[p][0])
			ev.copyStats.Early++
			ev.inbound[p] = append(ev.inbound[p][:0], ev.inbound[p][1:]...)
		}
		ev.inbound[p] = append(ev.inbound[p], c)
	}
}

// takeCopies takes, in pipe p's ingress, the copies that arrived by now
// (ev.mu held), in order.
func (ev *evidence) takeCopies(p uint8, now uint32) {
	q := ev.inbound[p]
	n := 0
	for n < len(q) && int32(now-q[n].due) >= 0 {
		ev.take(int(p), q[n])
		n++
	}
	if n > 0 {
		ev.inbound[p] = append(q[:0], q[n:]...)
	}
}

// take is a copy's run through pipe p's ingress: a return's evidence (the
// window and the pending keep-alive of its e cleared), or a proof's
// verdict cell (written with the copy's epoch), then dropped.
func (ev *evidence) take(p int, c evCopy) {
	r := &ev.pipes[p]
	if c.proof {
		r.verdict[c.e>>1] = verdictSet | uint16(c.epoch)
		ev.copyStats.ProofsTaken++
	} else {
		r.tag[c.e] = 0
		r.ka[c.e] = 0
	}
	ev.copyStats.Taken++
}

// copyArrival is the TNA program's ingress for a frame on a recirculation
// port (pipe-local port 68, tnaCopies): the parser takes its first three
// bytes as an evidence copy's header, and the ingress drops it, taking it
// first as the return of its e (EvidenceCopyMagic) or as another pipe's
// proof, writing the verdict cell of e's filter group with the copy's
// epoch (EvidenceProofMagic). On the hardware only the mirror sends there
// (no site may map a port onto it); the software switch makes its copies
// inside (copyReturn, copyProof), so a frame here comes from a test that
// replays what the program does with one.
func (d *Dataplane) copyArrival(inPort uint32, frame []byte) Result {
	if len(frame) < p4src.EvidenceCopyHeaderLen {
		return Result{Kind: Drop}
	}
	c := evCopy{e: uint32(frame[1] & 0x7F)}
	switch frame[0] {
	case p4src.EvidenceCopyMagic:
	case p4src.EvidenceProofMagic:
		c.proof, c.epoch = true, frame[2]
	default:
		return Result{Kind: Drop}
	}
	d.ev.mu.Lock()
	d.ev.take(d.PipeOf(inPort), c)
	d.ev.mu.Unlock()
	return Result{Kind: Drop}
}
