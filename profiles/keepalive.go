package profiles

import "github.com/dpi-balancer/balancer/p4src/wire"

// The keep-alive frame is part of the wire contract (package wire); these
// names are the engine's view of it.
type (
	// Direction of a keep-alive through a filter.
	Direction = wire.Direction
	// KeepAlive is the decoded payload of a keep-alive frame.
	KeepAlive = wire.KeepAlive
)

const (
	LANToWAN = wire.LANToWAN
	WANToLAN = wire.WANToLAN
	// FrameLen is the length of a keep-alive frame without FCS.
	FrameLen = wire.KeepAliveFrameLen
)

// ErrNotKeepAlive is returned by DecodeKeepAlive for other frames.
var ErrNotKeepAlive = wire.ErrNotKeepAlive

// EncodeKeepAlive builds a keep-alive frame (tx timestamp zero: the data
// plane writes it).
func EncodeKeepAlive(dst, src [6]byte, etherType uint16, k KeepAlive) []byte {
	return wire.EncodeKeepAlive(dst, src, etherType, k)
}

// DecodeKeepAlive parses a keep-alive frame with the given EtherType.
func DecodeKeepAlive(frame []byte, etherType uint16) (KeepAlive, error) {
	return wire.DecodeKeepAlive(frame, etherType)
}
