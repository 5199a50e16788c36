package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// scaleMemoryLimit is the Go runtime's soft memory limit during
// experiment scale (unless GOMEMLIMIT sets one): a simulation's memory is
// its live heap plus the garbage awaiting collection, which the collector
// by default lets grow as large as the live heap; near the limit it
// collects more often instead.
const scaleMemoryLimit = 1800 << 20

func newScaleCmd() *cobra.Command {
	var (
		routers, flows []int
		fileSize       string
		pipeline       string
		seed           uint64
		startWithin    time.Duration
		asJSON         bool
		quiet          bool
		out            string
	)
	cmd := &cobra.Command{
		Use: "scale",
		Example: `  ndncc experiment scale
  ndncc experiment scale --routers 100 --flows 100,1000 --json
  ndncc experiment scale --out out/scale`,
		Short: "What simulating bigger networks costs: wall time, events/s, memory per node and per flow",
		Long: `Simulate, for every number of routers (--routers) and of flows (--flows), an isp topology
(docs/scenario.md, generate = "isp") with that many concurrent flows: each consumer on a random
access router fetches its own object (--file-size) from a producer on a random aggregation router,
all starting within --start-within. Report per point the wall time to build and to run the
network, the events run and events per second, the live heap of the network (per node) and what
the flows added to it at its peak (per flow), and the peak memory the process held. Points run one
at a time. Two more points run the smallest topology with the middle number of flows, every
consumer with a fixed window of 32, at --file-size and four times it: the same windows, objects
four times larger, to show that memory follows the windows, not the objects.
With --out DIR: DIR/scale.json and DIR/scale.png, .svg (cost against size). Exits 1 if a flow
of some point did not complete. Unless GOMEMLIMIT is set, the Go runtime's soft memory limit is
1800 MiB: near it the garbage collector runs more often rather than let garbage double the heap.
With a limit, the simulator's heap floor (ndncc sim --help) stays off.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			size, err := scenario.ParseSize(fileSize)
			if err != nil || size < 1 {
				return &exitError{2, fmt.Errorf("--file-size %q: want a positive size such as 256KiB", fileSize)}
			}
			for _, n := range append(append([]int(nil), routers...), flows...) {
				if n < 1 {
					return &exitError{2, fmt.Errorf("--routers %v, --flows %v: want positive numbers", routers, flows)}
				}
			}
			if startWithin <= 0 || seed < 1 {
				return &exitError{2, fmt.Errorf("--start-within %v, --seed %d: want a positive duration and seed", startWithin, seed)}
			}
			for _, r := range routers {
				if err := (topology.GenSpec{Family: topology.FamilyISP, Routers: r}).Validate(); err != nil {
					return &exitError{2, fmt.Errorf("--routers: %w", err)}
				}
			}
			if !slices.Contains(cc.Pipelines(), pipeline) {
				return &exitError{2, fmt.Errorf("--pipeline %q: want one of %s", pipeline, strings.Join(cc.Pipelines(), ", "))}
			}
			opt := experiment.ScaleOptions{Routers: routers, Flows: flows, FileSize: size, Pipeline: pipeline,
				Seed: seed, StartWithin: startWithin}
			if os.Getenv("GOMEMLIMIT") == "" {
				defer debug.SetMemoryLimit(debug.SetMemoryLimit(scaleMemoryLimit))
			}
			bar := newWorkProgress(cmd.ErrOrStderr(), quiet, len(opt.Points()), "scale")
			var (
				last    string // the point running
				started time.Time
			)
			opt.OnPoint = func(p experiment.ScalePoint) { // as each starts: the one before ended
				if last != "" {
					bar.Done(last, time.Since(started), "sim")
				}
				last, started = fmt.Sprintf("%d routers, %d flows of %d bytes", p.Routers, p.Flows, p.FileSize), time.Now()
			}
			rep, err := experiment.Scale(opt)
			if err == nil && last != "" {
				bar.Done(last, time.Since(started), "sim")
			}
			bar.Finish()
			if err != nil {
				return err
			}
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "scale.json"), rep); err != nil {
					return err
				}
				if _, err := report.ScaleChart(filepath.Join(out, "scale"), rep); err != nil {
					return err
				}
			}
			if asJSON {
				err = writeJSON(cmd.OutOrStdout(), rep)
			} else {
				rep.PrintTable(cmd.OutOrStdout())
			}
			if err != nil {
				return err
			}
			for _, p := range rep.Points {
				if p.Complete < p.Flows {
					return fmt.Errorf("scale: %d routers, %d flows: only %d flows completed", p.Routers, p.Flows, p.Complete)
				}
			}
			return nil
		},
	}
	d := experiment.DefaultScaleOptions()
	cmd.Flags().IntSliceVar(&routers, "routers", d.Routers, "isp topology sizes, routers")
	cmd.Flags().IntSliceVar(&flows, "flows", d.Flows, "numbers of concurrent flows")
	cmd.Flags().StringVar(&fileSize, "file-size", "256KiB", "each flow's object (B, KiB, MiB, ...)")
	cmd.Flags().StringVar(&pipeline, "pipeline", d.Pipeline, "every consumer's pipeline")
	cmd.Flags().Uint64Var(&seed, "seed", d.Seed, "seed of the topologies, the flows and the runs")
	cmd.Flags().DurationVar(&startWithin, "start-within", d.StartWithin, "the flows start uniformly within this time")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "report no progress on standard error (a bar on a terminal, a line per finished point otherwise)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document instead of the table")
	cmd.Flags().StringVar(&out, "out", "", "write scale.json and the cost charts (scale.png, scale.svg) into this directory")
	return cmd
}
