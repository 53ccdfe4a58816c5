package pipelinecases

import (
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/gopacket/gopacket/layers"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
	"github.com/dpi-balancer/balancer/symhash"
	"github.com/dpi-balancer/balancer/tables"
)

// The data-plane verdict's cases: sequences of frames with time passing
// between them, each from a freshly programmed switch, covering every
// transition of the evidence (docs/availability.md, "Data-plane verdict").

// VerdictDetect is the detection time of the verdict site: interval 10ms x
// loss_threshold 5.
const VerdictDetect = 50 * time.Millisecond

// VerdictConfig is site.yaml with the default profile at a 10 ms interval
// (detect 50 ms) and, when drop, failure action drop.
func VerdictConfig(drop bool) (*config.Config, error) {
	return VerdictConfigDetect(drop, VerdictDetect)
}

// VerdictConfigDetect is VerdictConfig with another detection time
// (interval detect/5, loss_threshold 5): a target whose harness takes
// longer per frame (BMv2 behind veths) needs room for it.
func VerdictConfigDetect(drop bool, detect time.Duration) (*config.Config, error) {
	cfg, err := Config()
	if err != nil {
		return nil, err
	}
	p := cfg.ProfileByName("default")
	if p == nil {
		return nil, errors.New("pipelinecases: no default profile")
	}
	p.Interval = config.Duration(detect / 5)
	p.LossThreshold = 5
	if drop {
		cfg.BalanceGroups[0].FailureAction = config.FailDrop
	}
	return cfg, nil
}

// VerdictStep is one frame of a scenario, sent after Wait has passed (on
// the target's clock).
type VerdictStep struct {
	Note      string
	Wait      time.Duration
	In        uint32
	PacketOut *PacketOut
	Frame     []byte
	Out       []Output
	PacketIn  *PacketIn
	// Digest, when set, must be among the digests the step made (Age is
	// checked to be at least MinAge ticks); NoDigest: none may come.
	Digest   *p4src.VerdictDigest
	MinAge   uint32
	NoDigest bool
}

// VerdictScenario is a sequence of steps from a freshly programmed site
// (epochs 0), with the failure action drop when Drop.
type VerdictScenario struct {
	Name  string
	Drop  bool
	Steps []VerdictStep
	// Bump, when > 0, is the step before which the controller clears the
	// verdict: the target rewrites the site at epoch Bump.
	BumpAt    int
	BumpEpoch uint8
	// Detect is the detection time the scenario is written for.
	Detect time.Duration
}

// VerdictTarget is a Target that can program the verdict site afresh,
// let time pass on its pipeline clock, and hand out digests.
type VerdictTarget interface {
	Target
	// Fresh programs cfg from an empty switch (registers zero) with every
	// filter group at epoch 0.
	Fresh(cfg *config.Config) error
	// SetEpochs rewrites the site with these epochs (MODIFY of the
	// filter groups' entries).
	SetEpochs(cfg *config.Config, epochs map[string]uint8) error
	// Wait lets d pass on the pipeline's clock.
	Wait(d time.Duration)
	// Digests returns the verdict digests received within timeout.
	Digests(timeout time.Duration) []p4src.VerdictDigest
	// Tick is the pipeline clock's unit.
	Tick() time.Duration
}

// f1Session returns sessions (src address n) that the verdict site places
// on F1, with their session bucket (hash bits 20:16).
func f1Sessions(cfg *config.Config, n int) (addrs []netip.Addr, buckets []uint32) {
	dst := netip.MustParseAddr("198.51.100.1")
	seen := map[uint32]bool{}
	for i := 0; len(addrs) < n && i < 1<<16; i++ {
		src := netip.AddrFrom4([4]byte{10, 9, byte(i >> 8), byte(i)})
		fg, _ := Placement(cfg, src, dst, 6)
		if fg != F1ID {
			continue
		}
		b := symhash.Sum(src, dst, 6) >> 16 & 31
		if seen[b] {
			continue
		}
		seen[b] = true
		addrs, buckets = append(addrs, src), append(buckets, b)
	}
	return addrs, buckets
}

