package daemon

import (
	"context"
	"net/netip"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/internal/buildinfo"
	"github.com/dpi-balancer/balancer/tables"
)

// Service is what the management API exposes: the daemon implements it,
// package apiserver serves it over gRPC, and the CLI drives it.
// Every configuration change goes through ApplyConfig: the whole new
// configuration is validated, persisted as a new revision and programmed;
// an invalid one is rejected whole and the running one stays.
type Service interface {
	Status(ctx context.Context) (*Status, error)
	// Config returns the running configuration and its revision.
	Config(ctx context.Context) (*config.Config, Revision, error)
	// ApplyConfig validates and applies a configuration (YAML). With
	// dryRun it only validates and returns the plan.
	ApplyConfig(ctx context.Context, yaml []byte, dryRun bool, comment string) (*ApplyResult, error)
	// Rollback re-applies an earlier revision (as a new revision; none
	// when it is what runs). With dryRun it only returns the plan; an
	// empty comment saves "rollback to revision N".
	Rollback(ctx context.Context, revision uint64, dryRun bool, comment string) (*ApplyResult, error)
	History(ctx context.Context) ([]Revision, error)
	// RevisionYAML returns a saved revision's configuration as saved, and
	// the revision (0: the running one); ErrNotFound when it is not kept.
	RevisionYAML(ctx context.Context, revision uint64) ([]byte, Revision, error)
	// SetBypass puts one filter group (group != "") or everything
	// (group == "") in manual bypass, or takes it out. It survives
	// restarts.
	SetBypass(ctx context.Context, group string, on bool) error
	// ReturnFilterGroup puts a filter group that recovered under manual
	// failback (recovered, waiting for return) back into service. It
	// fails with ErrNotWaiting, naming it, when it does not wait (still
	// down, up), and with ErrNotFound when it is unknown.
	ReturnFilterGroup(ctx context.Context, name string) error
	Counters(ctx context.Context) (*Counters, error)
	Slots(ctx context.Context, balanceGroup string) (*SlotsView, error)
	Trace(ctx context.Context, req TraceRequest) (*TraceResult, error)
	Locate(ctx context.Context, src, dst netip.Addr, proto uint8) ([]Placement, error)
	// Monitor calls fn with the last replay events of object ("" for
	// every object), oldest first, then, with follow, with each new one
	// as it happens until ctx ends or fn fails.
	Monitor(ctx context.Context, replay int, object string, follow bool, fn func(Event) error) error
	// AckAlarm acknowledges a raised alarm by name: it clears (one that
	// clears itself is raised again while its condition stands).
	// ErrNotFound for a name the daemon does not raise, or not raised now.
	AckAlarm(ctx context.Context, name string) (Alarm, error)
}

// ApplyResult says what an apply did (or would do).
type ApplyResult struct {
	// Revision is the new revision; when Unchanged, the running one.
	Revision Revision
	DryRun   bool
	// Unchanged: the configuration changes nothing (the same text, or no
	// object and no switch entry changes), so no revision was made.
	Unchanged bool
	// Changes between the running and the new configuration, one line
	// per object ("+ link L3", "~ rule bgp", "- filter_group F4").
	Changes []string
	// Writes is the data-plane difference: inserts, modifies, deletes.
	Inserts, Modifies, Deletes int
	// Slots says, per balance group, how many slot entries the change
	// writes and what share of the sessions move, per filter group.
	Slots []tables.GroupMove
	// FilterGroupNames names the filter group ids of Slots (those of the
	// running and of the new configuration).
	FilterGroupNames map[uint32]string
	// SessionMemory: the session memory is on (docs/sessions.md);
	// HeldSessions then says, per balance group by name, what the change
	// does to the sessions its table holds (as the learner holds them: last
	// read back, with its writes since).
	SessionMemory bool
	HeldSessions  map[string]HeldMove
	// Written is false when the switch could not be reached; the new
	// configuration is saved and will be programmed on reconnection.
	Written bool
	Warning string
}

