package face

import (
	"fmt"
	"sync/atomic"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// sendQueue is a forwarder's face's way out: a send queue on the loop,
// emptied in batches into a writer goroutine of the face's own.
type sendQueue struct {
	host Host // nil on an application's face

	// Owned by the loop.
	q       aqm.Queue
	marker  backlogMarker // q, if it marks by backlog
	rel     *link.Reliability
	shaper  Shaper
	ready   []link.Frame // frames to send ahead of the queue: IDLE ones, and the shaper's
	onDrop  func(ndn.Packet)
	dropped []ndn.Packet // dropped by q, to report once it returns
	iov     [][]byte     // scratch of writeNow

	// Between the loop and the writer.
	batches  chan *batch // handed to the writer
	spare    chan *batch // written, for reuse
	inflight atomic.Int32
	pending  atomic.Int64 // bytes handed to the writer, not yet written
	waiting  atomic.Bool  // the loop holds packets until the writer frees a batch
}

// Limits of what the loop hands the writer at once: a batch holds at most
// batchPackets packets or batchBytes bytes, and at most maxInflight
// batches are handed out and not yet written.
const (
	batchPackets = 64
	batchBytes   = 64 << 10
	maxInflight  = 2
)

// backlogMarker is a queue discipline that adds the bytes queued beyond
// it to its backlog (aqm.BacklogMarker).
type backlogMarker interface {
	SetExternalBacklog(bytes int)
	CapThreshold(capacity int)
	CheckAtEnqueue()
}

// batch is frames the loop hands the writer at once, or the bytes of
// frames the socket did not take when the loop wrote them (raw).
type batch struct {
	frames []link.Frame
	raw    []byte
	bytes  int
}

// DefaultQueueLimit is the packet limit of the queue a face gets until
// SetQueue gives it another (as a Mini-NDN link's default, the Linux
// txqueuelen).
const DefaultQueueLimit = 1000

// newHosted returns a forwarder's face of host that writes with tx, with
// a drop-tail send queue of DefaultQueueLimit packets; the caller sets its
// reader.
func newHosted(host Host, cfg Config, tx func([]byte) error) *Face {
	f := newFace(cfg, tx)
	f.host = host
	f.batches = make(chan *batch, maxInflight)
	f.spare = make(chan *batch, maxInflight)
	q, err := aqm.NewDropTail(aqm.Limits{Packets: DefaultQueueLimit})
	if err != nil {
		panic(err) // a constant, valid limit
	}
	f.q = q
	return f
}

// SetQueue makes q a forwarder's face's send queue, replacing the
// default drop-tail (call it before the first Send). A backlog-marking queue
// (aqm.BacklogMarker) decides its marks as NFD's link service does: when
// Send hands it the packet, from the backlog ahead of it, which counts
// the socket's send queue and the writer's pending bytes besides the
// queue's own, as NFD counts its socket's besides its transport's queue;
// its threshold is capped at half the socket's send buffer.
func (f *Face) SetQueue(q aqm.Queue) {
	f.q = q
	f.marker, _ = q.(backlogMarker)
	if f.marker != nil {
		f.marker.CheckAtEnqueue()
		if f.sndbuf > 0 {
			f.marker.CapThreshold(f.sndbuf)
		}
	}
	q.SetDropHandler(func(it aqm.Item) {
		if f.onDrop != nil {
			f.dropped = append(f.dropped, it.Pkt)
		}
	})
}

// OnDrop sets a handler of the packets the send queue drops (tail or
// AQM), called on the loop once the queue operation that dropped them
// has returned (so the handler may send on this face again).
func (f *Face) OnDrop(fn func(ndn.Packet)) { f.onDrop = fn }

// reportDrops hands the packets the queue dropped to the OnDrop handler.
func (f *Face) reportDrops() {
	for len(f.dropped) > 0 {
		p := f.dropped[0]
		f.dropped[0] = ndn.Packet{}
		f.dropped = f.dropped[1:]
		f.onDrop(p)
	}
	f.dropped = f.dropped[:0:0]
}

// SetReliability runs NDNLPv2 link reliability on a forwarder's face (on
// the loop): r numbers every frame as it leaves the send queue and adds the
// Acks it owes, and r's IDLE frames go out through SendIdle. The runtime
// passes received frames to r.OnReceive.
func (f *Face) SetReliability(r *link.Reliability) { f.rel = r }

// SendIdle sends an IDLE frame (Acks only) ahead of the send queue: it
// is tiny and carries acknowledgements the other end times (link.
// Reliability's sendIdle callback).
func (f *Face) SendIdle(fr link.Frame) { f.Transmit(fr) }

// Shaper is an emulated link in front of a face's socket (a link.Channel):
// packets sent on the face go into it, wait in its queue, and come out at
// its rate, delay and loss through the face's Transmit.
type Shaper interface {
	Send(p ndn.Packet)
	Queue() aqm.Queue
}

// SetShaper makes packets sent on a forwarder's face go through s, whose
// queue replaces the face's send queue; s gives them back through
// Transmit (on the loop, before the first Send).
func (f *Face) SetShaper(s Shaper) {
	f.shaper = s
	f.q, f.marker = s.Queue(), nil
}

// maxReady bounds the frames waiting for the writer outside the send
// queue: a shaper's output the socket cannot take as fast, or IDLE frames.
const maxReady = 4096

// Transmit hands a forwarder's face's writer a frame as it is, ahead of
// the send queue: an IDLE frame, or a frame a Shaper released. Beyond
// maxReady waiting, it is dropped and counted as a send error.
func (f *Face) Transmit(fr link.Frame) {
	if f.isClosing() || len(f.ready) >= maxReady {
		f.out.SendErrors++
		return
	}
	f.ready = append(f.ready, fr)
	f.markDirty()
}

// Queue returns the face's send queue.
func (f *Face) Queue() aqm.Queue { return f.q }

// enqueue queues packet p for sending on a forwarder's face. A packet the
// queue refuses is counted in its tail drops.
func (f *Face) enqueue(p ndn.Packet) {
	if f.isClosing() {
		f.out.SendErrors++
		return
	}
	if f.shaper != nil {
		f.shaper.Send(p)
		return
	}
	if f.marker != nil {
		f.marker.SetExternalBacklog(f.socketBacklog() + int(f.pending.Load()))
	}
	if !f.q.Enqueue(aqm.Item{Pkt: p, Size: frameSize(&p)}, f.host.Now()) {
		if len(f.dropped) > 0 {
			f.reportDrops()
		}
		return
	}
	f.markDirty()
}

// flushQueue hands the writer what the send queue holds, as much as the
// writer may take: at most maxInflight batches not yet written. What stays
// waits in the queue, and the writer wakes the loop when it can take more.
func (f *Face) flushQueue() {
	f.dirty = false
	defer func() {
		if len(f.dropped) > 0 {
			f.reportDrops()
		}
	}()
	for !f.isClosing() && (len(f.ready) > 0 || (f.shaper == nil && f.q.Len() > 0)) {
		if f.inflight.Load() >= maxInflight {
			f.waiting.Store(true)
			if f.inflight.Load() >= maxInflight {
				return // the writer's Swap will see waiting
			}
			f.waiting.Store(false)
		}
		b := f.takeBatch()
		now := f.host.Now()
		n := 0
		for ; n < len(f.ready) && len(b.frames) < batchPackets && b.bytes < batchBytes; n++ {
			fr := f.ready[n]
			f.countOut(&fr.Pkt)
			b.frames = append(b.frames, fr)
			b.bytes += frameSize(&fr.Pkt) + idleSize
		}
		left := len(f.ready)
		f.ready = f.ready[:copy(f.ready, f.ready[n:])]
		clear(f.ready[len(f.ready):left]) // the slots the remaining frames left

		for f.shaper == nil && len(b.frames) < batchPackets && b.bytes < batchBytes {
			it, ok := f.q.Dequeue(now)
			if !ok {
				break
			}
			f.countOut(&it.Pkt)
			fr := link.Frame{Pkt: it.Pkt}
			if f.rel != nil {
				f.rel.OnSend(&fr)
			}
			b.frames = append(b.frames, fr)
			b.bytes += it.Size
		}
		if len(b.frames) == 0 {
			f.putBatch(b)
			return
		}
		if f.direct != nil && f.inflight.Load() == 0 && f.writeNow(b) {
			f.putBatch(b)
			continue
		}
		f.pending.Add(int64(b.bytes))
		f.inflight.Add(1)
		f.batches <- b // never blocks: at most maxInflight are out
	}
}

// socketBacklog returns the bytes in the socket's kernel send queue (0 if
// unknown), and keeps the most seen in the counters.
func (f *Face) socketBacklog() int {
	if f.backlog == nil {
		return 0
	}
	n := f.backlog()
	f.out.MaxSocketBacklog = max(f.out.MaxSocketBacklog, n)
	return n
}

// writeNow writes batch b on the loop while the writer is idle, without
// blocking: a socket with room takes it at once, saving the hand-over
// to the writer goroutine. It reports whether b is done; if the socket
// took only part, b is left holding the rest (raw) for the writer.
func (f *Face) writeNow(b *batch) bool {
	iov := f.iov[:0]
	total := 0
	f.encodeFrames(b.frames, func(enc []byte) {
		iov = append(iov, enc)
		total += len(enc)
	})
	defer func() { clear(iov); f.iov = iov[:0] }()
	if total == 0 {
		return true
	}
	f.txFrames.Add(uint64(len(iov)))
	n, err := f.direct(iov)
	f.txBytes.Add(uint64(n))
	if err != nil {
		f.fail(fmt.Errorf("face %s: write: %w", f.cfg.Remote, err))
		return true
	}
	if n == total {
		return true
	}
	raw := b.raw[:0]
	for _, v := range iov {
		if n >= len(v) {
			n -= len(v)
			continue
		}
		raw = append(raw, v[n:]...)
		n = 0
	}
	clear(b.frames)
	b.frames, b.raw, b.bytes = b.frames[:0], raw, len(raw)
	return false
}

// encodeFrames encodes frames for a stream face and passes each encoding
// to add; a frame that cannot be encoded, or exceeds MaxPacketSize, is
// counted as a send error and skipped.
func (f *Face) encodeFrames(frames []link.Frame, add func(enc []byte)) {
	for i := range frames {
		fr := &frames[i]
		enc, err := ndn.EncodeLinkFrame(&fr.Pkt, fr.LinkFields)
		if err == nil && len(enc) > MaxPacketSize {
			err = fmt.Errorf("%d-byte frame exceeds the %d-byte limit", len(enc), MaxPacketSize)
		}
		if err != nil {
			f.sendError(&fr.Pkt, err)
			continue
		}
		add(enc)
	}
}

// takeBatch returns an empty batch, reused if one is spare.
func (f *Face) takeBatch() *batch {
	select {
	case b := <-f.spare:
		return b
	default:
		return &batch{frames: make([]link.Frame, 0, batchPackets)}
	}
}

// putBatch empties b and keeps it for reuse if there is room.
func (f *Face) putBatch(b *batch) {
	clear(b.frames)
	b.frames, b.raw, b.bytes = b.frames[:0], b.raw[:0], 0
	select {
	case f.spare <- b:
	default:
	}
}

// write is the writer goroutine: it encodes and writes the batches the
// loop hands it.
func (f *Face) write() {
	for {
		select {
		case b := <-f.batches:
			f.transmit(b)
			f.pending.Add(-int64(b.bytes))
			f.putBatch(b)
			f.inflight.Add(-1)
			if f.waiting.Swap(false) {
				f.host.Wake(f)
			}
		case <-f.closing:
			return
		}
	}
}

// transmit encodes and writes one batch (writer goroutine).
func (f *Face) transmit(b *batch) {
	if f.datagram {
		for i := range b.frames {
			fr := &b.frames[i]
			frames, err := Fragment(&fr.Pkt, fr.LinkFields, f.mtu, &f.seq)
			if err != nil {
				f.sendError(&fr.Pkt, err)
				continue
			}
			if err := f.writeDatagrams(frames); err != nil {
				f.txErrors.Add(1)
				f.log.Debug("datagram not sent", "face", f.cfg.Remote, "err", err)
			}
		}
		return
	}
	f.wbuf = append(f.wbuf[:0], b.raw...) // what the loop could not write
	f.encodeFrames(b.frames, func(enc []byte) {
		f.wbuf = append(f.wbuf, enc...)
		f.txFrames.Add(1)
	})
	if len(f.wbuf) == 0 {
		return
	}
	if err := f.tx(f.wbuf); err != nil {
		f.fail(fmt.Errorf("face %s: write: %w", f.cfg.Remote, err))
		return
	}
	f.txBytes.Add(uint64(len(f.wbuf)))
	if cap(f.wbuf) > 4*batchBytes {
		f.wbuf = nil // a huge batch once: do not keep its buffer
	}
}

// fail reports a transport failure to the host, once, unless the face is
// being closed.
func (f *Face) fail(err error) {
	if f.isClosing() {
		return
	}
	f.failOnce.Do(func() { f.host.Failed(f, err) })
}

// frameSize is the bytes p takes on the wire, for the send queue's byte
// accounting: the packet's encoding plus its NDNLPv2 header, estimated
// when the Interest has no encoding yet.
func frameSize(p *ndn.Packet) int {
	n := 0
	switch {
	case p.Data != nil && p.Data.Wire != nil:
		n = len(p.Data.Wire)
	case p.Data != nil:
		n = len(p.Data.Content) + p.Data.Name.EncodingLength() + 64
	case p.Interest != nil:
		n = p.Interest.Name.EncodingLength() + 24
	}
	if p.Nack != ndn.NackNone || p.CongestionMark != 0 {
		n += lpOverhead
	}
	return n
}

// idleSize is what a frame's link fields count for in a batch's bytes: an
// LpPacket header with a few Acks.
const idleSize = 64

// lpOverhead is an LpPacket header with a Nack and a CongestionMark,
// around a fragment: T+L of LpPacket (4) and Fragment (4), Nack with its
// reason (8), CongestionMark (12).
const lpOverhead = 28
