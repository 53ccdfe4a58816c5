// Package p4src holds the balancer's P4 sources (shared/, v1model/, tna/)
// and, for Go, the compiled artifacts: the v1model build's P4Info and BMv2
// JSON made by p4c (build/v1model) and the TNA build's P4Info made by
// bf-p4c (build/tofino), embedded so that nothing else needs a compiler.
// Schema resolves every P4Info name the Go code relies on, once, at load.
package p4src

import (
	_ "embed"
)

// P4InfoText is the P4Info (protobuf text format) of the v1model build.
//
//go:embed build/v1model/balancer.p4info.txtpb
var P4InfoText []byte

// BMv2JSON is the BMv2 configuration of the v1model build.
//
//go:embed build/v1model/balancer.json
var BMv2JSON []byte

// TNAP4InfoText is the P4Info (protobuf text format) of the TNA build, as
// bf-p4c wrote it: the table sizes of the Tofino build, and the ids
// bf-p4c gave its counters and value sets.
//
//go:embed build/tofino/balancer.p4info.txtpb
var TNAP4InfoText []byte

// SessionsP4InfoText is the P4Info of the v1model build's "sessions"
// profile (-DWITH_SESSIONS: the verdict and the session memory's table,
// docs/sessions.md); the reference of the naming contract for the
// builds with the session table.
//
//go:embed build/v1model-sessions/balancer.p4info.txtpb
var SessionsP4InfoText []byte

// SessionsBMv2JSON is the BMv2 configuration of the v1model "sessions"
// profile.
//
//go:embed build/v1model-sessions/balancer.json
var SessionsBMv2JSON []byte
