package sim

import (
	"math"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/tcp"
)

// A TCP tunnel carries one direction of a link's NDN traffic over the
// TCP baseline (package tcp), as NFD's TCP faces do (paper 002):
//
//   - The forwarder's face is the tunnel. A packet it sends waits in the
//     face's send queue (NFD's m_sendQueue): the link direction's queue
//     discipline without limits, so a threshold-mark queue marks by its
//     backlog in packets and, with socket-threshold-bytes, by the socket's
//     unsent bytes.
//   - The queue hands a packet to the socket while the socket's send
//     buffer (scenario.TCPTunnel.SendBuffer, unacknowledged and unsent
//     bytes) has room. The socket cuts it into segments of at most
//     scenario.DefaultMSS bytes (each packet its own segments: writes are
//     not coalesced).
//   - A TCP sender (CUBIC, with the TCP model's NewReno recovery and RFC
//     6298 RTO) sends the segments through the link's own drop-tail queue
//     and transmitter. Like Linux's TCP Small Queues (since 3.6), it puts a
//     new segment in the link's queue only while that queue holds less
//     than max(2 segments, 1 ms at the link's rate): the backlog stays in
//     the socket, where NFD measures it (SIOCOUTQNSD), not below it; the receiver acknowledges every segment with a
//     cumulative ACK that travels the reverse direction of the link, and
//     delivers each NDN packet to the far forwarder once all its bytes
//     and those before them have arrived (head-of-line blocking).
//
// TCPTunnel is one direction of a TCP tunnel (see above): the sending
// forwarder's face and the receiving end.
type TCPTunnel struct {
	net      *Network
	to       *Node
	toFace   fw.FaceID
	out      *Channel // the direction the segments take
	back     *Channel // the reverse direction, for ACKs
	sendQ    aqm.Queue
	marker   *aqm.BacklogMarker // sendQ, when it marks by backlog
	snd      *tcp.Sender
	rcv      *tcp.Receiver
	buf      int // socket send buffer, bytes
	tsq      int // small-queue limit: bytes in the link's queue
	wake     bool
	wakeFn   func()
	mss      int
	overhead int // wire bytes of a segment besides its payload, and of an ACK

	// off[i] is the stream offset (payload bytes) of segment base+i; the
	// last entry is the offset of the next segment to be written. It
	// spans the segments still in the socket (from snd.una).
	base uint64
	off  []uint64
	// pkts are the packets in the stream whose last segment has not yet
	// reached the receiver in order, by that segment.
	pkts fifo.Queue[streamPacket]
}

// streamPacket is an NDN packet in a tunnel's byte stream.
type streamPacket struct {
	last uint64 // its last segment
	pkt  ndn.Packet
}

// tunnelFrame is a TCP tunnel's segment or ACK on the link.
type tunnelFrame struct {
	t    *TCPTunnel
	ack  bool
	seq  uint64 // segment number, or the ACK's next expected segment
	size int    // wire bytes
}

// TCPTunnelStats are the TCP counters of one direction of a tunnel.
type TCPTunnelStats struct {
	SegmentsSent, Retransmissions, Timeouts, FastRetransmits uint64
}

// newTCPTunnel builds the direction out of a TCP tunnel whose far end is
// node to's face toFace; sendQ is the face's send queue.
func newTCPTunnel(n *Network, tt *scenario.TCPTunnel, out, back *Channel, to *Node, sendQ aqm.Queue) (*TCPTunnel, error) {
	alg, err := tcp.NewAlgorithm(tcp.Cubic)
	if err != nil {
		return nil, err
	}
	t := &TCPTunnel{net: n, to: to, out: out, back: back, sendQ: sendQ, buf: tt.SendBuffer,
		mss: scenario.DefaultMSS, overhead: TCPOverhead(n.Scenario.HeaderOverhead), off: []uint64{0}}
	t.marker, _ = sendQ.(*aqm.BacklogMarker)
	seg := t.mss + t.overhead
	t.tsq = max(2*seg, int(out.Params().Bandwidth/8/1000))
	t.snd = tcp.NewSender(n.Sched, alg, rtt.DefaultConfig(), 0, t.transmit)
	t.snd.SetGate(t.gate)
	t.wakeFn = func() {
		t.wake = false
		t.snd.TrySend()
	}
	t.rcv = tcp.NewReceiver(math.MaxUint64) // a stream: never complete
	return t, nil
}

