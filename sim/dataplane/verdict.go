package dataplane

import (
	"sync"

	"github.com/dpi-balancer/balancer/p4src"
)

// evidence is the data-plane verdict's registers
// (p4src/v1model/include/control/verdict.p4, the same names and
// semantics): per filter group and direction e = fg<<1 | side the sends
// left by, and the verdict per filter group. Times are ticks of the
// pipeline clock (microseconds, as BMv2 counts), 32 bits, wrap-safe.
type evidence struct {
	mu      sync.Mutex
	since   [p4src.FilterGroupSize * 2]uint32
	last    [p4src.FilterGroupSize * 2]uint32
	kaTag   [p4src.FilterGroupSize * 2]uint32
	ka      [p4src.FilterGroupSize * 2]uint32
	cntTag  [p4src.FilterGroupSize * 2]uint32
	count   [p4src.FilterGroupSize * 2]uint32
	seen    [p4src.FilterGroupSize * 2 * p4src.VerdictBuckets]uint32
	verdict [p4src.FilterGroupSize]uint16

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
	ev.since, ev.last = [len(ev.since)]uint32{}, [len(ev.last)]uint32{}
	ev.kaTag, ev.ka = [len(ev.kaTag)]uint32{}, [len(ev.ka)]uint32{}
	ev.cntTag, ev.count = [len(ev.cntTag)]uint32{}, [len(ev.count)]uint32{}
	ev.seen = [len(ev.seen)]uint32{}
	ev.verdict = [len(ev.verdict)]uint16{}
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

// verdictApply is control Verdict.apply.
func (d *Dataplane) verdictApply(in *verdictIn) verdictOut {
	var out verdictOut
	ev := &d.ev
	ev.mu.Lock()
	defer ev.mu.Unlock()
	i := in.index
	switch {
	case in.ret:
		ev.since[i] = 0
	case in.send:
		now := d.tick() | 1
		since := ev.since[i]
		restart := false
		if since == 0 || now-ev.last[i] > in.detect {
			// Nothing pending, or the first send after a quiet spell: a
			// new window; it proves nothing.
			restart, since = true, now
			ev.since[i] = since
		}
		ev.last[i] = now
		var fresh uint32
		if !in.kaSend {
			j := i*p4src.VerdictBuckets + in.bucket
			if ev.seen[j] != since {
				fresh = 1
				ev.seen[j] = since
			}
		}
		count := ev.count[i]
		if ev.cntTag[i] != since {
			count = 0
		}
		count += fresh
		ev.cntTag[i], ev.count[i] = since, count
		ka := ev.ka[i]
		if ev.kaTag[i] != since {
			ka = 0
		}
		if !restart {
			if ka != 0 && now-ka > in.detect {
				out.proven, out.reason, out.age = true, p4src.VerdictKeepAlive, now-ka
			} else if now-since > in.detect && count >= p4src.VerdictMinBuckets {
				out.proven, out.reason, out.age = true, p4src.VerdictData, now-since
			}
		}
		if in.kaSend && ka == 0 {
			ka = now
		}
		ev.kaTag[i], ev.ka[i] = since, ka
	}
	if in.forward {
		key := uint16(verdictSet | in.epoch&0xff)
		switch v := ev.verdict[in.fg]; {
		case v == key:
			out.hit, out.proven = true, false
		case out.proven:
			ev.verdict[in.fg] = key
			out.hit = true
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
// own diagnostics; P4Runtime cannot read it on BMv2).
func (d *Dataplane) Verdict(fg uint32) (epoch uint8, set bool) {
	if fg >= p4src.FilterGroupSize {
		return 0, false
	}
	d.ev.mu.Lock()
	defer d.ev.mu.Unlock()
	v := d.ev.verdict[fg]
	return uint8(v), v&verdictSet != 0
}
