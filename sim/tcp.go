package sim

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/internal/lazytimer"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/scenario"
)

// This file is the simulator's TCP baseline: bulk TCP transfers ([[tcp]]
// in a scenario) that share links and queues with the NDN flows.
//
// # IP
//
// Every node forwards the frames not addressed to it to the next hop of
// the shortest path to their destination (topology.Routes, the ranking
// NDN's FIB is built from, best hop only), through the same Channel, queue
// and loss as NDN packets (Channel.SendExt). IP forwarding takes no
// processing time: the forwarders' processing jitter (Options) is NDN's.
//
// # Wire sizes
//
// A scenario's header-overhead (default 44) is what an NDN packet carries
// below NDN: IPv4 + UDP (28) and link framing (the rest, 16). A TCP
// segment carries IPv4 (20), TCP with the timestamps option Linux sends
// (32) and the same link framing: 68 bytes plus its payload with the
// default overhead (TCPOverhead). An ACK is those 68 bytes. With the
// default MSS of 1448 a full segment is 1516 bytes on the wire, so a flow
// alone on a link of capacity C has a goodput of at most C × 1448/1516.
//
// # Receiver
//
// The receiver acknowledges every data segment at once with a cumulative
// ACK (the next segment it expects): no delayed ACKs, no SACK. Segments
// that arrive beyond a hole are kept (a bitmap over the window) and
// delivered when the hole fills. The receive window is unlimited.
//
// # Sender
//
// The sender owns the sequence state (segment numbers; snd.una, snd.nxt,
// the highest segment sent), the send times that give RTT samples, the RTO
// timer and the loss recovery; the window algorithm (cc's aimd for Reno,
// cc's cubic for CUBIC, with their defaults: initial window 1, initial
// ssthresh 200) owns only cwnd and ssthresh. It is told of each ACK that
// acknowledges new data outside loss recovery (Algorithm.OnData, once per
// ACK) and of each loss episode (OnDecrease: CauseHole for a fast
// retransmit, CauseTimeout for an RTO). The sender adds the loss recovery:
//
//   - Fast retransmit and NewReno fast recovery (RFC 5681, RFC 6582): the
//     third duplicate ACK retransmits snd.una and decreases the window
//     (ssthresh = cwnd × beta, cwnd = ssthresh); while recovering the
//     window is ssthresh + the duplicate ACKs seen (inflation, starting at
//     3); a partial ACK retransmits the next hole, deflates the window by
//     the segments it acknowledged and adds one, and re-arms the RTO timer
//     if it is the first (the "impatient" variant); a full ACK (one that
//     covers every segment sent before recovery began) ends recovery with
//     the window at ssthresh. A new recovery starts only once snd.una has
//     passed the highest segment sent when the previous one (or the last
//     RTO) began.
//   - Retransmission timeout (RFC 6298, RFC 5681 §3.1): one timer, armed
//     when data is sent and none is running, restarted by every ACK of new
//     data. On expiry the RTO doubles (cc's estimator: initial 1 s, min
//     200 ms, max 10 s); ssthresh is decreased through the algorithm (only
//     for the first expiry of a series, and not when the loss was already
//     acted on by a fast recovery in progress); the algorithm then starts
//     afresh with cwnd 1 and that ssthresh, so that it slow-starts back
//     (RFC 5681's loss window; for CUBIC this also forgets W_max, as
//     Linux's cubic does on an RTO); and the sender goes back to snd.una
//     (go-back-N), resending what follows as the window allows.
//
// RTT samples follow Karn's rule: an ACK that acknowledges new data gives
// the time since the newest segment it acknowledges was sent, unless some
// segment it acknowledges was ever retransmitted. Per-segment state (send
// time, retransmitted flag) lives in a ring over [snd.una, highest sent]
// and the receiver's in a bitmap over its window: a flow's memory is
// bounded by its window, not by the size of the transfer.

