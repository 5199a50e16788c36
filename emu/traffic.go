package emu

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// newAppFlow prepares consumer c, a traffic application (cbr, zipf,
// batches), connected to its node: the simulator's options, start time
// and Interest names (sim.AppOptions, sim.ConsumerStart, sim.AppPrefix).
func (r *run) newAppFlow(ctx context.Context, c scenario.Consumer, producer string) (*flow, error) {
	opts, err := sim.AppOptions(c)
	if err != nil {
		return nil, err
	}
	prefix, err := sim.AppPrefix(c.Prefix)
	if err != nil {
		return nil, fmt.Errorf("%s: consumer prefix %q: %w", c.Pos, c.Prefix, err)
	}
	f := &flow{c: c, producer: producer, start: sim.ConsumerStart(r.seed, c, sim.DefaultStartJitter), appOpts: &opts}
	h := fnv.New64a()
	h.Write([]byte(c.ID))
	sizer, overhead := ndn.NewSizer(), r.sc.HeaderOverhead
	f.appCfg = consumer.TrafficConfig{
		Prefix: prefix, Options: opts,
		Rand:     rand.New(rand.NewPCG(r.seed, h.Sum64())),
		WireSize: func(p ndn.Packet) int { return sizer.PacketSize(&p) + overhead },
	}
	f.connected = time.Now()
	if f.conn, err = live.Connect(ctx, r.byName[c.Node].transport(), live.FaceConfig{}); err != nil {
		return nil, fmt.Errorf("emu: consumer %s on node %s: %w", c.ID, c.Node, err)
	}
	return f, nil
}

// runApp runs traffic application f on its connection's loop from its
// start time (after t0) until it ends or ctx does.
func (r *run) runApp(ctx context.Context, f *flow, t0 time.Time) {
	defer f.conn.Close()
	select {
	case <-time.After(time.Until(t0.Add(f.start))):
	case <-ctx.Done():
		f.err, f.ended = ctx.Err(), since(t0)
		return
	}
	loop, e := f.conn.Loop, f.conn.Endpoint
	cfg := f.appCfg
	cfg.OnDone = func() { loop.Stop(nil) }
	var startErr error
	loop.After(0, func() {
		t, err := consumer.NewTraffic(cfg, loop, e)
		if err != nil {
			startErr = err
			loop.Stop(err)
			return
		}
		f.app = t
		e.Handle(t.OnPacket)
		t.Start()
	})
	runErr := loop.Run(ctx)
	f.ended = since(t0)
	switch {
	case startErr != nil:
		f.err = startErr
	case f.app != nil && f.app.Done():
	default:
		f.err = runErr
	}
}

// appResult summarises traffic application f as the simulator does; end
// is when the run ended (since t0), interrupted whether the run's context
// ended it.
func (f *flow) appResult(end time.Duration, interrupted bool) sim.FlowResult {
	var st consumer.TrafficStats
	if f.app != nil {
		st = f.app.Stats()
	}
	dur := max(end-f.start, 0)
	if st.Complete {
		dur = st.End - st.Start
	}
	limited := f.appOpts.App == consumer.AppBatches || f.appOpts.Count > 0
	fr := sim.AppFlowResult(f.c.ID, f.c.Node, f.producer, f.c.App, st, limited, dur)
	switch {
	case st.Complete:
	case interrupted:
		fr.Error = errInterrupted.Error()
	case f.err != nil && !errors.Is(f.err, context.DeadlineExceeded) && !errors.Is(f.err, context.Canceled):
		fr.Error = f.err.Error()
	}
	return fr
}

// checkEvents rejects the events the emulator cannot apply: those that
// change a TCP tunnel's link (the kernel carries it).
func checkEvents(sc *scenario.Scenario) []error {
	var errs []error
	for _, e := range sc.Events {
		for _, l := range sc.EventLinks(e) {
			if sc.TCPTunnelFor(l.A, l.B) != nil {
				errs = append(errs, fmt.Errorf("%s: emu: event at %v: link %s is a TCP tunnel, which the kernel carries: only the simulator changes it", e.Pos, e.At, l))
			}
		}
	}
	return errs
}

// eventTarget is one emulated link direction an event changes, and how to
// run code on the loop that owns it.
type eventTarget struct {
	ch *sim.Channel
	do func(func()) error
}

// eventTargets returns the link directions event e changes.
func (r *run) eventTargets(e scenario.Event) ([]eventTarget, error) {
	var out []eventTarget
	for _, l := range r.sc.EventLinks(e) {
		for _, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
			t, err := r.eventTarget(dir[0], dir[1])
			if err != nil {
				return nil, fmt.Errorf("%s: event at %v: %w", e.Pos, e.At, err)
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// eventTarget finds the emulated direction from→to: on from's forwarder,
// or in the relay of a link with an external forwarder at an end.
func (r *run) eventTarget(from, to string) (eventTarget, error) {
	for _, rl := range r.relays {
		for _, c := range rl.dirs {
			if c != nil && c.From == from && c.To == to {
				return eventTarget{ch: c, do: rl.do}, nil
			}
		}
	}
	if nd := r.byName[from]; nd != nil && nd.fwd != nil {
		for _, c := range nd.links {
			if c.To == to {
				return eventTarget{ch: c, do: nd.do}, nil
			}
		}
	}
	return eventTarget{}, fmt.Errorf("no emulated link %s->%s", from, to)
}

// runEvents applies the scenario's events at their times after t0 until
// ctx ends, each on the loop of every link direction it changes; it
// returns the first failure.
func (r *run) runEvents(ctx context.Context, t0 time.Time) error {
	var errs []error
	for _, e := range r.sc.SortedEvents() {
		targets, err := r.eventTargets(e)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		select {
		case <-time.After(time.Until(t0.Add(e.At))):
		case <-ctx.Done():
			return errors.Join(errs...)
		}
		r.log.Info("event", "at", e.At, "target", e.Target(), "change", e.Change())
		for _, t := range targets {
			var applyErr error
			if err := t.do(func() { applyErr = sim.ApplyEvent(e, t.ch) }); err != nil {
				errs = append(errs, err)
			} else if applyErr != nil {
				errs = append(errs, fmt.Errorf("%s: event at %v on %s->%s: %w", e.Pos, e.At, t.ch.From, t.ch.To, applyErr))
			}
		}
	}
	return errors.Join(errs...)
}

// cacheResults reads the Content Store counters of every ndncc node with a
// Content Store, as the simulator reports them (sim.Result.Caches).
func (r *run) cacheResults() []sim.CacheResult {
	var out []sim.CacheResult
	for _, nd := range r.nodes {
		if nd.fwd == nil || r.sc.RouterFor(nd.name).CSCapacity == 0 {
			continue
		}
		var c fw.Counters
		if err := nd.do(func() { c = nd.fwd.Core().Counters() }); err != nil {
			continue // the run reports the node's failure
		}
		out = append(out, sim.CacheResult{Node: nd.name, Hits: c.CSHits, Misses: c.CSMisses})
	}
	return out
}