// VerdictScenarios returns every scenario for cfg = VerdictConfig(false)
// (the drop scenario reconfigures itself).
func VerdictScenarios(cfg *config.Config) []VerdictScenario {
	return VerdictScenariosDetect(cfg, VerdictDetect)
}

// VerdictScenariosDetect returns the scenarios for
// VerdictConfigDetect(false, detect).
func VerdictScenariosDetect(cfg *config.Config, detect time.Duration) []VerdictScenario {
	tpid := uint16(wire.DefaultCoreTPID)
	dst := netip.MustParseAddr("198.51.100.1")
	srcs, _ := f1Sessions(cfg, 12)
	data := func(src netip.Addr) []byte {
		return Frame(macA, macB, Encap{}, L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 80})
	}
	_, core0 := Placement(cfg, srcs[0], dst, 6)
	toF1 := func(i int) VerdictStep {
		_, core := Placement(cfg, srcs[i], dst, 6)
		return VerdictStep{In: L1LAN, Frame: data(srcs[i]), Out: []Output{{Port: F1LAN, Frame: PushCore(data(srcs[i]), tpid, L1ID, core)}}}
	}
	bypassed := func(i int) VerdictStep {
		return VerdictStep{In: L1LAN, Frame: data(srcs[i]), Out: []Output{{Port: L1WAN, Frame: data(srcs[i])}}}
	}
	// The frame F1 returns on its WAN side (the LAN-side send answered).
	ret := VerdictStep{Note: "F1 returns a frame on its WAN side", In: F1WAN, Frame: PushCore(data(srcs[0]), tpid, L1ID, core0),
		Out: []Output{{Port: L1WAN, Frame: data(srcs[0])}}}
	retWrongSide := VerdictStep{Note: "a frame comes back on F1's LAN side (answers WAN-side sends only)", In: F1LAN,
		Frame: PushCore(data(srcs[0]), tpid, L1ID, core0), Out: []Output{{Port: L1LAN, Frame: data(srcs[0])}}}
	ka := func(fg uint16, dir wire.Direction) []byte {
		return wire.EncodeKeepAlive([6]byte{0x02, 0, 0, 0, 0, 0x02}, [6]byte{0x02, 0, 0, 0, 0, 0x01}, wire.DefaultKeepAliveEtherType,
			wire.KeepAlive{FilterGroup: fg, Direction: dir, Seq: 1})
	}
	kaOut := VerdictStep{Note: "keep-alive out of F1's LAN port", PacketOut: &PacketOut{Port: F1LAN, Flags: wire.PacketOutFlagKeepAlive},
		Frame: ka(F1ID, wire.LANToWAN), Out: []Output{{Port: F1LAN, Frame: ka(F1ID, wire.LANToWAN), TxTimestampAt: KeepAliveTxOffset}}}
	kaBack := func(fg uint16, in uint32) VerdictStep {
		return VerdictStep{Note: fmt.Sprintf("keep-alive of group %d back on port %d", fg, in), In: in, Frame: ka(fg, wire.LANToWAN),
			PacketIn: &PacketIn{IngressPort: in, Reason: wire.PacketInReasonKeepAlive, Frame: ka(fg, wire.LANToWAN)}}
	}
	with := func(s VerdictStep, note string, wait time.Duration) VerdictStep {
		s.Note, s.Wait = note, wait
		return s
	}
	// late: the wait after spread(n, detect/2) and one more step of
	// detect/4 that puts the oldest send past detect (72 ms) while the
	// last send stays within it (no quiet spell), with room for a real
	// clock's slack.
	late := 3 * detect / 4
	// afterNonSend: the same after spread(n, detect/2) and a step of
	// detect/4 that is not a send (a return that is not life): the last
	// send is then the spread's, so the proof comes detect/2 later, at
	// 1.19 x detect from the first send and 0.75 x detect from the last
	// (with late the gap would be detect itself, a quiet spell on a real
	// clock).
	afterNonSend := detect / 2
	// sends from n distinct buckets, spread over d.
	spread := func(n int, d time.Duration) []VerdictStep {
		var st []VerdictStep
		for i := 0; i < n; i++ {
			w := time.Duration(0)
			if i > 0 {
				w = d / time.Duration(n)
			}
			st = append(st, with(toF1(i), fmt.Sprintf("data of bucket session %d to F1", i), w))
		}
		return st
	}
	dataVerdict := &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 0, Reason: p4src.VerdictData}
	var sc []VerdictScenario

	// F1 returns nothing while the controller is silent: data of many
	// sessions proves loss once the oldest waited longer than detect.
	steps := spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(toF1(8), "still in the window: forwarded", detect/4))
	s := with(bypassed(9), "oldest unanswered older than detect: failure action (bypass)", late)
	s.Digest = dataVerdict
	steps = append(steps, s)
	s = with(bypassed(0), "the verdict stands: bypassed, repeat digest", 0)
	s.Digest = &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 0, Reason: p4src.VerdictStanding}
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: data of many sessions unanswered", Steps: steps})

	// The same with drop.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(toF1(8), "in the window", detect/4))
	s = VerdictStep{Note: "failure action drop", Wait: late, In: L1LAN, Frame: data(srcs[9]), Digest: dataVerdict}
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: failure action drop", Drop: true, Steps: steps})

	// A filter that blocks a few sessions is never failed by data alone.
	steps = spread(p4src.VerdictMinBuckets-1, detect/2)
	for i := 0; i < 4; i++ {
		s := with(toF1(i%(p4src.VerdictMinBuckets-1)), "the same few sessions, still unanswered: forwarded", detect/2)
		s.NoDigest = true
		steps = append(steps, s)
	}
	sc = append(sc, VerdictScenario{Name: "verdict: a few blocked sessions prove nothing", Steps: steps})

	// A return clears the evidence: the window starts again.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(ret, "F1 returns a frame on its WAN side", detect/4))
	steps = append(steps, with(toF1(9), "a send after the return starts a new window", detect/2))
	s = with(toF1(10), "older than detect since the first send, but not since the return: forwarded", detect/2)
	s.NoDigest = true
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: a return clears the evidence", Steps: steps})

	// A return on the same side answers nothing of these sends.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(retWrongSide, "a return on F1's LAN side", detect/4))
	s = with(bypassed(9), "still proven: failure action", afterNonSend)
	s.Digest = dataVerdict
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: a return on the wrong side is not life", Steps: steps})

	// Another group's keep-alive on F1's port is not life.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(kaBack(F2ID, F1WAN), "F2's keep-alive on F1's WAN port", detect/4))
	s = with(bypassed(9), "still proven: failure action", afterNonSend)
	s.Digest = dataVerdict
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: another group's keep-alive is not life", Steps: steps})

	// F1's own keep-alive back on its WAN side is life.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(kaBack(F1ID, F1WAN), "F1's keep-alive back on its WAN port", detect/4))
	s = with(toF1(9), "cleared: forwarded", late)
	s.NoDigest = true
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: the group's keep-alive is life", Steps: steps})

	// An unanswered keep-alive proves loss by itself (no data needed).
	steps = []VerdictStep{kaOut}
	k2 := with(kaOut, "next keep-alive, the first unanswered for longer than detect", detect+detect/5)
	k2.Digest = &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 0, Reason: p4src.VerdictKeepAlive}
	k2.Wait = detect / 2
	k3 := with(kaOut, "third keep-alive: the first waited longer than detect", detect/2+detect/5)
	k3.Digest = &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 0, Reason: p4src.VerdictKeepAlive}
	k2.Digest = nil
	k2.NoDigest = true
	steps = append(steps, k2, k3)
	s = with(bypassed(0), "data now gets the failure action", 0)
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: an unanswered keep-alive", Steps: steps})

	// A quiet spell: the first frame after it proves nothing.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	s = with(toF1(9), "first frame after a quiet spell longer than detect: forwarded", 3*detect)
	s.NoDigest = true
	steps = append(steps, s)
	s = with(toF1(10), "right after: still a young window", detect/5)
	s.NoDigest = true
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: nothing proven across a quiet spell", Steps: steps})

	// The controller clears a verdict with the next epoch.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(toF1(8), "in the window", detect/4))
	s = with(bypassed(9), "proven at epoch 0", late)
	s.Digest = dataVerdict
	steps = append(steps, s)
	steps = append(steps, with(kaBack(F1ID, F1WAN), "F1 answers a keep-alive again", 0))
	s = with(bypassed(0), "life alone does not clear the verdict: bypassed", 0)
	s.Digest = &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 0, Reason: p4src.VerdictStanding}
	steps = append(steps, s)
	bump := len(steps)
	s = with(toF1(1), "epoch 1: forwarded again (a new window)", 0)
	s.NoDigest = true
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: cleared by the next epoch", Steps: steps, BumpAt: bump, BumpEpoch: 1})

	// A new epoch without any life in between: proven again at once.
	steps = spread(p4src.VerdictMinBuckets, detect/2)
	steps = append(steps, with(toF1(8), "in the window", detect/4))
	s = with(bypassed(9), "proven at epoch 0", late)
	s.Digest = dataVerdict
	steps = append(steps, s)
	bump = len(steps)
	s = with(bypassed(0), "epoch 1, no return since: proven again at epoch 1", 0)
	s.Digest = &p4src.VerdictDigest{FilterGroup: F1ID, Direction: 0, Epoch: 1, Reason: p4src.VerdictData}
	steps = append(steps, s)
	sc = append(sc, VerdictScenario{Name: "verdict: a new epoch without life is proven again", Steps: steps, BumpAt: bump, BumpEpoch: 1})
	for i := range sc {
		sc[i].Detect = detect
	}
	return sc
}

