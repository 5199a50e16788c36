package sim

import (
	"bytes"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

func TestTCPOverhead(t *testing.T) {
	tests := []struct{ ndn, want int }{
		{44, 68}, // default: IPv4 20 + TCP 32 + link framing 16
		{28, 52}, // IPv4/UDP only: no link framing
		{0, 52},
		{60, 84},
	}
	for _, tt := range tests {
		if got := TCPOverhead(tt.ndn); got != tt.want {
			t.Errorf("TCPOverhead(%d) = %d, want %d", tt.ndn, got, tt.want)
		}
	}
}

// scriptedSender is a sender whose segments go to a list instead of a
// network; the test plays the receiver by calling onAck.
type scriptedSender struct {
	*tcpSender
	sent []uint64
	at   []time.Duration
}

func newScriptedSender(t *testing.T, segs uint64) *scriptedSender {
	t.Helper()
	s := NewScheduler()
	alg, err := tcpAlgorithm(scenario.TCPReno, 0)
	if err != nil {
		t.Fatal(err)
	}
	restart := func(ss float64) cc.Algorithm {
		a, err := tcpAlgorithm(scenario.TCPReno, ss)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	ss := &scriptedSender{}
	ss.tcpSender = newTCPSender(s, alg, restart, rtt.DefaultConfig(), segs, func(seq uint64) {
		ss.sent = append(ss.sent, seq)
		ss.at = append(ss.at, s.Now())
	})
	return ss
}

// advance runs the scheduler (the RTO timer) for d.
func (ss *scriptedSender) advance(d time.Duration) {
	end := ss.s.Now() + d
	ss.s.At(end, func() {})
	ss.s.RunUntil(end, nil)
}

// take returns the segments sent since the last call.
func (ss *scriptedSender) take() []uint64 {
	out := ss.sent
	ss.sent, ss.at = nil, nil
	return out
}

func TestTCPSenderSlowStart(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.trySend()
	if got := ss.take(); !slices.Equal(got, []uint64{0}) {
		t.Fatalf("initial window sent %v, want [0]", got)
	}
	// Each ACK of new data adds one segment (slow start) and frees one:
	// two segments go out per ACK.
	for ack := uint64(1); ack <= 3; ack++ {
		ss.advance(10 * time.Millisecond)
		ss.onAck(ack)
		want := []uint64{2*ack - 1, 2 * ack}
		if got := ss.take(); !slices.Equal(got, want) {
			t.Fatalf("after ack %d sent %v, want %v", ack, got, want)
		}
		if w := ss.window(); w != float64(ack+1) {
			t.Fatalf("after ack %d window %v, want %d", ack, w, ack+1)
		}
	}
}

// growTo acknowledges one segment at a time until the window is w, with
// 10 ms between ACKs.
func (ss *scriptedSender) growTo(t *testing.T, w float64) {
	t.Helper()
	ss.trySend()
	for ss.window() < w {
		ss.advance(10 * time.Millisecond)
		ss.onAck(ss.una + 1)
	}
	ss.take()
}

// Two segments lost in one window: the third duplicate ACK retransmits the
// first and halves the window; the partial ACK retransmits the second and
// deflates the window; the full ACK ends recovery at ssthresh. No RTO.
func TestTCPSenderNewRenoFastRecovery(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.growTo(t, 8)
	if ss.una != 7 || ss.nxt != 15 {
		t.Fatalf("una %d nxt %d, want 7 and 15", ss.una, ss.nxt)
	}
	// Segments 7 and 9 are lost; 8, 10, 11, ... arrive.
	steps := []struct {
		name     string
		ack      uint64
		sent     []uint64
		window   float64
		recovers bool
	}{
		{"8 arrives: dup 1", 7, nil, 8, false},
		{"10 arrives: dup 2", 7, nil, 8, false},
		{"11 arrives: dup 3, fast retransmit", 7, []uint64{7}, 4 + 3, true},
		{"12 arrives: dup 4, window inflates", 7, nil, 4 + 4, true},
		{"13 arrives: dup 5", 7, []uint64{15}, 4 + 5, true},
		{"14 arrives: dup 6", 7, []uint64{16}, 4 + 6, true},
		{"7 arrives: partial ACK of 2", 9, []uint64{9, 17}, 4 + 6 + 1 - 2, true},
		{"15 arrives: dup 1", 9, []uint64{18}, 4 + 6, true},
		{"16 arrives: dup 2", 9, []uint64{19}, 4 + 7, true},
		{"9 arrives: full ACK", 17, []uint64{20}, 4, false},
	}
	for _, st := range steps {
		ss.advance(time.Millisecond)
		ss.onAck(st.ack)
		if got := ss.take(); !slices.Equal(got, st.sent) {
			t.Errorf("%s: sent %v, want %v", st.name, got, st.sent)
		}
		if w := ss.window(); w != st.window {
			t.Errorf("%s: window %v, want %v", st.name, w, st.window)
		}
		if ss.recovering != st.recovers {
			t.Errorf("%s: recovering %v, want %v", st.name, ss.recovering, st.recovers)
		}
	}
	if ss.alg.Ssthresh() != 4 {
		t.Errorf("ssthresh %v, want 4 (half of 8)", ss.alg.Ssthresh())
	}
	want := TCPStats{SegmentsSent: 23, Retransmissions: 2, FastRetransmits: 1, DupAcks: 8}
	if got := ss.stats; got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// With nothing acknowledged, the RTO doubles at every expiry up to the
// 10 s maximum; the first expiry halves ssthresh (to its floor of 2 from a
// window of 1) and restarts the window at 1, later ones keep ssthresh.
func TestTCPSenderRTOBackoff(t *testing.T) {
	ss := newScriptedSender(t, 10)
	ss.trySend()
	ss.advance(30 * time.Second)
	wantAt := []time.Duration{0, 1 * time.Second, 3 * time.Second, 7 * time.Second, 15 * time.Second, 25 * time.Second}
	if !slices.Equal(ss.at, wantAt) {
		t.Errorf("segment 0 sent at %v, want %v", ss.at, wantAt)
	}
	if got := ss.take(); !slices.Equal(got, []uint64{0, 0, 0, 0, 0, 0}) {
		t.Errorf("sent %v, want segment 0 six times", got)
	}
	if ss.stats.Timeouts != 5 || ss.stats.TimeoutDecreases != 1 {
		t.Errorf("timeouts %d, decreases %d; want 5 and 1", ss.stats.Timeouts, ss.stats.TimeoutDecreases)
	}
	if ss.window() != 1 || ss.alg.Ssthresh() != 2 {
		t.Errorf("window %v ssthresh %v, want 1 and 2", ss.window(), ss.alg.Ssthresh())
	}
	// Karn's rule: the ACK of a retransmitted segment gives no sample, so
	// the backed-off RTO stays until a segment sent once is acknowledged.
	ss.onAck(1)
	if rto := ss.rtt.RTO(); rto != 10*time.Second {
		t.Errorf("RTO after the ACK of a retransmission %v, want 10s (no sample)", rto)
	}
	ss.take()
	ss.advance(50 * time.Millisecond)
	ss.onAck(2)
	if rto := ss.rtt.RTO(); rto != 200*time.Millisecond {
		t.Errorf("RTO after a 50 ms sample %v, want the 200ms minimum", rto)
	}
}

// An RTO after a burst of losses halves the window through the algorithm,
// restarts it at 1 and goes back to snd.una.
func TestTCPSenderRTOGoesBackN(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.growTo(t, 8)                    // una 7, segments 7..14 outstanding
	ss.advance(250 * time.Millisecond) // RTO: the 200 ms minimum
	if ss.stats.Timeouts != 1 {
		t.Fatalf("%d timeouts, want 1", ss.stats.Timeouts)
	}
	if got := ss.take(); !slices.Equal(got, []uint64{7}) {
		t.Fatalf("after the RTO sent %v, want [7]", got)
	}
	if ss.window() != 1 || ss.alg.Ssthresh() != 4 {
		t.Errorf("window %v ssthresh %v, want 1 and 4", ss.window(), ss.alg.Ssthresh())
	}
	// The receiver had 8 and 9: the ACK jumps to 10; slow start resends
	// from there, and 10..14 count as retransmissions.
	ss.advance(10 * time.Millisecond)
	ss.onAck(10)
	if got := ss.take(); !slices.Equal(got, []uint64{10, 11}) {
		t.Errorf("after ACK 10 sent %v, want [10 11]", got)
	}
	if ss.stats.Retransmissions != 3 {
		t.Errorf("%d retransmissions, want 3 (7, 10, 11)", ss.stats.Retransmissions)
	}
}

func TestTCPReceiverBuffersOutOfOrder(t *testing.T) {
	r := tcpReceiver{segs: 40}
	steps := []struct{ seq, ack uint64 }{
		{0, 1}, {2, 1}, {3, 1}, {2, 1}, {1, 4},
		{30, 4}, // beyond the initial bitmap: it grows
		{4, 5}, {0, 5},
	}
	for i, st := range steps {
		if ack := r.onSegment(st.seq, 100, time.Duration(i)); ack != st.ack {
			t.Errorf("segment %d: ack %d, want %d", st.seq, ack, st.ack)
		}
	}
	if r.received != 8 || r.unique != 6 || r.duplicates != 2 || r.wireBytes != 800 || r.uniqueWire != 600 {
		t.Errorf("received %d unique %d duplicates %d wire %d unique wire %d; want 8, 6, 2, 800, 600",
			r.received, r.unique, r.duplicates, r.wireBytes, r.uniqueWire)
	}
	for s := uint64(5); s < 40; s++ {
		r.onSegment(s, 100, time.Second)
	}
	if !r.complete() || r.end != time.Second || r.nxt != 40 {
		t.Errorf("complete %v at %v, nxt %d; want true at 1s, 40", r.complete(), r.end, r.nxt)
	}
}

// tcpScenario is a -- r -- b with one TCP flow a->b: a fast access link
// and a bottleneck r--b.
func tcpScenario(size int64, bottleneck float64, delay time.Duration, queue int) *scenario.Scenario {
	sc := scenario.Default()
	sc.Name = "tcp"
	access := topology.NewLink("a", "r")
	access.Bandwidth, access.Delay = 100e6, delay
	neck := topology.NewLink("r", "b")
	neck.Bandwidth, neck.Delay, neck.QueuePackets = bottleneck, delay, queue
	sc.Topology = &topology.Topology{
		Nodes: []topology.Node{{Name: "a"}, {Name: "r"}, {Name: "b"}},
		Links: []topology.Link{access, neck},
	}
	f := scenario.NewTCPFlow("a", "b", size)
	f.ID = "t"
	sc.TCP = []scenario.TCPFlow{f}
	return sc
}

// A loss-free transfer fills the bottleneck: its goodput is the capacity
// times MSS/(MSS+68).
func TestTCPLossFreeGoodput(t *testing.T) {
	const capacity = 10e6
	n, err := Build(tcpScenario(4<<20, capacity, 100*time.Microsecond, 10000), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := n.Run()
	if len(r.TCP) != 1 || len(r.Flows) != 1 {
		t.Fatalf("%d tcp results and %d flows, want 1 and 1", len(r.TCP), len(r.Flows))
	}
	tr := r.TCP[0]
	if !tr.Complete || tr.Bytes != 4<<20 || tr.Retransmissions != 0 || tr.Timeouts != 0 {
		t.Fatalf("complete %v, %d bytes, %d retransmissions, %d timeouts; want a complete loss-free transfer of %d bytes",
			tr.Complete, tr.Bytes, tr.Retransmissions, tr.Timeouts, 4<<20)
	}
	want := capacity / 1000 * 1448 / (1448 + 68)
	t.Logf("goodput %.1f kbit/s, capacity x MSS/(MSS+68) %.1f", tr.GoodputKbps, want)
	if math.Abs(tr.GoodputKbps-want)/want > 0.01 {
		t.Errorf("goodput %.1f kbit/s, want %.1f ± 1%%", tr.GoodputKbps, want)
	}
	if f := r.Flows[0]; f.Pipeline != "tcp-reno" || f.Consumer != "b" || f.Producer != "a" || f.GoodputKbps != tr.GoodputKbps {
		t.Errorf("flow entry %+v does not mirror the TCP result", f)
	}
	// Every ACK is 68 bytes: the reverse bottleneck carries exactly one
	// per data segment.
	for _, l := range r.Links {
		if l.From == "b" && l.To == "r" && (l.Packets != 2897 || l.Bytes != 2897*68) {
			t.Errorf("b->r carried %d packets, %d bytes; want 2897 ACKs of 68 bytes", l.Packets, l.Bytes)
		}
	}
}

// spyAlg records the window before and after each decrease.
type spyAlg struct {
	cc.Algorithm
	before, after []float64
	causes        []cc.Cause
}

func (s *spyAlg) OnDecrease(now time.Duration, c cc.Cause) {
	s.before = append(s.before, s.Cwnd())
	s.Algorithm.OnDecrease(now, c)
	s.after = append(s.after, s.Cwnd())
	s.causes = append(s.causes, c)
}

// dropOnce makes node drop the first data segment seq it forwards.
func dropOnce(n *Network, node string, seq uint64) {
	nd := n.Nodes[node]
	forward := nd.ext
	dropped := false
	nd.SetExtHandler(func(from string, frame any) {
		if f := frame.(*tcpFrame); !f.ack && f.seq == seq && !dropped {
			dropped = true
			return
		}
		forward(from, frame)
	})
}

// One segment lost in congestion avoidance: three duplicate ACKs, a fast
// retransmit, the window halved, no RTO. The path's bandwidth-delay
// product (~330 segments) exceeds the window, so nothing queues.
func TestTCPSingleLossFastRetransmit(t *testing.T) {
	n, err := Build(tcpScenario(4<<20, 100e6, 10*time.Millisecond, 1000), Options{})
	if err != nil {
		t.Fatal(err)
	}
	dropOnce(n, "r", 1000)
	spy := &spyAlg{Algorithm: n.TCP[0].snd.alg}
	n.TCP[0].snd.alg = spy
	r := n.Run()
	tr := r.TCP[0]
	if !tr.Complete || tr.FastRetransmits != 1 || tr.Timeouts != 0 || tr.Retransmissions != 1 {
		t.Fatalf("complete %v, %d fast retransmits, %d timeouts, %d retransmissions; want true, 1, 0, 1",
			tr.Complete, tr.FastRetransmits, tr.Timeouts, tr.Retransmissions)
	}
	if len(spy.causes) != 1 || spy.causes[0] != cc.CauseHole {
		t.Fatalf("decreases %v, want one by duplicate ACKs (hole)", spy.causes)
	}
	if spy.before[0] < 200 || spy.after[0] != spy.before[0]/2 {
		t.Errorf("window %v -> %v at the fast retransmit, want it halved", spy.before[0], spy.after[0])
	}
	if d := r.Flows[0].Decreases; d["hole"] != 1 || d["timeout"] != 0 {
		t.Errorf("flow decreases %v, want hole 1, timeout 0", d)
	}
}

func TestTCPSameSeedSameResult(t *testing.T) {
	run := func(seed uint64) []byte {
		sc := tcpScenario(1<<20, 5e6, 10*time.Millisecond, 16)
		cubic := scenario.NewTCPFlow("a", "b", 1<<20)
		cubic.ID, cubic.Algorithm = "u", scenario.TCPCubic
		sc.TCP = append(sc.TCP, cubic)
		n, err := Build(sc, Options{Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		r := n.Run()
		for _, f := range r.TCP {
			if !f.Complete || f.FastRetransmits == 0 {
				t.Fatalf("seed %d flow %s: complete %v with %d fast retransmits; want a complete transfer with losses", seed, f.ID, f.Complete, f.FastRetransmits)
			}
		}
		return resultJSON(t, r)
	}
	if a, b := run(3), run(3); !bytes.Equal(a, b) {
		t.Fatalf("two runs with seed 3 differ:\n%s\n%s", a, b)
	}
	if bytes.Equal(run(3), run(4)) {
		t.Error("seeds 3 and 4 gave identical results (start jitter ignored?)")
	}
}

// FirstCompletion is taken when the first flow ends, with what the other
// had received by then.
func TestFirstCompletion(t *testing.T) {
	sc := tcpScenario(1<<20, 5e6, 10*time.Millisecond, 1000)
	big := scenario.NewTCPFlow("a", "b", 4<<20)
	big.ID = "big"
	sc.TCP = append(sc.TCP, big)
	n, err := Build(sc, Options{StartJitter: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := n.FirstCompletion(); ok {
		t.Fatal("completion before the run")
	}
	r := n.Run()
	c, ok := n.FirstCompletion()
	if !ok || c.Flow != "t" {
		t.Fatalf("first completion %+v, want flow t", c)
	}
	if want := time.Duration(r.TCP[0].DownloadTimeS * 1e9); math.Abs(float64(c.At-want)) > 1e3 {
		t.Errorf("completion at %v, want t's end %v", c.At, want)
	}
	st := n.TCP[0].Stats()
	if c.WireBytes["t"] != st.WireBytes {
		t.Errorf("t's bytes at completion %d, want all %d", c.WireBytes["t"], st.WireBytes)
	}
	if b := c.WireBytes["big"]; b == 0 || b >= n.TCP[1].Stats().WireBytes {
		t.Errorf("big's bytes at completion %d, want some but not all of %d", b, n.TCP[1].Stats().WireBytes)
	}
}

func BenchmarkTCPTransfer(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		n, err := Build(tcpScenario(1<<20, 10e6, 5*time.Millisecond, 32), Options{})
		if err != nil {
			b.Fatal(err)
		}
		if r := n.Run(); !r.TCP[0].Complete {
			b.Fatal("incomplete")
		}
	}
}
