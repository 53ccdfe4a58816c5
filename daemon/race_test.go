//go:build race

package daemon

// cpuScale is how many times over the race detector multiplies the CPU a
// piece of code uses (its documentation gives 2-20x; the YAML decoder of a
// 1 MiB file measures 7x here). CPU bounds are the product's bound times
// this, so they still catch a change of complexity under -race.
const cpuScale = 10
