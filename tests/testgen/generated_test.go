package testgen

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	p4configv1 "github.com/p4lang/p4runtime/go/p4/config/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/dpi-balancer/balancer/bmv2"
	"github.com/dpi-balancer/balancer/p4src"
	"github.com/dpi-balancer/balancer/sim/dataplane"
)

// generatedSets are the committed P4Testgen cases (make p4-testgen):
// testdata/<dir>/*.stf, generated from the program built for arch.
var generatedSets = []struct {
	dir, arch string
	// cpuPort is the CPU port of the switch the program was built for
	// (P4Testgen's build takes the compiled-in one: its packet-ins go
	// there, its packet-outs come from it).
	cpuPort uint32
	// profile is the build's profile (the Makefile's TNA_PROFILES):
	// "base" has no data-plane verdict, "verdict" has it, "sessions"
	// has it and the session table. The v1model set is of its default
	// build (the verdict).
	profile string
}{
	{"v1model", p4src.ArchV1Model, p4src.CPUPortBMv2, "verdict"},
	{"tofino", p4src.ArchTNA, p4src.CPUPortTofino, "base"},
	{"tofino-verdict", p4src.ArchTNA, p4src.CPUPortTofino, "verdict"},
	{"tofino-sessions", p4src.ArchTNA, p4src.CPUPortTofino, "sessions"},
}

// loadGenerated reads every case of a set, in file order: the STF cases
// (one file each) and the PTF runs' (one file per run, the verdict
// profiles' runs that choose register values).
func loadGenerated(t *testing.T, dir string) []*Case {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.stf"))
	require.NoError(t, err)
	ptf, err := filepath.Glob(filepath.Join("testdata", dir, "*.py"))
	require.NoError(t, err)
	require.NotEmpty(t, append(files, ptf...), "no generated cases in testdata/%s: run make p4-testgen", dir)
	sort.Strings(files)
	sort.Strings(ptf)
	var out []*Case
	for _, f := range files {
		fh, err := os.Open(f)
		require.NoError(t, err)
		c, err := ParseSTF(filepath.Base(f), fh)
		fh.Close()
		require.NoError(t, err)
		out = append(out, c)
	}
	for _, f := range ptf {
		out = append(out, loadPTF(t, f)...)
	}
	return out
}

func loadPTF(t *testing.T, path string) []*Case {
	t.Helper()
	fh, err := os.Open(path)
	require.NoError(t, err)
	defer fh.Close()
	cs, err := ParsePTF(filepath.Base(path), fh)
	require.NoError(t, err)
	return cs
}

// Every generated case replayed on the software switch agrees with what
// P4Testgen computed from the program: the same port (or a drop) and the
// same bytes where P4Testgen cares.
func TestGeneratedCases(t *testing.T) {
	for _, set := range generatedSets {
		t.Run(set.dir, func(t *testing.T) {
			schema := modelSchema(t, set.arch, set.profile)
			cases := loadGenerated(t, set.dir)
			agree := 0
			for _, c := range cases {
				// P4Testgen's models start every case with the clock at 0
				// (BMv2's ingress_global_timestamp reads 0 in its cases, so
				// a packet-in's rx_timestamp is expected 0; the Tofino
				// model's timestamps are symbolic and masked): the
				// software switch replays with the clock they assumed.
				d, err := dataplane.New(schema, dataplane.WithCPUPort(set.cpuPort), dataplane.WithClock(func() uint64 { return 0 }))
				require.NoError(t, err)
				if err := Replay(d, c); err != nil {
					t.Errorf("%s (coverage %s): %v", c.Name, c.Coverage, firstLine(err.Error()))
					continue
				}
				agree++
			}
			cover := 0.0
			for _, c := range cases {
				if f, err := strconv.ParseFloat(c.Coverage, 64); err == nil && f > cover {
					cover = f
				}
			}
			t.Logf("%s: %d of %d generated cases agree on the software switch; P4Testgen's statement coverage %.0f %%",
				set.dir, agree, len(cases), 100*cover)
			assert.Equal(t, len(cases), agree)
		})
	}
}

