package cli

import (
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// counterRates is b - a per second of secs for every packets and bytes
// pair of two counter readings of the same site (everything else as in b).
// A counter that went back (the switch was reset or the pipeline pushed
// between the readings) or a site that changed shape is an error: the
// rate would be a lie.
func counterRates(a, b *apiv1.Counters, secs float64) (*apiv1.Counters, error) {
	if secs <= 0 {
		return nil, fmt.Errorf("the readings are %v apart: no rate", secs)
	}
	out := proto.Clone(b).(*apiv1.Counters)
	// The session memory's are counts (held sessions, learner totals),
	// the second reading's: its filter groups come and go between
	// readings.
	sm := out.SessionMemory
	out.SessionMemory = nil
	a = proto.Clone(a).(*apiv1.Counters)
	a.SessionMemory = nil
	if err := ratesOf(a.ProtoReflect(), out.ProtoReflect(), secs, ""); err != nil {
		return nil, err
	}
	out.SessionMemory = sm
	return out, nil
}

var packetBytesName = (&apiv1.PacketBytes{}).ProtoReflect().Descriptor().FullName()

func ratesOf(a, b protoreflect.Message, secs float64, path string) error {
	if b.Descriptor().FullName() == packetBytesName {
		pa, pb := a.Interface().(*apiv1.PacketBytes), b.Interface().(*apiv1.PacketBytes)
		if pb.Packets < pa.Packets || pb.Bytes < pa.Bytes {
			return fmt.Errorf("counter %s went back between the readings (the switch was reset or its pipeline pushed): run it again", path)
		}
		pb.Packets = uint64(math.Round(float64(pb.Packets-pa.Packets) / secs))
		pb.Bytes = uint64(math.Round(float64(pb.Bytes-pa.Bytes) / secs))
		return nil
	}
	fields := b.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.Kind() != protoreflect.MessageKind || fd.IsMap() {
			continue
		}
		name := path + "." + string(fd.Name())
		if fd.IsList() {
			la, lb := a.Get(fd).List(), b.Mutable(fd).List()
			if la.Len() != lb.Len() {
				return fmt.Errorf("the site changed between the readings (%s: %d then %d): run it again", name, la.Len(), lb.Len())
			}
			for j := range lb.Len() {
				ma, mb := la.Get(j).Message(), lb.Get(j).Message()
				if n := mb.Descriptor().Fields().ByName("name"); n != nil && ma.Get(n).String() != mb.Get(n).String() {
					return fmt.Errorf("the site changed between the readings (%s: %s then %s): run it again", name, ma.Get(n).String(), mb.Get(n).String())
				}
				if err := ratesOf(ma, mb, secs, fmt.Sprintf("%s[%d]", name, j)); err != nil {
					return err
				}
			}
			continue
		}
		if fd.Message().FullName() == "google.protobuf.Timestamp" || !b.Has(fd) || !a.Has(fd) {
			continue
		}
		if err := ratesOf(a.Get(fd).Message(), b.Mutable(fd).Message(), secs, name); err != nil {
			return err
		}
	}
	return nil
}

// rateWindowMax bounds --rate.
const rateWindowMax = time.Hour
