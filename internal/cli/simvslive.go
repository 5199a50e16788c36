package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/experiment"
)

// simVsLive are the catalog experiments the emulator can run, in the order
// docs/reproduction.md shows them and scripts/sim-vs-live.sh runs them by
// default: its files are DIR/NAME.json (`experiment NAME --live --json`)
// and DIR/NAME.machine.txt (the machine and its load while NAME ran). The
// section then names the rest of the catalog with why it has no live run.
var simVsLive = []string{"seed000-linear", "seed000-dumbbell", "seed003-fixed", "seed002-marking", "seed004-multipath",
	"seed004-caching", "seed004-wireless", "seed003-aimd", "seed000-linear-marks", "seed001-vegas", "seed004-icp", "pipelines"}

// writeSimVsLive writes docs/reproduction.md's "Sim vs live" section from
// the reports scripts/sim-vs-live.sh stored in dir, and a line for every
// other catalog experiment: why the emulator cannot run it, or the command
// that would run it; nothing when dir does not exist (a checkout without
// live results).
func writeSimVsLive(w io.Writer, dir string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	fmt.Fprintf(w, "## Sim vs live\n\n%s\n", simVsLiveIntro)
	names := slices.Clone(simVsLive)
	for _, e := range experiment.Catalog() {
		if !slices.Contains(names, e.Name) {
			names = append(names, e.Name)
		}
	}
	var missing []string
	for _, name := range names {
		e, err := experiment.Lookup(name)
		if err != nil {
			return err
		}
		machine, err := os.ReadFile(filepath.Join(dir, name+".machine.txt"))
		if errors.Is(err, fs.ErrNotExist) {
			line, err := notLive(e)
			if err != nil {
				return err
			}
			missing = append(missing, line)
			continue
		}
		if err != nil {
			return fmt.Errorf("sim vs live: %w", err)
		}
		f, err := os.Open(filepath.Join(dir, name+".json"))
		if err != nil {
			return fmt.Errorf("sim vs live: %w (run scripts/sim-vs-live.sh %s)", err, name)
		}
		rep, err := experiment.DecodeReport(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("sim vs live: %s: %w", name, err)
		}
		if rep.Live == nil {
			return fmt.Errorf("sim vs live: %s.json has no live report", name)
		}
		fmt.Fprintf(w, "### `%s` — sim vs live\n\n", name)
		fmt.Fprintf(w, "`ndncc experiment %s --live --runs %d%s`: %s. The machine (`%s`):\n\n```\n%s```\n\n",
			name, rep.Runs, experiment.VariantFlags(e, rep), e.Title, name+".machine.txt", machine)
		if len(rep.Variants) < len(e.Variants) {
			// The paper's findings compare variants the subset lacks:
			// checked on it they would fail for want of figures.
			sub := *e
			sub.Findings = nil
			e = &sub
		}
		rep.WriteMarkdown(w, e)
		fmt.Fprintf(w, "\n")
		writeRunLines(w, rep)
		if checks := simVsLiveChecks[name]; len(checks) > 0 {
			fmt.Fprintf(w, "\n| sim-vs-live check | met | figures |\n|---|---|---|\n")
			for _, c := range checks {
				holds, figs := c.Check(rep)
				verdict := "met"
				if !holds {
					verdict = "not met " + experiment.OutOfRange
				}
				fmt.Fprintf(w, "| %s | %s | %s |\n", c.Claim, verdict, figs)
			}
		}
		if note := simVsLiveNotes[name]; note != "" {
			fmt.Fprintf(w, "\n**Differences.** %s\n", strings.TrimSpace(note))
		}
		fmt.Fprintf(w, "\n")
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "### Catalog experiments without a live run\n\n")
		for _, line := range missing {
			fmt.Fprintf(w, "- %s\n", line)
		}
		fmt.Fprintf(w, "\n")
	}
	return nil
}