// Status is the daemon's view of the switch and the filters.
type Status struct {
	Site       string
	Revision   Revision
	Switch     SwitchStatus
	Bypass     BypassStatus
	Links      []LinkStatus
	Filters    []FilterStatus
	Balance    []BalanceGroupStatus
	ObservedAt time.Time
	// Stale: the filter states are not this daemon's live view. Either
	// the switch is not connected (port states are unknown too, filter
	// states the last ones seen), or this daemon is an HA standby: it
	// sends no keep-alives and gets no verdicts, and its filter states
	// are the leader's as last saved in the store (each filter's reason
	// says so: ReasonStandby), which lag the leader's and, while the
	// store is unreachable (etcd lost its quorum), miss every failover
	// since. The leader's own status is live.
	Stale bool
	// HA: the shared store and the leader election (nil: state directory).
	HA *HAStatus
	// Alarms are the daemon's raised alarms (alarms.go), by name: each
	// with what it concerns, what to do and how it clears. The switch
	// session's (Switch.Alarm, Switch.PortAlarms) stay there.
	Alarms []Alarm
	// Daemon: the answering daemon's build and start time.
	Daemon DaemonInfo
	// Confirm: a commit confirmed waiting for its confirmation (nil:
	// none). Session: the open configuration session, without its YAML
	// (nil: none). See confsession.go.
	Confirm *CommitConfirm
	Session *ConfigSession
	// SessionMemory: the session memory (sessions.go; nil: off).
	SessionMemory *SessionMemoryStatus
}

// ReasonStandby is every filter group's reason in a standby's status: its
// state is the leader's as last saved in the store, not judged here.
const ReasonStandby = "standby: the leader's state as last saved in the store"

// DaemonInfo is the daemon's own build and when it started.
type DaemonInfo struct {
	Build     buildinfo.Info
	StartedAt time.Time
	// Name is the balancer's name (Options.Name).
	Name string
}

// SwitchStatus is the P4Runtime session.
type SwitchStatus struct {
	Address       string
	Connected     bool
	Primary       bool
	ElectionID    string
	LastError     string
	LastReconcile time.Time
	LastPlan      string
	AtomicWrites  bool
	PortsWatched  bool // gNMI port status stream is live
	// StatePending: the availability state (failover, recovery, manual
	// bypass) is decided but not yet written to the switch.
	StatePending bool
	// Stalled: the switch kept the connection open but stopped
	// answering (it last answered at StalledSince); the session
	// reconnects.
	Stalled      bool
	StalledSince time.Time
	// ElectionRefused: the switch refuses the daemon's election id
	// because another stream holds it (controlplane.ErrElectionIDInUse);
	// Alarm says what to do.
	ElectionRefused bool
	// Pending: the desired state is not on the switch yet; a failed
	// write is retried at NextRetry.
	Pending   bool
	NextRetry time.Time
	// Alarm is "" when the session is healthy, else one line saying why
	// not (controlplane.Status.Alarm).
	Alarm string
	// PortAlarms lists, one line each, where the switch's ports (over
	// gNMI: speed, admin and oper state) do not match the site, naming
	// the port and the fix (PortAlarms). Empty while the port status
	// stream is not live.
	PortAlarms []string
	// OtherPrimary is the election id of another controller the switch
	// has as its primary while this daemon is a backup ("" when none);
	// OtherPrimarySince is when it was first seen. Unless this daemon is
	// a standby of a leader election, it is an alarm: the daemon stays
	// backup and writes nothing while that controller is primary.
	OtherPrimary      string
	OtherPrimarySince time.Time
	// Standby: a standby of a leader election; the leader programs the
	// switch, so nothing is pending here.
	Standby bool
	// CPUPort is the switch's CPU port; CPUPortWritten says the program
	// takes it at run time and the daemon writes it (else the build runs
	// with the port it was compiled for).
	CPUPort        uint32
	CPUPortWritten bool
	// PipelineVerdict says the pushed program judges the filters itself
	// (the data-plane verdict); false: the daemon alone judges them.
	PipelineVerdict bool
}

// BypassStatus is the manual bypass.
type BypassStatus struct {
	All    bool
	Groups []string
}

// LinkStatus is one operator link.
type LinkStatus struct {
	Name     string
	ID       uint32
	LAN, WAN string // port names
	LANUp    bool   // LANState == PortUp
	WANUp    bool
	// LANState and WANState are PortUp, PortDown or PortUnknown.
	LANState, WANState string
}

