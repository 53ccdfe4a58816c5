package campaign

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestRunsAndSummaries(t *testing.T) {
	t.Setenv(Env, "")
	assert.Equal(t, 2, Runs(t, 2), "unset: the default")
	t.Setenv(Env, "7")
	assert.Equal(t, 7, Runs(t, 2))

	ds := Durations{3 * time.Second, time.Second, 2 * time.Second, 10 * time.Second}
	assert.Equal(t, "min 1s, median 2.5s, max 10s over 4 runs", ds.Summary())
	assert.Equal(t, 10*time.Second, Max(ds))
	assert.Equal(t, 2*time.Second, Median(ds[:3]))
	assert.Equal(t, Durations{3 * time.Second, time.Second, 2 * time.Second, 10 * time.Second}, ds, "the runs' order is kept")
	assert.Equal(t, "no runs", Durations{}.Summary())
	assert.Equal(t, "min 0, median 2, max 5, total 7 over 3 runs", Counts{5, 0, 2}.Summary())
}
