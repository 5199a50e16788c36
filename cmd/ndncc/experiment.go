package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

func newExperimentCmd() *cobra.Command {
	var (
		list     bool
		runs     int
		asJSON   bool
		out      string
		seed     uint64
		variants []string
		jobs     int
		shard    string
	)
	cmd := &cobra.Command{
		Use:   "experiment [--list] NAME",
		Short: "Run a built-in experiment (the seeds' tables) and print it beside the seed's figures",
		Long: `Run a named experiment from the catalog: every variant is simulated --runs times
with distinct seeds (run i uses seed --seed+i) and aggregated (mean, min–max). The table
prints our figures beside the seed document's. With --json, one JSON document with
variants[] {name, flows[] (means), flows_min[], flows_max[], runs[], ...}.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			if len(args) != 1 {
				return fmt.Errorf("want one experiment name (see --list)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if list {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				for _, e := range experiment.Catalog() {
					fmt.Fprintf(tw, "%s\tseed %s\t%s\n", e.Name, e.Seed, e.Title)
				}
				return tw.Flush()
			}
			e, err := experiment.Lookup(args[0])
			if err != nil {
				return &exitError{2, err}
			}
			if runs < 0 {
				return &exitError{2, fmt.Errorf("--runs must be positive")}
			}
			sh, err := parseShard(shard)
			if err != nil {
				return &exitError{2, err}
			}
			if sh.Count > 1 && out == "" {
				return &exitError{2, fmt.Errorf("--shard needs --out DIR for its partial results")}
			}
			if runs < 0 || jobs < 0 {
				return &exitError{2, fmt.Errorf("--runs %d, --jobs %d: want 0 (the default) or more", runs, jobs)}
			}
			opt := experiment.Options{Runs: runs, BaseSeed: seed, Variants: variants, Jobs: jobs, Shard: sh}
			bar := newRunBar(cmd.ErrOrStderr(), !asJSON, e.PlannedRuns(opt), e.Name)
			opt.OnRun = func(string, int) { bar.Add(1) }
			if out != "" && sh.Count <= 1 {
				opt.TraceDir = out // the first run of each variant, for the plots
			}
			rep, err := e.Run(opt)
			bar.Finish()
			if errors.Is(err, experiment.ErrUnknownVariant) {
				return usageError(cmd, err)
			}
			if err != nil {
				return err
			}
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "report.json"), rep); err != nil {
					return err
				}
				if sh.Count <= 1 {
					if err := writeExperimentPage(out, e, rep); err != nil {
						return err
					}
				}
			}
			if sh.Count > 1 {
				fmt.Fprintf(w, "shard %d/%d: %d variant(s) written to %s; combine with: ndncc experiment merge DIR...\n",
					sh.Index, sh.Count, len(rep.Variants), filepath.Join(out, "report.json"))
				return nil
			}
			if asJSON {
				return rep.WriteJSON(w)
			}
			rep.PrintTable(w, e)
			return nil
		},
	}
	cmd.AddCommand(newMergeCmd())
	cmd.Flags().BoolVar(&list, "list", false, "list the experiments")
	cmd.Flags().IntVar(&runs, "runs", 0, "runs per variant (default: the experiment's own)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	cmd.Flags().StringVar(&out, "out", "", "write report.json, summary charts, per-variant traces and plots, and index.html into this directory")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the first run")
	cmd.Flags().StringSliceVar(&variants, "variant", nil, "run only these variants (repeatable)")
	cmd.Flags().IntVar(&jobs, "jobs", 0, "runs simulated in parallel (default: number of CPUs); results do not depend on it")
	cmd.Flags().StringVar(&shard, "shard", "", "run only shard i of N (\"i/N\", 0 <= i < N) and write partial results to --out")
	return cmd
}

// parseShard parses "i/N".
func parseShard(s string) (experiment.Shard, error) {
	if s == "" {
		return experiment.Shard{}, nil
	}
	var sh experiment.Shard
	i, n, ok := strings.Cut(s, "/")
	var err1, err2 error
	sh.Index, err1 = strconv.Atoi(i)
	sh.Count, err2 = strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return sh, fmt.Errorf("--shard %q: want i/N with 0 <= i < N", s)
	}
	return sh, nil
}

func newMergeCmd() *cobra.Command {
	var (
		asJSON bool
		out    string
	)
	cmd := &cobra.Command{
		Use:   "merge DIR...",
		Short: "Combine the partial results of --shard runs into the full experiment",
		Long: `Read DIR/report.json from every shard directory and print the experiment exactly as an
unsharded run would have (apart from timing). Every shard of the same experiment, --runs and
--seed must be given once.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var parts []*experiment.Report
			for _, dir := range args {
				f, err := os.Open(filepath.Join(dir, "report.json"))
				if err != nil {
					return &exitError{2, fmt.Errorf("merge: %w", err)}
				}
				var r experiment.Report
				err = json.NewDecoder(f).Decode(&r)
				f.Close()
				if err != nil {
					return &exitError{2, fmt.Errorf("merge: %s: %w", filepath.Join(dir, "report.json"), err)}
				}
				parts = append(parts, &r)
			}
			rep, err := experiment.Merge(parts)
			if err != nil {
				return &exitError{2, err}
			}
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "report.json"), rep); err != nil {
					return err
				}
			}
			e, err := experiment.Lookup(rep.Experiment)
			if err != nil {
				return err
			}
			if out != "" {
				if err := writeExperimentPage(out, e, rep); err != nil {
					return err
				}
			}
			if asJSON {
				return rep.WriteJSON(cmd.OutOrStdout())
			}
			rep.PrintTable(cmd.OutOrStdout(), e)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	cmd.Flags().StringVar(&out, "out", "", "also write the merged report.json into this directory")
	return cmd
}

