package config

import (
	"fmt"
	"time"
)

// The allowed ranges of the settings that have one, written once: Validate
// checks them and the decoder names them when it refuses an explicit 0.

// countBound is the allowed range of a count, with its unit.
type countBound struct {
	lo, hi uint32
	unit   string
}

func (b countBound) String() string { return fmt.Sprintf("%d..%d %s", b.lo, b.hi, b.unit) }

// durBound is the allowed range of a duration.
type durBound struct{ lo, hi Duration }

func (b durBound) String() string { return durText(b.lo) + ".." + durText(b.hi) }

var (
	coresBound        = countBound{1, MaxCores, "cores"}
	slotBitsBound     = countBound{1, MaxSlotBits, "bits"}
	thresholdBound    = countBound{1, MaxThreshold, "keep-alives"} // loss_threshold, recovery_threshold
	intervalBound     = durBound{MinInterval, MaxInterval}
	initialDelayBound = durBound{MinInitialDelay, MaxInitialDelay}
	stallHoldBound    = durBound{MinStallHold, MaxStallHold}
	sessionIdleBound  = durBound{MinSessionIdle, MaxSessionIdle}
)

// The session memory's idle timeouts: a second (the switch's ageing
// sweep) to a day.
const (
	MinSessionIdle = Duration(time.Second)
	MaxSessionIdle = Duration(24 * time.Hour)
)

// etherTypeRange is the range of a TPID or EtherType setting.
const etherTypeRange = "0x0001..0xFFFF"

// count reports x outside b; it returns whether x is in.
func (v *validator) count(path string, x uint32, b countBound) bool {
	return v.rangeCheck(path, x, b.lo, b.hi, b.unit)
}

// duration reports d outside b, saying what d is.
func (v *validator) duration(path string, d Duration, b durBound, what string) {
	v.durationRange(path, d, b.lo, b.hi, what)
}