// Send implements ndn.Face: the packet joins the face's send queue.
func (t *TCPTunnel) Send(p ndn.Packet) {
	size := t.net.Sizer.PacketSize(&p)
	if !t.sendQ.Enqueue(aqm.Item{Pkt: p, Size: size}, t.net.Sched.Now()) {
		return // an unbounded queue drops nothing; a bounded one did
	}
	t.fill()
}

// socketBytes returns the bytes in the socket (unacknowledged and
// unsent) and those not yet sent.
func (t *TCPTunnel) socketBytes() (held, unsent int) {
	end := t.off[len(t.off)-1]
	held = int(end - t.off[t.snd.Una()-t.base])
	unsent = int(end - t.off[t.snd.Nxt()-t.base])
	return held, unsent
}

// fill moves packets from the send queue into the socket while its send
// buffer has room, and lets TCP send.
func (t *TCPTunnel) fill() {
	now := t.net.Sched.Now()
	for t.sendQ.Len() > 0 {
		held, unsent := t.socketBytes()
		if held >= t.buf {
			break
		}
		if t.marker != nil {
			t.marker.SetExternalBacklog(unsent)
		}
		it, ok := t.sendQ.Dequeue(now)
		if !ok {
			break
		}
		if it.Pkt.CongestionMark != 0 { // marked at dequeue: the mark's header is written too
			it.Size = t.net.Sizer.PacketSize(&it.Pkt)
		}
		end := t.off[len(t.off)-1]
		for left := it.Size; left > 0; left -= t.mss {
			end += uint64(min(left, t.mss))
			t.off = append(t.off, end)
		}
		t.snd.SetSegments(t.base + uint64(len(t.off)-1))
		t.pkts.Push(streamPacket{last: t.snd.Segments() - 1, pkt: it.Pkt})
	}
	t.snd.TrySend()
}

// gate is the small-queue limit: a new segment may join the link's queue
// while it holds less than tsq bytes; otherwise the sender tries again
// once a full segment has left the transmitter.
func (t *TCPTunnel) gate() bool {
	if t.out.Queue().Bytes() < t.tsq {
		return true
	}
	if !t.wake {
		t.wake = true
		t.net.Sched.After(link.SerializationTime(t.mss+t.overhead, t.out.Params().Bandwidth), t.wakeFn)
	}
	return false
}

// transmit puts segment seq on the link.
func (t *TCPTunnel) transmit(seq uint64) {
	payload := int(t.off[seq-t.base+1] - t.off[seq-t.base])
	size := payload + t.overhead
	t.out.SendExt(&tunnelFrame{t: t, seq: seq, size: size}, size)
}

// arrive handles a frame of this tunnel at the end it was sent to.
func (t *TCPTunnel) arrive(f *tunnelFrame) {
	if f.ack {
		t.snd.OnAck(f.seq)
		if n := t.snd.Una() - t.base; n > 0 { // forget acknowledged segments
			t.off = t.off[:copy(t.off, t.off[n:])]
			t.base = t.snd.Una()
		}
		t.fill()
		return
	}
	ack := t.rcv.OnSegment(f.seq, f.size, t.net.Sched.Now())
	for t.pkts.Len() > 0 && t.pkts.Peek().last < t.rcv.Next() {
		sp := t.pkts.Pop()
		t.to.cpu.receive(t.toFace, &sp.pkt)
	}
	t.back.SendExt(&tunnelFrame{t: t, ack: true, seq: ack, size: t.overhead}, t.overhead)
}

// Stats returns the tunnel direction's TCP counters.
func (t *TCPTunnel) Stats() TCPTunnelStats {
	st := t.snd.Stats()
	return TCPTunnelStats{SegmentsSent: st.SegmentsSent, Retransmissions: st.Retransmissions, Timeouts: st.Timeouts, FastRetransmits: st.FastRetransmits}
}

// deliverTunnelFrames makes channel ch hand tunnel frames to their tunnel
// and every other non-NDN frame to next (the node's IP forwarding).
func deliverTunnelFrames(ch *Channel, next func(any)) {
	ch.OnDeliverExt(func(e any) {
		if f, ok := e.(*tunnelFrame); ok {
			f.t.arrive(f)
			return
		}
		next(e)
	})
}