// notLive is the section's line for experiment e, which has no stored live
// run: why the emulator cannot run it (emu.Check refuses every variant),
// or the command that would run it, with the variants it would list as
// not run.
func notLive(e *experiment.Experiment) (string, error) {
	var reasons, refused []string
	for _, v := range e.Variants {
		sc, err := e.Scenario(v)
		if err != nil {
			return "", fmt.Errorf("sim vs live: %s: %w", e.Name, err)
		}
		if err := emu.Check(sc, emu.Options{}); err != nil {
			refused = append(refused, v.Name)
			for _, r := range strings.Split(err.Error(), "\n") {
				if _, after, ok := strings.Cut(r, "emu: "); ok {
					r = after
				}
				if !slices.Contains(reasons, r) {
					reasons = append(reasons, r)
				}
			}
		}
	}
	if len(refused) == len(e.Variants) {
		return fmt.Sprintf("`%s` (%s): cannot run live: %s.", e.Name, e.Title, strings.Join(reasons, "; ")), nil
	}
	line := fmt.Sprintf("`%s` (%s): not yet run live: `scripts/sim-vs-live.sh %s`.", e.Name, e.Title, e.Name)
	if len(refused) > 0 {
		line += fmt.Sprintf(" Its variants %s cannot run live: %s.", strings.Join(refused, ", "), strings.Join(reasons, "; "))
	}
	return line, nil
}

// writeRunLines lists, per variant, what tells a CPU-starved live run from
// a real difference: the flows' timeouts live and simulated, and how late
// the emulated links' timers ran.
func writeRunLines(w io.Writer, rep *experiment.Report) {
	for _, v := range rep.Variants {
		var lv *experiment.VariantResult
		for i := range rep.Live.Variants {
			if rep.Live.Variants[i].Name == v.Name {
				lv = &rep.Live.Variants[i]
			}
		}
		if lv == nil {
			continue
		}
		if lv.NotRun != "" {
			continue // writeLiveNotes said why
		}
		var simTO, liveTO, liveRetx, simRetx uint64
		for i := range v.Flows {
			simTO += v.Flows[i].Timeouts
			simRetx += v.Flows[i].Retransmissions
		}
		for i := range lv.Flows {
			liveTO += lv.Flows[i].Timeouts
			liveRetx += lv.Flows[i].Retransmissions
		}
		late := experiment.Lateness{}
		if lv.Lateness != nil {
			late = *lv.Lateness
		}
		var onDemand uint64
		for _, r := range lv.Runs {
			onDemand += r.SignedOnDemand
		}
		signed := ""
		if onDemand > 0 {
			signed = fmt.Sprintf(" The producers signed %d Data when asked for, past their presigned share (%d run(s)).", onDemand, len(lv.Runs))
		}
		fmt.Fprintf(w, "- `%s`: timeouts %d live, %d simulated; retransmissions %d live, %d simulated; the emulated links' timers ran %.3f ms late on average, %.1f ms at most, and %d frames left over a serialisation time late.%s\n",
			v.Name, liveTO, simTO, liveRetx, simRetx, late.MeanMs, late.MaxMs, late.Overruns, signed)
	}
}

// flowOf returns flow 0 of variant name in r (the simulator's or the live
// report), and whether it ran.
func flowOf(r *experiment.Report, name string) (experiment.VariantResult, bool) {
	for _, v := range r.Variants {
		if v.Name == name && v.NotRun == "" && len(v.Flows) > 0 {
			return v, true
		}
	}
	return experiment.VariantResult{}, false
}

// relDiff is how far live lies from sim, as a fraction of sim.
func relDiff(live, sim float64) float64 { return live/sim - 1 }

