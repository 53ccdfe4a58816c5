// Package campaign is for the tests that measure a fault over repeated
// runs with real processes: how many runs (BALANCER_CAMPAIGN), and the
// summary line of a figure over the runs (min, median, max).
package campaign

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// Env is the environment variable that sets how many runs a campaign
// makes; unset, each makes its small default so that the tests stay fast.
const Env = "BALANCER_CAMPAIGN"

// Runs is the number of runs: BALANCER_CAMPAIGN when set (a positive
// integer), else def. A value that is not one fails the test.
func Runs(t testing.TB, def int) int {
	t.Helper()
	v := os.Getenv(Env)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive number of runs", Env, v)
	}
	return n
}

// Durations is a figure measured once per run.
type Durations []time.Duration

// Summary is "min M, median D, max X over N runs" (nothing measured:
// "no runs").
func (ds Durations) Summary() string {
	if len(ds) == 0 {
		return "no runs"
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return fmt.Sprintf("min %v, median %v, max %v over %d runs",
		s[0].Round(time.Millisecond), Median(s).Round(time.Millisecond), s[len(s)-1].Round(time.Millisecond), len(s))
}

// Median is the middle value (the mean of the two middle ones for an
// even count); 0 when empty.
func Median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Max is the largest value; 0 when empty.
func Max(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return slices.Max(ds)
}

// Counts is a count measured once per run.
type Counts []uint64

// Summary is "min M, median D, max X, total T over N runs".
func (cs Counts) Summary() string {
	if len(cs) == 0 {
		return "no runs"
	}
	s := slices.Clone(cs)
	slices.Sort(s)
	var total uint64
	for _, c := range s {
		total += c
	}
	return fmt.Sprintf("min %d, median %d, max %d, total %d over %d runs", s[0], s[len(s)/2], s[len(s)-1], total, len(s))
}

// Load is the host's load average (1, 5, 15 min), for the summary lines:
// figures taken on a shared host depend on it.
func Load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	var a, b5, c string
	fmt.Sscan(string(b), &a, &b5, &c)
	return a + " " + b5 + " " + c
}