// FilterStatus is one filter group.
type FilterStatus struct {
	Name         string
	ID           uint32
	BalanceGroup string
	LAN, WAN     string
	Cores        uint32
	State        string // init, up, down, admin-bypass
	Reason       string
	Since        time.Time
	Effective    string // forward, sw-bypass, drop, rebalanced, group-bypass, group-drop; spares: spared to F3, spare for F1, spare (standby)
	// Spare: listed among its balance group's spares. SpareFor: a spare
	// that carries the share of that member now; SparedTo: a member whose
	// share that spare carries now.
	Spare              bool
	SpareFor, SparedTo string
	LastPass           time.Time
	TimeOfPass         time.Duration
	Losses             uint64
	Consecutive        uint32
	Passes             uint64
	Misrouted          uint64
	FailureAction      string
	// Held: its keep-alive loss is held by the stall guard (not failed
	// over); Returning: traffic is seen coming back from it meanwhile.
	Held, Returning bool
	// LANState and WANState are the filter's switch ports: PortUp,
	// PortDown or PortUnknown.
	LANState, WANState string
	// TimeOfPassBuckets pairs bucket upper bounds (0 = above the last)
	// with counts.
	TimeOfPassBuckets []Bucket
	// TimeOfPassSum is the sum of every time of pass the buckets count.
	TimeOfPassSum time.Duration
	// Verdict is the standing data-plane verdict's text ("" when none),
	// VerdictEpoch the epoch the controller writes, Verdicts the latest
	// verdicts (oldest first), VerdictDisagreements the verdicts its own
	// keep-alives disagreed with.
	Verdict              string
	VerdictEpoch         uint8
	Verdicts             []VerdictEvent
	VerdictDisagreements uint64
	// RoundTrips: the recent keep-alive round trips of each direction
	// probed, by the data plane's clock.
	RoundTrips []RoundTrip
	// LossPercent of the LossRounds latest rounds (the profile's
	// loss_window; 0 rounds without max_loss).
	LossPercent float64
	LossRounds  int
	// FailOpen: the fail-open probes (nil when the profile has none).
	FailOpen *FailOpenStatus
}

// FailOpenStatus is a filter group's fail-open probing: probes carrying
// a pattern the filter must block, every ProbeEvery keep-alive rounds out
// of both sides. Returned probes prove it passes traffic uninspected.
type FailOpenStatus struct {
	ProbeEvery              uint32
	Action                  string // alarm, bypass, drop, rebalance
	Sent, Returned, Dropped uint64
	// FailedOpen: a probe came back since the last round whose probes were
	// all dropped; Since when, Detail what.
	FailedOpen bool
	Since      time.Time
	Detail     string
}

// RoundTrip is the recent keep-alive round trips of one direction of a
// filter group: the 50th and 99th percentiles of the latest Samples
// (at most profiles.RTTSamples), and the latest.
type RoundTrip struct {
	Direction      string // lan-to-wan, wan-to-lan
	P50, P99, Last time.Duration
	Samples        int
}

// VerdictEvent is one data-plane verdict.
type VerdictEvent struct {
	At       time.Time
	Epoch    uint8
	Text     string
	Cleared  time.Time // zero while it stands
	Disagree bool
}

// Bucket is one histogram bucket.
type Bucket struct {
	UpTo  time.Duration // 0: +Inf
	Count uint64
}

// BalanceGroupStatus is one balance group.
type BalanceGroupStatus struct {
	Name       string
	ID         uint32
	State      string // active, bypass, drop
	Members    []string
	Spares     []string // standby filter groups (N+1)
	Alive      int
	MinActive  int
	SlotBits   uint32
	Digest     string // active layout
	BaseDigest string
	// KeepAliveStall: the stall guard holds keep-alive losses of this
	// group as a suspected failure of the balancer's own keep-alive path
	// (since StallSince); its filters are kept up for at most the
	// profile's stall_hold.
	KeepAliveStall bool
	StallSince     time.Time
}

// Counters are the data plane's counters, by object.
type Counters struct {
	Ports   []PortCounters
	Links   []LinkCounters
	Filters []FilterCounters
	Rules   []RuleCounters
	Cores   []CoreCounters
	Drops   []DropCounter
	// SessionMemory is the session memory's table and learner (nil when
	// the site does not enable it), as status shows it.
	SessionMemory *SessionMemoryStatus
	At            time.Time
}

