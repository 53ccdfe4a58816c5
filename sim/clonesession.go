package sim

import (
	"errors"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Clone sessions (P4Runtime PacketReplicationEngineEntry, clone_session_
// entry) are kept as a P4Runtime server keeps them, so that a controller
// configuring a multi-pipe Tofino's evidence-copy mirror sessions
// (p4src.EvidenceCopySessions) can be run against the software switch.
// The software switch has one pipe and mirrors nothing: the sessions are
// held, answered (INSERT of a held session: ALREADY_EXISTS; MODIFY or
// DELETE of an unknown one: NOT_FOUND, as PI does) and shown
// (CloneSessions), never used.

// Bounds of what a controller may make the switch hold: the session ids
// of a Tofino's 10-bit mirror id, and replicas per session.
const (
	maxCloneSessions = 1024
	maxCloneReplicas = 64
)

var errCloneSession = errors.New("clone session")

func (s *P4RTServer) writePRE(typ p4v1.Update_Type, pre *p4v1.PacketReplicationEngineEntry) error {
	cs := pre.GetCloneSessionEntry()
	if cs == nil {
		return status.Errorf(codes.Unimplemented, "packet replication engine: only clone sessions are supported (no multicast groups)")
	}
	id := cs.GetSessionId()
	if id == 0 || id >= maxCloneSessions {
		return status.Errorf(codes.InvalidArgument, "%v %d: session ids are 1..%d", errCloneSession, id, maxCloneSessions-1)
	}
	if n := len(cs.GetReplicas()); n > maxCloneReplicas {
		return status.Errorf(codes.ResourceExhausted, "%v %d: %d replicas, at most %d", errCloneSession, id, n, maxCloneReplicas)
	}
	seen := map[[2]uint32]bool{}
	for _, r := range cs.GetReplicas() {
		k := [2]uint32{r.GetEgressPort(), r.GetInstance()}
		if seen[k] {
			return status.Errorf(codes.InvalidArgument, "%v %d: replica port %d instance %d twice", errCloneSession, id, k[0], k[1])
		}
		seen[k] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clones == nil {
		s.clones = map[uint32]*p4v1.CloneSessionEntry{}
	}
	_, held := s.clones[id]
	switch typ {
	case p4v1.Update_INSERT:
		if held {
			return status.Errorf(codes.AlreadyExists, "%v %d: already exists", errCloneSession, id)
		}
	case p4v1.Update_MODIFY:
		if !held {
			return status.Errorf(codes.NotFound, "%v %d: not found", errCloneSession, id)
		}
	case p4v1.Update_DELETE:
		if !held {
			return status.Errorf(codes.NotFound, "%v %d: not found", errCloneSession, id)
		}
		delete(s.clones, id)
		return nil
	default:
		return status.Errorf(codes.InvalidArgument, "%v %d: update type %v", errCloneSession, id, typ)
	}
	s.clones[id] = proto.Clone(cs).(*p4v1.CloneSessionEntry)
	return nil
}

// CloneSessions returns copies of the clone sessions the switch holds, by
// session id.
func (s *P4RTServer) CloneSessions() map[uint32]*p4v1.CloneSessionEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[uint32]*p4v1.CloneSessionEntry, len(s.clones))
	for id, cs := range s.clones {
		out[id] = proto.Clone(cs).(*p4v1.CloneSessionEntry)
	}
	return out
}
