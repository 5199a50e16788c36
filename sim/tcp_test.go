package sim

import (
	"bytes"
	"math"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/tcp"
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
	tcp.Algorithm
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
	f := n.TCP[0]
	spy := &spyAlg{Algorithm: f.snd.Algorithm()}
	f.snd = tcp.NewSender(n.Sched, spy, rtt.DefaultConfig(), f.segments(), f.transmit) // before it starts
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
