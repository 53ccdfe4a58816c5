//go:build race

package e2e

// raceEnabled: the race detector slows the in-process switch, daemon and
// emulators several times over, so the batches are paced slower.
const raceEnabled = true
