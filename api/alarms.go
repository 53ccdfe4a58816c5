package apiv1

// Alarm names: stable, the same in status, gNMI and (in snake_case) the
// Prometheus label (docs/telemetry.md, "Alarms").
const (
	// AlarmStateRepaired: the state directory was repaired when the daemon
	// started (a layouts file or revisions removed, revision files
	// without metadata). It stays until an operator acknowledges it.
	AlarmStateRepaired = "state-repaired"
	// AlarmRuntimeSaveFailed: the failure states (or the manual bypass)
	// could not be saved; a restart would start from older ones. It
	// clears with the next save that succeeds.
	AlarmRuntimeSaveFailed = "runtime-save-failed"
	// AlarmVerdictUnknown: the switch sent a data-plane verdict for a
	// filter group id the running configuration does not have. It clears
	// with the next configuration applied, or an acknowledgement.
	AlarmVerdictUnknown = "verdict-unknown-filter-group"
	// AlarmStoreCatchUp: after a save refused by the shared store, reading
	// it again failed: this daemon may run an older revision than the
	// store's. It clears with the next read that succeeds.
	AlarmStoreCatchUp = "store-catch-up-failed"
	// AlarmStoreUnreachable: the shared store (etcd) does not answer
	// (no quorum); changes are refused meanwhile. It clears when the
	// store answers.
	AlarmStoreUnreachable = "store-unreachable"
	// AlarmTaskEnded: a task of the running daemon (the switch session,
	// the state owner, keep-alives, port status, telemetry, ...) ended
	// with an error: what it does is no longer done. It clears when the
	// daemon is restarted.
	AlarmTaskEnded = "daemon-task-ended"
	// AlarmEvidenceCopy: a multi-pipe Tofino running the verdict build
	// refused the evidence copy's mirror sessions, so a pipe judges a
	// filter only by the returns it sees itself (docs/tofino.md, "Two
	// pipes"). It clears when a reconciliation writes them.
	AlarmEvidenceCopy = "evidence-copy-refused"
	// AlarmSessionMemory: the session memory's table is more than 90 %
	// full, or its learner's queue is at its bound (docs/sessions.md):
	// new sessions may go unlearned (they move with their slot, as without
	// the memory). It clears when neither holds.
	AlarmSessionMemory = "session-memory"
)

// AlarmNames are every alarm the daemon raises, in a fixed order (the
// metrics give each a series, 0 while it is not raised); alarm ack takes
// one of them.
var AlarmNames = []string{AlarmStateRepaired, AlarmRuntimeSaveFailed, AlarmVerdictUnknown, AlarmStoreCatchUp, AlarmStoreUnreachable, AlarmTaskEnded, AlarmEvidenceCopy, AlarmSessionMemory}
