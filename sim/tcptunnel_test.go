package sim

import (
	"testing"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
)

// tunnelScenario is consumer1 -- router1 -- producer1 with both links TCP
// tunnels (30 Mbit/s, loss per cent on the first), 2 MB in 4400-byte
// segments fetched with a fixed window.
func tunnelScenario(t *testing.T, loss, window string) *scenario.Scenario {
	t.Helper()
	src := `
duration = "120s"
topology.nodes = ["consumer1", "router1", "producer1"]
topology.links = [
  { a = "consumer1", b = "router1", delay = "1ms", bw = 30, max-queue-size = 1000, loss = ` + loss + ` },
  { a = "router1", b = "producer1", delay = "1ms", bw = 30, max-queue-size = 1000 },
]
routers.queue = "threshold-mark"
routers.queue-params = { threshold-packets = 10, socket-threshold-bytes = 50000 }

[[links]]
between = ["consumer1", "router1"]
tunnel = "tcp"

[[links]]
between = ["router1", "producer1"]
tunnel = "tcp"

[[producer]]
node = "producer1"
prefix = "/example/big"
file-size = 2000000
segment-size = 4400

[[consumer]]
id = "c1"
node = "consumer1"
prefix = "/example/big"
pipeline = "fixed"
params = { window = ` + window + ` }
`
	sc, err := scenario.Parse([]byte(src), "tunnel.toml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestTCPTunnelRecoversLinkLoss: with 1% random loss on a tunnel's link,
// TCP sends every lost segment again, so the fetch completes; the NDN
// consumer may still time out on a Data that TCP's recovery delayed.
func TestTCPTunnelRecoversLinkLoss(t *testing.T) {
	n, err := Build(tunnelScenario(t, "1", "8"), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := n.Run()
	if f := r.Flows[0]; !f.Complete {
		t.Fatal("fetch incomplete")
	}
	var retx, lost uint64
	for _, tt := range n.Tunnels {
		retx += tt.Stats().Retransmissions
	}
	for _, c := range n.Channels {
		lost += c.Stats().LossDrops
	}
	// The lost frames include ACKs, which later cumulative ACKs cover.
	if lost == 0 || retx == 0 || retx > lost {
		t.Errorf("the links lost %d frames (segments and ACKs) and the tunnels sent %d segments again: want some, at most one per loss", lost, retx)
	}
	for _, l := range r.Links {
		if l.Data != 0 || l.Interests != 0 {
			t.Errorf("link %s->%s carried %d Data and %d Interests as NDN frames; a tunnel carries TCP segments", l.From, l.To, l.Data, l.Interests)
		}
	}
}

// TestTCPTunnelMarksItsBacklog: a window far above what the link carries
// fills the tunnels' sockets and send queues, which mark; a small window
// leaves them empty and unmarked.
func TestTCPTunnelMarksItsBacklog(t *testing.T) {
	for _, tc := range []struct {
		window string
		marked bool
	}{{"4", false}, {"200", true}} {
		n, err := Build(tunnelScenario(t, "0", tc.window), Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		f := n.Run().Flows[0]
		if !f.Complete || (f.Marks > 0) != tc.marked {
			t.Errorf("window %s: complete %v, %d marks; want marks %v", tc.window, f.Complete, f.Marks, tc.marked)
		}
	}
}

// recordingQueue sums the sizes of the packets its queue hands out, as
// they leave it (marked or not).
type recordingQueue struct {
	aqm.Queue
	sizer *ndn.Sizer
	bytes uint64
}

func (q *recordingQueue) Dequeue(now time.Duration) (aqm.Item, bool) {
	it, ok := q.Queue.Dequeue(now)
	if ok {
		q.bytes += uint64(q.sizer.PacketSize(&it.Pkt))
	}
	return it, ok
}

func (q *recordingQueue) Pass(it *aqm.Item, now time.Duration) (bool, bool) {
	admitted, ok := q.Queue.Pass(it, now)
	if ok {
		q.bytes += uint64(q.sizer.PacketSize(&it.Pkt))
	}
	return admitted, ok
}

// TestTCPTunnelWritesMarksWithTheirHeader checks that a packet the send
// queue marks as it moves into the socket takes its marked size in the
// byte stream: the stream carries exactly the packets' sizes as they left
// the queue, every mark's NDNLPv2 header included.
func TestTCPTunnelWritesMarksWithTheirHeader(t *testing.T) {
	sc := tunnelScenario(t, "0", "200")
	sc.Routers.QueueParams["marking"] = "every"
	n, err := Build(sc, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var rec []*recordingQueue
	for _, tn := range n.Tunnels {
		r := &recordingQueue{Queue: tn.sendQ, sizer: n.Sizer}
		tn.sendQ = r
		rec = append(rec, r)
	}
	if f := n.Run().Flows[0]; !f.Complete || f.Marks == 0 {
		t.Fatalf("complete %v, %d marks; want a complete fetch with marks", f.Complete, f.Marks)
	}
	for i, tn := range n.Tunnels {
		if stream := tn.off[len(tn.off)-1]; stream != rec[i].bytes {
			t.Errorf("tunnel direction %d: %d bytes written to the stream, %d left the send queue (%d marks)",
				i, stream, rec[i].bytes, rec[i].Stats().Marks)
		}
	}
}
