package daemon

import (
	"context"
	"time"

	p4v1 "github.com/p4lang/p4runtime/go/p4/v1"

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
		d.mu.Lock()
		cfg := d.cfg
		d.mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		tr, err := d.filterTraffic(rctx, cfg, held)
		cancel()
		if err != nil {
			d.log.Debug("reading filter counters for the stall guard", "err", err)
			continue
		}
		for name, c := range tr {
			eng.OnTraffic(name, c[0], c[1], d.now())
		}
	}
}

// filterTraffic reads, for each named filter group, the packets the data
// plane sent to the filter and the packets that came back from it.
func (d *Daemon) filterTraffic(ctx context.Context, cfg *config.Config, names []string) (map[string][2]uint64, error) {
	c, err := d.schema.Counter(p4src.CounterFilterGroup)
	if err != nil {
		return nil, err
	}
	id := c.GetPreamble().GetId()
	var req []*p4v1.Entity
	for _, n := range names {
		fg := cfg.FilterGroupByName(n)
		if fg == nil {
			continue
		}
		b := int64(*fg.ID) << 2
		for _, k := range []int64{p4src.FGCntToFilter, p4src.FGCntReturned} {
			req = append(req, &p4v1.Entity{Entity: &p4v1.Entity_CounterEntry{CounterEntry: &p4v1.CounterEntry{
				CounterId: id, Index: &p4v1.Index{Index: b + k}}}})
		}
	}
	es, err := d.session.Read(ctx, req...)
	if err != nil {
		return nil, err
	}
	byIdx := map[int64]uint64{}
	for _, e := range es {
		if ce := e.GetCounterEntry(); ce != nil {
			byIdx[ce.GetIndex().GetIndex()] = uint64(ce.GetData().GetPacketCount())
		}
	}
	out := map[string][2]uint64{}
	for _, n := range names {
		if fg := cfg.FilterGroupByName(n); fg != nil {
			b := int64(*fg.ID) << 2
			out[n] = [2]uint64{byIdx[b+p4src.FGCntToFilter], byIdx[b+p4src.FGCntReturned]}
		}
	}
	return out, nil
}
