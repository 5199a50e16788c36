package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// emuFlags are emu's flags.
type emuFlags struct {
	asJSON  bool
	out     string
	seed    uint64
	links   []string
	sets    []string
	profile string
	execs   []string
	hold    bool
	verbose bool
	quiet   bool
	fwd     forwarderFlags
}

// forwarderFlags choose the emulator's forwarders (emu and experiment
// --live).
type forwarderFlags struct {
	forwarder, nfd, ndnd string
	presign              sizeValue
}

// sizeValue is a byte-count flag (scenario.ParseSize: "512MiB", "2GB").
type sizeValue struct{ n int64 }

func (v *sizeValue) String() string {
	if v.n == 0 {
		return ""
	}
	return strconv.FormatInt(v.n, 10)
}

func (v *sizeValue) Set(s string) error {
	n, err := scenario.ParseSize(s)
	if err != nil {
		return err
	}
	if n == 0 {
		return errors.New("want a size above 0")
	}
	v.n = n
	return nil
}

func (*sizeValue) Type() string { return "size" }

// add defines the flags on fs.
func (ff *forwarderFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&ff.forwarder, "forwarder", "", "the `forwarder` of every node the scenario's [routers.node.NAME] does not set: "+strings.Join(scenario.Forwarders, ", ")+" (nfd, ndnd: each node a process of its own; default: [routers] forwarder, else ndncc)")
	fs.StringVar(&ff.nfd, "nfd", "", "the nfd `program` for --forwarder nfd (default: nfd on $PATH; PREFIX/bin/nfd finds PREFIX/lib)")
	fs.StringVar(&ff.ndnd, "ndnd", "", "the ndnd `program` for --forwarder ndnd (default: $NDND_BIN, else ndnd on $PATH)")
	fs.Var(&ff.presign, "presign-budget", "how much signed Data the producers prepare before the run starts, shared equally among them (default 1GiB); the segments of an object past its share are signed when asked for, a wait the simulator does not have (the result's producers[].signed_on_demand counts them)")
}

// apply sets the forwarders of opt.
func (ff *forwarderFlags) apply(opt *emu.Options) {
	opt.Forwarder, opt.NFD, opt.NDND = ff.forwarder, ff.nfd, ff.ndnd
	opt.PresignBytes = ff.presign.n
}

