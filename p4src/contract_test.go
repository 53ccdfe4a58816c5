package p4src

import (
	"os"
	"slices"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
)

func TestCheckContract(t *testing.T) {
	s, err := Load()
	require.NoError(t, err)
	ref := s.Info

	table := func(i *p4configv1.P4Info, name string) *p4configv1.Table {
		for _, t := range i.GetTables() {
			if t.GetPreamble().GetName() == name {
				return t
			}
		}
		t.Fatalf("no table %s", name)
		return nil
	}
	action := func(i *p4configv1.P4Info, name string) *p4configv1.Action {
		for _, a := range i.GetActions() {
			if a.GetPreamble().GetName() == name {
				return a
			}
		}
		t.Fatalf("no action %s", name)
		return nil
	}

	tests := []struct {
		name   string
		change func(*p4configv1.P4Info)
		want   string // "" = accepted
	}{
		{name: "the v1model build itself", change: func(*p4configv1.P4Info) {}},
		{name: "other sizes and another architecture", change: func(i *p4configv1.P4Info) {
			table(i, TableSlots).Size = 131072
			i.GetCounters()[0].Size = 1024
			i.PkgInfo = &p4configv1.PkgInfo{Arch: "tna"}
		}},
		{name: "renamed table", change: func(i *p4configv1.P4Info) {
			table(i, TableFlowRules).Preamble.Name = "pipe.BalancerIngress.flow_rules"
		}, want: `p4info: table "BalancerIngress.flow_rules": missing (the v1model build has it with id 0x2000003): p4info breaks the balancer's naming contract`},
		{name: "table id", change: func(i *p4configv1.P4Info) {
			table(i, TableSlots).Preamble.Id = 0x02000009
		}, want: `p4info: table "BalancerIngress.slots": id 0x2000009, want 0x2000006 (the v1model build's)`},
		{name: "match field width", change: func(i *p4configv1.P4Info) {
			table(i, TableSlots).MatchFields[1].Bitwidth = 17
		}, want: `p4info: table "BalancerIngress.slots": match field 2: slot (id 2, 17 bits, EXACT), want slot (id 2, 16 bits, EXACT)`},
		{name: "match kind", change: func(i *p4configv1.P4Info) {
			table(i, TableFlowRules).MatchFields[1].Match = &p4configv1.MatchField_MatchType_{MatchType: p4configv1.MatchField_RANGE}
		}, want: `match field 2: outer_vid (id 2, 12 bits, RANGE), want outer_vid (id 2, 12 bits, TERNARY)`},
		{name: "extra match field", change: func(i *p4configv1.P4Info) {
			tb := table(i, TableLinks)
			tb.MatchFields = append(tb.MatchFields, &p4configv1.MatchField{Id: 2, Name: "x", Bitwidth: 1})
		}, want: `table "BalancerIngress.links": match field 2: x (id 2, 1 bits, UNSPECIFIED) is not in the v1model build`},
		{name: "action not allowed in entries", change: func(i *p4configv1.P4Info) {
			tb := table(i, TableSlots)
			for _, r := range tb.ActionRefs {
				r.Scope = p4configv1.ActionRef_DEFAULT_ONLY
			}
		}, want: `table "BalancerIngress.slots": actions`},
		{name: "direct counter dropped from a table", change: func(i *p4configv1.P4Info) {
			table(i, TableFlowRules).DirectResourceIds = nil
		}, want: `table "BalancerIngress.flow_rules": direct resources`},
		{name: "direct counter added to a table", change: func(i *p4configv1.P4Info) {
			table(i, TableSlots).DirectResourceIds = []uint32{0x13000003}
		}, want: `table "BalancerIngress.slots": direct resources`},
		{name: "action parameter renamed", change: func(i *p4configv1.P4Info) {
			action(i, ActionToFilter).Params[1].Name = "cpu"
		}, want: `p4info: action "BalancerIngress.to_filter": parameter 2: cpu (id 2, 10 bits), want core (id 2, 10 bits)`},
		{name: "missing action", change: func(i *p4configv1.P4Info) {
			i.Actions = i.Actions[1:]
		}, want: `p4info: action "BalancerIngress.set_operator_port": missing`},
		{name: "extra table", change: func(i *p4configv1.P4Info) {
			i.Tables = append(i.Tables, &p4configv1.Table{Preamble: &p4configv1.Preamble{Id: 0x02000063, Name: "BalancerIngress.extra"}})
		}, want: `p4info: table "BalancerIngress.extra": not in the v1model build (id 0x2000063)`},
		{name: "counter unit", change: func(i *p4configv1.P4Info) {
			for _, c := range i.Counters {
				if c.GetPreamble().GetName() == CounterPortRx {
					c.Spec = &p4configv1.CounterSpec{Unit: p4configv1.CounterSpec_PACKETS}
				}
			}
		}, want: `p4info: counter "BalancerIngress.port_rx": unit PACKETS, want BOTH`},
		{name: "counter id is the build's own (bf-p4c hashes TNA extern names)", change: func(i *p4configv1.P4Info) {
			for _, c := range i.Counters {
				c.Preamble.Id = 0x12abcdef + c.Preamble.Id
			}
			for _, c := range i.DirectCounters {
				old := c.Preamble.Id
				c.Preamble.Id = 0x13abcdef + old
				for _, t := range i.Tables {
					for k, r := range t.DirectResourceIds {
						if r == old {
							t.DirectResourceIds[k] = c.Preamble.Id
						}
					}
				}
			}
		}},
		{name: "direct resource that is not there", change: func(i *p4configv1.P4Info) {
			table(i, TableFlowRules).DirectResourceIds = []uint32{0x13000099}
		}, want: `p4info: table "BalancerIngress.flow_rules": direct resources [0x13000099 (no such direct resource)], want [BalancerIngress.flow_rules_counter]`},
		{name: "value set without field descriptions (bf-p4c)", change: func(i *p4configv1.P4Info) {
			i.ValueSets[0].Match = nil
		}},
		{name: "value set of another width", change: func(i *p4configv1.P4Info) {
			i.ValueSets[0].Match[0].Bitwidth = 32
		}, want: `(id 1, 32 bits, EXACT), want  (id 1, 16 bits, EXACT)`},
		{name: "value set renamed", change: func(i *p4configv1.P4Info) {
			i.ValueSets[0].Preamble.Name = "BalancerIngressParser.core_tpid"
		}, want: `p4info: value set "IngressParser.core_tpid": missing`},
		{name: "controller header field width", change: func(i *p4configv1.P4Info) {
			for _, c := range i.ControllerPacketMetadata {
				if c.GetPreamble().GetName() == HeaderPacketIn {
					c.Metadata[0].Bitwidth = 32
				}
			}
		}, want: `p4info: controller header "packet_in": field 1: ingress_port (id 1, 32 bits), want ingress_port (id 1, 9 bits)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := proto.Clone(ref).(*p4configv1.P4Info)
			tt.change(info)
			err := CheckContract(ref, info)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrContract)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	assert.ErrorIs(t, CheckContract(ref, nil), ErrContract)
}

// The TNA P4Info bf-p4c made of p4src/tna (committed by make p4-tna) keeps
// the contract: every name, id, match field, action and counter of the
// v1model build; sizes may differ (more slots on Tofino).
func TestTNAP4InfoKeepsTheContract(t *testing.T) {
	v1, err := Load()
	require.NoError(t, err)
	text, err := os.ReadFile("build/tofino/balancer.p4info.txtpb")
	require.NoError(t, err, "the TNA P4Info is committed (make p4-tna)")
	tna, err := ParseSchema(text)
	require.NoError(t, err)
	require.NoError(t, CheckContract(v1.Info, tna.Info))
	assert.Equal(t, "tna", tna.Info.GetPkgInfo().GetArch())
	slots, err := tna.Table(TableSlots)
	require.NoError(t, err)
	assert.EqualValues(t, 131072, slots.GetSize(), "2^17 slots on Tofino")
}

// The verdict profile's TNA P4Info (make p4-tna, build/tofino-verdict)
// keeps the contract with the verdict: the liveness parameters, the
// verdict digest and counter, and the registers (by name: the TNA
// evidence lays them out for its stateful ALUs, docs/tofino.md).
func TestTNAVerdictP4InfoKeepsTheContract(t *testing.T) {
	v1, err := Load()
	require.NoError(t, err)
	text, err := os.ReadFile("build/tofino-verdict/balancer.p4info.txtpb")
	require.NoError(t, err, "the TNA verdict profile's P4Info is committed (make p4-tna)")
	tna, err := ParseSchema(text)
	require.NoError(t, err)
	require.True(t, HasVerdict(tna.Info), "the verdict profile has the verdict")
	require.NoError(t, CheckContract(v1.Info, tna.Info))
}

// A build made before the data-plane verdict keeps the contract (the
// controller runs it without the verdict); one that has only part of the
// verdict's objects does not.
func TestContractBuildWithoutVerdict(t *testing.T) {
	ref, err := Load()
	require.NoError(t, err)
	require.True(t, HasVerdict(ref.Info), "the committed v1model build has the verdict")
	old := WithoutVerdict(ref.Info)
	require.False(t, HasVerdict(old))
	require.NoError(t, CheckContract(ref.Info, old))

	partial := proto.Clone(ref.Info).(*p4configv1.P4Info)
	partial.Registers = nil // the liveness parameters without the evidence
	require.ErrorIs(t, CheckContract(ref.Info, partial), ErrContract)
}

// Only the listed architecture-only register (the evidence copy's rate
// limit) may be in a build and not in the v1model build; any other is a
// break of the contract.
func TestContractArchOnlyRegisters(t *testing.T) {
	ref, err := Load()
	require.NoError(t, err)
	with := func(name string) *p4configv1.P4Info {
		i := proto.Clone(ref.Info).(*p4configv1.P4Info)
		i.Registers = append(i.Registers, &p4configv1.Register{Preamble: &p4configv1.Preamble{Id: 0x16000099, Name: name}})
		return i
	}
	require.NoError(t, CheckContract(ref.Info, with(RegisterEvidenceCopy)))
	require.ErrorIs(t, CheckContract(ref.Info, with("BalancerIngress.something_else")), ErrContract)
}

// The builds with the session memory keep the contract of the v1model
// "sessions" profile, which keeps the v1model build's with the session
// table, its actions and its digest added; the builds without it lack
// the table.
func TestSessionsBuildsKeepTheContract(t *testing.T) {
	sess, err := LoadSessions()
	require.NoError(t, err)
	require.True(t, sess.HasSessions())
	require.True(t, HasVerdict(sess.Info), "the sessions profile keeps the verdict")
	text, err := os.ReadFile("build/tofino-sessions/balancer.p4info.txtpb")
	require.NoError(t, err, "the TNA sessions profile's P4Info is committed (make p4-tna)")
	tna, err := ParseSchema(text)
	require.NoError(t, err)
	require.True(t, tna.HasSessions())
	require.NoError(t, CheckContract(sess.Info, tna.Info))

	v1, err := Load()
	require.NoError(t, err)
	require.False(t, v1.HasSessions(), "the default v1model build has no session table")
	err = CheckContract(v1.Info, sess.Info)
	require.ErrorIs(t, err, ErrContract, "a session table is not in the default build's contract")
	require.ErrorContains(t, err, "sessions")

	// The sessions profile is the default build plus the session objects:
	// with them taken out the two P4Infos keep the same contract.
	without := proto.Clone(sess.Info).(*p4configv1.P4Info)
	without.Tables = slices.DeleteFunc(without.Tables, func(tb *p4configv1.Table) bool {
		return tb.GetPreamble().GetName() == TableSessions
	})
	without.Actions = slices.DeleteFunc(without.Actions, func(a *p4configv1.Action) bool {
		n := a.GetPreamble().GetName()
		return n == "BalancerIngress.keep" || n == "BalancerIngress.session_miss"
	})
	without.Digests = slices.DeleteFunc(without.Digests, func(d *p4configv1.Digest) bool {
		return d.GetPreamble().GetName() == "session_digest_t"
	})
	require.NoError(t, CheckContract(v1.Info, without))
	require.NoError(t, CheckContract(without, v1.Info))
}
