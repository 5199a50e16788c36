package sim

import (
	"fmt"
	"hash/fnv"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/producer"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sched"
)

// ObjectVersion is the version component every simulated producer puts
// after its prefix (a microsecond timestamp, as ndnputchunks does).
const ObjectVersion = 1700000000000000

// Node is one simulated host: a forwarder and its faces to neighbours.
type Node struct {
	Name  string
	FW    *fw.Forwarder
	faces map[string]fw.FaceID // neighbour name -> face
	cpu   *processor
	out   map[string]*Channel // neighbour name -> channel towards it
	// ext handles non-NDN frames (TCP segments) arriving from a
	// neighbour; nil drops them.
	ext func(from string, frame any)
	// apps counts the traffic applications on the node (their AppIds in
	// the ndnSIM-format traces); taps are its faces' counts there.
	apps int
	taps map[fw.FaceID]*faceCount
}

// SetExtHandler installs the handler of non-NDN frames arriving at the
// node (the simulator's TCP/IP layer).
func (nd *Node) SetExtHandler(h func(from string, frame any)) { nd.ext = h }

// Out returns the channel from this node to a neighbour.
func (nd *Node) Out(neighbour string) (*Channel, bool) {
	c, ok := nd.out[neighbour]
	return c, ok
}

// processor models a forwarder's single packet-processing thread: packets
// from the network are handled in arrival order, each taking a random
// time uniform in [0, jitter). It is the run-to-run variation the seeds'
// testbeds had; with jitter 0 packets are handled on arrival.
type processor struct {
	s      *Scheduler
	fw     *fw.Forwarder // the node's
	rng    *rand.Rand    // draws the processing times
	jitter time.Duration
	busy   time.Duration // when the thread is next free
	q      fifo.Queue[pending]
	lane   sched.Lane // one event per queued packet, at busy
	// tap, if set, is told of every packet before the forwarder takes it
	// (the ndnSIM-format traces).
	tap func(fw.FaceID, *ndn.Packet)
}

type pending struct {
	face fw.FaceID
	pkt  ndn.Packet
}

func newProcessor(s *Scheduler, f *fw.Forwarder, rng *rand.Rand, jitter time.Duration) *processor {
	p := &processor{s: s, fw: f, rng: rng, jitter: jitter}
	// The lane's callback hands the forwarder the packet whose processing
	// ends now. It is written here, not as a method: a method value (p.run)
	// is a wrapper that calls the method, one call more per packet.
	p.lane = sched.NewLane(s, func() {
		x := p.q.Front() // read in place, dropped after (see link.NewChannel's arrivals)
		if p.tap != nil {
			p.tap(x.face, &x.pkt)
		}
		p.fw.ReceiveInPlace(x.face, &x.pkt)
		p.q.Drop()
	})
	return p
}

// receive queues pkt, which arrives on face now; it reads pkt during the
// call only (a frame where it waited on the wire).
func (p *processor) receive(face fw.FaceID, pkt *ndn.Packet) {
	if p.jitter <= 0 {
		if p.tap != nil {
			p.tap(face, pkt)
		}
		p.fw.Receive(face, *pkt)
		return
	}
	start := max(p.s.Now(), p.busy)
	p.busy = start + time.Duration(p.rng.Int64N(int64(p.jitter)))
	q := p.q.PushZero() // filled in place: no pending built and copied
	q.face = face
	q.pkt = *pkt // (a tuple assignment would copy pkt twice, through a temporary)
	p.lane.At(p.busy)
}

// deliverer returns the callback that hands the processor the frames a
// link delivers on face. It is a method value, whose code is one function
// for every link (a closure written at each call site would be one
// function per site): the link's indirect call to it then always has the
// same target, which a processor predicts.
func (p *processor) deliverer(face fw.FaceID) func(*link.Frame) {
	return (&delivery{p, face}).deliver
}

// delivery is a link's way into a processor (deliverer).
type delivery struct {
	p    *processor
	face fw.FaceID
}

func (d *delivery) deliver(f *link.Frame) { d.p.receive(d.face, &f.Pkt) }