func newEmuCmd() *cobra.Command {
	var ef emuFlags
	cmd := &cobra.Command{
		Use: "emu SCENARIO.toml|-",
		Example: `  ndncc emu examples/linear-fixed32.toml                       # the scenario live, on loopback
  ndncc emu examples/linear-fixed32.toml --json --out out/emu
  ndncc emu examples/linear-fixed32.toml --forwarder ndnd       # every node an ndnd fw process
  ndncc emu examples/linear-fixed32.toml --forwarder nfd --exec consumer1='ndncatchunks -p fixed -s 32 /example/file > /dev/null'
  ndncc emu examples/linear-fixed32.toml --hold                 # keep the network up; prints every node's socket`,
		Short: "Run a scenario in real time: a live forwarder per node, emulated links, live consumers and producers",
		Long: `Run one scenario file (the one ndncc sim runs) in real time, in this process:
every node is a live forwarder (ndncc fw) with its own Unix socket, every link a
pair of UDP faces on loopback that emulate its rate, delay, queue (and queue
discipline) and loss in each direction with the simulator's link model, the
routes are the simulator's, and the producers and consumers are ndncc serve's
and ndncc fetch's runtimes with the simulator's pipelines and parameters
(docs/emulation.md). No root, no network namespaces, except for links that are
TCP tunnels: each is a real TCP connection, shaped by the kernel (HTB) in a
network namespace of the run's own, which needs root (or unshare -r).

Prints the table ndncc sim prints, or with --json the same JSON document with
"mode": "live" (docs/results.md); --out DIR writes the same traces, plots,
result.json and index.html. --set and --profile work as for sim.

--exec NODE=COMMAND (repeatable) runs COMMAND with /bin/sh on NODE, with
NDN_CLIENT_TRANSPORT set to the node's socket, as a Mini-NDN experiment runs
a command on a host; the scenario's consumers on that node do not run (the
program takes their place). The run ends when every consumer and program has
ended; a program's non-zero exit status is reported by node, and the
command exits 1. Programs' output goes to standard output and error (with
--json, their standard output goes to standard error).

--forwarder nfd|ndnd makes every node (but those whose [routers.node.NAME]
forwarder says otherwise) that forwarder's own process, with a configuration,
Unix socket and UDP port of its own: NFD's nfd (--nfd, else on $PATH) or ndnd's
ndnd fw (--ndnd, else $NDND_BIN, else on $PATH). Each link with such an end
keeps ndncc's link model, run in a relay between the two UDP faces, except a
threshold-mark link between two such nodes: its queue is the kernel's (HTB
and a byte FIFO beneath the sender's socket, in a network namespace: root),
so the forwarder marks by its own socket's backlog, and a relay adds the
delay; and a TCP tunnel between two such nodes, which each forwarder dials
itself (a proxy in the namespace adds the delay; root). Routes are the
simulator's, installed through the forwarder's
management; a setting the forwarder cannot honour is refused
(docs/emulation.md).

--hold keeps the network up after that, printing every node's socket, until
Ctrl-C. Every socket, temporary file and program the run started is gone
when it exits, on Ctrl-C and SIGTERM too; a program that left its session
(setsid) is found and stopped as well (Linux: ndncc emu is a child
subreaper). Killed with SIGKILL, the run's programs are killed with it (a
watchdog per program, and Pdeathsig on Linux), and the next ndncc emu run
removes its temporary directory. docs/security.md.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEmu(cmd, &ef, args[0])
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&ef.asJSON, "json", false, "print one JSON document instead of a table")
	fs.StringVar(&ef.out, "out", "", "write traces (CSV), plots (PNG, SVG), result.json and index.html into this `directory`")
	fs.Uint64Var(&ef.seed, "seed", 0, "override the scenario's random seed (0: keep it): start jitter, nonces, content")
	fs.StringSliceVar(&ef.links, "links", nil, "with --out, plot the queues of these link directions (FROM-TO; default: every link that queued)")
	fs.StringArrayVar(&ef.sets, "set", nil, "set a scenario key: `KEY=VALUE` (repeatable; docs/scenario.md, \"Setting keys\")")
	fs.StringVar(&ef.profile, "profile", "", "parameter `profile` of every consumer (as --set profile=NAME): "+strings.Join(consumer.ProfileNames(), ", "))
	fs.StringArrayVar(&ef.execs, "exec", nil, "run a program on a node: `NODE=COMMAND` (repeatable), with NDN_CLIENT_TRANSPORT set to its socket")
	fs.BoolVar(&ef.hold, "hold", false, "keep the network up after the flows end, printing every node's socket, until Ctrl-C")
	fs.BoolVarP(&ef.verbose, "verbose", "v", false, "log the forwarders' diagnostics to standard error")
	fs.BoolVarP(&ef.quiet, "quiet", "q", false, "report no progress on standard error (a bar of the run's time on a terminal, a line when it ends otherwise)")
	ef.fwd.add(fs)
	return cmd
}

// parseExecs parses --exec NODE=COMMAND flags.
func parseExecs(flags []string) ([]emu.Exec, error) {
	var out []emu.Exec
	for _, f := range flags {
		node, command, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(node) == "" || strings.TrimSpace(command) == "" {
			return nil, fmt.Errorf("--exec %q: want NODE=COMMAND", f)
		}
		out = append(out, emu.Exec{Node: strings.TrimSpace(node), Command: command})
	}
	return out, nil
}

func runEmu(cmd *cobra.Command, ef *emuFlags, arg string) error {
	var sc *scenario.Scenario
	var err error
	if scenario.IsTopologyFile(arg) {
		// A bare topology: the network alone, kept up for programs of the
		// user's (--hold).
		if sc, err = scenario.FromTopologyFile(arg); err != nil {
			return &exitError{2, err}
		}
		if !ef.hold {
			return noFlowsError(arg, `; or give --hold to bring the network up with no flows and attach
programs to the nodes' sockets it prints`)
		}
	} else if sc, err = loadScenarioArg(arg, cmd.InOrStdin()); err != nil {
		return &exitError{2, err}
	}
	stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
	for _, n := range sc.Topology.Notes {
		fmt.Fprintln(stderr, "note:", n)
	}
	sets, err := scenarioSets(ef.profile, ef.sets)
	if err != nil {
		return err
	}
	if err := sc.Apply(sets); err != nil {
		return &exitError{2, err}
	}
	for _, n := range sim.DroppedParams(sc) {
		fmt.Fprintln(stderr, "note:", n)
	}
	execs, err := parseExecs(ef.execs)
	if err != nil {
		return &exitError{2, err}
	}
	opt := emu.Options{Seed: ef.seed, Trace: ef.out != "", Exec: execs, Hold: ef.hold, Stdout: stdout, Stderr: stderr}
	ef.fwd.apply(&opt)
	if ef.asJSON {
		opt.Stdout = stderr // standard output is the JSON document's
	}
	if ef.verbose {
		opt.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	if ef.hold {
		opt.OnReady = func(nodes []emu.Node) { printNodes(stderr, nodes) }
	}
	if err := emu.Check(sc, opt); err != nil {
		return &exitError{2, err}
	}
	if len(execs) > 0 {
		// Programs that leave their session come back to this process
		// when their parent ends, for the run's end to stop them. Not
		// available (not Linux): they escape, as before.
		_ = emu.BecomeSubreaper()
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	bar := newTimeBar(stderr, ef.quiet || ef.hold || ef.verbose, sc.Duration, sc.Name)
	res, err := emu.Run(ctx, sc, opt)
	bar.Stop()
	if res == nil {
		if ctx.Err() != nil {
			return &exitError{130, fmt.Errorf("interrupted: %w", err)}
		}
		return &exitError{1, err}
	}
	routes := scenarioRoutes(sc)
	if ef.out != "" {
		if werr := writeRunReport(ef.out, ef.links, sc, arg, res.WriteTraces, res.Result, withRoutes{res, routes}); werr != nil {
			return errors.Join(err, werr)
		}
	}
	if ef.asJSON {
		if jerr := writeJSON(stdout, withRoutes{res, routes}); jerr != nil {
			return jerr
		}
	} else {
		printEmuResult(stdout, res)
		printRoutes(stdout, routes)
		printAbsent(stdout, res)
		printLateness(stdout, res.Lateness)
		printExecs(stdout, res.Exec)
	}
	if err != nil {
		return &exitError{1, err}
	}
	if ctx.Err() != nil && !ef.hold {
		return &exitError{130, errors.New("interrupted")}
	}
	return nil
}

// printNodes lists every node's socket, for --hold.
func printNodes(w io.Writer, nodes []emu.Node) {
	fmt.Fprintln(w, "nodes (set NDN_CLIENT_TRANSPORT to attach an application):")
	for _, n := range nodes {
		fmt.Fprintf(w, "  %s\t%s\n", n.Name, n.Transport)
	}
	fmt.Fprintln(w, "the network stays up until Ctrl-C")
}

// printLateness sums up how late the emulated links' timers ran
// (emu.LinkLateness), when some frame left later than its own
// serialisation time after its turn.
func printLateness(w io.Writer, late []emu.LinkLateness) {
	var overruns uint64
	var links int
	var worst float64
	for _, l := range late {
		if l.Overruns > 0 {
			overruns += l.Overruns
			links++
		}
		worst = max(worst, l.MaxMs)
	}
	if overruns > 0 {
		fmt.Fprintf(w, "\nlinks ran late: %d frames on %d link directions left over a serialisation time after their turn; timers were up to %.1f ms late (per link: \"lateness\" in --json)\n",
			overruns, links, worst)
	}
}

// printAbsent says which figures of program flows their tools did not
// print: the table shows them as 0, --json as null.
func printAbsent(w io.Writer, res *emu.Result) {
	for i, f := range res.Flows {
		if a := res.Absent(i); len(a) > 0 {
			fmt.Fprintf(w, "\n%s ran %s, which did not print %s: 0 above, null in --json\n", f.ID, f.Pipeline, strings.Join(a, ", "))
		}
	}
}

// printEmuResult prints what ran in real time: how long, then the flows'
// and links' tables as ndncc sim prints them, without the simulator's
// event rate (nothing was simulated).
func printEmuResult(w io.Writer, res *emu.Result) {
	r := res.Result
	fmt.Fprintf(w, "scenario %s, seed %d, ran %.3f s of scenario time in %.3f s wall (real time)\n\n",
		r.Scenario, r.Seed, r.SimTimeS, r.Timing.WallS)
	printFlowsAndLinks(w, r)
}

// printExecs prints one row per program (--exec): its node, how it
// ended and how long it ran.
func printExecs(w io.Writer, execs []emu.ExecResult) {
	if len(execs) == 0 {
		return
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program on\tended\ttime (s)\tcommand")
	for _, e := range execs {
		status := fmt.Sprintf("exit status %d", e.ExitCode)
		if e.Error != "" && e.ExitCode != 0 {
			status = e.Error // "killed by signal KILL", "did not start: ...", ...
		}
		fmt.Fprintf(tw, "%s\t%s\t%.2f\t%s\n", e.Node, status, e.DurationS, e.Command)
	}
	tw.Flush()
}
