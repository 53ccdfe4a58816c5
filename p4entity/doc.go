// Package p4entity is the identity and the equality of P4Runtime
// entities, as a controller and a switch see them: Key (which switch
// state an entity addresses) and SameEntry (whether two entities put the
// same state there), in canonical bytes. It knows P4Runtime and nothing
// of the balancer: the switch session (controlplane) and the compiler
// (tables) share it.
package p4entity

import "github.com/dpi-balancer/balancer/p4src/wire"

// trim drops leading zero bytes, keeping at least one (the canonical form
// of a big-endian byte string, wire.CanonicalBytes).
func trim(b []byte) []byte { return wire.CanonicalBytes(b) }
