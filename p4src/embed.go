// Package p4src holds the balancer's P4 sources (shared/, v1model/, tna/)
// and, for Go, the compiled v1model artifacts made by p4c (build/v1model):
// the P4Info and the BMv2 JSON, embedded so that nothing else needs p4c.
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
