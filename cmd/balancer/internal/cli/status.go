package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	apiv1 "github.com/dpi-balancer/balancer/api"
)

func newStatusCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "status",
		Short: "Show the switch session, the links, the filters and the balance groups",
		Long: `Show what the daemon sees:
  - the running revision, the daemon's own alarms (ALARM lines with their
    remedy; see 'balancer alarm'), and the P4Runtime session with the switch
    (connected, primary or backup controller, last reconcile, last error);
  - the manual bypass;
  - every link with its ports' oper state;
  - every filter group: its state (init, up, down, admin-bypass) and since
    when, what the data plane does with its share (forward, sw-bypass,
    drop, rebalanced, spared to F3, spare for F1, spare (standby),
    group-bypass, group-drop), when a keep-alive last
    crossed it and how long that took (time of pass), keep-alives lost in
    all and in a row, and why it is in that state;
  - every balance group: active, bypass or drop, live members against the
    profile's minimum, and the slot layout digest;
  - with the session memory on (sessions.enabled): the sessions held per
    filter group against the table's size, and what the learner did.`,
		Example: `  balancer status
  balancer status -o json | jq '.filters[] | select(.state != "up") | .name'`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := a.getStatus(cmd)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(st)
			}
			writeStatus(a.stdout, st)
			return nil
		},
	}
}

func writeStatus(w io.Writer, st *apiv1.Status) {
	writeRevisionLine(w, st)
	writeConfirmAndSession(w, st)
	writeAlarms(w, st)
	writeSwitchStatus(w, st)
	writeHA(w, st.GetHa())
	writeBypass(w, st.GetBypass())
	writeStale(w, st)
	writeLinkStatus(w, st)
	writeFilterStatus(w, st)
	writeBalanceStatus(w, st)
	writeSessionMemory(w, st)
}

// writeSessionMemory writes the session memory's section: what the table
// holds, per filter group, and what the learner did.
func writeSessionMemory(w io.Writer, st *apiv1.Status) {
	sm := st.GetSessionMemory()
	if sm == nil {
		return
	}
	fmt.Fprintln(w)
	writeSessionTable(w, sm, st.GetObservedAt())
}

// writeSessionTable is the session memory's table and learner (status's
// section, counters' --sessions): held of the size, held per filter
// group, and the learner's counts; now dates the last read-back.
func writeSessionTable(w io.Writer, sm *apiv1.SessionMemory, now *timestamppb.Timestamp) {
	fmt.Fprintf(w, "SESSION MEMORY  %d of %d sessions held (%.1f %%)\n", sm.GetHeld(), sm.GetSize(), 100*sm.GetOccupancy())
	if len(sm.GetFilterGroups()) > 0 {
		t := table(w)
		row(t, "FILTER GROUP", "SESSIONS HELD")
		for _, g := range sm.GetFilterGroups() {
			name := g.GetName()
			switch {
			case g.GetKeptInBypass():
				name = fmt.Sprintf("kept in bypass (id %d)", g.GetId())
			case name == "":
				name = fmt.Sprintf("id %d (not in the running configuration)", g.GetId())
			}
			row(t, name, g.GetHeld())
		}
		t.Flush()
	}
	fmt.Fprintf(w, "learned %d, aged %d, moved off failed filters %d, moved off removed filters %d, deleted with their balance group %d, already held %d, refused (table full) %d, failed %d, dropped (learner behind) %d; backlog %d of %d",
		sm.GetInserted(), sm.GetAged(), sm.GetRehomed(), sm.GetReassigned(), sm.GetRemoved(), sm.GetDuplicates(), sm.GetFull(), sm.GetFailed(), sm.GetDropped(), sm.GetBacklog(), sm.GetQueueBound())
	if sm.GetKept() > 0 || sm.GetKeepTimedOut() > 0 {
		fmt.Fprintf(w, "; kept in bypass on their filter's return %d", sm.GetKept())
		if n := sm.GetKeepTimedOut(); n > 0 {
			fmt.Fprintf(w, " (%d returns not kept in time: their sessions went back)", n)
		}
	}
	if rb := sm.GetLastReadBack(); rb != nil {
		fmt.Fprintf(w, "; read back %s", fmtAge(rb, now))
	}
	fmt.Fprintln(w)
}

