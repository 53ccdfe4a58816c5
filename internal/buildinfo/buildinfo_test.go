package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFromBuildInfo(t *testing.T) {
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		ok   bool
		want Info
		line string
	}{
		{name: "no build info", ok: false,
			want: Info{Version: "(devel)", Go: runtime.Version(), Platform: platform},
			line: "(devel), no source revision recorded (make build stamps it), " + runtime.Version() + " " + platform},
		{name: "work tree without a vcs stamp", ok: true, bi: &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			want: Info{Version: "(devel)", Go: runtime.Version(), Platform: platform},
			line: "(devel), no source revision recorded (make build stamps it), " + runtime.Version() + " " + platform},
		{name: "tagged and stamped", ok: true, bi: &debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"},
				{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "false"}, {Key: "GOARCH", Value: "x"}}},
			want: Info{Version: "v1.2.0", Revision: "0123456789abcdef0123", Time: "2026-01-02T03:04:05Z", Go: runtime.Version(), Platform: platform},
			line: "v1.2.0, revision 0123456789ab, 2026-01-02T03:04:05Z, " + runtime.Version() + " " + platform},
		{name: "modified tree", ok: true, bi: &debug.BuildInfo{Main: debug.Module{Version: ""},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "true"}}},
			want: Info{Version: "(devel)", Revision: "abc", Modified: true, Go: runtime.Version(), Platform: platform},
			line: "(devel), revision abc (modified), " + runtime.Version() + " " + platform},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := fromBuildInfo(tc.bi, tc.ok)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.line, got.String())
		})
	}
}

// TestLinkStamp: what the Makefile passes by -ldflags -X wins over the
// toolchain's stamp; nothing passed leaves it as it was.
func TestLinkStamp(t *testing.T) {
	base := Info{Version: "(devel)", Revision: "aaaa", Time: "2020-01-01T00:00:00Z", Go: "go1", Platform: "linux/amd64"}
	assert.Equal(t, base, withLinkStamp(base, "", "", "", ""))
	got := withLinkStamp(base, "v1.2.0-3-g0123456-dirty", "0123456789abcdef", "2026-01-02T03:04:05Z", "true")
	assert.Equal(t, Info{Version: "v1.2.0-3-g0123456-dirty", Revision: "0123456789abcdef", Time: "2026-01-02T03:04:05Z", Modified: true, Go: "go1", Platform: "linux/amd64"}, got)
	assert.Equal(t, "v1.2.0-3-g0123456-dirty, revision 0123456789ab (modified), 2026-01-02T03:04:05Z, go1 linux/amd64", got.String())
}