// timeWithin is the check that variant name's live time lies within tol
// of the simulator's.
func timeWithin(name string, tol float64) experiment.Finding {
	return experiment.Finding{
		Claim: fmt.Sprintf("`%s`: live time within %.0f%% of the simulator's", name, tol*100),
		Check: func(r *experiment.Report) (bool, string) {
			s, ok1 := flowOf(r, name)
			l, ok2 := flowOf(r.Live, name)
			if !ok1 || !ok2 {
				return false, "not run"
			}
			st, lt := s.Flows[0].DownloadTimeS, l.Flows[0].DownloadTimeS
			d := relDiff(lt, st)
			return math.Abs(d) <= tol, fmt.Sprintf("live %.2f s, simulated %.2f s (%+.1f%%)", lt, st, 100*d)
		},
	}
}

// markingChecks are seed002's checks for the rows over one tunnel kind
// (udp, tcp): marking cuts the live mean RTT at least 3x, costs at most
// 15% of the goodput, and leaves no retransmission.
func markingChecks(kind string) []experiment.Finding {
	pair := func(r *experiment.Report) (without, with experiment.VariantResult, ok bool) {
		a, ok1 := flowOf(r, kind+"-without-cc")
		b, ok2 := flowOf(r, kind+"-with-cc")
		return a, b, ok1 && ok2
	}
	return []experiment.Finding{
		{Claim: fmt.Sprintf("%s: with marking the live mean RTT at least 3x lower than without", kind),
			Check: func(r *experiment.Report) (bool, string) {
				a, b, ok := pair(r.Live)
				if !ok {
					return false, "not run live"
				}
				sa, sb, _ := pair(r)
				x := a.Flows[0].RTTAvgMs / b.Flows[0].RTTAvgMs
				return x >= 3, fmt.Sprintf("live %.1f -> %.1f ms (%.2fx); simulated %.1f -> %.1f ms (%.2fx)",
					a.Flows[0].RTTAvgMs, b.Flows[0].RTTAvgMs, x, sa.Flows[0].RTTAvgMs, sb.Flows[0].RTTAvgMs, sa.Flows[0].RTTAvgMs/sb.Flows[0].RTTAvgMs)
			}},
		{Claim: fmt.Sprintf("%s: live goodput with marking within 15%% of without", kind),
			Check: func(r *experiment.Report) (bool, string) {
				a, b, ok := pair(r.Live)
				if !ok {
					return false, "not run live"
				}
				d := relDiff(b.Flows[0].GoodputKbps, a.Flows[0].GoodputKbps)
				return math.Abs(d) <= 0.15, fmt.Sprintf("%.0f kbit/s with, %.0f without (%+.1f%%)", b.Flows[0].GoodputKbps, a.Flows[0].GoodputKbps, 100*d)
			}},
		{Claim: fmt.Sprintf("%s: zero live retransmissions with marking", kind),
			Check: func(r *experiment.Report) (bool, string) {
				_, b, ok := pair(r.Live)
				if !ok {
					return false, "not run live"
				}
				return b.Flows[0].Retransmissions == 0, fmt.Sprintf("%d", b.Flows[0].Retransmissions)
			}},
	}
}

