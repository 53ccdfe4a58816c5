package daemon

import "testing"

// What the tests of package daemon_test use of this package's tests: they
// drive a daemon on the test bed through package telemetry, which imports
// this package and so cannot be imported by its own tests.

// Bed is newBed's test bed: a software switch for testdata/fast.yaml with
// a filter emulator per filter group.
type Bed struct{ b *bed }

// NewBed serves a test bed until the test ends (newBed).
func NewBed(t testing.TB) Bed { return Bed{newBed(t)} }

// Dir is the bed's state directory.
func (b Bed) Dir() string { return b.b.dir }

// Config is the bed's initial configuration file.
func (b Bed) Config() string { return b.b.config }

// Addr is the switch's P4Runtime address.
func (b Bed) Addr() string { return b.b.addr }

// GNMIAddr is the switch's gNMI address.
func (b Bed) GNMIAddr() string { return b.b.gaddr }

// AllUp waits until every filter group of d is up and forwarding on the
// switch.
func (b Bed) AllUp(d *Daemon) { b.b.allUp(d) }

// SetFilterAlive makes the filter emulator of a filter group pass frames
// (alive) or drop them.
func (b Bed) SetFilterAlive(name string, alive bool) { b.b.filters[name].alive.Store(alive) }

// TestLogger is the tests' logger (DEBUG_DAEMON=1: to stderr).
var TestLogger = testLogger
