package sim

import (
	"testing"

	"github.com/dpi-balancer/balancer/config"
)

// The sim platform's largest port MTU is the frame the software switch
// carries.
func TestSimMaxMTUIsMaxFrame(t *testing.T) {
	if config.SimMaxMTU != MaxFrame {
		t.Fatalf("config.SimMaxMTU = %d, sim.MaxFrame = %d: keep them equal", config.SimMaxMTU, MaxFrame)
	}
}
