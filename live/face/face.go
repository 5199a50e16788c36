package face

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// Host is what a face needs from the runtime that owns it: the forwarder
// daemon's event loop. Faces never call the forwarder themselves.
type Host interface {
	// Now is the loop's clock (its sched.Scheduler's Now). Any goroutine.
	Now() time.Duration
	// Accepted hands the loop a face that a listener created for a new
	// peer, before any packet of it is delivered. Called on the
	// listener's goroutine; it may block while the loop is busy.
	Accepted(f *Face)
	// Deliver hands the loop the frames a reader decoded, in order: a
	// network packet each, with its link-reliability fields, or IDLE
	// frames carrying only Acks. Called on the reader goroutine; it may
	// block while the loop is busy, which holds the reader back (the
	// kernel's buffers take over). The slice is the host's from then on.
	Deliver(f *Face, frames []link.Frame)
	// Failed reports, once, that the face's transport closed or failed.
	// Any goroutine. The runtime then removes the face (Close).
	Failed(f *Face, err error)
	// Dirty asks the loop to call f.Flush before it next waits. Called on
	// the loop goroutine.
	Dirty(f *Face)
	// Wake asks the loop to call f.Flush soon. Called on the face's
	// writer goroutine when it can take more packets than it could.
	Wake(f *Face)
}

// Persistency is NFD's face persistency.
type Persistency uint8

// Face persistencies (NFD's codes).
const (
	// Persistent faces were created by management; they close when their
	// transport fails.
	Persistent Persistency = 0
	// OnDemand faces were created by a listener for a peer that contacted
	// it; they close when their transport fails, and UDP ones when idle.
	OnDemand Persistency = 1
	// Permanent faces were created by the configuration file; a UDP one
	// never closes on its own.
	Permanent Persistency = 2
)

func (p Persistency) String() string {
	switch p {
	case Persistent:
		return "persistent"
	case OnDemand:
		return "on-demand"
	case Permanent:
		return "permanent"
	}
	return fmt.Sprintf("persistency(%d)", uint8(p))
}

// Scope is NFD's face scope: local faces may reach /localhost prefixes.
type Scope uint8

// Face scopes (NFD's codes).
const (
	NonLocal Scope = 0
	Local    Scope = 1
)

// Counters are a face's counters. NFD's face dataset (faces/list) and the
// forwarder's status line show them.
type Counters struct {
	InInterests, InData, InNacks    uint64 // network packets received
	OutInterests, OutData, OutNacks uint64 // network packets sent (handed to the transport)
	InBytes, OutBytes               uint64 // link-layer bytes
	InFrames, OutFrames             uint64 // datagrams or stream TLVs
	Malformed                       uint64 // frames that did not decode, dropped
	Unsupported                     uint64 // well-formed packets ndncc cannot represent, dropped
	FragmentsIn, FragmentsOut       uint64
	ReassemblyErrors                uint64 // fragments dropped by the reassembler
	SendErrors                      uint64 // packets that could not be encoded or written
	// Queue is the send queue's own counters: tail and AQM drops, marks
	// it set, the most packets and bytes it held.
	Queue aqm.Stats
	// QueueLen and QueueBytes are what the send queue holds now.
	QueueLen, QueueBytes int
	// MaxSocketBacklog is the most bytes seen in the socket's kernel send
	// queue, read when a backlog-marking queue takes a packet (0 for
	// other disciplines).
	MaxSocketBacklog int
}

// Drops is the packets the face lost on the way out: queue drops and
// send errors.
func (c Counters) Drops() uint64 { return c.Queue.TailDrops + c.Queue.AQMDrops + c.SendErrors }

// Limits of what the loop hands the writer at once: a batch holds at most
// batchPackets packets or batchBytes bytes, and at most maxInflight
// batches are handed out and not yet written.
const (
	batchPackets = 64
	batchBytes   = 64 << 10
	maxInflight  = 2
)

