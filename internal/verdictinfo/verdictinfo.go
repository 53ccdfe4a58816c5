// Package verdictinfo gives tests the P4Info of the P4 source as it is:
// the committed compiler output when it has the data-plane verdict, else
// the committed P4Info with what the current source adds to it, the way
// p4c-bm2-ss writes it (filter_forward's epoch, detect and fail_drop
// parameters, ids 4-6; the verdict_counters counter, @id 7; the
// verdict_digest_t digest). It is a stand-in for a regenerated
// p4src/build/v1model until the compiler is run: once the committed
// P4Info has the verdict, Schema returns it unchanged.
package verdictinfo

import (
	"fmt"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/p4src"
)

// Stand-in says whether Schema had to extend the committed P4Info.
func StandIn() bool {
	s, err := p4src.Load()
	return err != nil || !s.HasVerdict()
}

// Schema returns the P4Info schema of the current P4 source.
func Schema() (*p4src.Schema, error) {
	s, err := p4src.Load()
	if err != nil {
		return nil, err
	}
	if s.HasVerdict() {
		return s, nil
	}
	info := proto.Clone(s.Info).(*p4configv1.P4Info)
	found := false
	for _, a := range info.GetActions() {
		if a.GetPreamble().GetName() != p4src.ActionFilterForward {
			continue
		}
		found = true
		a.Params = append(a.Params,
			&p4configv1.Action_Param{Id: 4, Name: p4src.ParamEpoch, Bitwidth: 8},
			&p4configv1.Action_Param{Id: 5, Name: p4src.ParamDetect, Bitwidth: 32},
			&p4configv1.Action_Param{Id: 6, Name: p4src.ParamFailDrop, Bitwidth: 1})
	}
	if !found {
		return nil, fmt.Errorf("verdictinfo: no %s in the committed P4Info", p4src.ActionFilterForward)
	}
	info.Counters = append(info.Counters, &p4configv1.Counter{
		Preamble: &p4configv1.Preamble{Id: 0x12000007, Name: p4src.CounterVerdict, Alias: "verdict_counters"},
		Spec:     &p4configv1.CounterSpec{Unit: p4configv1.CounterSpec_BOTH},
		Size:     p4src.FilterGroupSize * p4src.VerdictCntKinds,
	})
	info.Digests = append(info.Digests, &p4configv1.Digest{
		Preamble: &p4configv1.Preamble{Id: 0x0f000001, Name: p4src.DigestVerdict, Alias: p4src.DigestVerdict},
		TypeSpec: &p4configv1.P4DataTypeSpec{TypeSpec: &p4configv1.P4DataTypeSpec_Struct{Struct: &p4configv1.P4NamedType{Name: p4src.DigestVerdict}}},
	})
	if info.TypeInfo == nil {
		info.TypeInfo = &p4configv1.P4TypeInfo{}
	}
	if info.TypeInfo.Structs == nil {
		info.TypeInfo.Structs = map[string]*p4configv1.P4StructTypeSpec{}
	}
	var members []*p4configv1.P4StructTypeSpec_Member
	for i, n := range []string{"filter_group", "direction", "epoch", "reason", "age"} {
		members = append(members, &p4configv1.P4StructTypeSpec_Member{Name: n, TypeSpec: &p4configv1.P4DataTypeSpec{
			TypeSpec: &p4configv1.P4DataTypeSpec_Bitstring{Bitstring: &p4configv1.P4BitstringLikeTypeSpec{
				TypeSpec: &p4configv1.P4BitstringLikeTypeSpec_Bit{Bit: &p4configv1.P4BitTypeSpec{Bitwidth: int32(p4src.VerdictDigestWidths[i])}}}}}})
	}
	info.TypeInfo.Structs[p4src.DigestVerdict] = &p4configv1.P4StructTypeSpec{Members: members}
	return p4src.NewSchema(info)
}