// simVsLiveChecks are what sim and live must agree on, checked against the
// stored reports.
var simVsLiveChecks = map[string][]experiment.Finding{
	"seed000-linear": {
		timeWithin("design0", 0.05),
		timeWithin("design3", 0.10),
		{Claim: "the paper's order holds live: #0 fastest, then #3, #2, #1",
			Check: func(r *experiment.Report) (bool, string) {
				var ts []float64
				var parts []string
				for _, n := range []string{"design0", "design3", "design2", "design1"} {
					v, ok := flowOf(r.Live, n)
					if !ok {
						return false, n + " not run"
					}
					ts = append(ts, v.Flows[0].DownloadTimeS)
					parts = append(parts, fmt.Sprintf("%s %.2f s", n, v.Flows[0].DownloadTimeS))
				}
				return ts[0] < ts[1] && ts[1] < ts[2] && ts[2] < ts[3], strings.Join(parts, ", ")
			}},
	},
	"seed002-marking": append(markingChecks("udp"), markingChecks("tcp")...),
	"seed004-icp": {
		{Claim: "Table 1's finding holds live: every consumer's rate is higher with PCON than with ICP",
			Check: func(r *experiment.Report) (bool, string) {
				icp, ok1 := flowOf(r.Live, "icp")
				pcon, ok2 := flowOf(r.Live, "pcon")
				if !ok1 || !ok2 || len(icp.Flows) != len(pcon.Flows) {
					return false, "not run"
				}
				holds := true
				var parts []string
				for i := range icp.Flows {
					p, c := pcon.Flows[i].ThroughputKbps, icp.Flows[i].ThroughputKbps
					holds = holds && p > c
					parts = append(parts, fmt.Sprintf("%s %.0f vs %.0f", icp.Flows[i].ID, p, c))
				}
				return holds, "PCON vs ICP, kbit/s: " + strings.Join(parts, ", ")
			}},
	},
	"seed004-multipath": {
		{Claim: "`bw-pcon`: the live split ratio within 10 percentage points of the optimum",
			Check: func(r *experiment.Report) (bool, string) {
				l, ok := flowOf(r.Live, "bw-pcon")
				s, _ := flowOf(r, "bw-pcon")
				if !ok {
					return false, "not run"
				}
				return l.Extra["split_error_pp"] <= 10, fmt.Sprintf("live %.3f, simulated %.3f, optimum %.3f: %.1f pp off live",
					l.Extra["split_ratio"], s.Extra["split_ratio"], l.Extra["optimal_split_ratio"], l.Extra["split_error_pp"])
			}},
	},
}

// simVsLiveIntro opens the section.
const simVsLiveIntro = `Generated by ` + "`scripts/sim-vs-live.sh`" + `, which runs these experiments simulated and live
(` + "`ndncc experiment NAME --live`" + `: every node a live forwarder on loopback, every link emulated by the
simulator's link model in real time, the consumers and producers ` + "`ndncc fetch`" + `'s and ` + "`ndncc serve`" + `'s
runtimes; docs/emulation.md) and stores their reports in docs/sim-vs-live/; ` + "`ndncc reproduce`" + ` writes
this section from them. Each table gives, per column, the simulated figure, the live one and the
paper's; "live lateness" says how late the emulated links' timers ran: a frame that left over a
serialisation time after its turn means the machine kept the forwarder from the CPU, and a live
figure from such a run says more about the machine than about the protocol. Below each table:
per variant, the live and simulated timeouts and the lateness; then the sim-vs-live checks, and what
explains each difference. The stored runs are as old as their machine files say. The section ends with the catalog
experiments that have no stored live run: why the emulator cannot run them, or the command that
runs them.
`

