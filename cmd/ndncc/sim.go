package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/internal/atomicfile"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

func newSimCmd() *cobra.Command {
	var (
		asJSON bool
		out    string
		seed   uint64
		links  []string
	)
	cmd := &cobra.Command{
		Use:   "sim SCENARIO.toml",
		Short: "Run one simulated scenario and print its per-flow results",
		Long: `Run one scenario file in the deterministic simulator.

Prints a table of flows and links, or with --json one JSON document (schema in
docs/results.md). With --out DIR, time series (cwnd, RTT/RTO, receive rate,
queue lengths) are written there as CSV and plotted as PNG and SVG; the JSON
result goes to DIR/result.json and the plots are gathered in DIR/index.html. The same scenario and seed always give
the same results (except the "timing" section).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			sc, err := scenario.Load(args[0])
			if err != nil {
				return &exitError{2, err}
			}
			net, err := sim.Build(sc, sim.Options{Seed: seed, Trace: out != ""})
			if err != nil {
				return &exitError{2, err}
			}
			res := net.Run()
			if out != "" {
				if err := net.WriteTraces(out); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "result.json"), res); err != nil {
					return err
				}
				files, err := report.PlotRun(out, report.PlotOptions{Title: sc.Name, Links: links})
				if err != nil {
					return fmt.Errorf("plots: %w", err)
				}
				page := report.Page{Title: sc.Name, Description: sc.Description, Version: version(), GoVersion: runtime.Version(),
					Parameters: []report.Param{{Key: "scenario", Value: args[0]}, {Key: "seed", Value: fmt.Sprint(res.Seed)}},
					Variants:   []report.VariantPlots{{Name: sc.Name, Files: files}}}
				if err := report.WriteHTML(out, page); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), res)
			}
			printResult(cmd.OutOrStdout(), res)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of a table")
	cmd.Flags().StringVar(&out, "out", "", "write traces (CSV), plots (PNG, SVG), result.json and index.html into this directory")
	cmd.Flags().Uint64Var(&seed, "seed", 0, "override the scenario's random seed (0: keep it)")
	cmd.Flags().StringSliceVar(&links, "links", nil, "with --out, plot the queues of these link directions (FROM-TO; default: every link that queued)")
	return cmd
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONFile writes v as indented JSON to path atomically.
func writeJSONFile(path string, v any) error {
	var buf bytes.Buffer
	if err := writeJSON(&buf, v); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return atomicfile.WriteFile(path, buf.Bytes())
}

func printResult(w io.Writer, r *sim.Result) {
	fmt.Fprintf(w, "scenario %s, seed %d, simulated %.3f s in %.3f s wall (%.0fx real time, %.0f events/s)\n\n",
		r.Scenario, r.Seed, r.SimTimeS, r.Timing.WallS, r.Timing.Speedup, r.Timing.EventsPerS)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "flow\tpipeline\tcomplete\ttime (s)\tgoodput (kbps)\tthroughput (kbps)\ttimeouts\ttimeout %\tretx\tloss events\tmarks\tnacks\tRTT min/avg/max (ms)\t")
	for _, f := range r.Flows {
		fmt.Fprintf(tw, "%s\t%s\t%v\t%.2f\t%.0f\t%.0f\t%d\t%.2f\t%d\t%d\t%d\t%d\t%.1f/%.1f/%.1f\t\n",
			f.ID, f.Pipeline, f.Complete, f.DownloadTimeS, f.GoodputKbps, f.ThroughputKbps,
			f.Timeouts, f.TimeoutPct, f.Retransmissions, f.LossEvents, f.Marks, f.Nacks,
			f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs)
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "link\tpackets\tdrops\tmarks\tmax queue\tmean queue\tutilization\t")
	for _, l := range r.Links {
		if l.Packets == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s->%s\t%d\t%d\t%d\t%d\t%.2f\t%.1f%%\t\n", l.From, l.To, l.Packets, l.Drops, l.Marks, l.MaxQueue, l.MeanQueue, l.Utilization*100)
	}
	tw.Flush()
	for _, f := range r.Flows {
		if f.Error != "" {
			fmt.Fprintf(w, "\nflow %s: %s\n", f.ID, f.Error)
		}
	}
}

// version is the ndncc module version this binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
		return v
	}
	return "unknown"
}