// Flow is one consumer fetching from one producer.
type Flow struct {
	ID       string
	Consumer string // consumer node
	Producer string // producer node
	Pipeline string
	// Options are the pipeline's, as the scenario's profile and params
	// give them.
	Options consumer.Options
	Start   time.Duration
	P       *consumer.Pipeline
	tracer  *flowTracer
}

// flowRef is a consumer of the scenario, in its order: a pipeline's flow
// or a traffic application.
type flowRef struct {
	flow *Flow
	app  *AppFlow
}

// Network is a simulated NDN network built from a scenario.
type Network struct {
	Scenario *scenario.Scenario
	Seed     uint64 // the seed in effect (Options.Seed or the scenario's)
	Sched    *Scheduler
	Sizer    *ndn.Sizer
	Nodes    map[string]*Node
	Channels []*Channel
	// Underlays are the underlay bottlenecks beneath overlay links, by
	// direction ("r2->r1"); their From is the overlay's sender with "~".
	Underlays map[string]*Channel
	// Tunnels are the directions of the TCP tunnels (tcptunnel.go), two
	// per tunnel link: A->B, then B->A.
	Tunnels []*TCPTunnel
	Flows   []*Flow
	// Apps are the consumers that run traffic applications (apps.go),
	// in scenario order.
	Apps      []*AppFlow
	Producers []*producer.Producer // in scenario order
	// TCP are the scenario's TCP flows (tcp.go), in scenario order.
	TCP     []*TCPFlow
	first   Completion // see FirstCompletion
	pending int        // flows, NDN and TCP, that have not ended
	trace   *Traces
	// consumers are the scenario's consumers in its order.
	consumers []flowRef
	// ndnsim records the ndnSIM-format traces (Options.NDNSimTrace).
	ndnsim *ndnsimTraces
	// interests and data supply the consumers' Interests and the
	// producers' Data, about 4 KiB to an allocation (ndn.Batch).
	interests ndn.Batch[ndn.Interest]
	data      ndn.Batch[ndn.Data]
	// routes plans the routes toward the producers' nodes; producers
	// indexes the scenario's producers by prefix.
	routes    *RoutePlanner
	producers *scenario.ProducerIndex
}

// Defaults of the run-to-run variation (see Options).
const (
	DefaultProcessingJitter = 200 * time.Microsecond
	DefaultStartJitter      = 10 * time.Millisecond
)

// Options adjust how a scenario is built and run.
type Options struct {
	// Seed, if non-zero, overrides the scenario's seed.
	Seed uint64
	// Trace records time series (cwnd, RTT/RTO, rate, queues) for Write.
	Trace bool
	// NDNSimTrace records the traces of ndnSIM's L3RateTracer,
	// AppDelayTracer and CsTracer for WriteNDNSimTraces (ndnsim.go).
	NDNSimTrace bool
	// ProcessingJitter bounds each forwarder's per-packet processing time,
	// drawn uniformly from [0, ProcessingJitter) (default 200 µs; negative
	// disables). StartJitter delays each consumer's start by a uniform
	// [0, StartJitter) (default 10 ms; negative disables). Both are drawn
	// from the run's seed: different seeds give runs that differ the way
	// repeated testbed runs do, the same seed the same numbers.
	ProcessingJitter time.Duration
	StartJitter      time.Duration
}

func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d < 0:
		return 0
	case d == 0:
		return def
	}
	return d
}

