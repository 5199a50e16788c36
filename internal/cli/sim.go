package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/internal/atomicfile"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// simFlags are sim's flags.
type simFlags struct {
	asJSON  bool
	out     string
	seed    uint64
	links   []string
	sets    []string
	sweeps  []string
	runs    int
	jobs    int
	profile string
	quiet   bool
	// traceFormat is --trace-format: ndncc (CSV) or ndnsim.
	traceFormat string
}

func newSimCmd() *cobra.Command {
	var sf simFlags
	cmd := &cobra.Command{
		Use: "sim SCENARIO.toml|-",
		Example: `  ndncc sim examples/linear-fixed32.toml
  ndncc sim examples/linear-fixed32.toml --json
  ndncc sim examples/multipath-pcon.toml --out out/mp          # traces, plots, result.json, index.html
  ndncc sim examples/linear-fixed32.toml --set links.router1-router2.max-queue-size=16
  ndncc sim examples/dumbbell-fixed16.toml --sweep 'consumer.*.pipeline=aimd,cubic' --runs 3
  cat my.toml | ndncc sim -`,
		Short: "Run a simulated scenario, or a sweep of it, and print its per-flow results",
		Long: `Run one scenario file (- reads it from standard input) in the deterministic
simulator.

Prints a table of flows and links, or with --json one JSON document (schema in
docs/results.md). With --out DIR, time series (cwnd, RTT/RTO, receive rate,
queue lengths, the forwarding split of multipath routers) are written there
as CSV and plotted as PNG and SVG; the JSON result goes to DIR/result.json,
and DIR/index.html shows the flows, the links, the network drawn and every
plot. The same scenario and seed always give the same results (except the
"timing" section). --trace-format ndnsim adds ndnSIM's tracer files to DIR:
rate-trace.txt (L3RateTracer), app-delays-trace.txt (AppDelayTracer, the
traffic applications' delays) and cs-trace.txt (CsTracer), tab-separated
with ndnSIM's columns (docs/coming-from-ndnsim.md).

--set KEY=VALUE sets any scenario key by its dotted path (docs/scenario.md,
"Setting keys"), such as links.router1-router2.max-queue-size=64,
consumer.*.params.window=16 or routers.node.r1.strategy=pi. --sweep
KEY=V1,V2,... runs the scenario at each value (several --sweep flags make a
grid), --runs N repeats each point with seeds S..S+N-1 (S: --seed or the
scenario's), --jobs runs them in parallel; the table then has one row per
point and flow, each cell "mean (min–max)", and --json prints
{"points": [{"set": {...}, "flows": [...], ...}]}; with --out, each metric
is plotted against the swept key, and DIR/pointN/ holds each point's first
run.

--gc-floor (on by default) tunes the Go runtime's memory use while the
command runs (docs/experiments.md, "Memory"); ndncc experiment, ndncc
experiment tournament, reproduce and seed001-sweep do the same.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runSim(cmd, &sf, args[0])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&sf.asJSON, "json", false, "print one JSON document instead of a table")
	fs.BoolVarP(&sf.quiet, "quiet", "q", false, "report no progress of a --sweep on standard error (a bar on a terminal, a line per finished run otherwise)")
	fs.StringVar(&sf.out, "out", "", "write traces (CSV), plots (PNG, SVG), result.json and index.html into this `directory`")
	fs.Uint64Var(&sf.seed, "seed", 0, "override the scenario's random seed (0: keep it); the first of --runs")
	fs.StringSliceVar(&sf.links, "links", nil, "with --out, plot the queues of these link directions (FROM-TO; default: every link that queued)")
	fs.StringArrayVar(&sf.sets, "set", nil, "set a scenario key: `KEY=VALUE` (repeatable; docs/scenario.md, \"Setting keys\")")
	fs.StringArrayVar(&sf.sweeps, "sweep", nil, "run the scenario at each value of a key: `KEY=V1,V2,...` (repeatable: a grid)")
	fs.IntVar(&sf.runs, "runs", 1, "runs per point, with consecutive seeds")
	fs.IntVar(&sf.jobs, "jobs", 0, "runs simulated in parallel (default: number of CPUs); results do not depend on it")
	fs.StringVar(&sf.traceFormat, "trace-format", "ndncc", "with --out, also write ndnSIM's trace files: `ndnsim` (rate-trace.txt, app-delays-trace.txt, cs-trace.txt, in ndnSIM's tab-separated columns); ndncc writes the CSV traces only")
	fs.StringVar(&sf.profile, "profile", "", "parameter `profile` of every consumer (as --set profile=NAME): "+strings.Join(consumer.ProfileNames(), ", "))
	return cmd
}

// loadScenarioArg loads the scenario file named on the command line, or
// standard input for "-".
func loadScenarioArg(arg string, stdin io.Reader) (*scenario.Scenario, error) {
	if arg == "-" {
		return scenario.LoadReader(stdin, "stdin")
	}
	return scenario.Load(arg)
}

// noFlowsError says that file, a Mini-NDN topology, has no flows to run,
// and how to add them.
func noFlowsError(file, also string) error {
	return &exitError{2, fmt.Errorf(`%s is a Mini-NDN topology: nodes and links, no flows to run. Write a scenario that uses it,
  [topology]
  file = %q
with a [[producer]] and a [[consumer]] on its nodes (docs/scenario.md; examples/linear-fixed32.toml
uses examples/linear.conf so), and run that%s`, file, file, also)}
}

func runSim(cmd *cobra.Command, sf *simFlags, arg string) error {
	if scenario.IsTopologyFile(arg) {
		if _, err := scenario.FromTopologyFile(arg); err != nil {
			return &exitError{2, err}
		}
		return noFlowsError(arg, "")
	}
	sc, err := loadScenarioArg(arg, cmd.InOrStdin())
	if err != nil {
		return &exitError{2, err}
	}
	for _, n := range sc.Topology.Notes {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	sets, err := scenarioSets(sf.profile, sf.sets)
	if err != nil {
		return err
	}
	var axes []experiment.Axis
	for _, s := range sf.sweeps {
		a, err := experiment.ParseAxis(s)
		if err != nil {
			return &exitError{2, err}
		}
		axes = append(axes, a)
	}
	if sf.runs < 1 || sf.jobs < 0 {
		return &exitError{2, fmt.Errorf("--runs %d, --jobs %d: want at least one run, and 0 (all CPUs) or more jobs", sf.runs, sf.jobs)}
	}
	if sf.traceFormat != "ndncc" && sf.traceFormat != "ndnsim" {
		return &exitError{2, fmt.Errorf("--trace-format %q: want ndncc or ndnsim", sf.traceFormat)}
	}
	if sf.traceFormat == "ndnsim" && (sf.out == "" || len(axes) > 0 || sf.runs > 1) {
		return &exitError{2, fmt.Errorf("--trace-format ndnsim writes one run's traces into --out DIR: give --out, without --sweep or --runs")}
	}
	if len(axes) > 0 || sf.runs > 1 {
		return runSweep(cmd, sf, sc, sets, axes)
	}
	if err := sc.Apply(sets); err != nil {
		return &exitError{2, err}
	}
	for _, n := range sim.DroppedParams(sc) {
		fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
	}
	net, err := sim.Build(sc, sim.Options{Seed: sf.seed, Trace: sf.out != "", NDNSimTrace: sf.traceFormat == "ndnsim"})
	if err != nil {
		return &exitError{2, err}
	}
	res := net.Run()
	routes := scenarioRoutes(sc)
	if sf.out != "" {
		if err := writeRunReport(sf.out, sf.links, sc, arg, net.WriteTraces, res, withRoutes{res, routes}); err != nil {
			return err
		}
		if sf.traceFormat == "ndnsim" {
			if err := net.WriteNDNSimTraces(sf.out); err != nil {
				return err
			}
		}
	}
	if sf.asJSON {
		return writeJSON(cmd.OutOrStdout(), withRoutes{res, routes})
	}
	printResult(cmd.OutOrStdout(), res)
	printRoutes(cmd.OutOrStdout(), routes)
	return nil
}

// scenarioSets returns the assignments of --profile and the --set flags,
// in that order (a usage error for a malformed one).
func scenarioSets(profile string, flags []string) ([]scenario.Assignment, error) {
	var sets []scenario.Assignment
	if profile != "" {
		sets = append(sets, scenario.Assignment{Key: "profile", Value: profile, Pos: topology.Pos{File: "--profile"}})
	}
	for _, s := range flags {
		a, err := scenario.ParseAssignment(s, "--set")
		if err != nil {
			return nil, &exitError{2, err}
		}
		sets = append(sets, a)
	}
	return sets, nil
}

// writeRunReport writes one run's traces (writeTraces), result.json (doc,
// the result as --json prints it, whose routes the page shows too), plots, the network drawing and
// index.html into out; links are the link directions to plot.
func writeRunReport(out string, links []string, sc *scenario.Scenario, arg string, writeTraces func(dir string) error, res *sim.Result, doc withRoutes) error {
	if err := writeTraces(out); err != nil {
		return err
	}
	if err := writeJSONFile(filepath.Join(out, "result.json"), doc); err != nil {
		return err
	}
	files, err := report.PlotRun(out, report.PlotOptions{Title: sc.Name, Links: links})
	if err != nil {
		return fmt.Errorf("plots: %w", err)
	}
	drawing := filepath.Join(out, "topology.svg")
	if err := report.DrawTopology(drawing, sc); err != nil {
		return err
	}
	page := report.Page{Title: sc.Name, Description: sc.Description, Version: version(), GoVersion: runtime.Version(),
		Parameters: append([]report.Param{{Key: "scenario", Value: arg}, {Key: "random seed", Value: fmt.Sprint(res.Seed)}},
			report.ScenarioParams(sc)...),
		Topologies: []report.Drawing{{File: drawing, Caption: "The network: link rate, one-way delay, queue limit (packets), and the queue discipline where it is not drop-tail"}},
		Tables:     append(report.ResultTables(res), routesTable(doc.routes)),
		Variants:   []report.VariantPlots{{Name: "Plots", Run: fmt.Sprintf("The run above, seed %d.", res.Seed), Files: files}}}
	return report.WriteHTML(out, page)
}

// runSweep runs the scenario at every point of the grid, sf.runs times
// each, and prints (or writes) the points.
func runSweep(cmd *cobra.Command, sf *simFlags, sc *scenario.Scenario, sets []scenario.Assignment, axes []experiment.Axis) error {
	sw := &experiment.Sweep{Base: sc, Set: sets, Axes: axes}
	e, err := sw.Experiment()
	if err != nil {
		return &exitError{2, err}
	}
	// Every point's notes on parameters left out (a swept pipeline that
	// lacks the file's), once each.
	seen := map[string]bool{}
	for _, v := range e.Variants {
		vsc, err := e.Scenario(v)
		if err != nil {
			return &exitError{2, err}
		}
		for _, n := range sim.DroppedParams(vsc) {
			if !seen[n] {
				seen[n] = true
				fmt.Fprintln(cmd.ErrOrStderr(), "note:", n)
			}
		}
	}
	base := sf.seed
	if base == 0 {
		first, err := e.Scenario(e.Variants[0])
		if err != nil {
			return &exitError{2, err}
		}
		base = first.Seed
	}
	opt := experiment.Options{Runs: sf.runs, BaseSeed: base, Jobs: sf.jobs}
	bar := newWorkProgress(cmd.ErrOrStderr(), sf.quiet, e.PlannedRuns(opt), sc.Name)
	desc := map[string]string{}
	for _, v := range e.Variants {
		desc[v.Name] = v.Description // the point's settings
	}
	opt.OnRun = func(r experiment.RunDone) {
		bar.Done(fmt.Sprintf("%s %s (%s) run %d", sc.Name, r.Variant, desc[r.Variant], r.Run+1), r.Wall, runMode(r.Live))
	}
	if sf.out != "" {
		opt.TraceDir = sf.out
	}
	rep, err := e.Run(opt)
	bar.Finish()
	if err != nil {
		return err
	}
	srep := sw.NewSweepReport(rep)
	if sf.out != "" {
		if err := writeSweepReport(sf, sw, e, rep, srep); err != nil {
			return err
		}
	}
	if sf.asJSON {
		return srep.WriteJSON(cmd.OutOrStdout())
	}
	srep.PrintTable(cmd.OutOrStdout(), e.Columns)
	return nil
}

// writeSweepReport writes report.json, a chart per metric against the
// swept key, each point's plots and index.html into sf.out.
func writeSweepReport(sf *simFlags, sw *experiment.Sweep, e *experiment.Experiment, rep *experiment.Report, srep *experiment.SweepReport) error {
	if err := writeJSONFile(filepath.Join(sf.out, "report.json"), srep); err != nil {
		return err
	}
	page := report.NewPage(e, rep)
	page.Title = "Sweep of " + sw.Base.Name
	page.Version, page.GoVersion = version(), runtime.Version()
	charts, err := report.SweepCharts(sf.out, srep, e.Columns)
	if err != nil {
		return fmt.Errorf("sweep charts: %w", err)
	}
	page.Summary = charts
	if err := addVariantPages(&page, sf.out, e, rep, report.PlotOptions{Links: sf.links}); err != nil {
		return err
	}
	for _, a := range sw.Set {
		page.Parameters = append([]report.Param{{Key: "--set " + a.Key, Value: fmt.Sprint(a.Value)}}, page.Parameters...)
	}
	return report.WriteHTML(sf.out, page)
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
	printFlowsAndLinks(w, r)
}

// printFlowsAndLinks prints the flows' table and the table of the links
// that carried packets, each only when it has a row.
func printFlowsAndLinks(w io.Writer, r *sim.Result) {
	if len(r.Flows) == 0 {
		fmt.Fprintln(w, "no flows")
	} else {
		printFlows(w, r)
	}
	if slices.ContainsFunc(r.Links, func(l sim.LinkResult) bool { return l.Packets > 0 }) {
		fmt.Fprintln(w)
		printLinks(w, r)
	}
	if len(r.Caches) > 0 {
		fmt.Fprintln(w)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "cache\thits\tmisses\thit ratio\t")
		for _, c := range r.Caches {
			ratio := 0.0
			if c.Hits+c.Misses > 0 {
				ratio = float64(c.Hits) / float64(c.Hits+c.Misses) * 100
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t\n", c.Node, c.Hits, c.Misses, ratio)
		}
		tw.Flush()
	}
	for _, f := range r.Flows {
		if f.Error != "" {
			fmt.Fprintf(w, "\nflow %s: %s\n", f.ID, f.Error)
		}
	}
}

// printFlows prints one row per flow, the pipeline that ran it second.
func printFlows(w io.Writer, r *sim.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "flow\tpipeline\tcomplete\ttime (s)\tgoodput (kbps)\tthroughput (kbps)\ttimeouts\ttimeout %\tretx\tloss events\tmarks\tnacks\tRTT min/avg/max (ms)\t")
	for _, f := range r.Flows {
		fmt.Fprintf(tw, "%s\t%s\t%v\t%.2f\t%.0f\t%.0f\t%d\t%.2f\t%d\t%d\t%d\t%d\t%.1f/%.1f/%.1f\t\n",
			f.ID, f.Pipeline, f.Complete, f.DownloadTimeS, f.GoodputKbps, f.ThroughputKbps,
			f.Timeouts, f.TimeoutPct, f.Retransmissions, f.LossEvents, f.Marks, f.Nacks,
			f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs)
	}
	tw.Flush()
	printApps(w, r.Flows)
}

// printLinks prints one row per link direction that carried packets.
func printLinks(w io.Writer, r *sim.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "link\tpackets\tdrops\tmarks\tmax queue\tmean queue\tutilization\t")
	for _, l := range r.Links {
		if l.Packets == 0 {
			continue
		}
		fmt.Fprintf(tw, "%s->%s\t%d\t%d\t%d\t%d\t%.2f\t%.1f%%\t\n", l.From, l.To, l.Packets, l.Drops, l.Marks, l.MaxQueue, l.MeanQueue, l.Utilization*100)
	}
	tw.Flush()
}

// printApps prints the traffic applications' Interests and delays, if
// any flow is one.
func printApps(w io.Writer, flows []sim.FlowResult) {
	var apps []sim.FlowResult
	for _, f := range flows {
		if consumer.IsApp(f.Pipeline) {
			apps = append(apps, f)
		}
	}
	if len(apps) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "app flow\tapp\tinterests\tdata\ttimeouts\tnacks\tmean delay (ms)\t")
	for _, f := range apps {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.1f\t\n", f.ID, f.Pipeline, f.Interests, f.Segments, f.Timeouts, f.Nacks, f.DelayMeanMs)
	}
	tw.Flush()
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
