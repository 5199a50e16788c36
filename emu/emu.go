package emu

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// Mode is the result's "mode" of an emulated run.
const Mode = "live"

// Options adjust an emulated run.
type Options struct {
	// Seed, if non-zero, overrides the scenario's seed. It draws the
	// consumers' start jitter (as the simulator does), their nonces and
	// the producers' content; the run itself is real time, so results
	// vary from run to run as a testbed's do.
	Seed uint64
	// Trace records the simulator's time series (cwnd, RTT/RTO, rate,
	// queues, multipath routers' forwarding) for Result.WriteTraces.
	Trace bool
	// Dir is where the nodes' Unix sockets go; "" makes a temporary
	// directory, removed at the end. A given Dir is left in place (its
	// sockets are removed).
	Dir string
	// Exec runs programs on nodes. A node with a program runs none of the
	// scenario's consumers: the program takes their place.
	Exec []Exec
	// Forwarder is the forwarder of every node whose [routers.node.NAME]
	// section names none: scenario.ForwarderNDNCC (ndncc's own, in this
	// process), ForwarderNFD or ForwarderNDND (each node a process of its
	// own, extfwd.go); "" keeps [routers] forwarder.
	Forwarder string
	// NFD and NDND are the external forwarders' programs; "" finds nfd on
	// $PATH, and ndnd in $NDND_BIN or on $PATH.
	NFD, NDND string
	// PresignBytes bounds the signed Data the producers prepare before
	// the run starts, shared equally among them; 0 is
	// DefaultPresignBytes. What does not fit is signed when asked for
	// (Result.Producers counts it): a wait the simulator does not have.
	PresignBytes int64
	// Presigned, if set, keeps the producers' presigned objects for the
	// next runs that share it, and gives them this run's of the same
	// object and seed.
	Presigned *Presigned
	// Hold keeps the network up after the flows and programs end, until
	// ctx ends.
	Hold bool
	// OnReady, if set, is called once every node is up and every producer
	// has registered its prefix, before the consumers and programs start.
	OnReady func([]Node)
	// Stdout and Stderr receive the programs' output (nil discards it).
	Stdout, Stderr io.Writer
	// Logger receives the forwarders' diagnostics, with a "node"
	// attribute; nil discards them.
	Logger *slog.Logger

	// started, if set, is given the running nodes with OnReady (the
	// tests' way to make one fail).
	started func([]*node)
}

// Exec is a program to run on a node: Command, run by /bin/sh -c with
// NDN_CLIENT_TRANSPORT set to the node's Unix socket.
type Exec struct {
	Node, Command string
	// output, if set, receives the program's standard error too (a
	// program flow's or producer's, program.go: their tools print their
	// summaries there); stdout, if set, takes its standard output.
	output *syncBuffer
	stdout io.Writer
}

// Node is a running node: its name and its forwarder's Unix socket.
type Node struct {
	Name string
	// Socket is the Unix socket's path; Transport its URI, as
	// NDN_CLIENT_TRANSPORT takes it.
	Socket, Transport string
}

// ExecResult is how a program ended.
type ExecResult struct {
	Node    string `json:"node"`
	Command string `json:"command"`
	// ExitCode is the program's exit status, -1 if it was killed by a
	// signal or never started.
	ExitCode  int     `json:"exit_code"`
	DurationS float64 `json:"duration_s"`
	Error     string  `json:"error,omitempty"`
}