// writeStale says why the filter states are not live: the switch is not
// connected, or this daemon is an HA standby (it judges no filter: it
// shows the leader's states as last saved in the store).
func writeStale(w io.Writer, st *apiv1.Status) {
	if !st.GetStale() {
		return
	}
	h := st.GetHa()
	if !st.GetSwitchStatus().GetConnected() || h == nil || h.GetLeader() {
		fmt.Fprintln(w, "  the switch is not connected: port states are unknown, filter states are the last seen (stale)")
		return
	}
	line := "  standby: this daemon does not judge the filters; their states are the leader's as last saved in the store (stale); the leader's status is live"
	if !h.GetStoreHealthy() {
		line += "; the store is unreachable: failovers since its last answer are not known here"
	}
	fmt.Fprintln(w, line)
}

// writeRevisionLine writes the site, the balancer's name (when the daemon
// says it) and the running revision, with who made it.
func writeRevisionLine(w io.Writer, st *apiv1.Status) {
	rev := st.GetRevision()
	site := st.GetSite()
	if site == "" {
		site = "(unnamed)"
	}
	fmt.Fprintf(w, "site %s", site)
	if name := st.GetDaemon().GetName(); name != "" {
		fmt.Fprintf(w, ", balancer %s", name)
	}
	fmt.Fprintf(w, ", revision %d (%s, digest %s)", rev.GetNumber(), fmtTime(rev.GetTime()), rev.GetDigest())
	if rev.GetBy() != "" {
		fmt.Fprintf(w, " by %s", rev.GetBy())
	}
	if rev.GetComment() != "" {
		fmt.Fprintf(w, ": %s", rev.GetComment())
	}
	fmt.Fprintln(w)
}

// switchState says in words how the daemon stands with the switch:
// "connected, primary, election id 0:1, atomic writes, ...".
func switchState(st *apiv1.Status) string {
	sw := st.GetSwitchStatus()
	var state []string
	switch {
	case !sw.GetConnected():
		state = append(state, "NOT CONNECTED")
	case sw.GetPrimary():
		state = append(state, "connected", "primary")
	case st.GetHa() != nil && !st.GetHa().GetLeader():
		state = append(state, "connected", "standby: the leader programs the switch")
	default:
		state = append(state, "connected", "backup (not writing)")
	}
	switch id := sw.GetElectionId(); id {
	case "":
	case "0:0":
		state = append(state, "no election id") // a standby of a leader election
	default:
		state = append(state, "election id "+id)
	}
	if sw.GetAtomicWrites() {
		state = append(state, "atomic writes")
	}
	if p := sw.GetCpuPort(); p != 0 {
		if sw.GetCpuPortWritten() {
			state = append(state, fmt.Sprintf("CPU port %d", p))
		} else {
			state = append(state, fmt.Sprintf("CPU port %d (compiled into the program)", p))
		}
	}
	if sw.GetPipelineVerdict() {
		state = append(state, "data-plane verdict")
	} else {
		state = append(state, "no data-plane verdict (the daemon alone judges the filters)")
	}
	if sw.GetPortsWatched() {
		state = append(state, "port status watched")
	} else {
		state = append(state, "port status not watched")
	}
	return strings.Join(state, ", ")
}

// writeSwitchStatus writes the switch session and its alarms.
func writeSwitchStatus(w io.Writer, st *apiv1.Status) {
	now := st.GetObservedAt()
	sw := st.GetSwitchStatus()
	fmt.Fprintf(w, "switch %s: %s\n", sw.GetAddress(), switchState(st))
	if sw.GetLastReconcile() != nil {
		fmt.Fprintf(w, "  last reconcile %s (%s)", fmtTime(sw.GetLastReconcile()), fmtAge(sw.GetLastReconcile(), now))
		if sw.GetLastPlan() != "" {
			fmt.Fprintf(w, ": %s", sw.GetLastPlan())
		}
		if h := st.GetHa(); h != nil && !h.GetLeader() {
			fmt.Fprint(w, " (this daemon's, when it was primary; the leader reconciles now)")
		}
		fmt.Fprintln(w)
	}
	if sw.GetLastError() != "" {
		fmt.Fprintf(w, "  last error: %s\n", sw.GetLastError())
	}
	if (sw.GetConnected() && !sw.GetPrimary() || sw.GetElectionRefused()) && sw.GetAlarm() != "" {
		// Connected as a backup with an alarm: another controller is
		// primary on the switch. Or refused the election id: another
		// stream (most likely this daemon's own, cut off) holds it.
		fmt.Fprintf(w, "  ALARM %s\n", sw.GetAlarm())
	}
	if sw.GetStalled() {
		fmt.Fprintf(w, "  ALARM switch stalled: the connection is open but the switch has not answered since %s (%s); reconnecting\n",
			fmtTime(sw.GetStalledSince()), fmtAge(sw.GetStalledSince(), now))
	}
	for _, a := range sw.GetPortAlarms() {
		fmt.Fprintf(w, "  ALARM %s\n", a)
	}
	if sw.GetPending() {
		line := "  desired state not on the switch yet"
		if sw.GetNextRetry() != nil {
			line += "; next write attempt " + fmtTime(sw.GetNextRetry())
		}
		fmt.Fprintln(w, line)
	}
	if sw.GetStatePending() {
		fmt.Fprintln(w, "  an availability change (failover, recovery or bypass) is decided but not yet written to the switch")
	}
}

