// Package profiles runs the availability profiles: a keep-alive probe
// through every filter group and a state machine per filter group that
// turns losses, passes and port events into the data-plane state of
// package tables (filter group forward / software bypass / drop, rebalanced
// slots, balance group bypass).
//
// The Engine is driven from outside: Tick with the current time sends
// probes and counts losses, OnPacketIn counts passes, OnPortStatus reports
// link changes, SetAdminBypass and SetGlobalBypass are the operator's
// switches. Nothing in the engine sleeps or reads the clock, so tests drive
// it with a fake time; the daemon ticks it on its own timer. Each change of the derived
// tables.State is offered on Changes (coalesced: a reader always gets the
// latest), and each state transition is logged once with its reason.
package profiles
