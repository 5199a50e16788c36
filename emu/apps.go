package emu

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sync"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// signingSchemes maps a scenario's signature to the live server's: the
// Data carry a real signature of the type, and so the size, the simulator
// gives them.
var signingSchemes = map[string]string{
	"":                  live.SignRSA,
	scenario.SigRSA2048: live.SignRSA,
	scenario.SigDigest:  live.SignDigest,
	scenario.SigECDSA:   live.SignECDSA,
	scenario.SigEd25519: live.SignEd25519,
}

// keyNameLike returns a key name IDENTITY/KEY/ID, the ID's length chosen
// so that the name encodes in as many bytes as like: the producer's Data
// then carry a KeyLocator of the simulator's size (it names every key
// ndn.DefaultSeedKeyName), and so the simulator's wire size. An identity
// too long for that gets an 8-byte ID, as ndnd's tools give.
func keyNameLike(identity, like ndn.Name) ndn.Name {
	base := identity.Clone().Append(enc.NewGenericComponent("KEY"))
	n := like.EncodingLength() - base.EncodingLength() - 2 // the ID component's type and length
	if n < 1 || n > 252 {
		n = 8
	}
	id := make([]byte, n)
	crand.Read(id)
	return base.Append(enc.NewGenericBytesComponent(id))
}

// transport is the URI of nd's Unix socket.
func (nd *node) transport() string { return "unix://" + nd.sock }

// info describes nd for Options.OnReady.
func (nd *node) info() Node { return Node{Name: nd.name, Socket: nd.sock, Transport: nd.transport()} }

// startProducers starts a live server per producer on its node, each on
// a loop of its own, and waits until all have registered their prefixes.
// Producers of one prefix serve one object (the same content): replicas
// of one publisher, they sign it with one key, so that a consumer whose
// segments come from several of them finds one signer.
func (r *run) startProducers(ctx context.Context) error {
	signers := map[string]live.Signing{}
	share := presignShare(r.sc, r.presignBudget())
	for _, p := range r.sc.Producers {
		if err := r.startProducer(ctx, p, signers, share); err != nil {
			return fmt.Errorf("emu: producer %s on node %s: %w", p.Prefix, p.Node, err)
		}
	}
	return nil
}

// startProducer starts producer p; signers holds the signing of each
// prefix and signature already started, which p shares. p presigns its
// object's first share bytes, or takes them from Options.Presigned when
// they are signed by the prefix's key in this run, or the prefix has none
// yet (then their key becomes it): a replica that serves another size or
// freshness than the one started first may find its object signed by
// another key, and signs it again, so that the prefix has one signer.
func (r *run) startProducer(ctx context.Context, p scenario.Producer, signers map[string]live.Signing, share int64) error {
	if p.Program != "" {
		return r.startProducerProgram(ctx, p)
	}
	nd := r.byName[p.Node]
	name, err := sim.ObjectName(p.Prefix)
	if err != nil {
		return err
	}
	key := p.Prefix + " " + p.Signature
	signing, ok := signers[key]
	stored, have := r.opt.Presigned.take(keyOf(p, r.seed))
	have = have && (!ok || stored.signing.Cert == signing.Cert)
	if have && !ok {
		signing, ok = stored.signing, true
		signers[key] = signing
	}
	if !ok {
		if signing, err = live.GenerateSigning(signingSchemes[p.Signature], keyNameLike(name[:len(name)-1], ndn.DefaultSeedKeyName())); err != nil {
			return err
		}
		signers[key] = signing
	}
	conn, err := live.Connect(ctx, nd.transport(), live.FaceConfig{})
	if err != nil {
		return err
	}
	cfg := live.ServeConfig{
		Name: name, Content: Content(r.seed, p.Prefix, p.FileSize), Size: p.FileSize,
		SegmentSize: p.SegmentSize, Freshness: p.Freshness, Signing: signing, Register: true,
		CacheBytes: min(presignBytes(p), share), Presign: true,
		Logger: r.log.With("producer", p.Prefix),
	}
	if have {
		cfg.Prepared = stored.wires
	}
	srv, err := live.NewServer(conn.Endpoint, cfg)
	if err != nil {
		conn.Close()
		return err
	}
	if prepared := srv.Prepared(); !have || len(prepared) > len(stored.wires) {
		r.opt.Presigned.store(keyOf(p, r.seed), &presignedObject{signing: signing, wires: prepared, bytes: live.PreparedBytes(prepared)}, r.presignBudget())
	}
	r.servers = append(r.servers, servedObject{p: p, srv: srv, loop: conn.Loop})
	ready := make(chan error, 1)
	conn.Loop.After(0, func() { srv.Start(func(err error) { ready <- err }) })
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer conn.Close()
		err := conn.Loop.Run(r.netCtx)
		if r.netCtx.Err() == nil {
			r.fail(fmt.Errorf("producer %s on node %s stopped: %w", p.Prefix, p.Node, err))
		}
	}()
	select {
	case err := <-ready:
		return err
	case <-r.failed:
		return r.failure
	case <-ctx.Done():
		return ctx.Err()
	}
}