func writeLinkStatus(w io.Writer, st *apiv1.Status) {
	if len(st.GetLinks()) == 0 {
		return
	}
	fmt.Fprintln(w)
	t := table(w)
	row(t, "LINK", "ID", "LAN", "WAN", "LAN OPER", "WAN OPER")
	for _, l := range st.GetLinks() {
		row(t, l.GetName(), l.GetId(), l.GetLan(), l.GetWan(), operState(l.GetLanState(), l.GetLanUp()), operState(l.GetWanState(), l.GetWanUp()))
	}
	t.Flush()
}

// filterState is a filter group's state with what holds it: "up (held)
// (traffic returning)".
func filterState(f *apiv1.FilterStatus) string {
	state := f.GetState()
	if f.GetHeld() {
		state += " (held)"
		if f.GetReturning() {
			state += " (traffic returning)"
		}
	}
	return state
}

func writeFilterStatus(w io.Writer, st *apiv1.Status) {
	if len(st.GetFilters()) == 0 {
		return
	}
	now := st.GetObservedAt()
	fmt.Fprintln(w)
	t := table(w)
	row(t, "FILTER GROUP", "BALANCE GROUP", "PORTS", "CORES", "STATE", "SINCE", "EFFECTIVE", "LAST PASS", "TIME OF PASS", "LOSSES", "REASON")
	for _, f := range st.GetFilters() {
		losses := fmt.Sprint(f.GetLosses())
		if f.GetConsecutive() > 0 {
			losses += fmt.Sprintf(" (%d in a row)", f.GetConsecutive())
		}
		row(t, f.GetName(), f.GetBalanceGroup(), f.GetLan()+"/"+f.GetWan(), f.GetCores(), stale(st, filterState(f)),
			fmtAge(f.GetSince(), now), stale(st, f.GetEffective()), fmtAge(f.GetLastPass(), now), fmtDur(f.GetTimeOfPass()),
			losses, f.GetReason())
	}
	t.Flush()
	writeRoundTrips(w, st)
	writeFailOpen(w, st)
	for _, f := range st.GetFilters() {
		if f.GetState() == "recovered" {
			fmt.Fprintf(w, "WAITING filter group %s: recovered, waiting for return (manual failback): it stays out of service until 'balancer filter-group return %s'\n", f.GetName(), f.GetName())
		}
		if f.GetVerdict() != "" {
			fmt.Fprintf(w, "VERDICT filter group %s: %s (epoch %d)\n", f.GetName(), f.GetVerdict(), f.GetVerdictEpoch())
		}
		if fo := f.GetFailOpen(); fo.GetFailedOpen() {
			fmt.Fprintf(w, "ALARM filter group %s: %s, since %s (%s); fail_open_action %s: %s\n", f.GetName(), fo.GetDetail(),
				fmtTime(fo.GetSince()), fmtAge(fo.GetSince(), now), fo.GetAction(), failOpenRemedy(fo.GetAction()))
		}
		if vs := f.GetVerdicts(); len(vs) > 0 && vs[len(vs)-1].GetDisagree() && vs[len(vs)-1].GetCleared() == nil {
			fmt.Fprintf(w, "ALARM filter group %s: the data plane failed it while the controller's keep-alives still came back: "+
				"the two views disagree (check the filter's data path and the keep-alive path)\n", f.GetName())
		}
	}
}