// modelSchema is the schema the software switch runs a set's cases on:
// the v1model P4Info, marked as a TNA build for the Tofino cases (its
// compiled-in CPU port is then Tofino's, 192). The names are the same in
// both builds by contract; the committed bf-p4c P4Info is not used, as it
// describes parser value sets in bf-p4c's own form (no match fields).
func modelSchema(t *testing.T, arch, profile string) *p4src.Schema {
	t.Helper()
	load := p4src.Load
	if profile == "sessions" {
		load = p4src.LoadSessions
	}
	v1, err := load()
	require.NoError(t, err)
	if arch == p4src.ArchV1Model {
		return v1
	}
	info := proto.Clone(v1.Info).(*p4configv1.P4Info)
	// A Tofino set is generated from a Tofino profile: the base profile's
	// program has no data-plane verdict.
	tna, err := p4src.LoadArch(p4src.ArchTNA)
	require.NoError(t, err)
	if profile == "base" {
		require.False(t, p4src.HasVerdict(tna.Info), "the embedded TNA build is the base profile")
		info = p4src.WithoutVerdict(info)
	}
	info.PkgInfo.Arch = arch
	// The switch_info table's initial default action names the compiled-in
	// CPU port, which is the architecture's (the TNA build's P4Info says
	// 192 where the v1model build's says 255): taken from the TNA P4Info.
	for _, t := range info.GetTables() {
		if t.GetPreamble().GetName() != p4src.TableSwitchInfo {
			continue
		}
		for _, tt := range tna.Info.GetTables() {
			if tt.GetPreamble().GetName() == p4src.TableSwitchInfo {
				t.InitialDefaultAction = proto.Clone(tt.GetInitialDefaultAction()).(*p4configv1.TableActionCall)
			}
		}
	}
	s, err := p4src.NewSchema(info)
	require.NoError(t, err)
	require.Equal(t, uint32(p4src.CPUPortTofino), s.CompiledCPUPort())
	return s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// The v1model cases on BMv2, the target P4Testgen modelled them for.
func TestGeneratedCasesOnBMv2(t *testing.T) {
	if testing.Short() {
		t.Skip("starts BMv2")
	}
	cases := loadGenerated(t, "v1model")
	tg := startBMv2Target(t, cases)
	agree, short, stamped := 0, 0, 0
	for _, c := range cases {
		if c.InPort != bmv2.CPUPort && len(c.Packet) < 14 {
			// A veth refuses a frame shorter than an Ethernet header
			// (EINVAL): such cases (the parser's too-short paths) run on
			// the software switch only.
			short++
			continue
		}
		if c.Expect != nil && c.Expect.Port == bmv2.CPUPort {
			c = withTimestampMasked(c)
			stamped++
		}
		if err := tg.replay(c); err != nil {
			t.Errorf("%s: %v", c.Name, firstLine(err.Error()))
			continue
		}
		agree++
	}
	t.Logf("v1model: %d of %d generated cases agree on BMv2 (%d shorter than an Ethernet header not sent; %d packet-ins compared but for BMv2's own rx_timestamp)", agree, len(cases), short, stamped)
	assert.Equal(t, len(cases)-short, agree)
}

// withTimestampMasked returns a copy of a case expecting a packet-in whose
// rx_timestamp (bytes 3-8 of the packet-in header) is not compared: BMv2
// stamps it with its own clock, which cannot be set to the 0 P4Testgen
// assumed. The software switch's replay checks those bytes at clock 0
// (TestGeneratedCases); every other byte is compared here as generated.
func withTimestampMasked(c *Case) *Case {
	cc := *c
	x := *c.Expect
	x.Mask = append([]byte(nil), c.Expect.Mask...)
	for i := 3; i < 9 && i < len(x.Mask); i++ {
		x.Mask[i] = 0
	}
	cc.Expect = &x
	return &cc
}