// Config describes a face.
type Config struct {
	// Scheme is the transport: "unix", "tcp4", "tcp6", "udp4" or "udp6".
	Scheme string
	// Local and Remote are NFD's face URIs of the two ends.
	Local, Remote string
	Persistency   Persistency
	Scope         Scope
	// MTU is the largest datagram a UDP face sends; bigger packets are
	// fragmented. 0 means DefaultUDPMTU. Stream faces ignore it.
	MTU int
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Face is one face of the forwarder. Send, Flush, SetQueue, Stats and
// Close must be called on the loop goroutine; the face's reader and
// writer goroutines do the rest.
type Face struct {
	host     Host
	cfg      Config
	datagram bool
	mtu      int
	log      *slog.Logger
	// tx writes one encoded frame (datagram faces) or a buffer of frames
	// (stream faces); it runs on the writer goroutine.
	tx func(b []byte) error
	// direct writes frames at once without ever blocking (stream faces
	// on Linux): the bytes the socket took, nil when it took what it
	// could. nil: every batch goes through the writer.
	direct func(iov [][]byte) (int, error)
	// backlog returns the bytes in the kernel's send queue of the socket
	// (nil if unknown); sndbuf is that socket's send buffer size.
	backlog func() int
	sndbuf  int

	// Owned by the loop.
	q       aqm.Queue
	marker  backlogMarker // q, if it marks by backlog
	rel     *link.Reliability
	shaper  Shaper
	ready   []link.Frame // frames to send ahead of the queue: IDLE ones, and the shaper's
	onDrop  func(ndn.Packet)
	dropped []ndn.Packet // dropped by q, to report once it returns
	dirty   bool
	closed  bool
	out     Counters // the loop's share of the counters
	tag     any
	iov     [][]byte // scratch of writeNow

	// Between the loop and the writer.
	batches  chan *batch // handed to the writer
	spare    chan *batch // written, for reuse
	inflight atomic.Int32
	pending  atomic.Int64 // bytes handed to the writer, not yet written
	waiting  atomic.Bool  // the loop holds packets until the writer frees a batch
	seq      uint64       // next fragment sequence (writer goroutine)
	wbuf     []byte       // stream output (writer goroutine)

	dec      Decoder // the reader's, with its counters
	reader   func()  // the reader goroutine (Start)
	txBytes  atomic.Uint64
	txFrames atomic.Uint64
	txFrags  atomic.Uint64
	txErrors atomic.Uint64

	closing   chan struct{}
	startOnce sync.Once
	closeOnce sync.Once
	failOnce  sync.Once
	closeTx   func() error // closes the transport (nil: nothing to close)
}

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

// newFace returns a face that writes with tx; the caller sets its reader.
func newFace(host Host, cfg Config, datagram bool, tx func([]byte) error) *Face {
	f := &Face{
		host:     host,
		cfg:      cfg,
		datagram: datagram,
		mtu:      cfg.MTU,
		log:      cfg.Logger,
		tx:       tx,
		batches:  make(chan *batch, maxInflight),
		spare:    make(chan *batch, maxInflight),
		closing:  make(chan struct{}),
	}
	if f.mtu <= 0 {
		f.mtu = DefaultUDPMTU
	}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	f.dec.Logger, f.dec.Name = f.log, cfg.Remote
	q, err := aqm.NewDropTail(aqm.Limits{Packets: DefaultQueueLimit})
	if err != nil {
		panic(err) // a constant, valid limit
	}
	f.q = q
	return f
}

// Start runs the face's writer and reader goroutines. Call it once the
// loop knows the face: the reader delivers packets from then on.
func (f *Face) Start() {
	f.startOnce.Do(func() {
		go f.write()
		if f.reader != nil {
			go f.reader()
		}
	})
}

// isClosing reports whether Close was called (any goroutine).
func (f *Face) isClosing() bool {
	select {
	case <-f.closing:
		return true
	default:
		return false
	}
}

// Config returns what the face was created with.
func (f *Face) Config() Config { return f.cfg }

// Datagram reports whether the face sends one frame per datagram.
func (f *Face) Datagram() bool { return f.datagram }

// Tag returns the value SetTag stored (the runtime's face ID).
func (f *Face) Tag() any { return f.tag }

// SetTag stores a value of the runtime's (on the loop goroutine).
func (f *Face) SetTag(v any) { f.tag = v }

// SetQueue makes q the face's send queue, replacing the default
// drop-tail (call it before the first Send). A backlog-marking queue
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

// SetReliability runs NDNLPv2 link reliability on the face (on the
// loop): r numbers every frame as it leaves the send queue and adds the
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

// SetShaper makes packets sent on the face go through s, whose queue
// replaces the face's send queue; s gives them back through Transmit (on
// the loop, before the first Send).
func (f *Face) SetShaper(s Shaper) {
	f.shaper = s
	f.q, f.marker = s.Queue(), nil
}

// maxReady bounds the frames waiting for the writer outside the send
// queue: a shaper's output the socket cannot take as fast, or IDLE frames.
const maxReady = 4096

// Transmit hands the writer a frame as it is, ahead of the send queue:
// an IDLE frame, or a frame a Shaper released. Beyond maxReady waiting,
// it is dropped and counted as a send error.
func (f *Face) Transmit(fr link.Frame) {
	if f.closed || len(f.ready) >= maxReady {
		f.out.SendErrors++
		return
	}
	f.ready = append(f.ready, fr)
	if !f.dirty {
		f.dirty = true
		f.host.Dirty(f)
	}
}

// SetMTU sets the datagram size of a UDP face (before Start).
func (f *Face) SetMTU(mtu int) {
	f.mtu = mtu
	f.cfg.MTU = mtu
}

// Queue returns the face's send queue.
func (f *Face) Queue() aqm.Queue { return f.q }

// Send queues packet p for sending (ndn.Face). A packet the queue
// refuses is counted in its tail drops.
func (f *Face) Send(p ndn.Packet) {
	if f.closed {
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
	if !f.dirty {
		f.dirty = true
		f.host.Dirty(f)
	}
}

// Flush hands the writer what the send queue holds, as much as the writer
// may take: at most maxInflight batches not yet written. What stays waits
// in the queue, and the writer wakes the loop when it can take more.
func (f *Face) Flush() {
	f.dirty = false
	defer func() {
		if len(f.dropped) > 0 {
			f.reportDrops()
		}
	}()
	for !f.closed && (len(f.ready) > 0 || (f.shaper == nil && f.q.Len() > 0)) {
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

func (f *Face) countOut(p *ndn.Packet) {
	switch {
	case p.Data != nil:
		f.out.OutData++
	case p.IsNack():
		f.out.OutNacks++
	case p.Interest != nil:
		f.out.OutInterests++
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
			for _, fr := range frames {
				if err := f.tx(fr); err != nil {
					f.txErrors.Add(1)
					f.log.Debug("datagram not sent", "face", f.cfg.Remote, "err", err)
					break
				}
				f.txFrames.Add(1)
				f.txBytes.Add(uint64(len(fr)))
			}
			if len(frames) > 1 {
				f.txFrags.Add(uint64(len(frames)))
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

func (f *Face) sendError(p *ndn.Packet, err error) {
	f.txErrors.Add(1)
	f.log.Warn("cannot send packet", "face", f.cfg.Remote, "name", p.Name().String(), "err", err)
}

// fail reports a transport failure to the host, once, unless the face is
// being closed.
func (f *Face) fail(err error) {
	if f.isClosing() {
		return
	}
	f.failOnce.Do(func() { f.host.Failed(f, err) })
}

// Stats returns the face's counters (on the loop goroutine).
func (f *Face) Stats() Counters {
	c := f.out
	c.InInterests = f.dec.Interests.Load()
	c.InData = f.dec.Data.Load()
	c.InNacks = f.dec.Nacks.Load()
	c.InBytes = f.dec.Bytes.Load()
	c.InFrames = f.dec.Frames.Load()
	c.Malformed = f.dec.Malformed.Load()
	c.Unsupported = f.dec.Unsupported.Load()
	c.FragmentsIn = f.dec.Fragments.Load()
	c.ReassemblyErrors = f.dec.ReassemblyErrors.Load()
	c.OutBytes = f.txBytes.Load()
	c.OutFrames = f.txFrames.Load()
	c.FragmentsOut = f.txFrags.Load()
	c.SendErrors += f.txErrors.Load()
	c.Queue = f.q.Stats()
	c.QueueLen, c.QueueBytes = f.q.Len(), f.q.Bytes()
	return c
}

// ErrClosed reports a face that was closed.
var ErrClosed = errors.New("face closed")

// Close stops the face: nothing more is sent or delivered, its writer
// and reader stop and its transport closes. Call it on the loop
// goroutine; it does not wait for the goroutines.
func (f *Face) Close() {
	f.closed = true
	f.closeOnce.Do(func() {
		close(f.closing)
		if f.closeTx != nil {
			if err := f.closeTx(); err != nil {
				f.log.Debug("close", "face", f.cfg.Remote, "err", err)
			}
		}
	})
}

// Closed reports whether Close was called.
func (f *Face) Closed() bool { return f.closed }

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
