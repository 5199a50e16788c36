package consumer

import (
	"math/rand/v2"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
)

// fakeSched is the virtual-time scheduler the simulator runs on; run runs
// callbacks up to and including time limit, leaving the clock at the last.
type fakeSched struct{ vclock.Scheduler }

func (s *fakeSched) run(limit time.Duration) { s.RunUntil(limit, nil) }

// action is what the scripted network does with one Interest.
type action struct {
	drop  bool
	delay time.Duration // until the Data or Nack arrives
	mark  bool          // the Data carries a CongestionMark
	nack  ndn.NackReason
	// nonceDelta is added to the Nack's nonce (non-zero: a Nack for an
	// earlier transmission).
	nonceDelta uint32
	noFinal    bool // the Data lacks a FinalBlockId
	dup        bool // the Data arrives twice
}

// sent is one Interest the pipeline sent.
type sent struct {
	at      time.Duration
	seg     uint64
	attempt int // 0 for the first transmission
	nonce   uint32
	rto     time.Duration // the pipeline's RTO when it was sent
}

// fakeNet is a face whose "network" answers each Interest as script says.
// attempt counts earlier transmissions of the same segment.
type fakeNet struct {
	s        *fakeSched
	p        *Pipeline
	final    uint64
	script   func(seg uint64, attempt int) action
	log      []sent
	attempts map[uint64]int
	inFlight int
	maxIn    int
}

func (n *fakeNet) Send(pkt ndn.Packet) {
	in := pkt.Interest
	seg, ok := ndn.SegmentOf(in.Name)
	if !ok || pkt.Data != nil || pkt.IsNack() {
		panic("pipeline sent something other than a segment Interest")
	}
	att := n.attempts[seg]
	n.attempts[seg]++
	n.log = append(n.log, sent{n.s.Now(), seg, att, in.Nonce, n.p.rto.rto()})
	a := n.script(seg, att)
	if a.drop {
		return
	}
	n.inFlight++
	n.maxIn = max(n.maxIn, n.inFlight)
	if a.nack != ndn.NackNone {
		nack := *in
		nack.Nonce += a.nonceDelta
		n.s.After(a.delay, func() {
			n.inFlight--
			n.p.OnPacket(ndn.Packet{Interest: &nack, Nack: a.nack})
		})
		return
	}
	d := &ndn.Data{Name: in.Name, ContentLen: 1024}
	if !a.noFinal {
		d.FinalBlockID, d.HasFinal = enc.NewSegmentComponent(n.final), true
	}
	var mark uint64
	if a.mark {
		mark = 1
	}
	n.s.After(a.delay, func() {
		n.inFlight--
		n.p.OnPacket(ndn.Packet{Data: d, CongestionMark: mark})
	})
	if a.dup {
		n.s.After(a.delay+time.Millisecond, func() { n.p.OnPacket(ndn.Packet{Data: d}) })
	}
}

// sendsOf returns the log entries of one segment.
func (n *fakeNet) sendsOf(seg uint64) []sent {
	var out []sent
	for _, s := range n.log {
		if s.seg == seg {
			out = append(out, s)
		}
	}
	return out
}

// fakeTracer records what the pipeline traces.
type fakeTracer struct {
	cwnd []float64
	rtts map[uint64][]time.Duration // per segment, the samples traced
}

func (f *fakeTracer) Cwnd(_ time.Duration, cwnd, _ float64) { f.cwnd = append(f.cwnd, cwnd) }
func (f *fakeTracer) RTT(_ time.Duration, seg uint64, rtt, _, _, _ time.Duration) {
	f.rtts[seg] = append(f.rtts[seg], rtt)
}
func (f *fakeTracer) Rate(time.Duration, uint64) {}

// fetch is one pipeline wired to a scripted network.
type fetch struct {
	s      *fakeSched
	net    *fakeNet
	p      *Pipeline
	tr     *fakeTracer
	order  []uint64 // OnSegment calls
	done   []error  // OnDone calls
	doneAt time.Duration
}

// always answers every Interest with a Data after d.
func always(d time.Duration) func(uint64, int) action {
	return func(uint64, int) action { return action{delay: d} }
}

// newFetch builds a pipeline for segments 0..final of /example/file/v=1.
func newFetch(t testing.TB, pipeline string, params map[string]string, final uint64, script func(uint64, int) action) *fetch {
	t.Helper()
	return newFetchVia(t, pipeline, params, final, script, nil)
}

// newFetchVia is newFetch with the pipeline sending through the face wrap
// returns for the scripted network (nil: the network itself).
func newFetchVia(t testing.TB, pipeline string, params map[string]string, final uint64, script func(uint64, int) action, wrap func(*fakeNet) ndn.Face) *fetch {
	t.Helper()
	opts, err := ParseParams(pipeline, params)
	if err != nil {
		t.Fatal(err)
	}
	prefix, err := enc.NameFromStr("/example/file")
	if err != nil {
		t.Fatal(err)
	}
	prefix = prefix.Append(enc.NewVersionComponent(1))
	f := &fetch{s: &fakeSched{}, tr: &fakeTracer{rtts: map[uint64][]time.Duration{}}}
	f.net = &fakeNet{s: f.s, final: final, script: script, attempts: map[uint64]int{}}
	var face ndn.Face = f.net
	if wrap != nil {
		face = wrap(f.net)
	}
	f.p, err = New(Config{
		Prefix:    prefix,
		Options:   opts,
		Rand:      rand.New(rand.NewPCG(1, 2)),
		Tracer:    f.tr,
		OnSegment: func(seg uint64, _ *ndn.Data) { f.order = append(f.order, seg) },
		OnDone: func(err error) {
			f.done = append(f.done, err)
			f.doneAt = f.s.Now()
		},
	}, f.s, face)
	if err != nil {
		t.Fatal(err)
	}
	f.net.p = f.p
	return f
}

// run starts the fetch and runs the network until it ends (or an hour).
func (f *fetch) run(t testing.TB) {
	t.Helper()
	f.p.Start()
	f.s.run(time.Hour)
	if done, _ := f.p.Done(); !done {
		t.Fatalf("fetch did not end within an hour of virtual time")
	}
}

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }

// Pending returns the number of callbacks waiting.
