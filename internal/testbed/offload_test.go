package testbed

import (
	"testing"
)

// Veth turns the offloads off without the ethtool command, and checks
// it: a fresh veth has them on (libpcap then sizes its capture ring for
// 64 KiB packets, about 31 frames, and BMv2 loses bursts past that).
func TestVethOffloadsOff(t *testing.T) {
	ns := NewNS(t)
	ns.MustRun(t, "ip", "link", "add", "r0", "type", "veth", "peer", "name", "r1")
	on, err := Offloads(ns.Path, "r0")
	if err != nil {
		t.Fatal(err)
	}
	if len(on) == 0 {
		t.Fatal("a fresh veth reports no offload on: the check would prove nothing")
	}
	t.Logf("a fresh veth: %v on", on)

	ns.Veth(t, "a0", "b0")
	for _, ifc := range []string{"a0", "b0"} {
		on, err := Offloads(ns.Path, ifc)
		if err != nil {
			t.Fatal(err)
		}
		if len(on) > 0 {
			t.Errorf("%s: offloads on after Veth: %v", ifc, on)
		}
	}
}