// IPv4 and TCP header sizes of the TCP baseline.
const (
	// IPv4HeaderBytes is an IPv4 header without options.
	IPv4HeaderBytes = 20
	// TCPHeaderBytes is the TCP header with the timestamps option
	// (20 + 12), as Linux sends every segment.
	TCPHeaderBytes = 32
	// udpIPBytes is the IPv4 + UDP part of a scenario's header-overhead.
	udpIPBytes = 28
)

// TCPOverhead is the wire size of a TCP segment besides its payload (and
// the size of an ACK) on a network whose NDN packets carry ndnOverhead
// bytes of lower-layer headers: IPv4 (20) + TCP with timestamps (32) + the
// link framing, which is ndnOverhead minus IPv4/UDP's 28 (none if
// ndnOverhead is smaller). 68 with the default overhead of 44.
func TCPOverhead(ndnOverhead int) int {
	return IPv4HeaderBytes + TCPHeaderBytes + max(ndnOverhead-udpIPBytes, 0)
}

// The initial window and slow-start threshold of the simulated TCP (a
// 2015 Linux kernel's window of 10 aside, the papers' NDN values).
const (
	tcpInitCwnd     = 1
	tcpInitSsthresh = 200
)

// tcpAlgorithm returns cc's window policy for a scenario's TCP algorithm:
// Reno (cc's aimd) or CUBIC with RFC 9438's fast convergence, from a
// window of tcpInitCwnd and a threshold of tcpInitSsthresh, or of ssthresh
// when ssthresh > 0.
func tcpAlgorithm(name string, ssthresh float64) (cc.Algorithm, error) {
	switch name {
	case scenario.TCPReno:
		cfg := cc.DefaultAIMDConfig()
		cfg.InitCwnd, cfg.InitSsthresh = tcpInitCwnd, tcpInitSsthresh
		cfg.HyStart = false // the papers' TCP runs predate it; results stay theirs
		if ssthresh > 0 {
			cfg.InitSsthresh = ssthresh
		}
		a, err := cc.NewAIMD(cfg)
		if err != nil {
			return nil, err
		}
		return a, nil
	case scenario.TCPCubic:
		cfg := cc.DefaultCubicConfig()
		cfg.InitCwnd, cfg.InitSsthresh, cfg.FastConvergence = tcpInitCwnd, tcpInitSsthresh, true
		cfg.HyStart = false // the papers' TCP runs predate it; results stay theirs
		if ssthresh > 0 {
			cfg.InitSsthresh = ssthresh
		}
		a, err := cc.NewCubic(cfg)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("unknown TCP algorithm %q", name)
}

// TCPFlow is one bulk TCP transfer from node From to node To, built from
// a scenario's [[tcp]] entry.
type TCPFlow struct {
	// ID names the flow in results and traces.
	ID string
	// From is the sending node, To the receiving one.
	From, To string
	// Algorithm is the window policy: "reno" or "cubic".
	Algorithm string
	// Start is when the sender starts (the scenario's start plus jitter).
	Start time.Duration
	// Size is the number of bytes to transfer.
	Size int64
	// MSS is the payload of every segment but the last, in bytes.
	MSS int
	// Overhead is the wire size of a segment besides its payload, and
	// the size of an ACK (TCPOverhead).
	Overhead int

	snd    *tcpSender
	rcv    tcpReceiver
	ip     *ipLayer
	src    *ipNode // the sender's node
	dst    *ipNode // the receiver's node
	tracer *flowTracer
	rate   rateBuckets
	onDone func() // called once, when the last segment arrives
}

// TCPStats are a TCP flow's counters. Receiver-side counts are of data
// segments arriving at To; sender-side ones of segments leaving From.
type TCPStats struct {
	Start, End time.Duration // when the sender started; when the last byte arrived in order
	Complete   bool          // every byte arrived

	Segments        uint64 // distinct data segments received
	PayloadBytes    uint64 // payload delivered in order
	DataReceived    uint64 // data segments received, duplicates included
	WireBytes       uint64 // wire bytes of those segments
	UniqueWireBytes uint64 // wire bytes of the distinct segments
	Duplicates      uint64 // data segments received again

	SegmentsSent     uint64 // data segments sent, retransmissions included
	Retransmissions  uint64 // data segments sent again
	Timeouts         uint64 // RTO expiries
	TimeoutDecreases uint64 // window decreases by RTO (first expiry of a series)
	FastRetransmits  uint64 // fast retransmits (window decreases by duplicate ACKs)
	DupAcks          uint64 // duplicate ACKs received

	RTTMin, RTTAvg, RTTMax time.Duration // over Karn-valid samples
}

// Stats returns the flow's counters.
func (f *TCPFlow) Stats() TCPStats {
	st := f.snd.stats
	r := &f.rcv
	st.Start, st.End, st.Complete = f.Start, r.end, r.complete()
	st.Segments, st.DataReceived, st.Duplicates = r.unique, r.received, r.duplicates
	st.WireBytes, st.UniqueWireBytes = r.wireBytes, r.uniqueWire
	st.PayloadBytes = f.payloadBefore(r.nxt)
	st.RTTMin, st.RTTAvg, st.RTTMax = f.snd.rtt.MinRTT(), f.snd.rtt.AvgRTT(), f.snd.rtt.MaxRTT()
	return st
}

// Done reports whether every byte has arrived at the receiver.
func (f *TCPFlow) Done() bool { return f.rcv.complete() }

// Window is the sender's current window in segments: the algorithm's
// cwnd, or during fast recovery ssthresh plus the inflation.
func (f *TCPFlow) Window() float64 { return f.snd.window() }

// Ssthresh is the algorithm's slow-start threshold in segments.
func (f *TCPFlow) Ssthresh() float64 { return f.snd.alg.Ssthresh() }

// RTO is the sender's current retransmission timeout.
func (f *TCPFlow) RTO() time.Duration { return f.snd.rtt.RTO() }

func (f *TCPFlow) segments() uint64 {
	return uint64((f.Size + int64(f.MSS) - 1) / int64(f.MSS))
}

// payload is the payload of segment seq.
func (f *TCPFlow) payload(seq uint64) int {
	return int(min(int64(f.MSS), f.Size-int64(seq)*int64(f.MSS)))
}

// payloadBefore is the payload of segments [0, seq).
func (f *TCPFlow) payloadBefore(seq uint64) uint64 {
	return uint64(min(int64(seq)*int64(f.MSS), f.Size))
}

// transmit hands data segment seq to the sender's node.
func (f *TCPFlow) transmit(seq uint64) {
	fr := f.ip.frame()
	*fr = tcpFrame{flow: f, dst: f.dst.addr, seq: seq, size: f.payload(seq) + f.Overhead}
	f.src.forward(fr)
}

// arrive handles a frame of this flow at its destination.
func (f *TCPFlow) arrive(fr *tcpFrame) {
	now := f.ip.sched.Now()
	if fr.ack {
		f.snd.onAck(fr.seq)
		f.ip.release(fr)
		f.traceSender(now)
		return
	}
	before, wasDone := f.rcv.nxt, f.rcv.complete()
	ack := f.rcv.onSegment(fr.seq, fr.size, now)
	if !wasDone && f.rcv.complete() && f.onDone != nil {
		f.onDone()
	}
	if f.tracer != nil && f.rcv.nxt > before {
		f.rate.add(f.tracer, now, f.payloadBefore(f.rcv.nxt)-f.payloadBefore(before))
		if f.rcv.complete() {
			f.rate.close(f.tracer)
		}
	}
	// The data frame comes back as its ACK.
	*fr = tcpFrame{flow: f, dst: f.src.addr, ack: true, seq: ack, size: f.Overhead}
	f.dst.forward(fr)
}

func (f *TCPFlow) start() {
	if f.tracer != nil {
		f.rate.start(f.ip.sched.Now())
	}
	f.snd.trySend()
	f.traceSender(f.ip.sched.Now())
}

func (f *TCPFlow) traceSender(now time.Duration) {
	if f.tracer == nil {
		return
	}
	f.tracer.Cwnd(now, f.snd.window(), f.snd.alg.Ssthresh())
	if s := f.snd.lastSample; s.ok {
		f.snd.lastSample.ok = false
		f.tracer.RTT(now, s.seq, s.rtt, f.snd.rtt.SRTT(), f.snd.rtt.RTTVar(), f.snd.rtt.RTO())
	}
}

// tcpFrame is a TCP segment or ACK on the wire.
type tcpFrame struct {
	flow *TCPFlow
	dst  int32 // address (ipNode.addr) of the destination
	ack  bool
	// seq is a data segment's number, or an ACK's cumulative
	// acknowledgement: the next segment the receiver expects.
	seq  uint64
	size int // wire bytes
}

// ipLayer is the IP forwarding of every node, and a free list of frames.
type ipLayer struct {
	sched *Scheduler
	free  []*tcpFrame
}

// ipNode forwards frames at one node. Only TCP endpoints have an address;
// fib holds the channel towards each address (nil for its own).
type ipNode struct {
	addr int32 // -1 for a node no flow ends at
	fib  []*Channel
}

func (ip *ipLayer) frame() *tcpFrame {
	if n := len(ip.free); n > 0 {
		f := ip.free[n-1]
		ip.free = ip.free[:n-1]
		return f
	}
	return &tcpFrame{}
}

// release recycles a frame that reached its end. Frames lost on the way
// are left to the garbage collector.
func (ip *ipLayer) release(f *tcpFrame) {
	*f = tcpFrame{}
	ip.free = append(ip.free, f)
}

func (nd *ipNode) receive(_ string, frame any) {
	if f, ok := frame.(*tcpFrame); ok {
		nd.forward(f)
	}
}

func (nd *ipNode) forward(f *tcpFrame) {
	if f.dst == nd.addr {
		f.flow.arrive(f)
		return
	}
	if c := nd.fib[f.dst]; c != nil {
		c.SendExt(f, f.size)
	}
}

// addTCPFlows builds the scenario's TCP flows and the IP forwarding they
// need; each flow's start is delayed by a uniform [0, startJitter), drawn
// from the run's seed, as consumers' are.
func (n *Network) addTCPFlows(seed uint64, startJitter time.Duration) error {
	sc := n.Scenario
	if len(sc.TCP) == 0 {
		return nil
	}
	ip := &ipLayer{sched: n.Sched}
	addr := map[string]int32{}
	var endpoints []string
	for _, f := range sc.TCP {
		for _, node := range []string{f.From, f.To} {
			if _, ok := addr[node]; !ok {
				addr[node] = int32(len(endpoints))
				endpoints = append(endpoints, node)
			}
		}
	}
	routes := sc.Topology.Routes()
	nodes := map[string]*ipNode{}
	for name, nd := range n.Nodes {
		in := &ipNode{addr: -1, fib: make([]*Channel, len(endpoints))}
		if a, ok := addr[name]; ok {
			in.addr = a
		}
		for a, dst := range endpoints {
			if hops := routes.NextHops(name, dst); len(hops) > 0 {
				in.fib[a], _ = nd.Out(hops[0].Neighbor)
			}
		}
		nodes[name] = in
		nd.SetExtHandler(in.receive)
	}
	overhead := TCPOverhead(sc.HeaderOverhead)
	for _, sf := range sc.TCP {
		alg, err := tcpAlgorithm(sf.Algorithm, 0)
		if err != nil {
			return fmt.Errorf("%s: tcp %s: %w", sf.Pos, sf.ID, err)
		}
		name := sf.Algorithm
		restart := func(ssthresh float64) cc.Algorithm {
			a, err := tcpAlgorithm(name, ssthresh)
			if err != nil { // ssthresh comes from the algorithm: >= cc.MinSsthresh
				panic(fmt.Sprintf("sim: tcp: restart %s with ssthresh %v: %v", name, ssthresh, err))
			}
			return a
		}
		start := sf.Start
		if startJitter > 0 {
			start += time.Duration(rng(seed, "tcp-start/"+sf.ID).Int64N(int64(startJitter)))
		}
		f := &TCPFlow{
			ID: sf.ID, From: sf.From, To: sf.To, Algorithm: sf.Algorithm, Start: start,
			Size: sf.Size, MSS: sf.MSS, Overhead: overhead,
			ip: ip, src: nodes[sf.From], dst: nodes[sf.To],
		}
		f.snd = newTCPSender(n.Sched, alg, restart, rtt.DefaultConfig(), f.segments(), f.transmit)
		f.rcv.segs = f.segments()
		f.onDone = func() { n.flowEnded(f.ID) }
		if n.trace != nil {
			f.tracer = n.trace.flow(sf.ID)
		}
		n.TCP = append(n.TCP, f)
		n.pending++
		n.Sched.At(start, f.start)
	}
	return nil
}

// Completion is the moment the first flow of a run — NDN consumer or TCP
// flow — ended, with what every flow had received by then: the window in
// which all flows that started at time zero competed.
type Completion struct {
	At   time.Duration
	Flow string // the ID of the flow that ended
	// WireBytes is, by flow ID, the wire size of everything received up
	// to At: every Data (NDN) or data segment (TCP), duplicates included
	// — the bytes the flows' throughput_kbps counts.
	WireBytes map[string]uint64
}

// FirstCompletion returns the first completion of the run, if a flow has
// ended.
func (n *Network) FirstCompletion() (Completion, bool) {
	return n.first, n.first.WireBytes != nil
}

// flowEnded records that flow id (NDN or TCP) has ended; the first call
// also records the first completion, with what every flow had received.
func (n *Network) flowEnded(id string) {
	n.pending--
	if n.first.WireBytes != nil {
		return
	}
	n.first = Completion{At: n.Sched.Now(), Flow: id, WireBytes: map[string]uint64{}}
	for _, f := range n.Flows {
		n.first.WireBytes[f.ID] = f.P.Stats().WireBytes
	}
	for _, a := range n.Apps {
		n.first.WireBytes[a.ID] = a.T.Stats().WireBytes
	}
	for _, f := range n.TCP {
		n.first.WireBytes[f.ID] = f.rcv.wireBytes
	}
}

// tcpReceiver is the receiving end of a flow: cumulative ACKs, and a
// bitmap of the segments that arrived beyond a hole.
type tcpReceiver struct {
	segs uint64 // segments in the transfer
	nxt  uint64 // next segment expected in order
	// ooo marks segments in [nxt, nxt+len(ooo)) that arrived out of
	// order, at index seq & (len-1).
	ooo []bool
	end time.Duration

	received, unique, duplicates uint64
	wireBytes, uniqueWire        uint64
}

func (r *tcpReceiver) complete() bool { return r.segs > 0 && r.nxt == r.segs }

// onSegment takes data segment seq of size wire bytes and returns the
// cumulative ACK to send.
func (r *tcpReceiver) onSegment(seq uint64, size int, now time.Duration) uint64 {
	r.received++
	r.wireBytes += uint64(size)
	switch {
	case seq < r.nxt:
		r.duplicates++
	case seq == r.nxt:
		r.unique++
		r.uniqueWire += uint64(size)
		r.nxt++
		for len(r.ooo) > 0 && r.ooo[r.nxt&uint64(len(r.ooo)-1)] {
			r.ooo[r.nxt&uint64(len(r.ooo)-1)] = false
			r.nxt++
		}
		if r.complete() {
			r.end = now
		}
	default:
		r.reserve(seq - r.nxt + 1)
		slot := &r.ooo[seq&uint64(len(r.ooo)-1)]
		if *slot {
			r.duplicates++
			break
		}
		*slot = true
		r.unique++
		r.uniqueWire += uint64(size)
	}
	return r.nxt
}

// reserve grows the bitmap to cover n segments from nxt.
func (r *tcpReceiver) reserve(n uint64) {
	if n <= uint64(len(r.ooo)) {
		return
	}
	size := max(len(r.ooo), 16)
	for uint64(size) < n {
		size *= 2
	}
	grown := make([]bool, size)
	for s := r.nxt; s < r.nxt+uint64(len(r.ooo)); s++ {
		grown[s&uint64(size-1)] = r.ooo[s&uint64(len(r.ooo)-1)]
	}
	r.ooo = grown
}

// txSlot is the sender's state of one unacknowledged segment.
type txSlot struct {
	sent time.Duration // last transmission
	retx bool          // ever retransmitted (Karn's rule)
}

type rttSample struct {
	ok  bool
	seq uint64
	rtt time.Duration
}

// tcpSender is a flow's sending end (see the file comment). It calls out
// to transmit a segment; time comes from the scheduler.
type tcpSender struct {
	s   *Scheduler
	alg cc.Algorithm
	// restart returns the algorithm in its initial state (cwnd 1) with
	// the given slow-start threshold: the window after an RTO.
	restart func(ssthresh float64) cc.Algorithm
	rtt     *rtt.Estimator
	segs    uint64
	out     func(seq uint64)
	// gate, if set, must allow each new segment trySend sends (a TCP
	// tunnel's small-queue limit); nil allows all.
	gate func() bool

	una, nxt, high uint64 // snd.una, snd.nxt, highest segment sent + 1
	ring           []txSlot

	dupAcks     int
	recovering  bool
	recoverEnd  uint64  // high when the last recovery or RTO began
	inflation   float64 // fast recovery's window above ssthresh
	partialSeen bool
	rtoSeries   int // RTO expiries since the last ACK of new data

	// rto is the retransmission timer. It is lazy (internal/lazytimer):
	// restarting it on every ACK only moves its deadline.
	rto lazytimer.Timer

	stats      TCPStats
	lastSample rttSample
}

func newTCPSender(s *Scheduler, alg cc.Algorithm, restart func(ssthresh float64) cc.Algorithm, rttCfg rtt.Config, segs uint64, out func(uint64)) *tcpSender {
	t := &tcpSender{s: s, alg: alg, restart: restart, rtt: rtt.NewEstimator(rttCfg), segs: segs, out: out, ring: make([]txSlot, 16)}
	t.rto.Init(s, t.timeout)
	return t
}

func (t *tcpSender) slot(seq uint64) *txSlot { return &t.ring[seq&uint64(len(t.ring)-1)] }

// window is the number of segments the sender may have outstanding.
func (t *tcpSender) window() float64 {
	if t.recovering {
		return max(t.alg.Cwnd()+t.inflation, 1)
	}
	return t.alg.Cwnd()
}

// trySend sends new (or, after an RTO, resends old) segments while the
// window has room.
func (t *tcpSender) trySend() {
	w := uint64(max(int(t.window()), 1))
	for t.nxt < t.segs && t.nxt-t.una < w && (t.gate == nil || t.gate()) {
		t.send(t.nxt)
		t.nxt++
	}
}

func (t *tcpSender) send(seq uint64) {
	now := t.s.Now()
	if seq < t.high {
		sl := t.slot(seq)
		sl.sent, sl.retx = now, true
		t.stats.Retransmissions++
	} else {
		if seq-t.una >= uint64(len(t.ring)) {
			t.grow()
		}
		*t.slot(seq) = txSlot{sent: now}
		t.high = seq + 1
	}
	t.stats.SegmentsSent++
	if !t.rto.Armed() {
		t.restartTimer()
	}
	t.out(seq)
}

func (t *tcpSender) grow() {
	grown := make([]txSlot, 2*len(t.ring))
	for s := t.una; s < t.high; s++ {
		grown[s&uint64(len(grown)-1)] = *t.slot(s)
	}
	t.ring = grown
}

// onAck handles a cumulative ACK: the receiver expects segment ack next.
func (t *tcpSender) onAck(ack uint64) {
	now := t.s.Now()
	switch {
	case ack > t.una && ack <= t.high:
		t.onNewAck(now, ack)
	case ack == t.una && t.high > t.una:
		t.onDupAck(now)
	}
	t.trySend()
}

func (t *tcpSender) onNewAck(now time.Duration, ack uint64) {
	old := t.una
	var sample time.Duration
	karn := true
	for s := old; s < ack; s++ {
		if t.slot(s).retx {
			karn = false
			break
		}
	}
	if karn {
		sample = now - t.slot(ack-1).sent
		t.rtt.AddSample(sample)
		t.lastSample = rttSample{ok: true, seq: ack - 1, rtt: sample}
	}
	t.una = ack
	t.nxt = max(t.nxt, ack)
	t.dupAcks = 0
	t.rtoSeries = 0
	restart := true
	switch {
	case t.recovering && ack >= t.recoverEnd: // full ACK
		t.recovering, t.inflation = false, 0
	case t.recovering: // partial ACK
		t.inflation += 1 - float64(ack-old)
		t.send(t.una)
		restart = !t.partialSeen
		t.partialSeen = true
	default:
		t.alg.OnData(cc.Ack{Now: now, Seg: ack - 1, RTT: sample, HighInterest: t.high - 1, InFlight: int(t.nxt - t.una)})
	}
	switch {
	case t.una == t.high:
		t.rto.Stop()
	case restart:
		t.restartTimer()
	}
}

func (t *tcpSender) onDupAck(now time.Duration) {
	t.stats.DupAcks++
	t.dupAcks++
	switch {
	case t.recovering:
		t.inflation++
	case t.dupAcks == 3 && t.una >= t.recoverEnd:
		t.stats.FastRetransmits++
		t.alg.OnDecrease(now, cc.CauseHole)
		t.recovering, t.recoverEnd = true, t.high
		t.inflation, t.partialSeen = 3, false
		t.send(t.una)
	}
}

func (t *tcpSender) timeout() {
	now := t.s.Now()
	t.stats.Timeouts++
	if !t.recovering && t.rtoSeries == 0 {
		t.alg.OnDecrease(now, cc.CauseTimeout)
		t.stats.TimeoutDecreases++
	}
	t.alg = t.restart(t.alg.Ssthresh())
	t.rtoSeries++
	t.rtt.Backoff()
	t.recovering, t.inflation, t.dupAcks = false, 0, 0
	t.recoverEnd = t.high
	t.nxt = t.una
	t.trySend()
}

// restartTimer (re)arms the RTO timer to expire one RTO from now.
func (t *tcpSender) restartTimer() {
	t.rto.Set(t.s.Now() + t.rtt.RTO())
}

// rateBuckets sums a flow's in-order payload per consumer.RateInterval for
// the rate trace, as the consumer's rate meter does.
type rateBuckets struct {
	bucket time.Duration
	bytes  uint64
}

func (r *rateBuckets) start(now time.Duration) { r.bucket = now }

func (r *rateBuckets) add(tr *flowTracer, now time.Duration, n uint64) {
	for now >= r.bucket+consumer.RateInterval {
		tr.Rate(r.bucket, r.bytes)
		r.bytes = 0
		r.bucket += consumer.RateInterval
	}
	r.bytes += n
}

func (r *rateBuckets) close(tr *flowTracer) {
	if r.bytes > 0 {
		tr.Rate(r.bucket, r.bytes)
		r.bytes = 0
	}
}