// presignBytes is a cache (live.ServeConfig.CacheBytes) that holds every
// segment of p's object, each with room for its name, signature and
// headers: the producer serves them all presigned when its share of the
// presign budget (Options.PresignBytes) allows.
func presignBytes(p scenario.Producer) int64 {
	segments := max((p.FileSize+int64(p.SegmentSize)-1)/int64(p.SegmentSize), 1)
	return segments * int64(p.SegmentSize+presignEntryBytes)
}

// presignEntryBytes is a generous bound on what a segment costs beyond its
// payload: name, signature (RSA's 256 bytes), TLV headers.
const presignEntryBytes = 1024

// flow is one of the scenario's consumers, fetching through the live
// runtime.
type flow struct {
	c        scenario.Consumer
	producer string
	start    time.Duration // since t0
	conn     *live.Conn
	cfg      live.FetchConfig
	check    *checker
	// connected is when the consumer's loop was made (its clock's zero).
	connected time.Time

	res   live.FetchResult
	err   error
	ended time.Duration // since t0

	// program, if set, is the tool that fetches in ndncc's place (a
	// program flow, program.go), run at start; proc is its process.
	program *Exec
	proc    *proc

	// appOpts is set for a traffic application (traffic.go), which runs
	// appCfg as app instead of a fetch.
	appOpts *consumer.TrafficOptions
	appCfg  consumer.TrafficConfig
	app     *consumer.Traffic
}

// newFlows prepares the scenario's consumers, but those on nodes that run
// a program: each with the simulator's pipeline options and start time,
// connected to its node.
func (r *run) newFlows(ctx context.Context) ([]*flow, error) {
	execNodes := map[string]bool{}
	perNode := map[string]int{}
	for _, c := range r.sc.Consumers {
		perNode[c.Node]++
	}
	bound := map[string]*Exec{} // an --exec fetch tool on a node with one consumer: that consumer's flow
	r.boundExec = map[int]bool{}
	for i, e := range r.opt.Exec {
		execNodes[e.Node] = true
		if isFetchTool(e.Command) && perNode[e.Node] == 1 && bound[e.Node] == nil {
			e.output = &syncBuffer{}
			bound[e.Node] = &e
			r.boundExec[i] = true
		}
	}
	index := r.sc.NewProducerIndex()
	var flows []*flow
	for _, c := range r.sc.Consumers {
		if e := bound[c.Node]; e != nil || c.Program != "" {
			ps := index.For(c.Prefix)
			if len(ps) == 0 {
				return flows, fmt.Errorf("%s: consumer %s: no producer serves exactly %q", c.Pos, c.ID, c.Prefix)
			}
			f := &flow{c: c, producer: ps[0].Node, program: e}
			if e == nil {
				f.start = sim.ConsumerStart(r.seed, c, sim.DefaultStartJitter)
				// What the tool writes on standard output is the object:
				// checked against the producer's, as ndncc's consumer's is.
				f.check = newChecker(Content(r.seed, ps[0].Prefix, ps[0].FileSize))
				f.program = &Exec{Node: c.Node, Command: shellQuote(c.Program, c.Args), output: &syncBuffer{}, stdout: f.check}
			}
			flows = append(flows, f)
			continue
		}
		if execNodes[c.Node] {
			continue
		}
		if c.App != "" {
			ps := index.For(c.Prefix)
			if len(ps) == 0 {
				return flows, fmt.Errorf("%s: consumer %s: no producer serves exactly %q", c.Pos, c.ID, c.Prefix)
			}
			f, err := r.newAppFlow(ctx, c, ps[0].Node)
			if err != nil {
				return flows, err
			}
			flows = append(flows, f)
			continue
		}
		opts, err := sim.ConsumerOptions(r.sc, c)
		if err != nil {
			return flows, err
		}
		ps := index.For(c.Prefix)
		if len(ps) == 0 {
			return flows, fmt.Errorf("%s: consumer %s: no producer serves exactly %q", c.Pos, c.ID, c.Prefix)
		}
		name, err := sim.ObjectName(c.Prefix)
		if err != nil {
			return flows, err
		}
		f := &flow{c: c, producer: ps[0].Node, start: sim.ConsumerStart(r.seed, c, sim.DefaultStartJitter)}
		f.check = newChecker(Content(r.seed, ps[0].Prefix, ps[0].FileSize))
		h := fnv.New64a()
		h.Write([]byte(c.ID))
		sizer, overhead := ndn.NewSizer(), r.sc.HeaderOverhead
		f.cfg = live.FetchConfig{
			Name: name, Options: opts, Output: f.check,
			Rand:     rand.New(rand.NewPCG(r.seed, h.Sum64())),
			WireSize: func(p ndn.Packet) int { return sizer.PacketSize(&p) + overhead },
		}
		f.connected = time.Now()
		if f.conn, err = live.Connect(ctx, r.byName[c.Node].transport(), live.FaceConfig{}); err != nil {
			return flows, fmt.Errorf("emu: consumer %s on node %s: %w", c.ID, c.Node, err)
		}
		flows = append(flows, f)
	}
	return flows, nil
}

