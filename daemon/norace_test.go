//go:build !race

package daemon

// cpuScale: without the race detector a CPU bound is the product's own.
const cpuScale = 1