// RunVerdict runs one scenario.
func RunVerdict(tg VerdictTarget, sc VerdictScenario, tm Timing) error {
	detect := sc.Detect
	if detect <= 0 {
		detect = VerdictDetect
	}
	cfg, err := VerdictConfigDetect(sc.Drop, detect)
	if err != nil {
		return err
	}
	if err := tg.Fresh(cfg); err != nil {
		return fmt.Errorf("programming: %w", err)
	}
	tg.Digests(0)
	minAge := uint32(tables.DetectTicks(detect, tg.Tick()))
	for i, st := range sc.Steps {
		if sc.BumpAt == i && sc.BumpEpoch > 0 {
			if err := tg.SetEpochs(cfg, map[string]uint8{"F1": sc.BumpEpoch, "F2": sc.BumpEpoch}); err != nil {
				return fmt.Errorf("step %d: epoch %d: %w", i, sc.BumpEpoch, err)
			}
		}
		if st.Wait > 0 {
			tg.Wait(st.Wait)
		}
		c := Case{Name: st.Note, In: st.In, PacketOut: st.PacketOut, Frame: st.Frame, Out: st.Out, PacketIn: st.PacketIn}
		if err := runCase(tg, c, tm); err != nil {
			return fmt.Errorf("step %d (%s): %w", i, st.Note, err)
		}
		wait := tm.Quiet
		if st.Digest != nil {
			wait = tm.Expect
		}
		dgs := tg.Digests(wait)
		switch {
		case st.NoDigest:
			if len(dgs) > 0 {
				return fmt.Errorf("step %d (%s): digests %+v, want none", i, st.Note, dgs)
			}
		case st.Digest != nil:
			found := false
			for _, d := range dgs {
				want := *st.Digest
				want.Age = d.Age
				if d == want && (want.Reason == p4src.VerdictStanding && d.Age == 0 || want.Reason != p4src.VerdictStanding && d.Age >= minAge) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("step %d (%s): digests %+v, want %+v (age >= %d ticks unless a repeat)", i, st.Note, dgs, *st.Digest, minAge)
			}
		}
	}
	return nil
}

// F1Traffic is data of n sessions the verdict site places on F1, from
// distinct session buckets where it can (n up to 32): the frames sent
// into L1's LAN port and what F1 returns for each on its WAN port.
func F1Traffic(cfg *config.Config, n int) (sends, returns [][]byte) {
	tpid := uint16(wire.DefaultCoreTPID)
	dst := netip.MustParseAddr("198.51.100.1")
	srcs, _ := f1Sessions(cfg, n)
	for _, src := range srcs {
		f := Frame(macA, macB, Encap{}, L3{Src: src, Dst: dst, Proto: layers.IPProtocolTCP, SrcPort: 40000, DstPort: 80})
		_, core := Placement(cfg, src, dst, 6)
		sends = append(sends, f)
		returns = append(returns, PushCore(f, tpid, L1ID, core))
	}
	return sends, returns
}
