package dataplane

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/testsites"
	"github.com/dpi-balancer/balancer/p4src"
)

// siteSchema is the P4Info a controller pushes for cfg's platform, as the
// software switch's program: the v1model build, with the Tofino build's
// slots table for a Tofino site (the P4Info sizes every table the
// compiler fills).
func siteSchema(tb testing.TB, cfg *config.Config) *p4src.Schema {
	tb.Helper()
	if cfg.Platform != config.PlatformWedge100B {
		return loadSchema(tb)
	}
	info, err := testsites.TofinoSizedP4Info()
	require.NoError(tb, err)
	s, err := p4src.NewSchema(info)
	require.NoError(tb, err)
	return s
}
