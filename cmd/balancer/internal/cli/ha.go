package cli

import (
	"fmt"
	"io"
	"strings"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

// writeHA prints the shared store and the leader election (nothing with
// the state directory).
func writeHA(w io.Writer, h *apiv1.HAStatus) {
	if h == nil {
		return
	}
	role := "standby (not writing)"
	if h.GetLeader() {
		role = "leader"
	}
	fmt.Fprintf(w, "store %s: ", h.GetStore())
	if !h.GetStoreHealthy() {
		fmt.Fprintf(w, "UNREACHABLE: %s\n", h.GetStoreError())
		fmt.Fprintf(w, "  this daemon (%s): %s\n", h.GetName(), role)
		return
	}
	fmt.Fprintln(w, "healthy")
	leader := h.GetLeaderName()
	if leader == "" {
		leader = "NONE"
	}
	standbys := "none"
	if len(h.GetStandbys()) > 0 {
		standbys = strings.Join(h.GetStandbys(), ", ")
	}
	fmt.Fprintf(w, "  this daemon (%s): %s; leader %s; standbys %s\n", h.GetName(), role, leader, standbys)
}
