// Package interop drives the software switch (`balancer sim`, run as a
// subprocess) with unmodified third-party P4Runtime clients, as an operator's
// tools would.
//
// It is a module of its own because github.com/antoninbas/p4runtime-go-client
// compiles only against github.com/p4lang/p4runtime v1.4.0-rc.5 (from v1.4.0
// on, Replica.EgressPort is a oneof member), while the balancer module uses
// v1.4.1. The switch binary is built from the main module (../..) with its
// own go.mod, so the two never share a build list. Set BALANCER_BIN to use
// an already built binary.
package interop
