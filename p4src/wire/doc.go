// Package wire owns the balancer's wire contract, the bytes the P4 program
// (p4src/shared) and the Go code exchange: the core header the data plane
// inserts in front of a filter, the keep-alive frame, the packet-I/O
// metadata between the switch and the controller, the EtherTypes the
// parser recognises without configuration, and the P4Runtime canonical
// form of numbers. docs/dataplane.md describes the formats; every Go
// reader and writer of them calls this package.
package wire
