// Package dataplane is the software switch's data plane: a Go model of
// exactly the balancer's P4 pipeline (p4src/shared/{parser,ingress}.p4 with
// the v1model bindings), not a general P4 interpreter, and the P4Runtime
// entity store the pipeline reads. The P4Runtime server, the ports and
// gNMI are built on top of it; this package does no I/O, starts no
// goroutine and imports no gRPC.
//
// # Control plane
//
// New resolves every table, field, action, parameter, counter, value set
// and controller header the pipeline uses by name, once; a P4Info without
// one is an error. Write applies P4Runtime updates with the spec's (1.4)
// semantics and returns one error per update, wrapping a sentinel
// (ErrInvalidArgument, ErrAlreadyExists, ...) the server maps to a gRPC
// code. Entry identity is the one tables.Key defines (table, priority,
// canonical matches by field id, masked bits zero), encoded compactly;
// byte strings may be zero-padded on input and are canonical on Read; one
// with bits beyond its field's width is ErrOutOfRange (spec, "Bytestrings").
// Default entries are modified (or reset, action unset) but never inserted
// or deleted; const defaults are PERMISSION_DENIED, as are @defaultonly
// actions in entries (spec: action scope). Value sets are only modified.
// Counters and direct counters are read with wildcards and set by MODIFY.
// The verdict's registers are set by MODIFY of one cell or all (a pair of
// the TNA program as one cell first ++ second; registers.go): the
// P4Testgen replay starts a case from the cells it chose. The P4Runtime
// server refuses register writes, as PI does on BMv2.
// One Read returns at most ReadLimit entities (WithReadLimit; by default
// the whole state once): a request whose queries match more is refused with
// ErrResourceExhausted before more than one query's worth is copied, so a
// request repeating a wildcard cannot pin copies of the tables. The parser
// selects the default core TPID and keep-alive EtherType as constants
// before the value sets, as the P4 program does.
//
// Atomicity: every Write holds the exclusive lock for its whole batch and
// packets hold the shared lock (per packet, or per ProcessBatch burst), so
// no packet ever sees part of a batch, in any atomicity mode.
// ROLLBACK_ON_ERROR and DATAPLANE_ATOMIC keep an undo log: when an update
// fails the batch is undone, the state is as before, and the updates that
// did not fail report ErrAborted. Validation never changes state; a bad
// request never panics (FuzzWrite).
//
// Read copies what it selects under the shared lock and builds and yields
// the entities after releasing it, so a slow gRPC stream holds up neither
// writes nor packets.
//
// # Pipeline
//
// Process and PacketOut parse the frame into headers and metadata on the
// stack, run the ingress control line by line (a malformed frame, one the
// parser stopped on or with an IPv4 IHL below 5, dropped first; then
// port_role, heartbeat, flow_rules or flow_rules_v6, balance_groups, the
// symmetric hash and slots, filter_groups; the filter-port branch with
// links), count exactly what the P4 program counts (core_counters per
// slot hit), then egress (port_tx, the keep-alive tx
// timestamp) and the deparser's only changes: the core header pushed after
// the source MAC or popped, and the timestamp. Output goes into the
// caller's buffer or aliases the input; nothing is allocated per packet.
//
// Where BMv2 (v1model) behaviour is not in the P4 text, the model follows
// BMv2: a header that does not fit stops the parser with a parser error
// and the packet goes on to the ingress (which drops it as malformed,
// unless it is a packet-out); counters count the ingress length (for a
// packet-out, including the packet_out header); direct counters count only
// entry hits, never the default action; egress port 511 drops; ternary and
// range entries of equal priority are ordered by the lowest handle, handles
// being allocated lowest-free like BMv2's.
//
// # Data-plane verdict
//
// When the P4Info's filter_forward has the liveness parameters (epoch,
// detect, fail_drop), the pipeline keeps the evidence registers and the
// verdict of p4src/v1model/include/control/verdict.p4 (verdict.go), with
// the same names and semantics, in ticks of 1 µs of its clock (as BMv2's
// ingress_global_timestamp), and queues a verdict digest the P4Runtime
// server sends (VerdictDigests, AckVerdictDigests: a digest is queued
// once until acknowledged, as PI does). With an older P4Info none of it
// runs. The registers are under their own mutex (a packet that sends to or
// returns from a filter takes it once). WithPipes models a Tofino's pipes
// (pipes.go): a set of registers per pipe, a frame judged in its ingress
// port's pipe, and every return copied to the other pipes as the TNA
// program mirrors it.
//
// # Session memory
//
// When the P4Info has the sessions table (the "sessions" profile,
// docs/sessions.md), the pipeline runs it as the P4 program built
// WITH_SESSIONS does (sessions.go): looked up before balance_groups by
// the balance group, the hash's ordered pair of folded addresses and the
// protocol; a hit in an active group takes the entry's filter group and
// core in place of the slot (the slot is not looked up); a miss whose
// slot hits queues a session digest (SessionDigests, AckSessionDigests:
// once until acknowledged) unless the frame sends a verdict digest. The
// table holds its P4Info size (RESOURCE_EXHAUSTED past it) and ages by
// idle timeout as BMv2 does: a lookup that finds an entry refreshes it,
// IdleEntries reports each entry idle for its idle_timeout_ns (again every
// IdleRepeat while it stays idle), and a Read with time_since_last_hit set
// returns the time since its last hit.
//
// # Lookups
//
// Exact tables are direct-indexed by the concatenation of their key fields:
// port_role by the 9-bit port, links and filter_groups by their 6-bit id,
// balance_groups by 4 bits, slots by group<<16 | slot in pages of 2^16
// entries allocated on first use (a 2^20-slot space for any layout up to
// Tofino's 131072 entries). Lookup is two loads.
//
// Ternary/range tables (flow_rules, flow_rules_v6, heartbeat) use tuple
// space search. A table's key fields are packed into at most eight 64-bit
// words. Each entry becomes rules: its range fields are expanded into
// prefixes (at most 64 rules per entry; ranges beyond that budget stay
// ranges, checked after the probe); each rule belongs to the shape of its
// per-field masks. A shape is a hash table from the masked key (hashed over
// only the words its mask uses) to the rules with that key, ordered by
// priority then handle. A lookup builds the packet's key once and probes
// the shapes in order of their highest priority, stopping at the first
// shape that cannot beat the best match so far: with the configuration's
// usual few shapes (a shape per combination of rule fields) that is a few
// probes however many rules there are. Writes update the shapes
// incrementally (a shape's maximum priority through a count per priority;
// the shape order is restored once per batch), so neither a 4096-rule
// table nor a 131072-slot table is ever rebuilt. The degenerate case, a
// different mask on every entry, costs one probe per entry.
//
// # Concurrency
//
// All methods are safe for concurrent use. Counters are atomics updated
// under the shared lock. Result frames alias the caller's frame or buf.
package dataplane