// failOpenRemedy says what a fail-open action does and what to do.
func failOpenRemedy(action string) string {
	if action == "alarm" {
		return "it stays in service and its share goes uninspected; check the filter's inspection engine and bypass, or bypass it by hand ('balancer bypass on --group')"
	}
	return "it is out of service until its probes are dropped again; check the filter's inspection engine and bypass"
}

// writeFailOpen writes the filters' fail-open probing, when a profile
// has probes.
func writeFailOpen(w io.Writer, st *apiv1.Status) {
	has := false
	for _, f := range st.GetFilters() {
		has = has || f.GetFailOpen() != nil
	}
	if !has {
		return
	}
	fmt.Fprintln(w)
	t := table(w)
	row(t, "FILTER GROUP", "FAIL-OPEN PROBES", "EVERY", "ACTION", "SENT", "RETURNED", "ROUNDS DROPPED")
	for _, f := range st.GetFilters() {
		fo := f.GetFailOpen()
		if fo == nil {
			continue
		}
		state := "dropped (inspecting)"
		switch {
		case fo.GetFailedOpen():
			state = "RETURNED: failed open"
		case fo.GetDropped() == 0:
			state = "none judged yet"
		}
		row(t, f.GetName(), state, fmt.Sprintf("%d rounds", fo.GetProbeEvery()), fo.GetAction(), fo.GetSent(), fo.GetReturned(), fo.GetDropped())
	}
	t.Flush()
}

// writeRoundTrips writes the filters' keep-alive round trips by the data
// plane's clock (p50/p99 of the latest ones) and their loss over the
// profile's loss_window, when the daemon measured any.
func writeRoundTrips(w io.Writer, st *apiv1.Status) {
	measured := false
	for _, f := range st.GetFilters() {
		for _, r := range f.GetRoundTrips() {
			measured = measured || r.GetSamples() > 0
		}
		measured = measured || f.GetLossRounds() > 0
	}
	if !measured {
		return
	}
	fmt.Fprintln(w)
	t := table(w)
	row(t, "FILTER GROUP", "DIRECTION", "RTT P50", "RTT P99", "LAST", "SAMPLES", "LOSS")
	for _, f := range st.GetFilters() {
		loss := "-"
		if f.GetLossRounds() > 0 {
			loss = fmt.Sprintf("%.1f %% of the last %d rounds", f.GetLossPercent(), f.GetLossRounds())
		}
		for _, r := range f.GetRoundTrips() {
			if r.GetSamples() == 0 {
				row(t, f.GetName(), r.GetDirection(), "-", "-", "-", 0, loss)
				continue
			}
			row(t, f.GetName(), r.GetDirection(), fmtRTT(r.GetP50()), fmtRTT(r.GetP99()), fmtRTT(r.GetLast()), r.GetSamples(), loss)
		}
	}
	t.Flush()
}

// fmtRTT writes a round trip to the microsecond: "12.3ms", "87µs".
func fmtRTT(d *durationpb.Duration) string {
	if d == nil {
		return "0s"
	}
	x := d.AsDuration()
	if x >= time.Millisecond {
		return x.Round(100 * time.Microsecond).String()
	}
	return x.Round(time.Microsecond).String()
}

func writeBalanceStatus(w io.Writer, st *apiv1.Status) {
	if len(st.GetBalanceGroups()) == 0 {
		return
	}
	now := st.GetObservedAt()
	fmt.Fprintln(w)
	t := table(w)
	row(t, "BALANCE GROUP", "STATE", "ALIVE", "MIN ACTIVE", "MEMBERS", "SLOTS", "DIGEST")
	for _, b := range st.GetBalanceGroups() {
		digest := b.GetDigest()
		if b.GetBaseDigest() != "" && b.GetBaseDigest() != digest {
			digest += " (rebalanced; base " + b.GetBaseDigest() + ")"
		}
		row(t, b.GetName(), stale(st, b.GetState()), fmt.Sprintf("%d/%d", b.GetAlive(), len(b.GetMembers())), b.GetMinActive(),
			strings.Join(b.GetMembers(), ","), fmt.Sprintf("%d (%d bits)", 1<<b.GetSlotBits(), b.GetSlotBits()), digest)
	}
	t.Flush()
	for _, b := range st.GetBalanceGroups() {
		if b.GetKeepaliveStall() {
			fmt.Fprintf(w, "ALARM balance group %s: keep-alives of most of its filters were lost at once with their ports up, since %s (%s): "+
				"suspected a fault of the balancer's own keep-alive path; its filters are held up for at most the profile's stall_hold\n",
				b.GetName(), fmtTime(b.GetStallSince()), fmtAge(b.GetStallSince(), now))
		}
	}
}

