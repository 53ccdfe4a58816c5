package profiles

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/dpi-balancer/balancer/p4src"
)

// Direction of a keep-alive through a filter.
type Direction uint8

const (
	LANToWAN Direction = 0
	WANToLAN Direction = 1
)

func (d Direction) String() string {
	if d == WANToLAN {
		return "wan-to-lan"
	}
	return "lan-to-wan"
}

// KeepAlive is the decoded payload of a keep-alive frame (contract,
// docs/dataplane.md).
type KeepAlive struct {
	FilterGroup uint16
	Direction   Direction
	Seq         uint32
	TxTimestamp uint64
}

// FrameLen is the length of a keep-alive frame without FCS.
const FrameLen = 60

// ErrNotKeepAlive is returned by DecodeKeepAlive for other frames.
var ErrNotKeepAlive = errors.New("not a keep-alive frame")

// EncodeKeepAlive builds a keep-alive frame (tx timestamp zero: the data
// plane writes it).
func EncodeKeepAlive(dst, src [6]byte, etherType uint16, k KeepAlive) []byte {
	b := make([]byte, FrameLen)
	copy(b[0:6], dst[:])
	copy(b[6:12], src[:])
	binary.BigEndian.PutUint16(b[12:14], etherType)
	binary.BigEndian.PutUint32(b[14:18], p4src.KeepAliveMagic)
	b[18] = p4src.KeepAliveVersion
	b[19] = byte(k.Direction)
	binary.BigEndian.PutUint16(b[20:22], k.FilterGroup)
	binary.BigEndian.PutUint32(b[22:26], k.Seq)
	binary.BigEndian.PutUint64(b[26:34], k.TxTimestamp)
	return b
}

// DecodeKeepAlive parses a keep-alive frame with the given EtherType.
func DecodeKeepAlive(frame []byte, etherType uint16) (KeepAlive, error) {
	if len(frame) < 34 || binary.BigEndian.Uint16(frame[12:14]) != etherType {
		return KeepAlive{}, ErrNotKeepAlive
	}
	if m := binary.BigEndian.Uint32(frame[14:18]); m != p4src.KeepAliveMagic {
		return KeepAlive{}, fmt.Errorf("%w: magic %#x", ErrNotKeepAlive, m)
	}
	if v := frame[18]; v != p4src.KeepAliveVersion {
		return KeepAlive{}, fmt.Errorf("keep-alive version %d not supported", v)
	}
	return KeepAlive{
		Direction:   Direction(frame[19] & 1),
		FilterGroup: binary.BigEndian.Uint16(frame[20:22]),
		Seq:         binary.BigEndian.Uint32(frame[22:26]),
		TxTimestamp: binary.BigEndian.Uint64(frame[26:34]),
	}, nil
}
