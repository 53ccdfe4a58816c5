package daemon

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dpi-balancer/balancer/config"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// SwitchPort is what the switch reports over gNMI for one port or lane
// (by its gNMI name, the <port>/<lane> form): each field is unset until
// the switch reports it.
type SwitchPort struct {
	Oper  *bool // oper-status UP
	Admin *bool // admin-status UP
	// Speed is the port-speed as reported ("SPEED_100GB"), SpeedBPS its
	// bit rate (0 when Speed is empty or unknown to the balancer).
	Speed    string
	SpeedBPS uint64
}

func (p SwitchPort) reported() bool { return p.Oper != nil || p.Admin != nil || p.Speed != "" }

// PortAlarms compares the switch's ports with the site: for every port and
// lane the site defines, one line per mismatch, naming the port as the
// site does and the fix. reports is keyed by gNMI interface name
// (PortName.Key: "9/0", "4/1"). A port the switch does not report at all,
// a speed or admin state other than the site's, and a port in use by a
// link or filter group that is enabled and admin up but oper down, are
// alarms. It is pure; the caller passes only a synced, live view.
func PortAlarms(cfg *config.Config, reports map[string]SwitchPort) []string {
	if cfg == nil {
		return nil
	}
	used := map[config.PortName]string{}
	for _, l := range cfg.Links {
		for _, p := range []string{l.LAN, l.WAN} {
			if n, err := cfg.ResolvePort(p); err == nil {
				used[n] = "link " + l.Name
			}
		}
	}
	for _, f := range cfg.FilterGroups {
		for _, p := range []string{f.LAN, f.WAN} {
			if n, err := cfg.ResolvePort(p); err == nil {
				used[n] = "filter group " + f.Name
			}
		}
	}
	push := portRemedy(cfg)
	var out []string
	for _, d := range sortedPorts(cfg) {
		s := d.Settings()
		for _, n := range d.LaneNames() {
			label := cfg.PortLabel(n)
			r, ok := reports[n.Key()]
			if !ok || !r.reported() {
				out = append(out, fmt.Sprintf("port %s: the switch does not report it: %s", label, push))
				continue
			}
			if r.Speed != "" && r.SpeedBPS != config.SpeedBPS(s.Speed) {
				out = append(out, fmt.Sprintf("port %s: the switch runs it at %s, the site at %s: %s, or set the site's speed (balancer port set %d --speed %s)",
					label, speedText(r), s.Speed, push, d.Port, speedFlag(r)))
			}
			if r.Admin != nil && *r.Admin != s.Enabled {
				if s.Enabled {
					out = append(out, fmt.Sprintf("port %s: admin down on the switch, enabled in the site: %s, or disable it in the site (balancer port set %d --enabled=false)",
						label, push, d.Port))
				} else {
					out = append(out, fmt.Sprintf("port %s: admin up on the switch, disabled in the site: %s, or enable it in the site (balancer port set %d --enabled)",
						label, push, d.Port))
				}
			}
			by, inUse := used[n]
			if inUse && s.Enabled && r.Oper != nil && !*r.Oper && (r.Admin == nil || *r.Admin) {
				out = append(out, fmt.Sprintf("port %s (%s) is enabled but oper down: check its cable and optics, and that the far end runs %s with fec %s and autoneg %s",
					label, by, s.Speed, s.FEC, onOff(s.Autoneg)))
			}
		}
	}
	return out
}

// simPortRemedy is how the software switch's ports are made the site's:
// they are the ones it was started with (balancer sim --from-config), and
// it has no chassis config to push.
const simPortRemedy = "the software switch runs the ports of the site it was started with: restart it from the running site " +
	"(balancer config export -f run/site.yaml; the demo: Ctrl-C, then CONFIG=run/site.yaml make run; " +
	"otherwise balancer sim --from-config run/site.yaml)"

// portRemedy is how a site's ports are brought onto its switch: a pushed
// Stratum chassis config, or for the software switch a restart from the
// site.
func portRemedy(cfg *config.Config) string {
	if cfg.Platform == config.PlatformSim {
		return simPortRemedy
	}
	return "render and push the site's chassis config (balancer switch chassis-config; docs/tofino.md)"
}

func sortedPorts(cfg *config.Config) []config.Port {
	ps := slices.Clone(cfg.Ports)
	slices.SortFunc(ps, func(a, b config.Port) int { return cmp.Compare(a.Port, b.Port) })
	return ps
}

// speedText names a reported speed as the site writes speeds ("40G"), or
// as reported when it is none of the site's.
func speedText(r SwitchPort) string {
	for _, s := range config.Speeds {
		if config.SpeedBPS(s) == r.SpeedBPS && r.SpeedBPS != 0 {
			return s
		}
	}
	return r.Speed
}

func speedFlag(r SwitchPort) string {
	if s := speedText(r); !strings.HasPrefix(s, "SPEED_") {
		return s
	}
	return "SPEED"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// applyReport records one admin-status or port-speed report.
func applyReport(m map[string]SwitchPort, r bgnmi.PortReport) {
	p := m[r.Name]
	switch {
	case r.Leaf == bgnmi.LeafAdminStatus && r.Deleted:
		p.Admin = nil
	case r.Leaf == bgnmi.LeafAdminStatus:
		v := r.AdminUp
		p.Admin = &v
	case r.Leaf == bgnmi.LeafPortSpeed && r.Deleted:
		p.Speed, p.SpeedBPS = "", 0
	case r.Leaf == bgnmi.LeafPortSpeed:
		p.Speed, p.SpeedBPS = r.Speed, r.SpeedBPS
	}
	m[r.Name] = p
}

// portAlarms gives the port alarms of the running site against the live
// gNMI view (none while the subscription is not synced).
func (d *Daemon) portAlarms() []string { return d.snapshot().portAlarms() }

// portAlarms gives the port alarms of r's site against its gNMI view.
func (r *running) portAlarms() []string {
	if !r.watching {
		return nil
	}
	return PortAlarms(r.cfg, r.swPorts)
}

// logPortAlarms logs each port alarm once when it is raised and once when
// it clears; logged holds those already logged (portLoop's).
func (d *Daemon) logPortAlarms(logged map[string]bool) map[string]bool {
	now := map[string]bool{}
	for _, a := range d.portAlarms() {
		now[a] = true
	}
	for a := range now {
		if !logged[a] {
			d.log.Warn("switch port does not match the site", "alarm", a)
			d.events.Publish(Event{Kind: EventAlarm, Object: "switch ports", To: "raised", Reason: a})
		}
	}
	for a := range logged {
		if !now[a] {
			d.log.Info("switch port alarm cleared", "alarm", a)
			d.events.Publish(Event{Kind: EventAlarm, Object: "switch ports", To: "cleared", Reason: a})
		}
	}
	return now
}
