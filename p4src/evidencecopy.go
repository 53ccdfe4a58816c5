package p4src

import (
	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
)

// The evidence copy across the pipes of a Tofino (tna/include/arch.p4,
// "Two pipes"; docs/tofino.md). A multi-pipe Tofino keeps one copy of
// every register per pipe and runs a frame in the pipe of the port it
// arrives on, so the sends of a filter group (recorded in the pipe of the
// link port, or of the CPU port for keep-alives) and its returns (in the
// pipe of the filter port) can be in different pipes. The verdict build
// mirrors every return (data returns at most once per ~1 ms per filter
// group and direction) as a small copy to the recirculation port of the
// other pipes, whose ingress takes it as that return; and every proof (a
// verdict cell written by a proving frame's second pass) as a proof copy,
// from which the other pipes write their own cells. The mirror session
// of the arrival pipe p is EvidenceCopySessionBase + p; the controller
// points it at the recirculation ports of every other pipe.
const (
	// RegisterEvidenceCopy is the copy's rate-limit register: only a
	// program with it sends evidence copies.
	RegisterEvidenceCopy = "BalancerIngress.ev_copy_slot"
	// EvidenceCopySessionBase is the mirror session of pipe 0's copies
	// (EV_COPY_SESSION_BASE).
	EvidenceCopySessionBase = 960
	// EvidenceCopyRecircPort is the pipe-local recirculation port
	// (EV_COPY_RECIRC_PORT): device port pipe*TofinoPipePorts + 68.
	EvidenceCopyRecircPort = 68
	// EvidenceCopyMagic is the first byte of a return's copy
	// (EV_COPY_MAGIC); the second holds the return's e (7 bits), the
	// third is 0.
	EvidenceCopyMagic = 0xE5
	// EvidenceProofMagic is the first byte of a proof's copy
	// (EV_PROOF_MAGIC); the second holds e (its filter group in bits
	// 6:1), the third the epoch the verdict holds for.
	EvidenceProofMagic = 0xE6
	// EvidenceCopyHeaderLen is the copy header's length in bytes.
	EvidenceCopyHeaderLen = 3
	// EvidenceCopyLength is how much of a copy the mirror keeps: the
	// copy header and the first bytes of the frame; the recirculated
	// copy needs nothing past its header.
	EvidenceCopyLength = 64
	// TofinoPipePorts is the device-port span of one pipe.
	TofinoPipePorts = 128
	// TofinoMaxPipes bounds the pipes of a Tofino (4 on the largest parts).
	TofinoMaxPipes = 4
)

// HasEvidenceCopy says whether the program copies returns across pipes
// (the TNA verdict build): the controller then configures the copies'
// mirror sessions on a multi-pipe switch.
func (s *Schema) HasEvidenceCopy() bool {
	_, err := s.Register(RegisterEvidenceCopy)
	return err == nil
}

// EvidenceCopySessions gives the mirror sessions of the evidence copy on
// a switch of pipes pipes: for each pipe p, session
// EvidenceCopySessionBase+p replicating to the recirculation port of
// every other pipe, truncated to EvidenceCopyLength. None for a switch of
// one pipe (or an unknown count), where every return is in the pipe of
// its sends.
func EvidenceCopySessions(pipes int) []*p4v1.CloneSessionEntry {
	if pipes < 2 || pipes > TofinoMaxPipes {
		return nil
	}
	out := make([]*p4v1.CloneSessionEntry, 0, pipes)
	for p := 0; p < pipes; p++ {
		e := &p4v1.CloneSessionEntry{SessionId: uint32(EvidenceCopySessionBase + p), PacketLengthBytes: EvidenceCopyLength}
		for q := 0; q < pipes; q++ {
			if q == p {
				continue
			}
			e.Replicas = append(e.Replicas, &p4v1.Replica{
				PortKind: &p4v1.Replica_EgressPort{EgressPort: uint32(q*TofinoPipePorts + EvidenceCopyRecircPort)},
				Instance: uint32(len(e.Replicas)),
			})
		}
		out = append(out, e)
	}
	return out
}