// rng returns the random source of one named component, derived from the
// run's seed so that components never share a stream.
func rng(seed uint64, component string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(component))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// Build assembles the network a scenario describes.
func Build(sc *scenario.Scenario, opt Options) (*Network, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	seed := sc.Seed
	if opt.Seed != 0 {
		seed = opt.Seed
	}
	n := &Network{
		Scenario: sc,
		Seed:     seed,
		Sched:    NewScheduler(),
		Sizer:    ndn.NewSizer(),
		Nodes:    map[string]*Node{},
	}
	if opt.Trace {
		n.trace = NewTraces()
	}
	if opt.NDNSimTrace {
		n.ndnsim = newNDNSimTraces(n.Sizer)
	}
	for _, nd := range sc.Topology.Nodes {
		rs := sc.RouterFor(nd.Name)
		f, err := fw.New(fw.Config{Name: nd.Name, CSCapacity: rs.CSCapacity, DefaultStrategy: rs.Strategy}, n.Sched, rng(seed, "fw/"+nd.Name))
		if err != nil {
			return nil, fmt.Errorf("%s: node %s: %w", rs.Pos, nd.Name, err)
		}
		cpu := newProcessor(n.Sched, f, rng(seed, "cpu/"+nd.Name), orDefault(opt.ProcessingJitter, DefaultProcessingJitter))
		n.Nodes[nd.Name] = &Node{Name: nd.Name, FW: f, faces: map[string]fw.FaceID{}, cpu: cpu, out: map[string]*Channel{}}
	}
	if err := n.buildLinks(sc, seed); err != nil {
		return nil, err
	}
	n.routes = NewRoutePlanner(sc)
	n.producers = sc.NewProducerIndex()
	for _, p := range sc.Producers {
		if err := n.addProducer(p); err != nil {
			return nil, err
		}
	}
	if err := n.addShapers(sc); err != nil {
		return nil, err
	}
	for _, c := range sc.Consumers {
		add := n.addConsumer
		if c.App != "" {
			add = n.addApp
		}
		if err := add(c, seed, orDefault(opt.StartJitter, DefaultStartJitter)); err != nil {
			return nil, err
		}
	}
	if err := n.scheduleEvents(); err != nil {
		return nil, err
	}
	if err := n.addTCPFlows(seed, orDefault(opt.StartJitter, DefaultStartJitter)); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *Network) buildLinks(sc *scenario.Scenario, seed uint64) error {
	for _, l := range sc.Topology.Links {
		var ch [2]*Channel
		tt := sc.TCPTunnelFor(l.A, l.B)
		var sendQ [2]aqm.Queue // a TCP tunnel's send queues
		for i, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
			from, to := dir[0], dir[1]
			qname, qparams := sc.QueueFor(from, to)
			lim := aqm.Limits{Packets: l.QueuePackets, Bytes: l.QueueBytes}
			if tt != nil {
				// The discipline is the face's send queue, without limits
				// (NFD's m_sendQueue); TCP's segments take a drop-tail
				// queue of the link's limits.
				var err error
				if sendQ[i], err = aqm.New(qname, qparams, aqm.Limits{}); err != nil {
					return fmt.Errorf("%s: queue on %s->%s: %w", sc.QueuePos(from, to), from, to, err)
				}
				qname, qparams = "droptail", nil
			}
			q, err := aqm.New(qname, qparams, lim)
			if err != nil {
				return fmt.Errorf("%s: queue on %s->%s: %w", sc.QueuePos(from, to), from, to, err)
			}
			p := link.Params{Bandwidth: l.Bandwidth, Delay: l.Delay, Jitter: l.Jitter, Loss: sc.LossFor(from, to), HeaderOverhead: sc.HeaderOverhead}
			if ch[i], err = newChannel(n.Sched, from, to, p, q, n.Sizer, rng(seed, "link/"+from+"->"+to)); err != nil {
				return fmt.Errorf("%s: link %s->%s: %w", sc.File, from, to, err)
			}
			n.Channels = append(n.Channels, ch[i])
		}
		a, b := n.Nodes[l.A], n.Nodes[l.B]
		if tt != nil {
			if err := n.addTCPTunnel(tt, a, b, ch, sendQ); err != nil {
				return fmt.Errorf("%s: link %s: %w", sc.File, l, err)
			}
			continue
		}
		// the link model itself is the face: no wrapper's call per packet
		fa := n.addFace(a, ch[0].Channel, "netdev://"+l.B, fw.FaceNetwork)
		fb := n.addFace(b, ch[1].Channel, "netdev://"+l.A, fw.FaceNetwork)
		a.faces[l.B], b.faces[l.A] = fa, fb
		a.out[l.B], b.out[l.A] = ch[0], ch[1]
		// exit[i] is the channel whose frames reach the far end of
		// direction i: the link's own, or the underlay beneath it.
		exit := [2]*Channel{ch[0], ch[1]}
		for i, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
			u, err := n.addUnderlay(sc, dir[0], dir[1], ch[i], seed)
			if err != nil {
				return err
			}
			if u != nil {
				exit[i] = u
			}
		}
		if sc.LossDetection(l.A, l.B) {
			if err := n.addLossDetection(a, b, fa, fb, ch, exit); err != nil {
				return fmt.Errorf("%s: link %s: %w", sc.File, l, err)
			}
		} else {
			exit[0].OnDeliver(b.cpu.deliverer(fb))
			exit[1].OnDeliver(a.cpu.deliverer(fa))
		}
		from0, from1 := l.A, l.B
		ch[0].OnDeliverExt(func(e any) {
			if b.ext != nil {
				b.ext(from0, e)
			}
		})
		ch[1].OnDeliverExt(func(e any) {
			if a.ext != nil {
				a.ext(from1, e)
			}
		})
	}
	return nil
}

