package sim

import (
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// docs/gnmi.md's interface table is what the software switch serves, under
// the interface names the document gives as examples.
func TestGNMIDocsMatchSwitch(t *testing.T) {
	raw, err := os.ReadFile("../docs/gnmi.md")
	require.NoError(t, err)
	doc := string(raw)
	i := strings.Index(doc, "## Interface paths (switch)")
	require.GreaterOrEqual(t, i, 0)
	section := doc[i:]
	section = section[:strings.Index(section, "\n## ")]

	names := regexp.MustCompile("example names: ((?:`[^`]+`(?:, )?)+)").FindStringSubmatch(section)
	require.NotNil(t, names, "the section gives example interface names")
	var ifNames []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(names[1], -1) {
		ifNames = append(ifNames, m[1])
	}
	require.NotEmpty(t, ifNames)
	var leaves [][]string
	for _, m := range regexp.MustCompile("(?m)^\\| `((?:state|config)/[a-z/-]+)`").FindAllStringSubmatch(section, -1) {
		leaves = append(leaves, strings.Split(m[1], "/"))
	}
	require.Len(t, leaves, 10)

	// Ports 10 and 41 of the sim platform numbering.
	_, addr, _ := startMemSwitch(t, []uint32{10, 41})
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	c := gpb.NewGNMIClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, name := range ifNames {
		for _, leaf := range leaves {
			p := &gpb.Path{Elem: []*gpb.PathElem{{Name: "interfaces"}, {Name: "interface", Key: map[string]string{"name": name}}}}
			for _, e := range leaf {
				p.Elem = append(p.Elem, &gpb.PathElem{Name: e})
			}
			var resp *gpb.GetResponse
			require.Eventually(t, func() bool {
				resp, err = c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{p}, Encoding: gpb.Encoding_PROTO})
				return err == nil
			}, 10*time.Second, 10*time.Millisecond, "interface %s leaf %s: %v", name, strings.Join(leaf, "/"), err)
			assert.Len(t, resp.GetNotification(), 1, "%s %v", name, leaf)
		}
	}
	caps, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
	require.NoError(t, err)
	require.Len(t, caps.GetSupportedModels(), 1)
	assert.Equal(t, "openconfig-interfaces", caps.GetSupportedModels()[0].GetName(), "the switch serves the interfaces model")
}
