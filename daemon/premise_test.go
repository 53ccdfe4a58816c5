package daemon

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dpi-balancer/balancer/internal/testbed"
)

// checks collects the assertions of one run of a scenario step (it is an
// assert.TestingT and a require.TestingT): a run whose timing premise the
// host missed is said and run again, and only the run that counts hands
// its failures to the test.
type checks struct {
	failed []string
}

func (c *checks) Errorf(format string, args ...any) {
	c.failed = append(c.failed, fmt.Sprintf(format, args...))
}

// FailNow ends the run (a require failed); premised recovers it.
func (c *checks) FailNow() { panic(checksFatal{}) }

func (c *checks) Helper() {}

type checksFatal struct{}

// run runs step with c, and says whether a require ended it.
func (c *checks) run(step func(c *checks)) (fatal bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(checksFatal); !ok {
				panic(r)
			}
			fatal = true
		}
	}()
	step(c)
	return false
}

// premised runs step, a part of a scenario whose checks hold only under a
// timing premise, until a run whose checks all passed or in which the
// premise held: that run's failed checks fail the test. missed says
// whether the premise was missed between from and to, and how ("": it
// held). A run that failed while the premise was missed is said and run
// again (step brings the bed back to where it starts: it waits on that
// state first); once giveUp is past, the test is skipped, the premise
// never having held for a run.
func premised(t *testing.T, name string, giveUp time.Time, missed func(from, to time.Time) string, step func(c *checks)) {
	t.Helper()
	for run := 1; ; run++ {
		from := time.Now()
		c := &checks{}
		fatal := c.run(step)
		if len(c.failed) > 0 {
			if why := missed(from, time.Now()); why != "" {
				t.Logf("%s, run %d: %d checks failed while %s: not the scenario, run again; they were:%s",
					name, run, len(c.failed), why, strings.ReplaceAll("\n"+strings.Join(c.failed, "\n"), "\n", "\n\t"))
				if time.Now().After(giveUp) {
					t.Skipf("%s: the premise never held for a run (the last: %s)", name, why)
				}
				continue
			}
		}
		for _, f := range c.failed {
			t.Errorf("%s, run %d:%s", name, run, f)
		}
		if fatal {
			t.FailNow()
		}
		if run > 1 {
			t.Logf("%s: run %d counted (the premise held or its checks passed)", name, run)
		}
		return
	}
}

// stalledFor is the premise of the scenarios with healthy filters in
// this process (the switch, the filter emulators and the daemon): the
// host did not stall it for bound or more from lookback before from to
// to (testbed.Stalls). lookback is how long a stall goes on showing: for
// the engine's stall guard, its stall_hold and a detection time (a stall
// it held fails a filter group that long after).
func stalledFor(stalls *testbed.Stalls, bound, lookback time.Duration) func(from, to time.Time) string {
	return func(from, to time.Time) string {
		if worst := stalls.Worst(from.Add(-lookback), to); worst >= bound {
			return fmt.Sprintf("the host stalled this process %v (premise: under %v)", worst.Round(time.Millisecond), bound)
		}
		return ""
	}
}