// addTCPTunnel makes the link a—b (channels ch[0] a->b, ch[1] b->a) a
// TCP tunnel: each forwarder's face is the tunnel's sending end, whose
// send queue is sendQ[i] (tcptunnel.go).
func (n *Network) addTCPTunnel(tt *scenario.TCPTunnel, a, b *Node, ch [2]*Channel, sendQ [2]aqm.Queue) error {
	ab, err := newTCPTunnel(n, tt, ch[0], ch[1], b, sendQ[0])
	if err != nil {
		return err
	}
	ba, err := newTCPTunnel(n, tt, ch[1], ch[0], a, sendQ[1])
	if err != nil {
		return err
	}
	fa := n.addFace(a, ab, "tcp://"+b.Name, fw.FaceNetwork)
	fb := n.addFace(b, ba, "tcp://"+a.Name, fw.FaceNetwork)
	ab.toFace, ba.toFace = fb, fa
	a.faces[b.Name], b.faces[a.Name] = fa, fb
	a.out[b.Name], b.out[a.Name] = ch[0], ch[1]
	n.Tunnels = append(n.Tunnels, ab, ba)
	deliverTunnelFrames(ch[0], func(e any) {
		if b.ext != nil {
			b.ext(a.Name, e)
		}
	})
	deliverTunnelFrames(ch[1], func(e any) {
		if a.ext != nil {
			a.ext(b.Name, e)
		}
	})
	return nil
}

// addShapers sets up the hop-by-hop Interest shapers of the scenario's
// link queues. A shaper that names no Data size assumes a Data of the
// first producer's segment size, as it is on the wire.
func (n *Network) addShapers(sc *scenario.Scenario) error {
	for _, lq := range sc.LinkQueues {
		if lq.Shaper == nil {
			continue
		}
		cfg := fw.ShaperConfig{Rate: lq.Shaper.Rate, DataSize: lq.Shaper.DataSize, Queue: lq.Shaper.Queue}
		if cfg.DataSize == 0 {
			if len(n.Producers) == 0 {
				return fmt.Errorf("%s: interest shaper on %s->%s: no producer to take the Data size from; set shaper-data-size", lq.Pos, lq.From, lq.To)
			}
			d, err := n.Producers[0].Segment(0)
			if err != nil {
				return fmt.Errorf("%s: interest shaper: %w", lq.Pos, err)
			}
			cfg.DataSize = n.Sizer.PacketSize(&ndn.Packet{Data: d}) + sc.HeaderOverhead
		}
		dirs := [][2]string{{lq.From, lq.To}}
		if lq.Both {
			dirs = append(dirs, [2]string{lq.To, lq.From})
		}
		for _, d := range dirs {
			node := n.Nodes[d[0]]
			if err := node.FW.SetInterestShaper(node.faces[d[1]], cfg); err != nil {
				return fmt.Errorf("%s: %w", lq.Pos, err)
			}
		}
	}
	return nil
}

