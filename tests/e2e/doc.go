// Package e2e is the balancer's end-to-end test bed: real frames through
// the whole system in a network namespace the test creates.
//
// Every test builds one namespace with a veth pair per switch port (switch
// end s<port>, host end h<port>), runs the switch on the switch ends (the
// software switch in-process over AF_PACKET, or BMv2's simple_switch_grpc
// when it is installed), runs the daemon in-process against it, and puts
// traffic endpoints on the link ports' host ends and a filter emulator
// between each filter group's host ends. The emulator passes frames
// LAN<->WAN unchanged, records the link and core of each frame's core
// header, and can be stopped, frozen, or made to drop keep-alives only.
//
// Every test frame ends with a 16-byte tag (flow, direction, sequence),
// so the endpoints and the emulators know each frame without trusting the
// switch's parser. The tests need root; they skip with the reason when
// namespaces cannot be created, and the BMv2 runs skip when
// simple_switch_grpc is not installed (the Mininet run also when
// /usr/bin/python3 has no mininet). BALANCER_TARGET=sim or =bmv2 runs one
// target only; -short trims BMv2's symmetry and the rebalance scenario.
// The measurements (failover time, loss, per-core balance, restart
// writes) are printed with t.Log: go test -v shows them.
//
// The scenarios that measure failover run fast keep-alives (3 lost at
// 20ms on the software switch, 50ms on BMv2); the others run 100ms, so
// that a CI machine starved by other packages' tests cannot fail a filter
// under their load. A watchdog notes when the whole test process stalled
// (a starved machine) and failover bounds allow for that time.
//
// Everything a test creates (namespace, interfaces, processes, sockets) is
// removed by its cleanup, also after a failure; processes are ended by the
// PID the test started, never by name.
package e2e
