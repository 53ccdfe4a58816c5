package daemon

import "github.com/dpi-balancer/balancer/config"

// Port oper states as Status reports them.
const (
	PortUp      = "up"
	PortDown    = "down"
	PortUnknown = "unknown" // the switch does not report the port, or is not connected
)

// PortState gives the oper state of the named port from the switch's port
// reports (data-plane port -> up): unknown when the switch is not
// connected, the name does not resolve, or the switch reported nothing for
// the port. It is pure.
func PortState(cfg *config.Config, reports map[uint32]bool, connected bool, name string) string {
	if !connected || cfg == nil {
		return PortUnknown
	}
	n, err := cfg.PortNumber(name)
	if err != nil {
		return PortUnknown
	}
	up, ok := reports[n]
	switch {
	case !ok:
		return PortUnknown
	case up:
		return PortUp
	}
	return PortDown
}