// addUnderlay puts the underlay bottleneck of direction from→to, if the
// scenario gives one, behind channel ch: frames that leave ch join the
// underlay's drop-tail queue, and those it drops are lost without notice.
// It returns the underlay's channel (nil without one), also listed in
// Underlays.
func (n *Network) addUnderlay(sc *scenario.Scenario, from, to string, ch *Channel, seed uint64) (*Channel, error) {
	ul := sc.UnderlayFor(from, to)
	if ul == nil {
		return nil, nil
	}
	if len(sc.TCP) > 0 {
		return nil, fmt.Errorf("%s: underlay on %s->%s: an overlay link carries NDN frames only, and the scenario has TCP flows", sc.File, from, to)
	}
	q, err := aqm.New("droptail", nil, aqm.Limits{Packets: ul.QueuePackets})
	if err != nil {
		return nil, fmt.Errorf("%s: underlay on %s->%s: %w", sc.File, from, to, err)
	}
	p := link.Params{Bandwidth: ul.Rate, HeaderOverhead: sc.HeaderOverhead}
	u, err := newChannel(n.Sched, from+"~", to, p, q, n.Sizer, rng(seed, "underlay/"+from+"->"+to))
	if err != nil {
		return nil, fmt.Errorf("%s: underlay on %s->%s: %w", sc.File, from, to, err)
	}
	ch.OnDeliver(func(f *link.Frame) { u.SendFrame(*f) })
	if n.Underlays == nil {
		n.Underlays = map[string]*Channel{}
	}
	n.Underlays[from+"->"+to] = u
	return u, nil
}

// addLossDetection runs PCON's link-loss detection on both ends of a link
// (link.Reliability): losses on the wire become unmarked Congestion Nacks,
// drops in the sender's output queue marked ones; losses in an underlay
// beneath the link (exit differs from ch) are congestion and become marked
// ones too. ch are the link's channels a->b and b->a, exit the channels
// whose frames reach the far ends.
func (n *Network) addLossDetection(a, b *Node, fa, fb fw.FaceID, ch, exit [2]*Channel) error {
	a2b, b2a := ch[0], ch[1]
	cause := func(i int) fw.LossCause {
		if exit[i] != ch[i] {
			return fw.CauseQueueDrop
		}
		return fw.CauseLinkLoss
	}
	causeA, causeB := cause(0), cause(1)
	cfg := link.DefaultReliabilityConfig()
	la, err := link.NewReliability(cfg, n.Sched, a2b.SendFrame, func(p ndn.Packet) { a.FW.OnSendFailure(fa, p, causeA) })
	if err != nil {
		return err
	}
	lb, err := link.NewReliability(cfg, n.Sched, b2a.SendFrame, func(p ndn.Packet) { b.FW.OnSendFailure(fb, p, causeB) })
	if err != nil {
		return err
	}
	if err := a.FW.EnableLossNacks(fa, cfg.Window); err != nil {
		return err
	}
	if err := b.FW.EnableLossNacks(fb, cfg.Window); err != nil {
		return err
	}
	a2b.SetReliability(la)
	b2a.SetReliability(lb)
	exit[0].OnDeliver(func(f *link.Frame) {
		if lb.OnReceive(*f) {
			b.cpu.receive(fb, &f.Pkt)
		}
	})
	exit[1].OnDeliver(func(f *link.Frame) {
		if la.OnReceive(*f) {
			a.cpu.receive(fa, &f.Pkt)
		}
	})
	a2b.OnDrop(func(p ndn.Packet) { a.FW.OnSendFailure(fa, p, fw.CauseQueueDrop) })
	b2a.OnDrop(func(p ndn.Packet) { b.FW.OnSendFailure(fb, p, fw.CauseQueueDrop) })
	return nil
}

func versioned(prefix string) (ndn.Name, error) {
	name, err := ndn.ParseName(prefix)
	if err != nil {
		return nil, err
	}
	return name.Append(enc.NewVersionComponent(ObjectVersion)), nil
}

// signatureFor maps a scenario's signature name (scenario.Signatures) to
// the signature simulated Data carry: its type, KeyLocator and the length
// of its value (ECDSA P-256 in DER is at most 72 bytes).
func signatureFor(kind string) (ndn.Signature, error) {
	key := ndn.DefaultSeedKeyName()
	switch kind {
	case "", scenario.SigRSA2048:
		return ndn.RSASignature(key), nil
	case scenario.SigDigest:
		return ndn.DigestSignature(), nil
	case scenario.SigECDSA:
		return ndn.Signature{Type: ndn.SigSHA256WithECDSA, KeyLocator: key, ValueLen: 72}, nil
	case scenario.SigEd25519:
		return ndn.Signature{Type: ndn.SigEd25519, KeyLocator: key, ValueLen: 64}, nil
	case scenario.SigHMAC:
		return ndn.Signature{Type: ndn.SigHMACWithSHA256, KeyLocator: key, ValueLen: 32}, nil
	}
	return ndn.Signature{}, fmt.Errorf("unknown signature %q (want one of %v)", kind, scenario.Signatures())
}

