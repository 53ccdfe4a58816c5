package p4src

import (
	"os"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The controller's constants of the evidence copy are the program's: the
// session base, the recirculation port and the copy header's size are
// read from the TNA source.
func TestEvidenceCopyConstantsMatchTheSource(t *testing.T) {
	src, err := os.ReadFile("tna/include/arch.p4")
	require.NoError(t, err)
	define := func(name string) int {
		t.Helper()
		m := regexp.MustCompile(`(?m)^#define\s+` + name + `\s+(\S+)`).FindSubmatch(src)
		require.NotNil(t, m, "tna/include/arch.p4 defines %s", name)
		v, err := strconv.ParseInt(string(m[1]), 0, 64)
		require.NoError(t, err)
		return int(v)
	}
	assert.Equal(t, EvidenceCopySessionBase, define("EV_COPY_SESSION_BASE"))
	assert.Equal(t, EvidenceCopyRecircPort, define("EV_COPY_RECIRC_PORT"))
	assert.Equal(t, EvidenceCopyMagic, define("EV_COPY_MAGIC"))
	assert.Equal(t, EvidenceProofMagic, define("EV_PROOF_MAGIC"))
	// The header: magic, a padding bit and e (7 bits), the epoch.
	assert.Regexp(t, `header ev_copy_t \{\s*bit<8> magic;[^}]*bit<1> _pad0;\s*bit<7> ev_index;[^}]*bit<8> epoch;[^}]*\}`, string(src))
	assert.Equal(t, 3, EvidenceCopyHeaderLen)
	verdict, err := os.ReadFile("tna/include/control/verdict.p4")
	require.NoError(t, err)
	assert.Contains(t, string(verdict), `@name(".`+RegisterEvidenceCopy+`")`)
	assert.Contains(t, string(verdict), "EV_COPY_SESSION_BASE + 3", "a session per pipe, up to TofinoMaxPipes")
	assert.Equal(t, 4, TofinoMaxPipes)
}

// Only the TNA verdict build copies evidence across pipes.
func TestHasEvidenceCopy(t *testing.T) {
	text, err := os.ReadFile("build/tofino-verdict/balancer.p4info.txtpb")
	require.NoError(t, err)
	verdict, err := ParseSchema(text)
	require.NoError(t, err)
	assert.True(t, verdict.HasEvidenceCopy(), "the TNA verdict build")
	base, err := LoadArch(ArchTNA)
	require.NoError(t, err)
	assert.False(t, base.HasEvidenceCopy(), "the TNA base build")
	v1, err := Load()
	require.NoError(t, err)
	assert.False(t, v1.HasEvidenceCopy(), "the v1model build (one pipe)")
}

func TestEvidenceCopySessions(t *testing.T) {
	assert.Empty(t, EvidenceCopySessions(0), "not a Tofino")
	assert.Empty(t, EvidenceCopySessions(1), "one pipe: returns are where their sends are")
	assert.Empty(t, EvidenceCopySessions(5), "no Tofino has 5 pipes")

	two := EvidenceCopySessions(2)
	require.Len(t, two, 2)
	ports := func(i int) []uint32 {
		var out []uint32
		for _, r := range two[i].GetReplicas() {
			out = append(out, r.GetEgressPort())
		}
		return out
	}
	assert.Equal(t, uint32(960), two[0].GetSessionId())
	assert.Equal(t, []uint32{196}, ports(0), "pipe 0's copies go to pipe 1's recirculation port")
	assert.Equal(t, uint32(961), two[1].GetSessionId())
	assert.Equal(t, []uint32{68}, ports(1), "pipe 1's copies go to pipe 0's")
	assert.Equal(t, int32(EvidenceCopyLength), two[0].GetPacketLengthBytes())

	four := EvidenceCopySessions(4)
	require.Len(t, four, 4)
	var p2 []uint32
	for i, r := range four[2].GetReplicas() {
		p2 = append(p2, r.GetEgressPort())
		assert.Equal(t, uint32(i), r.GetInstance(), "replicas are told apart by instance")
	}
	assert.Equal(t, []uint32{68, 196, 452}, p2)
}
