package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/report"
)

func newTournamentCmd() *cobra.Command {
	var (
		arenas, pipelines []string
		workers           int
		asJSON, markdown  bool
		out               string
	)
	cmd := &cobra.Command{
		Use: "tournament",
		Example: `  ndncc experiment tournament
  ndncc experiment tournament --pipeline paced-delay --pipeline bbr --pipeline copa
  ndncc experiment tournament --arena loss-2pct --markdown
  ndncc experiment tournament --out out/tournament`,
		Short: "Every pipeline in every arena: seed scenarios and stress scenarios",
		Long: `Run every pipeline (each with its defaults; fixed with a window of 32) once, random seed 1, in
every arena: the seed scenarios (paper 000's linear and dumbbell, paper 001's long path, paper
003's TCP Reno competitor, paper 004's multipath, caching and wireless networks) and stress
scenarios (RTT 10 and 400 ms; bottlenecks of 1, 100 and 1000 Mbit/s; buffers of 0.1 and 10
bandwidth-delay products; 0.5%, 2%, 5% and 10% random loss; one object from a near and a far
producer at once; a cache hit halving the RTT mid-transfer;
2, 4, 8 and 16 flows with RTTs from 20 to 200 ms; a late starter; one TCP CUBIC flow). Per arena
and pipeline: completion time and its ratio to the arena's limit (the bytes on the wire over the
bottleneck, plus one RTT), mean queueing delay (mean RTT minus the least RTT any pipeline saw on
that flow's path), retransmissions, timeouts, marks and Jain's index. The 100 and 1000 Mbit/s
arenas (and paper 004's, as its catalog entries) run forwarders without processing time: the
simulator's per-packet processing model (0-200 us each) caps a node near 10,000 packets/s,
about 40 Mbit/s of Data and Interests. With --out DIR: DIR/tournament.json, the heat maps
DIR/tournament-time.png and DIR/tournament-queue.png (.svg too) and DIR/index.html.
--markdown prints the markdown of docs/tournament.md's results instead of the table.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			start := time.Now()
			opt := experiment.TournamentOptions{Arenas: arenas, Pipelines: pipelines, Workers: workers,
				OnRun: func(a, p string) {
					fmt.Fprintf(cmd.ErrOrStderr(), "[%5.1fs] %s %s\n", time.Since(start).Seconds(), a, p)
				}}
			rep, err := experiment.Tournament(opt)
			if err != nil {
				return &exitError{2, err}
			}
			if out != "" {
				if err := os.MkdirAll(out, 0o755); err != nil {
					return err
				}
				if err := writeJSONFile(filepath.Join(out, "tournament.json"), rep); err != nil {
					return err
				}
				files, err := report.TournamentHeatMaps(filepath.Join(out, "tournament"), rep)
				if err != nil {
					return err
				}
				if err := report.WriteHTML(out, report.TournamentPage(rep, experiment.TournamentPipeline, files)); err != nil {
					return err
				}
			}
			switch {
			case asJSON:
				return writeJSON(cmd.OutOrStdout(), rep)
			case markdown:
				rep.Markdown(cmd.OutOrStdout(), experiment.TournamentPipeline)
			default:
				rep.PrintTable(cmd.OutOrStdout())
			}
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&arenas, "arena", nil, "run only these arenas (repeatable; default all: "+fmt.Sprint(experiment.Arenas())+")")
	cmd.Flags().StringSliceVar(&pipelines, "pipeline", nil, "run only these pipelines (repeatable; default all)")
	cmd.Flags().IntVar(&workers, "jobs", runtime.NumCPU(), "simulations run in parallel; results do not depend on it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the report as markdown (docs/tournament.md's results)")
	cmd.Flags().StringVar(&out, "out", "", "write tournament.json, the heat maps and index.html into this directory")
	return cmd
}