// writeExperimentPage writes the summary charts, the plots of each
// variant's first run (traced during the sweep, or simulated again here
// when the report was merged from shards), and DIR/index.html.
func writeExperimentPage(out string, e *experiment.Experiment, rep *experiment.Report) error {
	page := report.NewPage(e, rep)
	page.Version, page.GoVersion = version(), runtime.Version()
	sum, err := report.SummaryCharts(out, rep, e.Columns)
	if err != nil {
		return fmt.Errorf("summary charts: %w", err)
	}
	page.Summary = sum
	for _, vr := range rep.Variants {
		v, ok := e.Variant(vr.Name)
		if !ok {
			continue
		}
		sc, err := e.Scenario(v)
		if err != nil {
			return err
		}
		if len(page.Parameters) == 0 {
			page.Parameters = append([]report.Param{{Key: "scenario of", Value: vr.Name + " (variants differ as their descriptions say)"}},
				scenarioParams(sc)...)
		}
		dir := filepath.Join(out, vr.Name)
		if _, err := os.Stat(dir); err != nil {
			// Not traced during the sweep (merged shards): run the
			// variant's first seed again, traced.
			net, err := sim.Build(sc, sim.Options{Seed: rep.BaseSeed, Trace: true})
			if err != nil {
				return err
			}
			net.Run()
			if err := net.WriteTraces(dir); err != nil {
				return err
			}
		}
		files, err := report.PlotRun(dir, report.PlotOptions{Title: vr.Name})
		if err != nil {
			return fmt.Errorf("plots of %s: %w", vr.Name, err)
		}
		page.Variants = append(page.Variants, report.VariantPlots{Name: vr.Name, Files: files})
	}
	return report.WriteHTML(out, page)
}

// scenarioParams summarises a scenario for the report page.
func scenarioParams(sc *scenario.Scenario) []report.Param {
	ps := []report.Param{{Key: "header overhead", Value: fmt.Sprintf("%d bytes", sc.HeaderOverhead)}}
	for _, l := range sc.Topology.Links {
		ps = append(ps, report.Param{Key: "link " + l.A + "—" + l.B,
			Value: fmt.Sprintf("%.3g Mbit/s, %v, queue %d packets, loss %.3g%%", l.Bandwidth/1e6, l.Delay, l.QueuePackets, l.Loss*100)})
	}
	for _, p := range sc.Producers {
		ps = append(ps, report.Param{Key: "producer " + p.Node, Value: fmt.Sprintf("%s, %d bytes in %d-byte segments, %s", p.Prefix, p.FileSize, p.SegmentSize, p.Signature)})
	}
	return ps
}

// runBar is a progress bar on standard error when it is a terminal.
type runBar struct{ bar *progressbar.ProgressBar }

// newProgress shows a bar of total steps when enabled and w is a
// terminal; otherwise it draws nothing.
func newRunBar(w io.Writer, enabled bool, total int, what string) runBar {
	f, ok := w.(*os.File)
	if !enabled || !ok || !term.IsTerminal(int(f.Fd())) || total <= 0 {
		return runBar{}
	}
	return runBar{progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// Add advances the bar.
func (p runBar) Add(n int) {
	if p.bar != nil {
		p.bar.Add(n)
	}
}

// Finish removes the bar.
func (p runBar) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