func (n *Network) addProducer(p scenario.Producer) error {
	node := n.Nodes[p.Node]
	prefix, err := versioned(p.Prefix)
	if err != nil {
		return fmt.Errorf("%s: producer prefix %q: %w", p.Pos, p.Prefix, err)
	}
	sig, err := signatureFor(p.Signature)
	if err != nil {
		return fmt.Errorf("%s: producer signature: %w", p.Pos, err)
	}
	face := newAppFace(n.Sched, node.FW)
	n.addAppFace(node, face)
	fwFace := toForwarder{face}
	base, _ := ndn.ParseName(p.Prefix) // validated by the scenario
	prod, err := producer.New(producer.Config{
		Prefix: prefix, Size: p.FileSize, SegmentSize: p.SegmentSize,
		Freshness: p.Freshness, Signature: sig, Data: &n.data, Base: base,
	}, fwFace)
	if err != nil {
		return fmt.Errorf("%s: %w", p.Pos, err)
	}
	face.app = prod
	n.Producers = append(n.Producers, prod)
	node.FW.AddRoute(base, face.id, 0)
	for _, r := range n.routes.Announce(p) {
		prefix, _ := ndn.ParseName(r.Prefix) // validated by the scenario
		other := n.Nodes[r.Node]
		other.FW.AddRoute(prefix, other.faces[r.Neighbor], r.Cost)
	}
	return nil
}

// producerOf returns the first producer that serves prefix.
func (n *Network) producerOf(prefix string) (scenario.Producer, bool) {
	if ps := n.producers.For(prefix); len(ps) > 0 {
		return ps[0], true
	}
	return scenario.Producer{}, false
}

// ConsumerOptions returns consumer c's pipeline options: its profile's
// (the scenario's) under its params, parsed as a scenario's, with errors
// at the position of the key at fault. When a setting chose c's pipeline
// (scenario.Consumer.PipelineSet), the params the new pipeline does not
// have are left out (DroppedParams names them).
func ConsumerOptions(sc *scenario.Scenario, c scenario.Consumer) (consumer.Options, error) {
	if drop := droppedParams(c); len(drop) > 0 {
		c.Params = maps.Clone(c.Params)
		for _, k := range drop {
			delete(c.Params, k)
		}
	}
	params, err := consumer.WithProfile(c.Pipeline, sc.ProfileOf(c), c.Params)
	if err != nil {
		return consumer.Options{}, fmt.Errorf("%s: consumer %s: profile: %w", c.Pos, c.ID, err)
	}
	opts, err := consumer.ParseParams(c.Pipeline, params)
	if err != nil {
		return consumer.Options{}, paramError(c, err)
	}
	return opts, nil
}

// paramError is err, an invalid param of consumer c, at the position of
// the key at fault (a consumer.ParamError's), else at c's.
func paramError(c scenario.Consumer, err error) error {
	pos := c.Pos
	if pe, ok := err.(*consumer.ParamError); ok {
		if pp, ok := c.ParamPos[pe.Key]; ok {
			pos = pp
		}
	}
	return fmt.Errorf("%s: consumer %s: params: %w", pos, c.ID, err)
}

// droppedParams returns, sorted, the params of c that its pipeline does not
// have when a setting chose that pipeline; nil otherwise.
func droppedParams(c scenario.Consumer) []string {
	if !c.PipelineSet() {
		return nil
	}
	var drop []string
	for k := range c.Params {
		if !consumer.HasParam(c.Pipeline, k) {
			drop = append(drop, k)
		}
	}
	slices.Sort(drop)
	return drop
}