// PacketBytes is a packets and bytes pair.
type PacketBytes struct{ Packets, Bytes uint64 }

type PortCounters struct {
	Name   string
	Number uint32
	Rx, Tx PacketBytes
}

type LinkCounters struct {
	Name                                                  string
	ToFilter, RuleBypass, NonIPBypass, SWBypass, Returned PacketBytes
	Heartbeat, GroupBypass, Dropped                       PacketBytes
}

type FilterCounters struct {
	Name                                    string
	ToFilter, Returned, KeepAlive, SWBypass PacketBytes
	// VerdictBypass and VerdictDrop: frames a standing data-plane verdict
	// gave the failure action (0 on a program without the verdict).
	VerdictBypass, VerdictDrop PacketBytes
}

// RuleCounters sums a rule's entries (both tables).
type RuleCounters struct {
	Name     string
	Priority uint32
	Entries  int
	Hits     PacketBytes
}

// CoreCounters is one configured filter core: the slots the layouts deal
// it and the packets and bytes slots sent towards it (its core_counters
// cell, counted whatever the filter group's state then did with them).
type CoreCounters struct {
	FilterGroup string
	Core        uint32
	Slots       int
	Hits        PacketBytes
}

type DropCounter struct {
	Reason string
	Count  PacketBytes
}

// SlotsView is a balance group's slot layout.
type SlotsView struct {
	Group      string
	SlotBits   uint32
	Digest     string
	BaseDigest string
	// Share: slots per filter group and core.
	Share []CoreShare
	// Slots lists every slot's target when asked for one group.
	Slots []SlotTarget
}

type CoreShare struct {
	FilterGroup string
	Core        uint32
	Slots       int
}

type SlotTarget struct {
	Slot        uint32
	FilterGroup string
	Core        uint32
}

// TraceRequest describes a packet to trace through the configured
// pipeline.
type TraceRequest struct {
	Link    string
	Side    string   // lan or wan: the port it enters on
	VLANs   []uint16 // outermost first (0x8100 tags; QinQ uses 0x88a8 for the outer when two or more)
	MPLS    []uint32
	PPPoE   bool
	Src     netip.Addr
	Dst     netip.Addr
	Proto   uint8
	SrcPort uint16
	DstPort uint16
	SrcMAC  string
	DstMAC  string
	// EtherType for a non-IP packet (Src/Dst unset).
	EtherType uint16
}

// TraceResult is what the pipeline did.
type TraceResult struct {
	Steps        []string // human-readable, in order
	Rule         string   // the rule hit ("" = default bypass)
	Action       string   // bypass, balance
	BalanceGroup string
	Hash         uint32
	Slot         uint32
	FilterGroup  string
	Core         uint32
	OutPort      string
	OutPortNum   uint32
	Verdict      string // to-filter, bypass, sw-bypass, drop, ...
	HeaderHex    string // the 4-byte core header when sent to a filter
	// Session: with the session memory on, "held" (its entry, not its
	// slot, gave FilterGroup and Core) or "not held"; "" without it.
	Session string
	// SlotFilterGroup and SlotCore are where the packet's slot points (for
	// a held session they may differ from FilterGroup and Core).
	SlotFilterGroup string
	SlotCore        uint32
	Frame           []byte // input frame
	OutFrame        []byte
}

// Placement is where a session lands in one balance group.
type Placement struct {
	BalanceGroup string
	Hash         uint32
	Slot         uint32
	FilterGroup  string
	Core         uint32
	// Effective says whether it is there now (forward) or elsewhere
	// because of a failure (sw-bypass, drop, rebalanced to X/core, ...).
	Effective string
	LANPort   string
	WANPort   string
	// With the session memory on (docs/sessions.md): Session is "held"
	// when the switch's sessions table holds the session for this balance
	// group (FilterGroup and Core, the ports and Effective are then its
	// entry's, as the switch forwards it, and SlotFilterGroup, SlotCore
	// its slot's), "not held" otherwise; SessionFrom where that was read
	// (the switch's table, or the learner's view when the switch could
	// not be read). All empty with the memory off.
	Session, SessionFrom string
	SlotFilterGroup      string
	SlotCore             uint32
}
