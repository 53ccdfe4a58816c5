package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiv1 "github.com/dpi-balancer/balancer/api"
	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/testsites"
)

// setF1Cores is `balancer filter-group set F1 --cores n`'s change.
func setF1Cores(n uint32) func(c *config.Config) (string, error) {
	return func(c *config.Config) (string, error) {
		for i := range c.FilterGroups {
			if c.FilterGroups[i].Name == "F1" {
				c.FilterGroups[i].Cores = n
			}
		}
		return "", nil
	}
}

// BenchmarkEditBigSite is the client side of `balancer filter-group set
// F1 --cores 12` at the Tofino-size site (2 x 65,536 slots, 1,000 rules):
// read the running file, change it, write it back keeping its comments.
func BenchmarkEditBigSite(b *testing.B) {
	running := &apiv1.GetConfigResponse{Yaml: testsites.TofinoYAML(31, 16), Revision: &apiv1.Revision{Number: 1}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := editYAML(running, setF1Cores(12)); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEditBigSiteKeepsTheFile: at the big site, the edit rewrites the
// one line that changes; the comments and the 1,000 rules stay as written.
func TestEditBigSiteKeepsTheFile(t *testing.T) {
	site := "# the Tofino site\n" + testsites.TofinoYAML(31, 16)
	running := &apiv1.GetConfigResponse{Yaml: site, Revision: &apiv1.Revision{Number: 1}}
	out, _, err := editYAML(running, setF1Cores(12))
	require.NoError(t, err)
	want := strings.Replace(site, "{name: F1, lan: P6, wan: P5, cores: 31}", "{name: F1, lan: P6, wan: P5, cores: 12}", 1)
	require.NotEqual(t, site, want)
	assert.Equal(t, want, string(out))
}
