package cli

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"

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
		live     bool
		explain  bool
		quiet    bool
		ff       forwarderFlags // with --live
		program  string         // with --live
	)
	cmd := &cobra.Command{
		Use: "experiment [--list] NAME|FILE.toml",
		Example: `  ndncc experiment --list
  ndncc experiment seed000-linear
  ndncc experiment seed000-linear --explain                    # every input and its source
  ndncc experiment seed003-fixed --runs 5 --jobs 2 --out out/s3
  ndncc experiment seed000-linear --live --runs 1              # also run live in the emulator
  ndncc experiment seed000-linear --live --forwarder nfd       # live, every node an NFD process
  ndncc experiment examples/experiments/linear-designs.toml`,
		Short: "Run an experiment (a paper's table, or your own file) and print it beside the paper's figures",
		Long: `Run a named experiment from the catalog (--list), or an experiment file
(docs/experiments.md: a base scenario, variants as settings of its keys, the
columns and the paper's figures): every variant is simulated --runs times with
distinct random seeds (run i uses seed --seed+i) and aggregated (mean, min–max).
The table prints our figures beside the paper's. With --json, one JSON document
with variants[] {name, flows[] (means), flows_min[], flows_max[], runs[], ...}
(docs/results.md).

--live runs the experiment twice: simulated (--jobs at a time), then in real
time in the emulator (ndncc emu, docs/emulation.md), its runs one after another
and never in parallel, whatever --jobs says (a real-time run competing for the
CPU would measure the machine). Every table (terminal, --json's "live" report,
--out's index.html) then shows the simulated and the live figures side by side,
with how late the emulated links ran; a variant the emulator cannot run (TCP
flows or tunnels, underlays, Interest shapers) is listed with the reason. With
--out, the live runs' traces go to DIR/live/VARIANT.

--explain runs nothing: it prints every input of the experiment (rates,
delays, queues, sizes, the consumer's parameters) with its source: a line of
the paper, the reference stack (NFD, ndn-cxx, ndn-tools), or "chosen,
because ...".`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			if len(args) != 1 {
				return fmt.Errorf("want one experiment: a name (see --list) or an experiment file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			w := cmd.OutOrStdout()
			if list {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				for _, e := range experiment.Catalog() {
					paper := "-"
					if e.Seed != "" {
						paper = "paper " + e.Seed
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Name, paper, e.Title)
				}
				for _, sub := range cmd.Commands() {
					if sub.Name() == "tournament" || sub.Name() == "scale" {
						fmt.Fprintf(tw, "%s\t%s\t%s (ndncc experiment %s)\n", sub.Name(), "-", sub.Short, sub.Name())
					}
				}
				return tw.Flush()
			}
			e, err := loadExperiment(args[0])
			if err != nil {
				return &exitError{2, err}
			}
			if explain {
				e.WriteInputs(w, false)
				return nil
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
			if !live && (ff.forwarder != "" || ff.nfd != "" || ff.ndnd != "") {
				return &exitError{2, fmt.Errorf("--forwarder, --nfd and --ndnd choose the live runs' forwarders: add --live")}
			}
			if !live && program != "" {
				return &exitError{2, fmt.Errorf("--consumer-program chooses the live runs' consumers: add --live")}
			}
			if program != "" && program != emu.Catchunks {
				return &exitError{2, fmt.Errorf("--consumer-program %q: the one program mapped is %s", program, emu.Catchunks)}
			}
			if live && sh.Count > 1 {
				return &exitError{2, fmt.Errorf("--live runs cannot be sharded")}
			}
			opt := experiment.Options{Runs: runs, BaseSeed: seed, Variants: variants, Jobs: jobs, Shard: sh}
			planned := e.PlannedRuns(opt)
			if live {
				planned *= 2
			}
			bar := newWorkProgress(cmd.ErrOrStderr(), quiet, planned, e.Name)
			opt.OnRun = func(r experiment.RunDone) {
				bar.Done(fmt.Sprintf("%s %s run %d", e.Name, r.Variant, r.Run+1), r.Wall, runMode(r.Live))
			}
			if out != "" && sh.Count <= 1 {
				opt.TraceDir = out // the first run of each variant, for the plots
			}
			var rep *experiment.Report
			if live {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				liveTraces := ""
				if out != "" {
					liveTraces = filepath.Join(out, liveTraceDir)
				}
				rep, err = e.RunLive(opt, emuRunner(ctx, ff, program), liveTraces)
				if err == nil && rep.Live != nil {
					rep.Live.Forwarder = ff.forwarder
					rep.Live.ConsumerProgram = program
				}
			} else {
				rep, err = e.Run(opt)
			}
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
	cmd.AddCommand(newMergeCmd(), newScaleCmd(), withGCFloor(newTournamentCmd()), newValidateCmd())
	cmd.Flags().BoolVar(&list, "list", false, "list the experiments")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "report no progress on standard error (a bar on a terminal, a line per finished run otherwise)")
	cmd.Flags().BoolVar(&explain, "explain", false, "print the experiment's inputs and the source of each, and run nothing")
	cmd.Flags().IntVar(&runs, "runs", 0, "runs per variant (default: the experiment's own)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	cmd.Flags().StringVar(&out, "out", "", "write report.json, summary charts, per-variant traces and plots, and index.html into this directory")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "random seed of the first run (run i uses seed+i)")
	cmd.Flags().StringSliceVar(&variants, "variant", nil, "run only these variants (repeatable)")
	cmd.Flags().IntVar(&jobs, "jobs", 0, "runs simulated in parallel (default: number of CPUs); results do not depend on it")
	cmd.Flags().StringVar(&shard, "shard", "", "run only shard i of N (\"i/N\", 0 <= i < N) and write partial results to --out")
	ff.add(cmd.Flags())
	cmd.Flags().StringVar(&program, "consumer-program", "", "with --live, fetch with this `program` in every consumer's place: ndncatchunks (its fixed, aimd or cubic pipeline, the consumer's parameters mapped to its options; a variant it cannot map is listed with the reason)")
	cmd.Flags().BoolVar(&live, "live", false, "also run every run live in the emulator (ndncc emu), one after another (never in parallel: --jobs is for the simulated runs), and show both side by side")
	return cmd
}

// loadExperiment finds an experiment: an experiment file (a name ending in
// .toml, or a path) or a catalog entry.
func loadExperiment(arg string) (*experiment.Experiment, error) {
	if strings.HasSuffix(arg, ".toml") || strings.ContainsRune(arg, filepath.Separator) {
		return experiment.LoadFile(arg)
	}
	return experiment.Lookup(arg)
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
		Use: "merge DIR|FILE.json...",
		Example: `  ndncc experiment seed000-linear --runs 4 --shard 0/2 --out part0   # on machine 1
  ndncc experiment seed000-linear --runs 4 --shard 1/2 --out part1   # on machine 2
  ndncc experiment merge part0 part1                                 # the unsharded result
  ndncc experiment seed001-vegas --live --runs 1 --seed 2 --json > run2.json   # one more run, later
  ndncc experiment merge run1.json run2.json --json                  # seeds 1..2 of every variant`,
		Short: "Combine partial results (shards, or runs made apart) into the full experiment",
		Long: `Read the reports of one experiment (DIR/report.json of a run with --out, or a FILE.json
of a run with --json) and print the experiment exactly as one run would have (apart from
timing). The parts are either every shard of one --shard split, or runs made apart, each with
its own --variant and --seed: some variants in one part and the rest in another, or a
variant's first seeds in one and its next ones in another. Every (variant, seed) pair must come
once, and every variant must end with the same number of runs, of consecutive seeds. Live
reports (--live) are merged the same way; all parts must then have them, from the same
--forwarder and --consumer-program, and the live runs keep their own lateness.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var parts []*experiment.Report
			for _, arg := range args {
				path := arg
				if st, err := os.Stat(arg); err == nil && st.IsDir() {
					path = filepath.Join(arg, "report.json")
				}
				f, err := os.Open(path)
				if err != nil {
					return &exitError{2, fmt.Errorf("merge: %w", err)}
				}
				r, err := experiment.DecodeReport(f)
				f.Close()
				if err != nil {
					return &exitError{2, fmt.Errorf("merge: %s: %w", path, err)}
				}
				parts = append(parts, r)
			}
			rep, err := experiment.Merge(parts)
			if err != nil {
				return &exitError{2, err}
			}
			e, err := experiment.Lookup(rep.Experiment)
			if err != nil && rep.Source != "" {
				e, err = experiment.LoadFile(rep.Source)
			}
			if err != nil {
				return &exitError{2, fmt.Errorf("merge: %w", err)}
			}
			rep.OrderLike(e)
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "report.json"), rep); err != nil {
					return err
				}
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
	if err := addVariantPages(&page, out, e, rep, report.PlotOptions{}); err != nil {
		return err
	}
	if err := addLivePlots(&page, out, rep); err != nil {
		return err
	}
	return report.WriteHTML(out, page)
}

// addVariantPages adds to page, for every variant of rep: its scenario's
// parameters (those all variants share once, the others per variant), the
// drawings of the networks, and the plots of its first run, traced into
// out/VARIANT (simulated again here when the directory is missing, as for
// merged shards). Every variant plots the same queues: those that
// queued in any variant, or opts.Links.
func addVariantPages(page *report.Page, out string, e *experiment.Experiment, rep *experiment.Report, opts report.PlotOptions) error {
	var names []string
	var params [][]report.Param
	drawings := map[string]int{} // drawing text -> index in page.Topologies
	var captions [][]string
	for _, vr := range rep.Variants {
		v, ok := e.Variant(vr.Name)
		if !ok {
			continue
		}
		sc, err := e.Scenario(v)
		if err != nil {
			return err
		}
		names = append(names, vr.Name)
		params = append(params, report.ScenarioParams(sc))
		dir := filepath.Join(out, vr.Name)
		if _, err := os.Stat(dir); err != nil {
			net, err := sim.Build(sc, e.SimOptions(rep.BaseSeed, true))
			if err != nil {
				return err
			}
			net.Run()
			if err := net.WriteTraces(dir); err != nil {
				return err
			}
		}
		drawing := filepath.Join(dir, "topology.svg")
		if err := report.DrawTopology(drawing, sc); err != nil {
			return err
		}
		b, err := os.ReadFile(drawing)
		if err != nil {
			return err
		}
		if i, ok := drawings[string(b)]; ok {
			captions[i] = append(captions[i], vr.Name)
		} else {
			drawings[string(b)] = len(page.Topologies)
			page.Topologies = append(page.Topologies, report.Drawing{File: drawing})
			captions = append(captions, []string{vr.Name})
		}
	}
	for i := range page.Topologies {
		page.Topologies[i].Caption = "The network of " + strings.Join(captions[i], ", ") + ": link rate, one-way delay, queue limit (packets), and the queue discipline where it is not drop-tail"
		if len(page.Topologies) == 1 {
			page.Topologies[i].Caption = "The network of every variant: link rate, one-way delay, queue limit (packets), and the queue discipline where it is not drop-tail"
		}
	}
	page.Parameters, page.VariantParameters = report.SplitParams(names, params)
	if len(opts.Links) == 0 {
		seen := map[string]bool{}
		for _, name := range names {
			busy, err := report.BusyQueues(filepath.Join(out, name))
			if err != nil {
				return err
			}
			for _, l := range busy {
				if !seen[l] {
					seen[l] = true
					opts.Links = append(opts.Links, l)
				}
			}
		}
		slices.Sort(opts.Links)
		opts.SkipMissing = true
	}
	for _, name := range names {
		o := opts
		o.Title = name
		files, err := report.PlotRun(filepath.Join(out, name), o)
		if err != nil {
			return fmt.Errorf("plots of %s: %w", name, err)
		}
		page.Variants = append(page.Variants, report.VariantPlots{Name: name, Files: files,
			Run: fmt.Sprintf("Plots of one run: seed %d, the first of the variant's %d.", rep.BaseSeed, rep.Runs)})
	}
	return nil
}

// runMode names how a run ran, for progress lines.
func runMode(live bool) string {
	if live {
		return "live"
	}
	return "sim"
}
