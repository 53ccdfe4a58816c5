package daemon

import (
	"context"
	"time"

	"github.com/dpi-balancer/balancer/config"
	"github.com/dpi-balancer/balancer/p4src"
)

// evidenceLoop feeds the stall guard: while the engine holds filter
// groups' keep-alive losses as a suspected keep-alive path stall, it reads
// their data-plane counters (packets sent to the filter and come back
// from it: a few counter cells) and hands them to the engine.
func (d *Daemon) evidenceLoop(ctx context.Context) error {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		eng := d.currentEngine()
		held := eng.Held()
		if len(held) == 0 {
			continue
		}
		cfg := d.snapshot().cfg
		rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		tr, err := d.filterTraffic(rctx, cfg, held)
		cancel()
		if err != nil {
			d.log.Debug("reading filter counters for the stall guard", "err", err)
			continue
		}
		d.engineDo(func() {
			for name, c := range tr {
				eng.OnTraffic(name, c[0], c[1], d.now())
			}
		})
	}
}

// filterTraffic reads, for each named filter group, the packets the data
// plane sent to the filter and the packets that came back from it.
func (d *Daemon) filterTraffic(ctx context.Context, cfg *config.Config, names []string) (map[string][2]uint64, error) {
	var ids []uint32
	var named []string
	for _, n := range names {
		if fg := cfg.FilterGroupByName(n); fg != nil {
			ids, named = append(ids, *fg.ID), append(named, n)
		}
	}
	req, err := d.comp.FilterTrafficReads(ids)
	if err != nil {
		return nil, err
	}
	es, err := d.session.Read(ctx, req...)
	if err != nil {
		return nil, err
	}
	snap := d.comp.DecodeCounters(es)
	out := map[string][2]uint64{}
	for i, n := range named {
		out[n] = [2]uint64{snap.FilterGroup(ids[i], p4src.FGCntToFilter).Packets, snap.FilterGroup(ids[i], p4src.FGCntReturned).Packets}
	}
	return out, nil
}