func newCountersCmd(a *app) *cobra.Command {
	var sel counterSections
	var rate time.Duration
	cmd := &cobra.Command{
		Use:   "counters [--ports] [--links] [--filters] [--rules] [--cores] [--drops] [--sessions] [--rate 1s]",
		Short: "Show the data plane's packet counters",
		Long: `Read the counters from the switch and show them by object (all of them
unless some are selected):
  --ports    packets and bytes received and sent per port
  --links    per link: sent to the filters, returned by them, bypassed by a
             rule, non-IP bypassed, software-bypassed (a failed filter),
             group-bypassed, bypass-unit heartbeats, dropped
  --filters  per filter group: sent, returned, keep-alives, software bypass
  --rules    hits per flow rule (its entries summed)
  --cores    per filter core: its slots and the packets that hit them, with
             the core's share of its balance group (the balance check)
  --drops    drops by reason
  --sessions the session memory's table (when the site enables it):
             sessions held per filter group, of the table's size, and
             what the learner did: learned, aged, moved off failed
             filters, moved off removed filters, deleted with their
             balance group, refused (table full), dropped (learner
             behind)
Tables show packets; -o json gives packets and bytes. --rate D reads them
twice, D apart, and shows what moved per second (timed by the daemon's
readings); the session memory's are counts, the second reading's.`,
		Example: `  balancer counters
  balancer counters --links --rate 1s
  balancer counters --rules --cores
  balancer counters --links -o json
  balancer counters --sessions`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			cl, err := a.client()
			if err != nil {
				return err
			}
			if rate < 0 || rate > rateWindowMax || (rate > 0 && rate < 100*time.Millisecond) {
				return usagef("--rate %v: give 100ms to %v (0: the counts themselves)", rate, rateWindowMax)
			}
			c, secs, err := a.readCounters(cmd, cl, rate)
			if err != nil {
				return err
			}
			if rate > 0 && !a.structured() {
				fmt.Fprintf(a.stdout, "per second over %.3fs (packets/s; -o json: packets and bytes per second)\n\n", secs)
			}
			sel.trim(c)
			if a.structured() {
				return a.printProto(c)
			}
			writeCounters(a.stdout, c)
			return nil
		},
	}
	sel.register(cmd.Flags())
	cmd.Flags().DurationVar(&rate, "rate", 0, "read twice this far apart and show rates per second (e.g. 1s)")
	return cmd
}

// counterSections are the sections of counters asked for by flag.
type counterSections struct{ ports, links, filters, rules, cores, drops, sessions bool }

func (s *counterSections) register(f *pflag.FlagSet) {
	f.BoolVar(&s.ports, "ports", false, "per port")
	f.BoolVar(&s.links, "links", false, "per link")
	f.BoolVar(&s.filters, "filters", false, "per filter group")
	f.BoolVar(&s.rules, "rules", false, "per flow rule")
	f.BoolVar(&s.cores, "cores", false, "per filter core")
	f.BoolVar(&s.drops, "drops", false, "drops by reason")
	f.BoolVar(&s.sessions, "sessions", false, "the session memory's table: held per filter group, occupancy, learned, aged, refused")
}

// trim takes out of c the sections not asked for; when none was asked
// for, c keeps them all.
func (s counterSections) trim(c *apiv1.Counters) {
	if s == (counterSections{}) {
		return
	}
	if !s.ports {
		c.Ports = nil
	}
	if !s.links {
		c.Links = nil
	}
	if !s.filters {
		c.Filters = nil
	}
	if !s.rules {
		c.Rules = nil
	}
	if !s.cores {
		c.Cores = nil
	}
	if !s.drops {
		c.Drops = nil
	}
	if !s.sessions {
		c.SessionMemory = nil
	}
}