// simVsLiveNotes explain, per experiment, where the live figures differ
// from the simulated ones (written from the stored runs; rewrite them
// when scripts/sim-vs-live.sh runs again).
var simVsLiveNotes = map[string]string{
	"seed000-linear": `Three runs per variant, as paper 000 made: the first on a quiet machine (load 0.3-0.5), the other two
later and merged in (` + "`scripts/sim-vs-live.sh --more`" + `; load 1.4-2.5, beside another engineer's compiles at the
lowest priority); the emulated links' timers ran at most 7.0-11.6 ms late. The live runs keep the
simulator's times within 2.1% on average: design0 23.92 s (23.87-24.01) against 23.87, design1 26.39
(26.31-26.53) against 25.95, design2 24.53 (24.19-24.83) against 24.10, design3 24.72 (24.30-25.14)
against 24.21, with 97, 116 and 117 timeouts against 97, 115 and 115 and mean RTTs within 2.6 ms.
The paper's order (#0, then #3, #2, #1) does not hold in either: with ndn-cxx's 200 ms minimum RTO,
design2 finishes before design3 on average simulated and live alike (the table above says why the
paper's Design #2 figure needs a floor below the base RTT). The live Data have the simulator's size
(1449 bytes on the wire, measured at the bottleneck). An earlier run of this script at load 6-8 had
design2 at 43.7 s against 31.0, after a stall of 443 ms (over twice the 200 ms minimum RTO) timed out
every Interest in flight: the lateness column is what tells such a run from a real difference.`,
	"seed000-dumbbell": `Three runs per variant, as paper 000 made: the first on a quiet machine (load 0.3-0.7), the other two
later and merged in (load 1.7-2.5, beside another engineer's compiles at the lowest priority); the
links' timers ran at most 15.2-26.0 ms late. design0's two fixed windows of 16, which cannot fill the
32-packet queue, take the simulator's 47.63 s to within 0.2% (47.72 and 47.73) with no timeout. In
the AIMD designs the two flows' mean stays within 1.6% of the simulator's (design1 48.00 s against
48.77, design2 47.15 against 47.64, design3 47.06 against 47.33). Which of the two flows gets ahead
varies from run to run in both runtimes (design1's c1 44.44-49.41 s live, 45.64-49.48 simulated):
which of two AIMD flows sharing the bottleneck gets ahead after a loss is decided by which Data fall
at the queue's limit. Timeouts are at most 14% apart per flow (design3 c2 89 against 78 is the
largest). An earlier run of this script at load 5-10 had every live time 12-60% longer, with link
timers up to 384 ms late and 586 timeouts for design0, all stalls of the machine.`,
	"seed003-fixed": `Five runs per variant, as paper 003 made, at load 3.4 at the start and 4.0 at the end (a build
at nice 19 beside the emulator at nice -10), the links' timers 0.52-0.56 ms late on average and
26-29 ms at most. fixed-50 takes the simulator's time to 0.04% in every run (23.88 s against
23.87), with 0-9 timeouts where the simulator has none, and fixed-200 is within 0.5% (29.25-29.31 s
against 29.13-29.14). The losses are the emulated link's own (a window of 100 or 200 overflows the
32-packet queue in the link model both runtimes share), so the loss rates agree within 1.0 point
(6.7% live against 5.7% for 100, 19.8% against 18.8% for 200); the live forwarders' real
per-packet time, against the simulator's 0-200 µs draw, makes more Data fall at the queue's limit
(725 timeouts against 598 for 100, 2,235 against 2,004 for 200). fixed-100 finishes 4.4% sooner
live in every run (25.24-25.38 s against 26.42-26.47) in spite of those losses, so the difference
is the runtimes', not one run's luck. The losses fall differently: in 89 loss events live against
43 simulated, so with the 1 s minimum RTO the window waits on them at other times; which of the
runtimes' differences (the forwarders' per-packet time, when the timers fire) makes the run
shorter, these runs do not tell. The paper's own runs span 24.6-26.8 s.`,
	"seed002-marking": `Run with every packet marked above the threshold (the hackathon's scheme, the experiment's
description) and the UDP threshold in the kernel's bytes (50,000 of TIOCOUTQ, 6 Data), at load
2.6 at the start and 3.5 at the end. The udp-* rows are emulated links: 43.8 -> 12.6 ms live
(3.5x) against 39.1 -> 9.8 ms simulated (4.0x), goodput within 1% of the simulator's and the
same with marks as without (-0.2%), 286 retransmissions without marks against 298 and none with
them. The mean RTTs are 4.7 and 2.8 ms higher live: each Data crosses five real hops with socket
calls and loop wake-ups that the simulator's 0-200 us per packet does not fully cover, and with
marks, where the queue is short, that cost weighs most on the ratio; the live run with marks
also received fewer marks (982 against 1706), and its links' timers ran up to 70.7 ms late. The
previous run of this script (c0ebc67, load 1.9), with the threshold in Data bytes (about 10
Data), gave 42.9 -> 18.1 ms live (2.37x; simulated 2.84x). TCP tunnels run live over real kernel
TCP (docs/emulation.md, "TCP tunnels"), marking by the forwarder's send queue and the socket's
unsent bytes: 150.9 -> 18.6 ms live (8.1x) against 155.1 -> 15.7 ms simulated, the goodput 2.3%
higher with marks than without, no retransmission with them; the live socket let fewer marks
through (1830 against 2845) and the mean RTT with marks is 2.9 ms higher. Runs of this script
on a loaded machine (load 8-10) starved one udp row or the other of CPU (link timers up to 294
and 348 ms late): their figures measured the machine, not the queue.`,
	"seed000-linear-marks": `Run at load 5.9 at the start and 7.8 at the end. aimd-droptail is 3.3%
slower live (24.86 s against 24.07) with 119 timeouts against 114. aimd-codel-mark-beta05, whose
links' timers ran at most 12 ms late, keeps the simulator's figures: 28.04 s against 27.97, no loss,
27 marks against 30. aimd-codel-mark lost 81 segments live (109 timeouts) where the simulator lost
none, and still finished within 2% (24.59 s against 24.11); its links' timers ran up to 185 ms late,
so a stall of the machine may be the cause, which one run cannot tell. aimd-codel-mark-q32 timed out
53 times against 21. With marks the mean RTT is 4-6 ms higher live (78.0, 72.9 and 77.3 ms against
73.2, 68.8 and 71.4): the live forwarders' real per-packet time, against the simulator's 0-200 µs
draw, where CoDel keeps the queue short.`,
	"seed001-vegas": `Five runs per variant, as paper 001 made. Run 1's 13 variants at 50 and 100 ms and AIMD and CUBIC at
200 ms ran on a quiet machine (load 0.4 at the start, 0.2 at the end), its four Vegas variants at 200
ms later, apart, and were merged in (load 0.4 to 1.3, beside compiles and test runs at the lowest
priority); run 2 ran whole (load 2.3 at the start, 0.4 at the end), beside compiles and test runs at
the lowest priority for much of it; runs 3, 4 and 5 ran at the same time, three emulators side by
side (load 0.5 at the start, 0.5-1.9 at the end), beside compiles and instruction counts at the lowest
priority (` + "`scripts/sim-vs-live.sh --more seed001-vegas`" + ` adds one run; runs made apart are merged with
` + "`ndncc experiment merge`" + `). The links' timers ran at most 22.5-33.6 ms late per run. The runs made side by side
are not slower than the others: vegas-a5-b10 at 50 ms took 482.3-497.4 s in them against 531.9 and
554.7 alone. AIMD and CUBIC at 50 and 100 ms keep the simulator's times to 0.6% in every run (57.0-57.7
s against 57.0-57.8): the path's rate bounds them. Every Vegas variant is slower live, 2.5 to 7 times,
with no loss either way: at 50 ms vegas-a5-b10 511.1 s (482.3-554.7) against 77.5, -a10-b20 270.9
against 58.8, -a20-b30 162.5 against 58.3, NDN-Vegas 293.7 against 58.8; at 100 ms vegas-a5-b10 295.6
against 67.3, -a10-b20 165.6 and NDN-Vegas 156.0 against 63.9. Live, the RTT sits about 2 ms over its
least (52.8-53.0 against 50.9-51.4 ms at 50 ms) where the simulator's sits 0.1-0.7 ms over it: the
live forwarders' per-packet time. Paper 001's Vegas compares alpha and beta with expected - actual in
segments per second, so the queue it aims for is alpha to beta times the base RTT in seconds, 0.25 to
0.5 segments for alpha 5 and beta 10 at 50 ms (about 0.2 to 0.4 ms at this rate): 2 ms of delay that
is not queue holds its window near a quarter of the path's, and the larger pairs, which aim for more,
lose less. At 200 ms every variant is slower live, and timeouts rather than Vegas's delay rule are
why. AIMD takes 365.2 s (305.4-411.4) against 86.5, with 123-199 timeouts per run against 12-15, of
which 106-183 are late_data: the Data came after the timeout and before the retransmission, so the
timeout was certainly spurious. The four Vegas variants take 832.8 s (567.3-1200.0; vegas-a5-b10),
457.7, 484.9 and 503.9 (-a10-b20, -a20-b30, NDN-Vegas) against 111.7-137.9 simulated, with 101-309
timeouts per run against 7-32, of which 85-285 are late_data, each a window decrease (46-105 per run).
With a 200 ms RTT and little variance the RTO sits a few ms over the RTT, which the live jitter
crosses, and each timeout that decreases the window costs rounds of 200 ms to grow back, the more the
later in a run it falls: vegas-a5-b10's runs span 567.3-1200.0 s with 101-135 timeouts. So at 200 ms
the live order of the variants is the order of their spurious timeouts, not of alpha and beta. CUBIC
at 200 ms is the closest, 237.2 s (209.1-276.3) against 176.4. Paper 001's own testbed had real
forwarders too; docs/validation.md has Vegas at 200 ms through NFD (1139 s against 112 simulated).`,
	"seed003-aimd": `Five runs per variant, as paper 003 made, at load 4.0 at the start and 0.4 at the end, the
links' timers 0.49 ms late on average and 22-25 ms at most. The three rows keep the simulator's
order in every run (fixed-50 23.87-23.88 s, aimd 31.71-32.23, aimd-hole 34.51-35.36; simulated
23.87, 30.92-31.02, 34.18-34.25). fixed-50 takes the simulator's time to 0.04%, with 2-5 timeouts
per run where the simulator has none; aimd is 2.8% slower live (31.87 s against 31.00 on average)
with 169-171 timeouts against 169, and aimd-hole 2.1% slower (34.94 against 34.23) with 71-74
against 66. The live runs vary little (at most 0.85 s between runs) and each lies above the
simulated ones, so the few percent are the runtimes' difference, not noise. The growing windows'
mean RTTs are 1.5 and 1.6 ms higher live (107.9 against 106.4 ms, 100.6 against 99.0), fixed-50's
0.4 ms lower; which of the runtimes' differences slows the growing windows, these runs do not
isolate.`,
	"seed004-caching": `Run at load 3.3 at the start and 6.7 at the end (other work on the machine),
with the emulated links' timers 0.48-0.56 ms late on average and 35.6 and 78.2 ms at most.
codel-drop keeps the simulator's times to 0.1% (c1 30.92 s live against 30.94, c2 25.91 against
25.93) with fewer timeouts (208 and 174 against 233 and 224). PCON, which loses nothing either way,
finishes 3-4% later live (c1 24.96 s against 24.18, c2 19.96 against 19.18) with fewer marks (139
and 204 against 144 and 286). The mean RTTs are 4-7 ms higher live (PCON c1 66.4 against 59.6 ms, c2
48.6 against 43.3; codel-drop 60.6 against 56.3 and 50.7 against 45.8): the live forwarders take
real time per packet, where this experiment's simulated ones take none (PCON was evaluated in
ndnSIM).`,
	"pipelines": `Run at load 0.5-2.7, the emulated links' timers at most 7.6-17.5 ms late. The window pipelines
keep the simulator's figures live: on the linear topology fixed, aimd, cubic and bic within 1.2%
of its time with the same retransmissions to within 2 (0, 56, 68 and 397 against 0, 57, 68 and
399); on the dumbbell the two flows of fixed, aimd and bic end within 2% of their simulated times,
cubic's first flow 9% later (42.9 against 39.4 s). The delay-based pipelines differ most: linear
raaqm takes 38.2 s against 33.7 (+13%), and on the dumbbell vegas' and ndn-vegas' first flows lose
the lead they have simulated (47.9 against 42.6 s, +12%; both flows end together live). Each reads
the RTT, and live it is 2-6 ms higher (raaqm 71.6 against 68.5 ms, dumbbell vegas 97.0 against 94.7
and 97.1 against 91.3): the live forwarders' per-packet time, which these scenarios' simulated
forwarders do not spend; one run each cannot tell how much of the difference that is.`,
	"seed004-wireless": `Run at load 6.7 at the start and 4.6 at the end. With the link-loss shim the
live run keeps the simulator's figures (24.36 s against 24.14, +0.9%; 626 Nacks against 620, 5
timeouts against 6): the 1% random loss is drawn by the emulated link in both runtimes, the shim
finds each loss and the consumer retransmits without a decrease. plain, where every loss waits for
the RTO, takes 64.46 s live against 59.77 (+7.8%) with fewer timeouts (401 against 425) and a mean
RTT 3.4 ms higher (30.9 against 27.5 ms; the simulated forwarders take no time per packet here, the
live ones do); its links' timers ran up to 119 ms late, against 16.7 ms for the shim's run, so part
of the difference may be the machine's: one run each cannot tell.`,
	"seed004-multipath": `All nine variants, run at load 6.2 at the start and 3.4 at the end (a build at nice 19 beside
the emulator at nice -10), the links' timers 0.40-0.48 ms late on average and 6.7-17.3 ms at most.
PI and CF split as they do simulated, within 4.4 points (delay-pi 0.637 of the Data over path a
against 0.681, bw-cf 0.555 against 0.562), and so do their times (within 5.2%). PCON's split is the
optimum's in the bandwidth case (bw-pcon 0.693 against an optimum of 0.667; 0.677 simulated) but
further from it than simulated when the paths' capacities are equal: 0.612 against 0.546
(equal-pcon) and 0.636 against 0.569 (delay-pcon), where PI and CF, which split evenly without
reading the paths, sit near 0.5 by construction. Every PCON variant times out 25-26 times live
against 6 simulated, takes 3-14% longer and uses 3-11 points less of the capacity, with fewer CoDel
marks reaching the consumer (42 against 64, equal-pcon): this experiment runs the simulator's
forwarders without processing time (PCON was evaluated in ndnSIM), while the live RTTs are 5-12 ms
higher (42.2 against 31.8 ms, equal-pcon), a wait for the CPU the marks do not see, so PCON's
consumer learns of congestion later and by loss.`,
	"seed004-icp": `Each producer presigned the first 186,413 segments of its object, a fifth of the emulator's
1 GiB budget (the run's code counted a segment as 1,152 bytes of it; now as its Data's 1,449 and its slice's 24, which
makes 145,789), more than twice what any consumer fetched (69,838): none signed a Data when
asked. The pcon variant signed them again: the store between runs evicted the objects it needed
(counted at their real size they did not fit; now they do). Run at load 2.0 at
the start, 11 at the end: a build at nice 19 shared the machine, the emulator at nice -10. Five
consumers at 32 to 54 Mbit/s in all through seven forwarders ask more of 2 cores than any other
live run here, and it shows in the RTTs, not in the links' queues: the least RTTs are the
simulator's within 1-4 ms (49.5 against 48.7 ms for c5 under ICP), the means 10 ms higher under
ICP (57.3 simulated, 67.8 live, c5) and 25-28 ms under PCON (64.2, 92.4), the largest 240-310 ms
against 71-186, while the live queues at r2->r1 held fewer packets on average than the simulated
ones (ICP 0.15 against 0.53, PCON 2.4 against 14.6): the packets waited for the CPU. ICP's
consumers, whose RTO follows the RTT, time out 101 times live and never simulated, with no packet
dropped anywhere: timers that fired while the Data waited. PCON's time out 1,550 times against 171;
with its fixed 1 s RTO and no RTT above 0.28 s these are losses, 1,613 packets dropped live (1,438
of them Data at r2->r1's queue, which the bursts after a stall overflow) against 171. PCON fetches
43.3 Mbit/s in all live against 54.3 simulated, ICP 28.4 against 32.1. Table 1's finding, PCON
faster than ICP for every consumer, holds live as simulated (the check above).`,
}
