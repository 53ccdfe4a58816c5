package daemon

import (
	"context"
	"sort"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/dpi-balancer/balancer/config"
	bgnmi "github.com/dpi-balancer/balancer/gnmi"
)

// portLoop follows the switch's port oper-status over gNMI.
func (d *Daemon) portLoop(ctx context.Context) error {
	var logged map[string]bool // port alarms already logged
	for {
		start := d.snapshot()
		cfg, gen := start.cfg, start.cfgGen
		// Every port and lane of the site: those links and filter groups
		// use feed the availability engine; all are checked against the
		// site (PortAlarms).
		names := map[string]uint32{}
		for _, d := range cfg.Ports {
			for _, n := range d.LaneNames() {
				if num, err := cfg.PortNumber(n.Key()); err == nil {
					names[n.Key()] = num
				}
			}
		}
		var list []string
		for n := range names {
			list = append(list, n)
		}
		sort.Strings(list)
		wctx, cancel := context.WithCancel(ctx)
		events := make(chan bgnmi.OperEvent, 64)
		creds := insecure.NewCredentials()
		if d.opts.SwitchTLS != nil {
			creds = credentials.NewTLS(d.opts.SwitchTLS)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = bgnmi.WatchOperStatus(wctx, d.opts.SwitchGNMI, list, []grpc.DialOption{grpc.WithTransportCredentials(creds)}, events,
				// The stream's losses, retries and syncs go to the daemon's log:
				// while it is down a port going down fails nothing over.
				bgnmi.WithWatchLogger(d.log),
				// The running state's view of the ports goes to the state
				// owner without waiting for it: the latest report of each
				// leaf, every change of the subscription.
				bgnmi.WithConnState(func(up bool) {
					d.mail.post(func(context.Context) {
						d.with(func(r *running) {
							r.watching = up
							if !up {
								r.swPorts = map[string]SwitchPort{}
							}
						})
					})
				}),
				bgnmi.WithPortReports(func(rep bgnmi.PortReport) {
					d.mail.postKey("report "+rep.Name+" "+rep.Leaf, func(context.Context) {
						d.with(func(r *running) {
							r.swPorts = copyPorts(r.swPorts)
							applyReport(r.swPorts, rep)
						})
					})
				}))
		}()
		for restart := false; !restart; {
			select {
			case <-ctx.Done():
				cancel()
				<-done
				return ctx.Err()
			case ev := <-events:
				num, ok := names[ev.Name]
				if !ok {
					continue
				}
				// The engine first, on its own loop: a port going down
				// fails over without waiting for the state owner (it may be
				// writing a configuration); then the running state's view.
				eng := d.currentEngine()
				d.engineDo(func() { eng.OnPortStatus(num, ev.Up, d.now()) })
				d.mail.postKey("oper "+ev.Name, func(context.Context) { d.portChanged(ev, num) })
			case <-time.After(time.Second):
				restart = d.snapshot().cfgGen != gen
				logged = d.logPortAlarms(logged)
			}
		}
		cancel()
		<-done
	}
}

// portChanged records a port's oper status in the running state (the
// state owner).
func (d *Daemon) portChanged(ev bgnmi.OperEvent, num uint32) {
	d.with(func(r *running) {
		r.ports = copyPorts(r.ports)
		r.ports[num] = ev.Up
		r.swPorts = copyPorts(r.swPorts)
		sp := r.swPorts[ev.Name]
		up := ev.Up
		sp.Oper = &up
		r.swPorts[ev.Name] = sp
	})
}

// portNames lists every port name the configuration uses.
func portNames(cfg *config.Config) []string {
	var out []string
	for _, l := range cfg.Links {
		out = append(out, l.LAN, l.WAN)
	}
	for _, f := range cfg.FilterGroups {
		out = append(out, f.LAN, f.WAN)
	}
	return out
}