// readCounters reads the counters; with rate > 0 it reads them twice,
// rate apart, and gives what moved per second and over how many seconds
// (timed by the switch's own readings, not this process's).
func (a *app) readCounters(cmd *cobra.Command, cl apiv1.BalancerClient, rate time.Duration) (*apiv1.Counters, float64, error) {
	read := func() (*apiv1.Counters, error) {
		ctx, cancel := a.rpcContext(cmd)
		defer cancel()
		return cl.GetCounters(ctx, &apiv1.GetCountersRequest{})
	}
	c, err := read()
	if err != nil || rate <= 0 {
		return c, 0, err
	}
	select {
	case <-cmd.Context().Done():
		return nil, 0, cmd.Context().Err()
	case <-time.After(rate):
	}
	c1, err := read()
	if err != nil {
		return nil, 0, err
	}
	secs := c1.GetAt().AsTime().Sub(c.GetAt().AsTime()).Seconds()
	c, err = counterRates(c, c1, secs)
	return c, secs, err
}

func writeCounters(w io.Writer, c *apiv1.Counters) {
	sections := 0
	section := func() {
		if sections > 0 {
			fmt.Fprintln(w)
		}
		sections++
	}
	if len(c.GetPorts()) > 0 {
		section()
		t := table(w)
		row(t, "PORT", "DP", "RX PACKETS", "RX BYTES", "TX PACKETS", "TX BYTES")
		for _, p := range c.GetPorts() {
			row(t, p.GetName(), p.GetNumber(), p.GetRx().GetPackets(), p.GetRx().GetBytes(), p.GetTx().GetPackets(), p.GetTx().GetBytes())
		}
		t.Flush()
	}
	if len(c.GetLinks()) > 0 {
		section()
		t := table(w)
		row(t, "LINK", "TO FILTER", "RETURNED", "RULE BYPASS", "NON-IP BYPASS", "SW BYPASS", "GROUP BYPASS", "HEARTBEAT", "DROPPED")
		for _, l := range c.GetLinks() {
			row(t, l.GetName(), l.GetToFilter().GetPackets(), l.GetReturned().GetPackets(), l.GetRuleBypass().GetPackets(),
				l.GetNonIpBypass().GetPackets(), l.GetSwBypass().GetPackets(), l.GetGroupBypass().GetPackets(),
				l.GetHeartbeat().GetPackets(), l.GetDropped().GetPackets())
		}
		t.Flush()
	}
	if len(c.GetFilters()) > 0 {
		section()
		t := table(w)
		row(t, "FILTER GROUP", "TO FILTER", "RETURNED", "KEEP-ALIVE", "SW BYPASS", "VERDICT BYPASS", "VERDICT DROP")
		for _, f := range c.GetFilters() {
			row(t, f.GetName(), f.GetToFilter().GetPackets(), f.GetReturned().GetPackets(), f.GetKeepAlive().GetPackets(), f.GetSwBypass().GetPackets(),
				f.GetVerdictBypass().GetPackets(), f.GetVerdictDrop().GetPackets())
		}
		t.Flush()
	}
	if len(c.GetRules()) > 0 {
		section()
		t := table(w)
		row(t, "PRIO", "RULE", "ENTRIES", "PACKETS", "BYTES")
		for _, r := range c.GetRules() {
			row(t, r.GetPriority(), r.GetName(), r.GetEntries(), r.GetHits().GetPackets(), r.GetHits().GetBytes())
		}
		t.Flush()
	}
	if len(c.GetCores()) > 0 {
		section()
		total := map[string]uint64{}
		for _, k := range c.GetCores() {
			total[k.GetFilterGroup()] += k.GetHits().GetPackets()
		}
		t := table(w)
		row(t, "FILTER GROUP", "CORE", "SLOTS", "PACKETS", "BYTES", "SHARE")
		for _, k := range c.GetCores() {
			share := "-"
			if n := total[k.GetFilterGroup()]; n > 0 {
				share = fmt.Sprintf("%.1f%%", 100*float64(k.GetHits().GetPackets())/float64(n))
			}
			row(t, k.GetFilterGroup(), k.GetCore(), k.GetSlots(), k.GetHits().GetPackets(), k.GetHits().GetBytes(), share)
		}
		t.Flush()
	}
	if len(c.GetDrops()) > 0 {
		section()
		t := table(w)
		row(t, "DROP REASON", "PACKETS", "BYTES")
		for _, d := range c.GetDrops() {
			row(t, d.GetReason(), d.GetCount().GetPackets(), d.GetCount().GetBytes())
		}
		t.Flush()
	}
	if sm := c.GetSessionMemory(); sm != nil {
		section()
		writeSessionTable(w, sm, c.GetAt())
	}
	if sections == 0 {
		fmt.Fprintln(w, "no counters: nothing is configured")
	}
}

