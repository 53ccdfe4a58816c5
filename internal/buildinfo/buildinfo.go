// Package buildinfo reads what the Go toolchain recorded about this
// binary's build: the main module's version, the source revision and its
// time, whether the tree had uncommitted changes, and the Go release. The
// CLI's 'version', the daemon's status and the build_info metric all say
// it the same way.
package buildinfo

import (
	"runtime"
	"runtime/debug"
)

// Info is one binary's build.
type Info struct {
	// Version is the main module's version; "(devel)" for a build from a
	// work tree that is not at a module version.
	Version string `json:"version"`
	// Revision, Time and Modified are the source stamp: the commit, the
	// build time and uncommitted changes as the Makefile passes them
	// (-ldflags -X), else the Go toolchain's version control stamp (the
	// commit's time then); absent when the build had neither (e.g. go
	// build -buildvcs=false).
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

// Set at link time by the Makefile (and scripts/run-demo.sh):
//
//	-ldflags "-X github.com/dpi-balancer/balancer/internal/buildinfo.version=$(git describe --tags --always --dirty)
//	          -X github.com/dpi-balancer/balancer/internal/buildinfo.revision=$(git rev-parse HEAD)
//	          -X github.com/dpi-balancer/balancer/internal/buildinfo.buildTime=$(date -u +%Y-%m-%dT%H:%M:%SZ)
//	          -X github.com/dpi-balancer/balancer/internal/buildinfo.modified=true|false"
//
// A plain 'go build' leaves them empty and Read falls back to what the Go
// toolchain stamped (the vcs.* build settings).
var version, revision, buildTime, modified string

// Read returns this binary's build.
func Read() Info {
	return withLinkStamp(fromBuildInfo(debug.ReadBuildInfo()), version, revision, buildTime, modified)
}

// withLinkStamp overrides v with what the build passed by -ldflags -X,
// where it passed something.
func withLinkStamp(v Info, ver, rev, t, mod string) Info {
	if ver != "" {
		v.Version = ver
	}
	if rev != "" {
		v.Revision = rev
		v.Modified = mod == "true"
	}
	if t != "" {
		v.Time = t
	}
	return v
}

func fromBuildInfo(bi *debug.BuildInfo, ok bool) Info {
	v := Info{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if !ok || bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// String is the build in one line: "v1.2.0, revision 0123456789ab
// (modified), 2026-01-02T03:04:05Z, go1.26.8 linux/amd64"; a build with
// no revision says so.
func (i Info) String() string {
	line := i.Version
	if i.Revision != "" {
		rev := i.Revision
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += ", revision " + rev
		if i.Modified {
			line += " (modified)"
		}
		if i.Time != "" {
			line += ", " + i.Time
		}
	} else {
		// A go build outside a git checkout (or a git worktree, which the
		// toolchain does not stamp) or with -buildvcs=false.
		line += ", no source revision recorded (make build stamps it)"
	}
	return line + ", " + i.Go + " " + i.Platform
}
