package p4src

import (
	"fmt"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// The data-plane verdict (docs/availability.md, "Data-plane verdict"): the
// pipeline keeps evidence of life and loss per filter group and direction,
// applies the group's failure action when loss is proven, and reports each
// verdict in a digest. These are its P4Runtime names and contract numbers
// (p4src/shared/defines.p4).
const (
	// CounterVerdict counts the frames a standing verdict gave the
	// failure action: index filter_group<<1 | VerdictCnt*.
	CounterVerdict = "BalancerIngress.verdict_counters"
	// DigestVerdict is the type name of the verdict digest's struct (the
	// v1model P4Info names the digest after it; TNA's names the deparser
	// instance, with the same type).
	DigestVerdict = "verdict_digest_t"

	// filter_forward's liveness parameters.
	ParamEpoch    = "epoch"
	ParamDetect   = "detect"
	ParamFailDrop = "fail_drop"
)

// Verdict counter kinds.
const (
	VerdictCntBypass = 0
	VerdictCntDrop   = 1
	VerdictCntKinds  = 2
)

// VerdictCounterIndex is the verdict_counters index of a filter group's
// counter of one kind.
func VerdictCounterIndex(fg, kind uint32) uint32 { return fg<<1 | kind }

// Verdict digest reasons (verdict_digest_t.reason).
const (
	// VerdictStanding: a repeat of a standing verdict (age 0), sent with
	// every frame the verdict gives the failure action.
	VerdictStanding = 0
	// VerdictKeepAlive: a keep-alive went unanswered for longer than the
	// detection time.
	VerdictKeepAlive = 1
	// VerdictData: data of at least VerdictMinBuckets session buckets went
	// unanswered for longer than the detection time.
	VerdictData = 2
)

// VerdictMinBuckets is how many of the 32 session buckets (hash bits
// 20:16) must have sent unanswered data before data alone proves loss.
const VerdictMinBuckets = 8

// VerdictBuckets is the number of session buckets.
const VerdictBuckets = 32

// Tick is the unit of filter_forward.detect and the digest's age on a
// target: BMv2 (and the software switch) count microseconds; Tofino bits
// 47:16 of its nanosecond clock (65.536 µs: the slice the verdict's
// stateful ALUs can be given, on a container boundary; docs/tofino.md).
// The tick is the floor of every time the pipeline judges.
const (
	TickBMv2 = time.Microsecond
	TickTNA  = 65536 * time.Nanosecond
)

// VerdictDigest is one verdict_digest_t.
type VerdictDigest struct {
	FilterGroup uint8
	// Direction is the side the unanswered sends left by: 0 LAN (answered
	// on the WAN side), 1 WAN.
	Direction uint8
	Epoch     uint8
	Reason    uint8
	// Age is how long the oldest unanswered send had waited, in ticks (0
	// on a repeat).
	Age uint32
}

// VerdictDigestWidths are the struct's member widths, in order.
var VerdictDigestWidths = [5]int{8, 8, 8, 8, 32}

// Data encodes the digest as P4Runtime P4Data (a struct of bitstrings,
// canonical: no leading zero bytes).
func (v VerdictDigest) Data() *p4v1.P4Data {
	vals := []uint64{uint64(v.FilterGroup), uint64(v.Direction), uint64(v.Epoch), uint64(v.Reason), uint64(v.Age)}
	st := &p4v1.P4StructLike{}
	for _, x := range vals {
		b := []byte{}
		for x > 0 {
			b = append([]byte{byte(x)}, b...)
			x >>= 8
		}
		if len(b) == 0 {
			b = []byte{0}
		}
		st.Members = append(st.Members, &p4v1.P4Data{Data: &p4v1.P4Data_Bitstring{Bitstring: b}})
	}
	return &p4v1.P4Data{Data: &p4v1.P4Data_Struct{Struct: st}}
}

// DecodeVerdictDigest reads one digest data item.
func DecodeVerdictDigest(d *p4v1.P4Data) (VerdictDigest, error) {
	st := d.GetStruct()
	if st == nil || len(st.GetMembers()) != len(VerdictDigestWidths) {
		return VerdictDigest{}, fmt.Errorf("verdict digest: want a struct of %d members, got %v", len(VerdictDigestWidths), d)
	}
	var vals [5]uint64
	for i, m := range st.GetMembers() {
		b := m.GetBitstring()
		if b == nil || len(b) > 8 {
			return VerdictDigest{}, fmt.Errorf("verdict digest: member %d is not a bitstring of at most 64 bits", i)
		}
		var x uint64
		for _, c := range b {
			x = x<<8 | uint64(c)
		}
		if x >= 1<<VerdictDigestWidths[i] {
			return VerdictDigest{}, fmt.Errorf("verdict digest: member %d = %d does not fit %d bits", i, x, VerdictDigestWidths[i])
		}
		vals[i] = x
	}
	return VerdictDigest{FilterGroup: uint8(vals[0]), Direction: uint8(vals[1]), Epoch: uint8(vals[2]), Reason: uint8(vals[3]), Age: uint32(vals[4])}, nil
}

// Digest returns the digest whose name or struct type is name, or nil.
func (s *Schema) Digest(name string) *p4configv1.Digest {
	for _, d := range s.Info.GetDigests() {
		if d.GetPreamble().GetName() == name || d.GetTypeSpec().GetStruct().GetName() == name {
			return d
		}
	}
	return nil
}

// HasVerdict says whether the program keeps the data-plane verdict: its
// filter_forward has the epoch, detect and fail_drop parameters (an older
// program has none; the controller then leaves them out).
func (s *Schema) HasVerdict() bool {
	a, err := s.Action(ActionFilterForward)
	if err != nil {
		return false
	}
	for _, n := range []string{ParamEpoch, ParamDetect, ParamFailDrop} {
		if _, err := a.Param(n); err != nil {
			return false
		}
	}
	return true
}

// HasVerdict says whether a P4Info's program keeps the data-plane verdict:
// its filter_forward action has the liveness parameters.
func HasVerdict(info *p4configv1.P4Info) bool {
	for _, a := range info.GetActions() {
		if a.GetPreamble().GetName() != ActionFilterForward {
			continue
		}
		for _, p := range a.GetParams() {
			if p.GetName() == ParamEpoch {
				return true
			}
		}
	}
	return false
}

// WithoutVerdict is a copy of info without the data-plane verdict's
// objects: filter_forward's liveness parameters, verdict_counters, the
// evidence registers and the verdict digest. It is what a build of the
// program made before the verdict holds.
func WithoutVerdict(info *p4configv1.P4Info) *p4configv1.P4Info {
	out := proto.Clone(info).(*p4configv1.P4Info)
	for _, a := range out.GetActions() {
		if a.GetPreamble().GetName() != ActionFilterForward {
			continue
		}
		a.Params = slices.DeleteFunc(a.Params, func(p *p4configv1.Action_Param) bool {
			return p.GetName() == ParamEpoch || p.GetName() == ParamDetect || p.GetName() == ParamFailDrop
		})
	}
	out.Counters = slices.DeleteFunc(out.Counters, func(c *p4configv1.Counter) bool {
		return c.GetPreamble().GetName() == CounterVerdict
	})
	out.Registers = nil
	out.Digests = slices.DeleteFunc(out.Digests, func(d *p4configv1.Digest) bool {
		return d.GetPreamble().GetName() == DigestVerdict
	})
	return out
}
