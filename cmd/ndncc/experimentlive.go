package main

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// liveTraceDir is where `experiment --live --out DIR` writes the live
// runs' traces: DIR/live/VARIANT, beside the simulated DIR/VARIANT.
const liveTraceDir = "live"

// emuRunner runs an experiment's runs in the emulator (experiment
// --live) with the forwarders ff chooses: a scenario emu.Check refuses is
// not runnable (the report says why); a run's traces go to its trace
// directory.
func emuRunner(ctx context.Context, ff forwarderFlags) experiment.Runner {
	return func(sc *scenario.Scenario, seed uint64, traceDir string) (*sim.Result, experiment.Lateness, error) {
		opt := emu.Options{Seed: seed, Trace: traceDir != ""}
		ff.apply(&opt)
		if err := emu.Check(sc, opt); err != nil {
			return nil, experiment.Lateness{}, fmt.Errorf("%w: %w", experiment.ErrNotRunnable, err)
		}
		for _, c := range sc.Consumers {
			if c.Program != "" {
				// Its row lacks what the tool does not print (null in
				// ndncc emu --json), which the tables would average as 0.
				return nil, experiment.Lateness{}, fmt.Errorf("%w: consumer %s is a program (%s): run it with ndncc emu, whose result leaves out what the program does not print; the experiment's tables would count it as 0",
					experiment.ErrNotRunnable, c.ID, c.Program)
			}
		}
		res, err := emu.Run(ctx, sc, opt)
		if err != nil {
			return nil, experiment.Lateness{}, err
		}
		if ctx.Err() != nil {
			return nil, experiment.Lateness{}, fmt.Errorf("interrupted: %w", ctx.Err())
		}
		if traceDir != "" {
			if err := res.WriteTraces(traceDir); err != nil {
				return nil, experiment.Lateness{}, err
			}
		}
		return res.Result, summariseLateness(res.Lateness), nil
	}
}

// summariseLateness is a run's lateness over all its link directions: the
// mean over every timer wake, the largest, and every overrun.
func summariseLateness(ls []emu.LinkLateness) experiment.Lateness {
	var out experiment.Lateness
	var wakes uint64
	var sum float64
	for _, l := range ls {
		wakes += l.Wakes
		sum += l.MeanMs * float64(l.Wakes)
		out.MaxMs = max(out.MaxMs, l.MaxMs)
		out.Overruns += l.Overruns
	}
	if wakes > 0 {
		out.MeanMs = sum / float64(wakes)
	}
	return out
}

// addLivePlots adds to page the plots of each variant's first live run,
// traced into out/live/VARIANT, after the simulated runs' plots.
func addLivePlots(page *report.Page, out string, rep *experiment.Report) error {
	if rep.Live == nil {
		return nil
	}
	for _, v := range rep.Live.Variants {
		if v.NotRun != "" {
			continue
		}
		dir := filepath.Join(out, liveTraceDir, v.Name)
		busy, err := report.BusyQueues(dir)
		if err != nil {
			return err
		}
		files, err := report.PlotRun(dir, report.PlotOptions{Title: v.Name + " (live)", Links: busy, SkipMissing: true})
		if err != nil {
			return fmt.Errorf("live plots of %s: %w", v.Name, err)
		}
		page.Variants = append(page.Variants, report.VariantPlots{Name: v.Name + " (live)", Files: files,
			Run: fmt.Sprintf("Plots of one live run (ndncc emu): seed %d, the first of the variant's %d.", rep.Live.BaseSeed, rep.Live.Runs)})
	}
	return nil
}