// DroppedParams says, a line per consumer, which params ConsumerOptions
// leaves out because a setting chose a pipeline that does not have them
// (a sweep of consumer.*.pipeline over a file written for another one).
func DroppedParams(sc *scenario.Scenario) []string {
	var notes []string
	for _, c := range sc.Consumers {
		if drop := droppedParams(c); len(drop) > 0 {
			notes = append(notes, fmt.Sprintf("consumer %s: pipeline %s has no parameter %s: left out", c.ID, c.Pipeline, strings.Join(drop, ", ")))
		}
	}
	return notes
}

// ConsumerStart returns when consumer c starts in a run of the given seed:
// its start, delayed by a uniform [0, jitter) drawn from the seed.
func ConsumerStart(seed uint64, c scenario.Consumer, jitter time.Duration) time.Duration {
	start := c.Start
	if jitter > 0 {
		start += time.Duration(rng(seed, "start/"+c.ID).Int64N(int64(jitter)))
	}
	return start
}

// ObjectName returns the versioned name a simulated producer of prefix
// serves (ObjectVersion).
func ObjectName(prefix string) (ndn.Name, error) { return versioned(prefix) }

func (n *Network) addConsumer(c scenario.Consumer, seed uint64, startJitter time.Duration) error {
	node := n.Nodes[c.Node]
	prod, ok := n.producerOf(c.Prefix)
	if !ok {
		return fmt.Errorf("%s: consumer %s: no producer serves exactly %q", c.Pos, c.ID, c.Prefix)
	}
	opts, err := ConsumerOptions(n.Scenario, c)
	if err != nil {
		return err
	}
	prefix, err := versioned(c.Prefix)
	if err != nil {
		return fmt.Errorf("%s: consumer prefix %q: %w", c.Pos, c.Prefix, err)
	}
	start := ConsumerStart(seed, c, startJitter)
	fl := &Flow{ID: c.ID, Consumer: c.Node, Producer: prod.Node, Pipeline: c.Pipeline, Options: opts, Start: start}
	overhead := n.Scenario.HeaderOverhead
	cfg := consumer.Config{
		Prefix:    prefix,
		Options:   opts,
		Rand:      rng(seed, "consumer/"+c.ID),
		OnDone:    func(error) { n.flowEnded(c.ID) },
		WireSize:  func(p ndn.Packet) int { return n.Sizer.PacketSize(&p) + overhead },
		Interests: &n.interests,
	}
	if n.trace != nil {
		fl.tracer = n.trace.flow(c.ID)
		cfg.Tracer = fl.tracer
	}
	face := newAppFace(n.Sched, node.FW)
	n.addAppFace(node, face)
	fwFace := toForwarder{face}
	pl, err := consumer.New(cfg, n.Sched, fwFace)
	if err != nil {
		return fmt.Errorf("%s: consumer %s: %w", c.Pos, c.ID, err)
	}
	face.app = pl
	fl.P = pl
	n.Flows = append(n.Flows, fl)
	n.consumers = append(n.consumers, flowRef{flow: fl})
	n.pending++
	n.Sched.At(start, pl.Start)
	return nil
}

// allDone reports whether every flow, NDN and TCP, has ended.
func (n *Network) allDone() bool { return n.pending == 0 }

// Run simulates until every flow has ended or the scenario's time limit.
//
// A simulation's packets are short-lived garbage: with the collector's
// defaults, a small network's live heap has it run every few megabytes.
// Run changes no process-wide setting; a program that runs simulations
// chooses its collector's policy (ndncc keeps the heap goal at least 32 MB,
// its --gc-floor flag).
func (n *Network) Run() *Result {
	wall := time.Now()
	if n.trace != nil {
		n.trace.startQueueSampler(n)
		n.trace.startForwardingSampler(n)
	}
	if n.ndnsim != nil {
		n.ndnsim.startSampler(n)
	}
	n.Sched.RunWhile(n.Scenario.Duration, &n.pending)
	return n.result(time.Since(wall))
}

// sortedChannels returns channels in a stable order.
func (n *Network) sortedChannels() []*Channel {
	out := append([]*Channel(nil), n.Channels...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].From != out[j].From {
			return out[i].From < out[j].From
		}
		return out[i].To < out[j].To
	})
	return out
}