// fetch runs flow f from its start time (after t0) until it ends or ctx
// does.
func (r *run) fetch(ctx context.Context, f *flow, t0 time.Time) {
	if f.program != nil {
		r.runProgram(ctx, f, t0)
		return
	}
	if f.appOpts != nil {
		r.runApp(ctx, f, t0)
		return
	}
	defer f.conn.Close()
	if r.traces != nil {
		f.cfg.Tracer = shifted{r.traces.Flow(f.c.ID), f.connected.Sub(t0)}
	}
	select {
	case <-time.After(time.Until(t0.Add(f.start))):
	case <-ctx.Done():
		f.err, f.ended = ctx.Err(), since(t0)
		return
	}
	f.res, f.err = live.Fetch(ctx, f.conn.Loop, f.conn.Endpoint, f.cfg)
	f.ended = since(t0)
	if f.err == nil && f.check.diff >= 0 {
		f.err = fmt.Errorf("the object fetched differs from the producer's at byte %d", f.check.diff)
	}
}

// errInterrupted is the error of a flow the run's context cut short.
var errInterrupted = errors.New("interrupted")

// result summarises f as the simulator does; end is when the run ended
// (since t0), limit whether it ended at the scenario's time limit,
// interrupted whether the run's context ended it.
func (f *flow) result(end time.Duration, limit, interrupted bool) (sim.FlowResult, []string) {
	if f.program != nil {
		return f.programResult(end, limit, interrupted)
	}
	if f.appOpts != nil {
		return f.appResult(end, interrupted), nil
	}
	st := f.res.Stats
	done := f.err == nil && st.Complete
	dur := max(end-f.start, 0)
	if done {
		dur = st.Duration()
	}
	err := f.err
	switch {
	case done:
	case limit && errors.Is(err, context.DeadlineExceeded):
		err = nil // the simulator's "time limit reached"
	case interrupted:
		err = errInterrupted
	}
	return sim.NewFlowResult(f.c.ID, f.c.Node, f.producer, f.c.Pipeline, st, done, err, dur), nil
}

// shifted is a consumer.Tracer that moves a pipeline's times (its loop's
// clock) onto the run's (since t0).
type shifted struct {
	t   consumer.Tracer
	off time.Duration
}

func (s shifted) Cwnd(now time.Duration, cwnd, ssthresh float64) { s.t.Cwnd(now+s.off, cwnd, ssthresh) }
func (s shifted) RTT(now time.Duration, seg uint64, rtt, srtt, rttvar, rto time.Duration) {
	s.t.RTT(now+s.off, seg, rtt, srtt, rttvar, rto)
}
func (s shifted) Rate(start time.Duration, bytes uint64) { s.t.Rate(start+s.off, bytes) }

