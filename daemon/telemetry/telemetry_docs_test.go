package telemetry

import (
	"context"
	"net"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gpb "github.com/openconfig/gnmi/proto/gnmi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/protobuf/testing/protocmp"
)

// expandBraces expands every {a,b} group of s.
func expandBraces(s string) []string {
	i := strings.Index(s, "{")
	if i < 0 {
		return []string{s}
	}
	j := strings.Index(s[i:], "}") + i
	var out []string
	for _, alt := range strings.Split(s[i+1:j], ",") {
		out = append(out, expandBraces(s[:i]+alt+s[j+1:])...)
	}
	return out
}

var keyRE = regexp.MustCompile(`\[([a-z-]+)=[^\]]*\]`)

// wildKeys replaces every key value of a path string with *.
func wildKeys(p string) string { return keyRE.ReplaceAllString(p, "[$1=*]") }

// parseDocPath parses /a/b[k=v]/c (key values without '/').
func parseDocPath(t *testing.T, s string) *gpb.Path {
	t.Helper()
	p := &gpb.Path{}
	for _, part := range strings.Split(strings.TrimPrefix(s, "/"), "/") {
		name, rest, _ := strings.Cut(part, "[")
		e := &gpb.PathElem{Name: name}
		for _, m := range keyRE.FindAllStringSubmatch("["+rest, -1) {
			if e.Key == nil {
				e.Key = map[string]string{}
			}
			k, v, _ := strings.Cut(strings.Trim(m[0], "[]"), "=")
			e.Key[k] = v
		}
		p.Elem = append(p.Elem, e)
	}
	return p
}

// leafString is a published leaf's path with keys as *, sorted.
func leafString(n *gpb.Notification) string {
	return canonPath(n.GetPrefix(), n.GetUpdate()[0].GetPath())
}

func canonPath(ps ...*gpb.Path) string {
	var b strings.Builder
	for _, p := range ps {
		for _, e := range p.GetElem() {
			b.WriteString("/" + e.GetName())
			keys := make([]string, 0, len(e.GetKey()))
			for k := range e.GetKey() {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				b.WriteString("[" + k + "=*]")
			}
		}
	}
	return b.String()
}

// docSection returns the text of a "## title" section of a document.
func docSection(t *testing.T, doc, title string) string {
	t.Helper()
	i := strings.Index(doc, "## "+title)
	require.GreaterOrEqual(t, i, 0, "section %q", title)
	rest := doc[i+3:]
	if j := strings.Index(rest, "\n## "); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// docs/telemetry.md's gNMI tree is what the daemon serves: every documented
// path answers a Get, every published leaf is documented, and Capabilities
// announces the model served.
func TestTelemetryDocsMatchServer(t *testing.T) {
	raw, err := os.ReadFile("../../docs/telemetry.md")
	require.NoError(t, err)
	rowRE := regexp.MustCompile("(?m)^\\| `(/balancer[^`]*)`")
	var documented []string
	for _, m := range rowRE.FindAllStringSubmatch(docSection(t, string(raw), "gNMI tree"), -1) {
		for _, p := range expandBraces(m[1]) {
			documented = append(documented, canonPath(parseDocPath(t, wildKeys(p))))
		}
	}
	require.Greater(t, len(documented), 40)

	srv := NewServer()
	t.Cleanup(func() { srv.Close() })
	require.NoError(t, publishState(srv, fixtureStatus(), time.Unix(1_700_000_000, 0)))
	require.NoError(t, publishCounters(srv, fixtureCounters()))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	g := grpc.NewServer()
	srv.Register(g)
	go g.Serve(lis)
	t.Cleanup(g.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	c := gpb.NewGNMIClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	caps, err := c.Capabilities(ctx, &gpb.CapabilityRequest{})
	require.NoError(t, err)
	assert.Empty(t, cmp.Diff([]*gpb.ModelData{Model()}, caps.GetSupportedModels(), protocmp.Transform()),
		"Capabilities announces exactly the model served")

	for _, p := range documented {
		resp, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{parseDocPath(t, p)}, Encoding: gpb.Encoding_PROTO})
		if assert.NoError(t, err, "documented path %s", p) {
			assert.NotEmpty(t, resp.GetNotification(), p)
		}
	}
	all, err := c.Get(ctx, &gpb.GetRequest{Path: []*gpb.Path{{Elem: []*gpb.PathElem{{Name: "balancer"}}}}, Encoding: gpb.Encoding_PROTO})
	require.NoError(t, err)
	for _, n := range all.GetNotification() {
		assert.True(t, slices.Contains(documented, leafString(n)), "published leaf %s is not in docs/telemetry.md", leafString(n))
	}
}

// docs/telemetry.md's Prometheus table names exactly the exported metrics.
func TestTelemetryDocsMetrics(t *testing.T) {
	raw, err := os.ReadFile("../../docs/telemetry.md")
	require.NoError(t, err)
	tokRE := regexp.MustCompile("`(balancer_[a-z0-9_{},]+)`")
	documented := map[string]bool{}
	for _, m := range tokRE.FindAllStringSubmatch(docSection(t, string(raw), "Prometheus metrics"), -1) {
		for _, n := range expandBraces(m[1]) {
			documented[n] = true
		}
	}
	reg, _ := fixtureRegistry(t, fixtureStatus())
	mfs, err := reg.Gather()
	require.NoError(t, err)
	exported := map[string]bool{}
	for _, mf := range mfs {
		if strings.HasPrefix(mf.GetName(), "balancer_") {
			exported[mf.GetName()] = true
		}
	}
	for n := range documented {
		assert.True(t, exported[n], "documented metric %s is not exported", n)
	}
	for n := range exported {
		assert.True(t, documented[n], "exported metric %s is not in docs/telemetry.md", n)
	}
}
