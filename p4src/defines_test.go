package p4src_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/p4src/wire"
)

var (
	p4Define = regexp.MustCompile(`(?m)^\s*#define\s+([A-Z0-9_]+)\s+(0x[0-9A-Fa-f]+|[0-9]+)\b`)
	p4NameID = regexp.MustCompile(`@name\("\.?([^"]+)"\)\s*@id\((ID_[A-Z0-9_]+)\)`)
	p4Const  = regexp.MustCompile(`(?m)^\s*const\s+[A-Za-z0-9_<>]+\s+([A-Z0-9_]+)\s*=\s*(0x[0-9A-Fa-f]+|[0-9]+)\s*;`)
)

// p4Numbers reads the numeric #defines and consts of P4 files: every
// value a name is given (a #define under #ifdef may have two).
func p4Numbers(t *testing.T, files ...string) map[string][]int64 {
	t.Helper()
	out := map[string][]int64{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, re := range []*regexp.Regexp{p4Define, p4Const} {
			for _, m := range re.FindAllStringSubmatch(string(data), -1) {
				v, err := strconv.ParseInt(m[2], 0, 64)
				require.NoError(t, err, "%s: %s", f, m[0])
				out[m[1]] = append(out[m[1]], v)
			}
		}
	}
	return out
}

// The Go constants of the P4 program's contract equal the numbers the P4
// sources define: counter kinds, drop reasons, sizes, the packet-in/out
// values, the default TPID and EtherType, the CPU ports and the fixed ids.
func TestGoConstantsMatchP4Sources(t *testing.T) {
	shared, err := filepath.Glob("shared/*.p4")
	require.NoError(t, err)
	require.NotEmpty(t, shared)
	p4 := p4Numbers(t, shared...)
	one := func(name string) int64 {
		t.Helper()
		v := p4[name]
		require.Len(t, v, 1, "%s: defined once in p4src/shared", name)
		return v[0]
	}
	for name, want := range map[string]int64{
		"LINK_CNT_TO_FILTER": p4src.LinkCntToFilter, "LINK_CNT_RULE_BYPASS": p4src.LinkCntRuleBypass,
		"LINK_CNT_NONIP_BYPASS": p4src.LinkCntNonIPBypass, "LINK_CNT_SW_BYPASS": p4src.LinkCntSWBypass,
		"LINK_CNT_RETURNED": p4src.LinkCntReturned, "LINK_CNT_HEARTBEAT": p4src.LinkCntHeartbeat,
		"LINK_CNT_GROUP_BYPASS": p4src.LinkCntGroupBypass, "LINK_CNT_DROPPED": p4src.LinkCntDropped,

		"FG_CNT_TO_FILTER": p4src.FGCntToFilter, "FG_CNT_RETURNED": p4src.FGCntReturned,
		"FG_CNT_KEEPALIVE": p4src.FGCntKeepAlive, "FG_CNT_SW_BYPASS": p4src.FGCntSWBypass,

		"DROP_NONE": p4src.DropNone, "DROP_UNKNOWN_PORT": p4src.DropUnknownPort, "DROP_UNKNOWN_LINK_ID": p4src.DropUnknownLinkID,
		"DROP_NO_CORE_HEADER": p4src.DropNoCoreHeader, "DROP_FILTER_GROUP": p4src.DropFilterGroup,
		"DROP_BALANCE_GROUP": p4src.DropBalanceGroup, "DROP_MALFORMED": p4src.DropMalformed,

		"PORT_ROLE_TABLE_SIZE": p4src.PortRoleSize, "HEARTBEAT_TABLE_SIZE": p4src.HeartbeatSize,
		"FLOW_RULES_TABLE_SIZE": p4src.FlowRulesSize, "FLOW_RULES_V6_TABLE_SIZE": p4src.FlowRulesV6Size,
		"LINK_TABLE_SIZE": p4src.LinkTableSize, "FILTER_GROUP_TABLE_SIZE": p4src.FilterGroupSize,
		"BALANCE_GROUP_TABLE_SIZE": p4src.BalanceGroupSize, "CORES_PER_FILTER_GROUP": p4src.CoreCounterCores,
		"LINK_COUNTER_SIZE":         p4src.LinkTableSize * p4src.LinkCntKinds,
		"FILTER_GROUP_COUNTER_SIZE": p4src.FilterGroupSize * p4src.FGCntKinds,

		"PACKET_IN_REASON_KEEPALIVE": wire.PacketInReasonKeepAlive, "PACKET_OUT_FLAG_KEEPALIVE": wire.PacketOutFlagKeepAlive,
		"DEFAULT_CORE_TPID": wire.DefaultCoreTPID, "DEFAULT_KEEPALIVE_ETHERTYPE": wire.DefaultKeepAliveEtherType,
	} {
		assert.Equal(t, want, one(name), name)
	}
	// Every kind and reason the P4 has, Go has (and names).
	count := func(prefix string) (n int64) {
		for name := range p4 {
			if strings.HasPrefix(name, prefix) && !strings.HasSuffix(name, "_SIZE") {
				n++
			}
		}
		return n
	}
	assert.Equal(t, int64(p4src.LinkCntKinds), count("LINK_CNT_"))
	assert.Equal(t, int64(p4src.FGCntKinds), count("FG_CNT_"))
	assert.Equal(t, int64(p4src.DropReasons), count("DROP_"), "drop reasons (DROP_NONE too)")
	for r := int64(0); r < p4src.DropReasons; r++ {
		assert.NotEmpty(t, p4src.DropReasonName(r), "drop reason %d has a name", r)
	}
	assert.Empty(t, p4src.DropReasonName(p4src.DropReasons))
	assert.LessOrEqual(t, int64(p4src.DropReasons), one("DROP_COUNTER_SIZE"), "drop_counters holds every reason")
	// SLOTS_TABLE_SIZE: the Tofino build's, then the others'.
	assert.Equal(t, []int64{p4src.SlotsSizeTofino, p4src.SlotsSizeBMv2}, p4["SLOTS_TABLE_SIZE"])

	// The CPU port of each architecture.
	for file, want := range map[string]int64{"v1model/include/arch.p4": p4src.CPUPortBMv2, "tna/include/arch.p4": p4src.CPUPortTofino} {
		assert.Equal(t, []int64{want}, p4Numbers(t, file)["CPU_PORT"], file)
	}

	// The fixed ids (shared/ids.p4) are those of the committed P4Info,
	// with p4c's object-type prefix: each object that takes one by
	// @name(...) @id(ID_X), or whose alias is x, has id ID_X. The
	// sessions profile's P4Info holds every object of the default build
	// and the session table's (TestSessionsBuildsKeepTheContract).
	s, err := p4src.LoadSessions()
	require.NoError(t, err)
	byName := map[string]uint32{}
	add := func(kind string, pre *p4configv1.Preamble) {
		byName[pre.GetName()] = pre.GetId()
		byName["ID_"+kind+"_"+strings.ToUpper(pre.GetAlias())] = pre.GetId()
	}
	objects := 0
	for _, x := range s.Info.GetTables() {
		add("TABLE", x.GetPreamble())
	}
	for _, x := range s.Info.GetActions() {
		add("ACTION", x.GetPreamble())
	}
	for _, x := range s.Info.GetCounters() {
		add("COUNTER", x.GetPreamble())
	}
	for _, x := range s.Info.GetDirectCounters() {
		add("DIRECT_COUNTER", x.GetPreamble())
	}
	for _, x := range s.Info.GetValueSets() {
		add("VALUE_SET", x.GetPreamble())
	}
	for _, x := range s.Info.GetRegisters() {
		add("REGISTER", x.GetPreamble())
	}
	objects = len(s.Info.GetTables()) + len(s.Info.GetActions()) + len(s.Info.GetCounters()) + len(s.Info.GetDirectCounters()) + len(s.Info.GetValueSets()) + len(s.Info.GetRegisters())
	named := map[string]string{} // ID_X -> the object's name
	sources, err := filepath.Glob("shared/control/*.p4")
	require.NoError(t, err)
	v1controls, err := filepath.Glob("v1model/include/control/*.p4") // the registers' declarations
	require.NoError(t, err)
	sources = append(sources, v1controls...)
	for _, f := range append(sources, shared...) {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range p4NameID.FindAllStringSubmatch(string(data), -1) {
			named[m[2]] = m[1]
		}
	}
	ids := 0
	for name, v := range p4 {
		if !strings.HasPrefix(name, "ID_") {
			continue
		}
		ids++
		id, ok := byName[named[name]]
		if !ok {
			id, ok = byName[name]
		}
		if assert.True(t, ok, "%s: no object in the P4Info takes it", name) {
			assert.Equal(t, v[0], int64(id&0xffffff), name)
		}
	}
	assert.Equal(t, objects, ids, "every object of the P4Info has a fixed id")
}
