package cli

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
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
		live              bool
		liveFrom          []string
		ff                forwarderFlags // with --live
	)
	cmd := &cobra.Command{
		Use: "tournament",
		Example: `  ndncc experiment tournament
  ndncc experiment tournament --pipeline paced-delay --pipeline bbr --pipeline copa
  ndncc experiment tournament --arena loss-2pct --markdown
  ndncc experiment tournament --live --out out/tournament      # also every cell live, one at a time
  ndncc experiment tournament --out out/tournament`,
		Short: "Every pipeline in every arena: seed scenarios and stress scenarios",
		Long: `Run every pipeline (each with its defaults; fixed with a window of 32) once, random seed 1, in
every arena: the seed scenarios (paper 000's linear and dumbbell, paper 001's long path, paper
003's TCP Reno competitor, paper 004's multipath, caching and wireless networks) and stress
scenarios (RTT 10 and 400 ms; bottlenecks of 1, 100 and 1000 Mbit/s; buffers of 0.1 and 10
bandwidth-delay products; 0.5%, 2%, 5% and 10% random loss; one object from a near and a far
producer at once; a path that switches to a farther source mid-transfer; a cache hit halving
the RTT mid-transfer; a bottleneck whose rate halves and doubles back; 2, 4, 8 and 16 flows with RTTs from 20 to 200 ms; a late starter; one TCP CUBIC flow). Per arena
and pipeline: completion time and its ratio to the arena's limit (the bytes on the wire over the
bottleneck, plus one RTT), mean queueing delay (mean RTT minus the least RTT any pipeline saw on
that flow's path), retransmissions, timeouts, marks and Jain's index. The 100 and 1000 Mbit/s
arenas (and paper 004's, as its catalog entries) run forwarders without processing time: the
simulator's per-packet processing model (0-200 us each) caps a node near 10,000 packets/s,
about 40 Mbit/s of Data and Interests. With --out DIR: DIR/tournament.json, the heat maps
DIR/tournament-time.png and DIR/tournament-queue.png (.svg too) and DIR/index.html.
--markdown prints the markdown of docs/tournament.md's results instead of the table.

--live then runs every cell again in real time in the emulator (ndncc emu), one after another
(never in parallel: --jobs is for the simulated runs), and prints the live table after the
simulated one, or with --markdown the live completion times and queueing delays beside the
simulated ones; an arena the emulator cannot run (a TCP flow, a rate it cannot keep) is listed
with the reason. A cell's live run takes its transfer's real time: the whole tournament takes
hours. With --out, the live report goes to DIR/tournament-live.json; --live-from FILE reads
such a stored report instead of running live (scripts/tournament.sh does, for
docs/tournament.md); given more than once, it merges the stored reports (a later one's cells
replace an earlier one's, and the queueing delays are taken again over the merged cells), so
that one pipeline can be run live again without the others.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !live && (ff.forwarder != "" || ff.nfd != "" || ff.ndnd != "") {
				return &exitError{2, fmt.Errorf("--forwarder, --nfd and --ndnd choose the live runs' forwarders: add --live")}
			}
			if live && len(liveFrom) > 0 {
				return &exitError{2, fmt.Errorf("--live runs the live cells, --live-from reads stored ones: not both")}
			}
			var liveRep *experiment.TournamentReport
			if len(liveFrom) > 0 {
				var stored []*experiment.TournamentReport
				for _, name := range liveFrom {
					f, err := os.Open(name)
					if err != nil {
						return &exitError{2, err}
					}
					r, err := experiment.DecodeTournament(f)
					f.Close()
					if err != nil {
						return &exitError{2, fmt.Errorf("%s: %w", name, err)}
					}
					stored = append(stored, r)
				}
				var err error
				if liveRep, err = experiment.MergeTournaments(stored...); err != nil {
					return &exitError{2, fmt.Errorf("--live-from %s: %w", strings.Join(liveFrom, ", "), err)}
				}
			}
			start := time.Now()
			opt := experiment.TournamentOptions{Arenas: arenas, Pipelines: pipelines, Workers: workers,
				OnRun: func(a, p string) {
					fmt.Fprintf(cmd.ErrOrStderr(), "[%5.1fs] %s %s\n", time.Since(start).Seconds(), a, p)
				}}
			rep, err := experiment.Tournament(opt)
			if err != nil {
				return &exitError{2, err}
			}
			if live {
				ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
				defer stop()
				liveOpt := opt
				liveOpt.OnRun = func(a, p string) {
					fmt.Fprintf(cmd.ErrOrStderr(), "[%5.1fs] live %s %s\n", time.Since(start).Seconds(), a, p)
				}
				liveRep, err = experiment.TournamentLive(liveOpt, emuRunner(ctx, ff, ""))
				if err != nil {
					return err
				}
				if out != "" {
					if err := os.MkdirAll(out, 0o755); err != nil {
						return err
					}
					if err := writeJSONFile(filepath.Join(out, "tournament-live.json"), liveRep); err != nil {
						return err
					}
				}
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
			case asJSON && liveRep != nil:
				return writeJSON(cmd.OutOrStdout(), map[string]*experiment.TournamentReport{"sim": rep, "live": liveRep})
			case asJSON:
				return writeJSON(cmd.OutOrStdout(), rep)
			case markdown:
				rep.Markdown(cmd.OutOrStdout(), experiment.TournamentPipeline)
				if liveRep != nil {
					rep.MarkdownLive(cmd.OutOrStdout(), liveRep)
				}
			default:
				rep.PrintTable(cmd.OutOrStdout())
				if liveRep != nil {
					fmt.Fprintln(cmd.OutOrStdout(), "\nlive:")
					liveRep.PrintTable(cmd.OutOrStdout())
				}
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
	cmd.Flags().BoolVar(&live, "live", false, "also run every cell live in the emulator (ndncc emu), one after another, and show both")
	cmd.Flags().StringSliceVar(&liveFrom, "live-from", nil, "show the live cells of this stored report (DIR/tournament-live.json of --live --out) beside the simulated ones; repeated, the reports are merged, a later one's cells replacing an earlier one's")
	ff.add(cmd.Flags())
	return cmd
}
