package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
)

// liveTraceDir is where `experiment --live --out DIR` writes the live
// runs' traces: DIR/live/VARIANT, beside the simulated DIR/VARIANT.
const liveTraceDir = "live"

// emuRunner runs an experiment's runs in the emulator (experiment
// --live) with the forwarders ff chooses: a scenario emu.Check refuses is
// not runnable (the report says why); a run's traces go to its trace
// directory. With program "ndncatchunks" (--consumer-program) that tool
// fetches in place of every consumer, with the consumer's pipeline and
// parameters mapped to its options (emu.CatchunksArgs); a variant it
// cannot map is not runnable.
func emuRunner(ctx context.Context, ff forwarderFlags, program string) experiment.Runner {
	// The runs share their producers' presigned objects: the variants of
	// one seed serve the same ones.
	presigned := &emu.Presigned{}
	return func(sc *scenario.Scenario, seed uint64, traceDir string) (experiment.LiveRun, error) {
		opt := emu.Options{Seed: seed, Trace: traceDir != "", Presigned: presigned}
		ff.apply(&opt)
		var programs []experiment.FlowProgram
		if program == emu.Catchunks {
			mapped, mapping, err := emu.CatchunksConsumers(sc)
			if err != nil {
				return experiment.LiveRun{}, fmt.Errorf("%w: %w", experiment.ErrNotRunnable, err)
			}
			sc = mapped
			for _, c := range sc.Consumers {
				if m, ok := mapping[c.ID]; ok {
					programs = append(programs, experiment.FlowProgram{ID: c.ID, Command: strings.Join(append([]string{c.Program}, m.Args...), " "), Unmapped: m.Unmapped})
				}
			}
		}
		if err := emu.Check(sc, opt); err != nil {
			return experiment.LiveRun{}, fmt.Errorf("%w: %w", experiment.ErrNotRunnable, err)
		}
		if program == "" {
			for _, c := range sc.Consumers {
				if c.Program != "" {
					// Its row lacks what the tool does not print (null in
					// ndncc emu --json), which the tables would average as 0.
					return experiment.LiveRun{}, fmt.Errorf("%w: consumer %s is a program (%s): run it with ndncc emu, whose result leaves out what the program does not print; the experiment's tables would count it as 0",
						experiment.ErrNotRunnable, c.ID, c.Program)
				}
			}
		}
		res, err := emu.Run(ctx, sc, opt)
		if err != nil {
			return experiment.LiveRun{}, err
		}
		if ctx.Err() != nil {
			return experiment.LiveRun{}, fmt.Errorf("interrupted: %w", ctx.Err())
		}
		if traceDir != "" {
			if err := res.WriteTraces(traceDir); err != nil {
				return experiment.LiveRun{}, err
			}
		}
		lr := experiment.LiveRun{Result: res.Result, Lateness: summariseLateness(res.Lateness), Programs: programs}
		for _, p := range res.Producers {
			lr.SignedOnDemand += p.SignedOnDemand
		}
		for i := range res.Flows {
			if a := res.Absent(i); a != nil {
				if lr.NotPrinted == nil {
					lr.NotPrinted = make([][]string, len(res.Flows))
				}
				lr.NotPrinted[i] = a
			}
		}
		return lr, nil
	}
}

// summariseLateness is a run's lateness over all its link directions: the
// mean over every timer wake, the largest, and every overrun; nil when no
// timer woke (no emulated link to measure).
func summariseLateness(ls []emu.LinkLateness) *experiment.Lateness {
	var out experiment.Lateness
	var wakes uint64
	var sum float64
	for _, l := range ls {
		wakes += l.Wakes
		sum += l.MeanMs * float64(l.Wakes)
		out.MaxMs = max(out.MaxMs, l.MaxMs)
		out.Overruns += l.Overruns
	}
	if wakes == 0 {
		return nil // no emulated link's timers ran: nothing measured
	}
	out.MeanMs = sum / float64(wakes)
	return &out
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
