package sim

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/tcp"
)

// This file binds the TCP baseline (package tcp) to the simulator: bulk
// TCP transfers ([[tcp]] in a scenario) that share links and queues with
// the NDN flows.
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
// # TCP
//
// The senders and receivers are package tcp's (NewReno or CUBIC with
// NewReno's recovery, RFC 6298's RTO, cumulative ACKs): this file only
// binds them to the simulator's scheduler, links and traces.

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

	snd    *tcp.Sender
	rcv    *tcp.Receiver
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

	tcp.SenderStats // the sender's: segments sent, retransmissions, timeouts, ...

	RTTMin, RTTAvg, RTTMax time.Duration // over Karn-valid samples
}

// Stats returns the flow's counters.
func (f *TCPFlow) Stats() TCPStats {
	r := f.rcv.Stats()
	est := f.snd.RTT()
	return TCPStats{
		Start: f.Start, End: f.rcv.End(), Complete: f.rcv.Complete(),
		Segments: r.Unique, PayloadBytes: f.payloadBefore(f.rcv.Next()), DataReceived: r.Received,
		WireBytes: r.WireBytes, UniqueWireBytes: r.UniqueWire, Duplicates: r.Duplicates,
		SenderStats: f.snd.Stats(),
		RTTMin:      est.MinRTT(), RTTAvg: est.AvgRTT(), RTTMax: est.MaxRTT(),
	}
}

// Done reports whether every byte has arrived at the receiver.
func (f *TCPFlow) Done() bool { return f.rcv.Complete() }

// Window is the sender's current window in segments: the algorithm's
// cwnd, or during fast recovery ssthresh plus the inflation.
func (f *TCPFlow) Window() float64 { return f.snd.Window() }

// Ssthresh is the algorithm's slow-start threshold in segments.
func (f *TCPFlow) Ssthresh() float64 { return f.snd.Algorithm().Ssthresh() }

// RTO is the sender's current retransmission timeout.
func (f *TCPFlow) RTO() time.Duration { return f.snd.RTT().RTO() }

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
		f.snd.OnAck(fr.seq)
		f.ip.release(fr)
		f.traceSender(now)
		return
	}
	before, wasDone := f.rcv.Next(), f.rcv.Complete()
	ack := f.rcv.OnSegment(fr.seq, fr.size, now)
	if !wasDone && f.rcv.Complete() && f.onDone != nil {
		f.onDone()
	}
	if f.tracer != nil && f.rcv.Next() > before {
		f.rate.add(f.tracer, now, f.payloadBefore(f.rcv.Next())-f.payloadBefore(before))
		if f.rcv.Complete() {
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
	f.snd.TrySend()
	f.traceSender(f.ip.sched.Now())
}

func (f *TCPFlow) traceSender(now time.Duration) {
	if f.tracer == nil {
		return
	}
	f.tracer.Cwnd(now, f.snd.Window(), f.snd.Algorithm().Ssthresh())
	if seq, sample, ok := f.snd.TakeSample(); ok {
		est := f.snd.RTT()
		f.tracer.RTT(now, seq, sample, est.SRTT(), est.RTTVar(), est.RTO())
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
		alg, err := tcp.NewAlgorithm(sf.Algorithm)
		if err != nil {
			return fmt.Errorf("%s: tcp %s: %w", sf.Pos, sf.ID, err)
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
		f.snd = tcp.NewSender(n.Sched, alg, rtt.DefaultConfig(), f.segments(), f.transmit)
		f.rcv = tcp.NewReceiver(f.segments())
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
	for _, f := range n.TCP {
		n.first.WireBytes[f.ID] = f.rcv.Stats().WireBytes
	}
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
