package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Keep-alive frame: Ethernet (dst, src, EtherType) then keepalive_t.
const (
	KeepAliveMagic    = 0x424C4B41 // "BLKA"
	KeepAliveVersion  = 1
	KeepAliveLen      = 20 // bytes of keepalive_t, after the EtherType
	KeepAliveTxOffset = 12 // the tx timestamp's offset in keepalive_t
	KeepAliveFrameLen = 60 // a keep-alive frame without FCS
	TimestampBits     = 48 // data plane timestamps (tx, rx) are 48 bits
	TimestampMask     = 1<<TimestampBits - 1
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

// KeepAlive is the payload of a keep-alive frame.
type KeepAlive struct {
	FilterGroup uint16
	Direction   Direction
	Seq         uint32
	TxTimestamp uint64
}

// ErrNotKeepAlive is returned by DecodeKeepAlive for other frames.
var ErrNotKeepAlive = errors.New("not a keep-alive frame")

const kaOff = 14 // keepalive_t's offset in the frame

// EncodeKeepAlive builds a keep-alive frame of KeepAliveFrameLen bytes.
func EncodeKeepAlive(dst, src [6]byte, etherType uint16, k KeepAlive) []byte {
	b := make([]byte, KeepAliveFrameLen)
	copy(b[0:6], dst[:])
	copy(b[6:12], src[:])
	binary.BigEndian.PutUint16(b[12:14], etherType)
	binary.BigEndian.PutUint32(b[kaOff:], KeepAliveMagic)
	b[kaOff+4] = KeepAliveVersion
	b[kaOff+5] = byte(k.Direction)
	binary.BigEndian.PutUint16(b[kaOff+6:], k.FilterGroup)
	binary.BigEndian.PutUint32(b[kaOff+8:], k.Seq)
	binary.BigEndian.PutUint64(b[kaOff+KeepAliveTxOffset:], k.TxTimestamp)
	return b
}

// PutKeepAliveSeq sets the sequence number of a keep-alive frame
// EncodeKeepAlive made (the engine sends one frame per round, the same
// but for its sequence).
func PutKeepAliveSeq(frame []byte, seq uint32) {
	binary.BigEndian.PutUint32(frame[kaOff+8:], seq)
}

// DecodeKeepAlive parses a keep-alive frame with the given EtherType.
func DecodeKeepAlive(frame []byte, etherType uint16) (KeepAlive, error) {
	if len(frame) < kaOff+KeepAliveTxOffset+8 || binary.BigEndian.Uint16(frame[12:14]) != etherType {
		return KeepAlive{}, ErrNotKeepAlive
	}
	if m := binary.BigEndian.Uint32(frame[kaOff:]); m != KeepAliveMagic {
		return KeepAlive{}, fmt.Errorf("%w: magic %#x", ErrNotKeepAlive, m)
	}
	if v := frame[kaOff+4]; v != KeepAliveVersion {
		return KeepAlive{}, fmt.Errorf("keep-alive version %d not supported", v)
	}
	return KeepAlive{
		Direction:   Direction(frame[kaOff+5] & 1),
		FilterGroup: binary.BigEndian.Uint16(frame[kaOff+6:]),
		Seq:         binary.BigEndian.Uint32(frame[kaOff+8:]),
		TxTimestamp: binary.BigEndian.Uint64(frame[kaOff+KeepAliveTxOffset:]),
	}, nil
}