// Result is an emulated run's outcome: the simulator's result (the same
// schema, docs/results.md; its timing says how long the run took) with
// the mode, and how the programs ended.
type Result struct {
	*sim.Result
	Mode string       `json:"mode"`
	Exec []ExecResult `json:"exec,omitempty"`
	// Lateness says, per link direction (in Links' order), how late the
	// emulated link's timers ran: how faithfully real time kept the
	// link model's schedule. A TCP tunnel's direction has its delay
	// line's (none if the link has no delay): the kernel shapes its rate.
	Lateness []LinkLateness `json:"lateness"`
	// KernelQueues are the kernel links' tc FIFOs (kernel.go), per
	// direction: the link's queue when both its ends are external
	// forwarders that mark by their sockets' backlog.
	KernelQueues []KernelQueue `json:"kernel_queues,omitempty"`
	// KernelUDP are the UDP counters of the kernel links' namespace: what
	// was lost at sockets' buffers there, beside the FIFOs' drops.
	KernelUDP *KernelUDP `json:"kernel_udp,omitempty"`
	// Producers are the producers ndncc served: what they sent presigned
	// and what they signed when asked for.
	Producers []ProducerResult `json:"producers,omitempty"`

	traces *sim.Traces
	// absent are, per flow (in Flows' order), the JSON keys a program
	// flow's tool did not print: null in the document (MarshalJSON).
	absent [][]string
}

// LinkLateness is how late one emulated link direction's timers ran
// (link.Lateness). Overruns counts frames that left later than their own
// serialisation time after their turn: the link was burstier than its
// rate then.
type LinkLateness struct {
	From     string  `json:"from"`
	To       string  `json:"to"`
	Wakes    uint64  `json:"wakes"`
	MeanMs   float64 `json:"mean_ms"`
	MaxMs    float64 `json:"max_ms"`
	Overruns uint64  `json:"overruns"`
}

// WriteTraces writes the run's time series as the simulator does
// (sim.Network.WriteTraces).
func (r *Result) WriteTraces(dir string) error {
	if r.traces == nil {
		return errors.New("emu: run was not traced")
	}
	return r.traces.Write(dir)
}

// ExecEnv is the environment variable a program finds its node's
// forwarder in.
const ExecEnv = "NDN_CLIENT_TRANSPORT"

