package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// versionInfo is what 'balancer version' prints: the build's own record
// (module version, VCS revision and time, a dirty tree) and the Go release.
type versionInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	Platform string `json:"platform"`
}

func buildVersion() versionInfo {
	v := versionInfo{Version: "(devel)", Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
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

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the balancer's version (the build's module version and source revision)",
		Example: "  balancer version\n  balancer version -o json",
		Args:    exactArgs(),
		RunE: func(*cobra.Command, []string) error {
			v := buildVersion()
			if a.structured() {
				return a.printValue(v)
			}
			line := "balancer " + v.Version
			if v.Revision != "" {
				rev := v.Revision
				if len(rev) > 12 {
					rev = rev[:12]
				}
				line += ", revision " + rev
				if v.Modified {
					line += " (modified)"
				}
				if v.Time != "" {
					line += ", " + v.Time
				}
			}
			fmt.Fprintf(a.stdout, "%s, %s %s\n", line, v.Go, v.Platform)
			return nil
		},
	}
}