// runFlows runs the consumers and programs from t0 until all have ended
// (then, with Hold, until ctx ends), the scenario's duration has passed,
// a node fails or ctx ends, and builds the result.
func (r *run) runFlows(ctx context.Context, wallStart time.Time) (*Result, error) {
	flows, err := r.newFlows(ctx)
	if err != nil {
		for _, f := range flows {
			if f.conn != nil {
				f.conn.Close()
			}
		}
		return nil, err
	}
	if r.opt.OnReady != nil {
		var nodes []Node
		for _, nd := range r.nodes {
			nodes = append(nodes, nd.info())
		}
		r.opt.OnReady(nodes)
	}
	if r.opt.started != nil {
		r.opt.started(r.nodes)
	}
	t0 := time.Now()
	r.startSampling(t0)
	flowCtx, cancelFlows := context.WithTimeout(ctx, r.sc.Duration)
	defer cancelFlows()
	var fwg sync.WaitGroup
	for _, f := range flows {
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			r.fetch(flowCtx, f, t0)
		}()
	}
	for i, e := range r.opt.Exec {
		if r.boundExec[i] {
			continue // a program flow's: fetch runs it
		}
		p := r.startProc(e, r.byName[e.Node])
		r.addProc(p)
		fwg.Add(1)
		go func() {
			defer fwg.Done()
			<-p.done
		}()
	}
	allDone := make(chan struct{})
	go func() { fwg.Wait(); close(allDone) }()
	eventsDone := make(chan error, 1)
	go func() { eventsDone <- r.runEvents(flowCtx, t0) }()
	var end time.Duration
	limit := false
	select {
	case <-allDone:
		end = since(t0)
	case <-r.failed:
		end = since(t0)
	case <-flowCtx.Done():
		end = since(t0)
		limit = ctx.Err() == nil
	}
	if r.opt.Hold && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-r.failed:
		}
	}
	links, late, linkErr := r.linkResults(end)
	kq, kudp, kqErr := r.kernelQueues()
	linkErr = errors.Join(linkErr, kqErr)
	cancelFlows()
	eventErr := <-eventsDone
	for _, p := range r.allProcs() {
		p.kill()
	}
	<-allDone
	res := &Result{Mode: Mode, Lateness: late, KernelQueues: kq, KernelUDP: kudp, traces: r.traces, Result: &sim.Result{
		Scenario: r.sc.Name, Seed: r.seed, SimTimeS: sim.Round(end.Seconds(), 6), Links: links,
	}}
	res.Caches = r.cacheResults()
	res.Producers = r.producerResults()
	for _, p := range res.Producers {
		if p.SignedOnDemand > 0 {
			r.log.Warn("producer signed Data when asked for, beyond its share of the presign budget: those Interests waited for a signature",
				"producer", p.Prefix, "node", p.Node, "signed_on_demand", p.SignedOnDemand, "presigned_sent", p.Presigned)
		}
	}
	for _, f := range flows {
		row, absent := f.result(end, limit, ctx.Err() != nil)
		res.Flows = append(res.Flows, row)
		res.absent = append(res.absent, absent)
	}
	wall := time.Since(wallStart)
	res.Timing = sim.Timing{WallS: wall.Seconds(), Speedup: sim.Round(end.Seconds()/wall.Seconds(), 2)}
	var errs []error
	select {
	case <-r.failed: // r.failure is set before failed closes
		errs = append(errs, r.failure)
	default:
		if linkErr != nil {
			errs = append(errs, linkErr)
		}
		if eventErr != nil {
			errs = append(errs, eventErr)
		}
	}
	for _, p := range r.allProcs() {
		<-p.done // a producer's program is not among the flows awaited
		res.Exec = append(res.Exec, p.res)
		if p.failed() {
			err := fmt.Errorf("node %s: %q %s", p.e.Node, p.e.Command, p.res.Error)
			if p.e.output != nil { // its output was read, not shown: say how it ended
				if t := tail(p.e.output.String(), 500); t != "" {
					err = fmt.Errorf("%w: %s", err, t)
				}
			}
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}