// Run builds the network sc describes from live forwarders, runs its
// flows (and opt.Exec's programs) in real time until all have ended, the
// scenario's duration has passed, a node fails or ctx ends, and returns
// the result. Everything it started is stopped and removed before it
// returns. The error reports a scenario the emulator cannot run, a node
// that failed, or programs that exited with a non-zero status, each by
// node name; the result is non-nil whenever the network came up.
func Run(ctx context.Context, sc *scenario.Scenario, opt Options) (*Result, error) {
	wallStart := time.Now()
	if err := Check(sc, opt); err != nil {
		return nil, err
	}
	r := &run{sc: sc, opt: opt, seed: sc.Seed, log: opt.Logger}
	if opt.Seed != 0 {
		r.seed = opt.Seed
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if opt.Trace {
		r.traces = sim.NewTraces()
	}
	dir := opt.Dir
	if dir == "" {
		rd, err := makeRunDir()
		if err != nil {
			return nil, err
		}
		defer rd.remove()
		dir = rd.path
	}
	r.dir = dir
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r.netCtx, r.stopNet = context.WithCancel(context.WithoutCancel(ctx))
	defer r.shutdown()
	if err := r.startNodes(ctx); err != nil {
		return nil, err
	}
	if err := r.startProducers(ctx); err != nil {
		return nil, err
	}
	return r.runFlows(ctx, wallStart)
}

// Check validates sc and rejects what the emulator does not run (TCP
// flows, underlays, Interest shapers, HMAC signatures, TCP tunnels with
// random loss, TCP tunnels and kernel links where no network namespace
// can be made, what external forwarders cannot honour, and a negative
// presign budget)
// and programs for nodes the topology lacks: the errors Run returns
// before it starts anything.
func Check(sc *scenario.Scenario, opt Options) error {
	if err := sc.Validate(); err != nil {
		return err
	}
	var errs []error
	if len(sc.TCP) > 0 {
		errs = append(errs, fmt.Errorf("%s: emu: the scenario has TCP flows, which only the simulator models", sc.File))
	}
	tunnels := false
	for _, l := range sc.Topology.Links {
		if sc.TCPTunnelFor(l.A, l.B) != nil {
			tunnels = true
			if sc.LossFor(l.A, l.B) > 0 || sc.LossFor(l.B, l.A) > 0 {
				errs = append(errs, fmt.Errorf("%s: emu: link %s is a TCP tunnel with random loss, which only the simulator models (the kernel here has no netem to lose segments beneath TCP)", sc.File, l))
			}
		}
		if sc.UnderlayFor(l.A, l.B) != nil || sc.UnderlayFor(l.B, l.A) != nil {
			errs = append(errs, fmt.Errorf("%s: emu: link %s has an underlay, which only the simulator models", sc.File, l))
		}
	}
	for _, lq := range sc.LinkQueues {
		if lq.Shaper != nil {
			errs = append(errs, fmt.Errorf("%s: emu: the Interest shaper on %s->%s is not emulated", lq.Pos, lq.From, lq.To))
		}
	}
	if opt.PresignBytes < 0 {
		errs = append(errs, fmt.Errorf("emu: presign budget %d bytes: want 0 (the default) or more", opt.PresignBytes))
	}
	for _, p := range sc.Producers {
		if _, ok := signingSchemes[p.Signature]; !ok {
			errs = append(errs, fmt.Errorf("%s: emu: producer %s: signature %q is not emulated (want one of rsa2048, digest, ecdsa, ed25519)", p.Pos, p.Prefix, p.Signature))
		}
	}
	if tunnels {
		if err := tunnelSupport(); err != nil {
			errs = append(errs, fmt.Errorf("%s: emu: the scenario has TCP tunnels, which run over real TCP in a network namespace: %w", sc.File, err))
		}
	}
	if opt.Forwarder != "" && !slices.Contains(scenario.Forwarders, opt.Forwarder) {
		errs = append(errs, fmt.Errorf("emu: forwarder %q: want one of %s", opt.Forwarder, strings.Join(scenario.Forwarders, ", ")))
	}
	kinds := map[string]string{}
	for _, n := range sc.Topology.Nodes {
		kinds[n.Name] = forwarderOf(sc, opt, n.Name)
	}
	bins := map[string]bool{}
	for _, n := range sc.Topology.Nodes {
		kind := kinds[n.Name]
		if !external(kind) {
			continue
		}
		errs = append(errs, checkExternal(sc, n.Name, kind)...)
		if !bins[kind] {
			bins[kind] = true
			if _, err := forwarderBinary(kind, opt); err != nil {
				errs = append(errs, fmt.Errorf("emu: node %s runs %s: %w", n.Name, kind, err))
			}
		}
	}
	kindOf := func(n string) string { return kinds[n] }
	kernelLinks := false
	for _, l := range sc.Topology.Links {
		if !external(kinds[l.A]) && !external(kinds[l.B]) {
			continue
		}
		if isKernelLink(sc, kindOf, l) {
			kernelLinks = true
			errs = append(errs, checkKernel(sc, kindOf, l)...)
			continue
		}
		if sc.TCPTunnelFor(l.A, l.B) != nil {
			if !external(kinds[l.A]) || !external(kinds[l.B]) {
				errs = append(errs, fmt.Errorf("%s: emu: link %s: a TCP tunnel joins two ndncc forwarders or two external ones (nfd, ndnd), not %s and %s: ndncc's forwarder takes its end made, an external one dials its own", sc.File, l, kinds[l.A], kinds[l.B]))
				continue
			}
			errs = append(errs, checkExternalTunnel(sc, kindOf, l)...)
			continue
		}
		errs = append(errs, checkRelayed(sc, l.A, l.B)...)
		errs = append(errs, checkRelayed(sc, l.B, l.A)...)
	}
	if kernelLinks {
		if tunnels {
			errs = append(errs, fmt.Errorf("%s: emu: the scenario has both TCP tunnels and kernel links (threshold-mark between external forwarders), whose namespaces' loopbacks are shaped differently: run them in separate scenarios", sc.File))
		} else if err := tunnelSupport(); err != nil {
			errs = append(errs, fmt.Errorf("%s: emu: the scenario has kernel links (threshold-mark between external forwarders), whose queue is the kernel's in a network namespace: %w", sc.File, err))
		}
	}
	errs = append(errs, checkPrograms(sc)...)
	errs = append(errs, checkEvents(sc)...)
	for _, e := range opt.Exec {
		if _, ok := sc.Topology.Node(e.Node); !ok {
			errs = append(errs, fmt.Errorf("emu: exec on %s: no such node in %s", e.Node, sc.File))
		}
	}
	return errors.Join(errs...)
}

// run is one emulated run.
type run struct {
	sc     *scenario.Scenario
	opt    Options
	seed   uint64
	log    *slog.Logger
	dir    string
	traces *sim.Traces

	nodes  []*node
	byName map[string]*node
	// netCtx ends the forwarders and producers (stopNet): after the flows,
	// at shutdown.
	netCtx  context.Context
	stopNet context.CancelFunc
	wg      sync.WaitGroup // every goroutine the run started
	// failed is closed when the first node fails; failure says which.
	failOnce sync.Once
	failed   chan struct{}
	failure  error
	procMu   sync.Mutex // procs: program flows start theirs from their goroutines
	procs    []*proc
	// boundExec marks the Options.Exec entries that program flows run.
	boundExec map[int]bool
	// ns holds the TCP tunnels, nil without any (tunnel.go).
	ns      *netns
	tunnels []*tunnel
	// exts are the nodes external forwarders run, relays the links with
	// such an end (extfwd.go, relay.go); relaySampling says the relays'
	// queue samplers run.
	exts          []*node
	relays        []*relay
	relaySampling atomic.Bool
	// kernel are the relays of the kernel links (kernel.go), in r.ns.
	kernel []*relay
	// servers are the producers ndncc serves, for Result.Producers.
	servers []servedObject
}

// presignBudget is the run's presign budget, in bytes.
func (r *run) presignBudget() int64 {
	if r.opt.PresignBytes > 0 {
		return r.opt.PresignBytes
	}
	return DefaultPresignBytes
}

// fail records the first node failure and makes the run stop.
func (r *run) fail(err error) {
	r.failOnce.Do(func() {
		r.failure = err
		close(r.failed)
	})
}

// shutdown stops programs, producers and forwarders and waits for all of
// them; their sockets go with them.
func (r *run) shutdown() {
	for _, p := range r.allProcs() {
		p.kill()
	}
	r.stopNet()
	for _, nd := range r.exts {
		if nd.ext != nil {
			nd.ext.stop()
			os.RemoveAll(nd.ext.dir) // in a Dir the caller gave, too
		}
	}
	r.wg.Wait()
	reapOrphans() // what programs left in sessions of their own
	for _, t := range r.tunnels {
		t.close() // the forwarders closed those they ran
	}
	if r.ns != nil {
		r.ns.close()
	}
	for _, nd := range r.nodes {
		os.Remove(nd.sock) // the listener removes it; a failed start may not have
	}
}

// since is the time since t0.
func since(t0 time.Time) time.Duration { return time.Since(t0) }

// socketPath is where node i's Unix socket goes: NAME.sock, or nI.sock
// when the name would make too long a path or is not a plain file name.
func socketPath(dir, name string, i int) string {
	p := filepath.Join(dir, name+".sock")
	if len(p) > 100 || filepath.Base(p) != name+".sock" {
		p = filepath.Join(dir, fmt.Sprintf("n%d.sock", i))
	}
	return p
}

// addProc records a program the run started, for the result and shutdown.
func (r *run) addProc(p *proc) {
	r.procMu.Lock()
	defer r.procMu.Unlock()
	r.procs = append(r.procs, p)
}

// allProcs are the programs the run started so far.
func (r *run) allProcs() []*proc {
	r.procMu.Lock()
	defer r.procMu.Unlock()
	return slices.Clone(r.procs)
}