func newSlotsCmd(a *app) *cobra.Command {
	var allSlots bool
	cmd := &cobra.Command{
		Use:   "slots [BALANCE-GROUP] [--all-slots]",
		Short: "Show balance groups' slot layouts: digest and share per filter core",
		Long: `Show how a balance group's hash slots are dealt to its filters' cores (every
balance group when none is named): slots per filter group and per core,
and the layout's digest. The layout is deterministic: the same
configuration gives the same digest on any controller. While a filter's
slots are rebalanced to the survivors, the digest differs from the base
digest (every member alive).

--all-slots lists every slot's filter group and core (2^slot-bits lines per
group).`,
		Example: `  balancer slots
  balancer slots group_filter --all-slots
  balancer slots -o json | jq '.groups[].digest'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			req := &apiv1.GetSlotsRequest{WithSlots: allSlots}
			if len(args) == 1 {
				req.Group = args[0]
			}
			cl, err := a.client()
			if err != nil {
				return err
			}
			ctx, cancel := a.rpcContext(cmd)
			defer cancel()
			res, err := cl.GetSlots(ctx, req)
			if err != nil {
				return err
			}
			if a.structured() {
				return a.printProto(res)
			}
			if len(res.GetGroups()) == 0 {
				fmt.Fprintln(a.stdout, "no balance groups defined")
				return nil
			}
			for i, g := range res.GetGroups() {
				if i > 0 {
					fmt.Fprintln(a.stdout)
				}
				writeSlots(a.stdout, g)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&allSlots, "all-slots", false, "list every slot's target")
	return cmd
}

func writeSlots(w io.Writer, g *apiv1.SlotsView) {
	total := int64(1) << g.GetSlotBits()
	fmt.Fprintf(w, "balance group %s: %d slots (slot bits %d), layout digest %s", g.GetGroup(), total, g.GetSlotBits(), g.GetDigest())
	if g.GetBaseDigest() != "" && g.GetBaseDigest() != g.GetDigest() {
		fmt.Fprintf(w, " (rebalanced; base layout %s)", g.GetBaseDigest())
	}
	fmt.Fprintln(w)

	type agg struct {
		slots, min, max int64
		cores           int
	}
	var order []string
	per := map[string]*agg{}
	for _, s := range g.GetShare() {
		a := per[s.GetFilterGroup()]
		if a == nil {
			a = &agg{min: s.GetSlots(), max: s.GetSlots()}
			per[s.GetFilterGroup()] = a
			order = append(order, s.GetFilterGroup())
		}
		a.slots += s.GetSlots()
		a.cores++
		a.min = min(a.min, s.GetSlots())
		a.max = max(a.max, s.GetSlots())
	}
	t := table(w)
	row(t, "FILTER GROUP", "CORES", "SLOTS", "SHARE", "SLOTS PER CORE")
	for _, name := range order {
		a := per[name]
		perCore := fmt.Sprint(a.min)
		if a.max != a.min {
			perCore = fmt.Sprintf("%d..%d", a.min, a.max)
		}
		row(t, name, a.cores, a.slots, fmt.Sprintf("%.1f%%", 100*float64(a.slots)/float64(total)), perCore)
	}
	t.Flush()
	fmt.Fprintln(w)
	t = table(w)
	row(t, "FILTER GROUP", "CORE", "SLOTS", "SHARE")
	for _, s := range g.GetShare() {
		row(t, s.GetFilterGroup(), s.GetCore(), s.GetSlots(), fmt.Sprintf("%.2f%%", 100*float64(s.GetSlots())/float64(total)))
	}
	t.Flush()
	if len(g.GetSlots()) > 0 {
		fmt.Fprintln(w)
		t = table(w)
		row(t, "SLOT", "FILTER GROUP", "CORE")
		for _, s := range g.GetSlots() {
			row(t, s.GetSlot(), s.GetFilterGroup(), s.GetCore())
		}
		t.Flush()
	}
}
