package live

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// UDP MTU defaults and bounds, as package face defines them.
const (
	DefaultUDPMTU = face.DefaultUDPMTU
	MinUDPMTU     = face.MinUDPMTU
	MaxUDPMTU     = face.MaxUDPMTU
)

// MaxPacketSize is the largest NDN packet (or NDNLPv2 frame) ndncc sends
// or accepts (face.MaxPacketSize).
const MaxPacketSize = face.MaxPacketSize

// CheckMTU reports an error if mtu is outside [MinUDPMTU, MaxUDPMTU].
func CheckMTU(mtu int) error {
	if mtu < MinUDPMTU || mtu > MaxUDPMTU {
		return fmt.Errorf("--mtu %d: want %d to %d bytes", mtu, MinUDPMTU, MaxUDPMTU)
	}
	return nil
}

// writeTimeout bounds how long a write to the forwarder may block before
// the face is declared down.
const writeTimeout = 10 * time.Second

// flushThreshold is the buffered output of a stream face that is written
// at once rather than at the end of the loop iteration.
const flushThreshold = 64 << 10

// ErrFaceDown reports a face whose connection to the forwarder ended.
var ErrFaceDown = errors.New("live: connection to the forwarder lost")

// FaceConfig configures a Face. The zero value is usable.
type FaceConfig struct {
	// MTU is the largest datagram a UDP face sends; bigger packets are
	// fragmented (NDNLPv2). 0 means DefaultUDPMTU. Stream faces ignore it.
	MTU int
	// ReassemblyTimeout drops a partly received fragmented packet after
	// this long. 0 means 1 s.
	ReassemblyTimeout time.Duration
	// VerifyDigests makes the reader goroutine verify the DigestSha256 of
	// every Data it decodes, in parallel with the loop; a handler learns
	// the outcome from DigestChecked.
	VerifyDigests bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// FaceStats are a face's counters.
type FaceStats struct {
	FramesIn, FramesOut uint64 // link-layer frames (datagrams or stream TLVs)
	BytesIn, BytesOut   uint64
	PacketsIn           uint64 // network packets delivered to the handler
	PacketsOut          uint64 // network packets sent
	Malformed           uint64 // frames that did not decode, dropped
	Unsupported         uint64 // well-formed packets ndncc cannot represent, dropped
	FragmentsIn         uint64 // fragments received
	FragmentsOut        uint64 // fragments sent
	ReassemblyErrors    uint64 // fragments dropped by the reassembler
	SendErrors          uint64 // packets that could not be encoded or sent
}

// Face is a connection to a forwarder. Its methods, except Close and
// Transport, must be called on its Loop's goroutine; its handlers run
// there too. A reader goroutine decodes incoming frames and hands the
// packets to the loop (facereader.go).
type Face struct {
	loop      *eventloop.Loop
	transport Transport
	conn      net.Conn
	datagram  bool
	mtu       int
	log       *slog.Logger
	digests   bool

	current       *ndn.Data // the Data being handled, and its digest check
	currentDigest digestCheck

	onPacket func(ndn.Packet)
	onDown   func(error)
	err      error // set when the face went down

	wbuf  []byte             // stream output not yet written
	iw    ndn.InterestWriter // writes a consumer's Interests into wbuf
	dirty bool
	seq   uint64 // next NDNLPv2 fragment sequence

	closing   chan struct{}
	closeOnce sync.Once
	closed    atomic.Bool

	dec  face.Decoder // the reader goroutine's, with its counters
	out  FaceStats    // updated on the loop
	in   readProgress // how far the reader got through the socket
	bufs pools        // free lists of the reader's buffers, Data and batches
}

// Dial connects to the forwarder at t and starts reading. Packets are
// dropped until OnPacket sets a handler.
func Dial(ctx context.Context, loop *eventloop.Loop, t Transport, cfg FaceConfig) (*Face, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, t.Network, t.Address)
	if err != nil {
		return nil, fmt.Errorf("live: connect to forwarder at %s: %w", t, err)
	}
	return newFace(loop, t, conn, cfg), nil
}

// newFace wraps an established connection.
func newFace(loop *eventloop.Loop, t Transport, conn net.Conn, cfg FaceConfig) *Face {
	f := &Face{
		loop:      loop,
		transport: t,
		conn:      conn,
		datagram:  t.Datagram(),
		mtu:       cfg.MTU,
		log:       cfg.Logger,
		digests:   cfg.VerifyDigests,
		closing:   make(chan struct{}),
	}
	if f.mtu <= 0 {
		f.mtu = DefaultUDPMTU
	}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	timeout := cfg.ReassemblyTimeout
	if timeout <= 0 {
		timeout = time.Second
	}
	f.dec.Logger, f.dec.Name = f.log, t.String()
	f.bufs = newPools()
	f.dec.NewData = f.bufs.datas.get
	f.in.queued, f.in.datagram = face.ReceiveQueue(conn), f.datagram
	loop.AddSource(&f.in)
	if f.datagram {
		f.dec.Reassembler = face.NewReassembler(timeout, 256, MaxPacketSize)
		if uc, ok := conn.(*net.UDPConn); ok {
			// Best effort: a larger buffer absorbs a window's burst of
			// fragments (the kernel caps it at net.core.rmem_max).
			_ = uc.SetReadBuffer(4 << 20)
			_ = uc.SetWriteBuffer(4 << 20)
		}
		go f.readDatagrams()
	} else {
		go f.readStream()
	}
	return f
}

// Transport returns the forwarder's address.
func (f *Face) Transport() Transport { return f.transport }

// OnPacket sets the handler of incoming packets (on the loop goroutine).
func (f *Face) OnPacket(fn func(ndn.Packet)) { f.onPacket = fn }

// OnDown sets the handler called once when the connection ends or fails.
func (f *Face) OnDown(fn func(error)) { f.onDown = fn }

// Err returns why the face went down, or nil while it is up.
func (f *Face) Err() error { return f.err }

// Stats returns the face's counters. Call it on the loop goroutine.
func (f *Face) Stats() FaceStats {
	s := f.out
	s.FramesIn = f.dec.Frames.Load()
	s.BytesIn = f.dec.Bytes.Load()
	s.PacketsIn = f.dec.Packets()
	s.Malformed = f.dec.Malformed.Load()
	s.Unsupported = f.dec.Unsupported.Load()
	s.FragmentsIn = f.dec.Fragments.Load()
	s.ReassemblyErrors = f.dec.ReassemblyErrors.Load()
	return s
}

// Send sends a packet (implements ndn.Face). A packet that cannot be
// encoded is counted and logged; a failed write takes the face down.
func (f *Face) Send(p ndn.Packet) {
	if f.err != nil {
		f.out.SendErrors++
		return
	}
	if f.datagram {
		frames, err := face.Fragment(&p, ndn.LinkFields{}, f.mtu, &f.seq)
		if err != nil {
			f.sendError(p.Name(), err)
			return
		}
		f.writeDatagrams(frames)
		return
	}
	// Encoded straight into the output buffer (a consumer's Interests
	// without an intermediate copy, from a template when they differ
	// only in their segment and nonce).
	start := len(f.wbuf)
	wb, err := f.iw.AppendFrame(f.wbuf, &p)
	if err != nil {
		f.wbuf = wb[:start]
		f.sendError(p.Name(), err)
		return
	}
	if n := len(wb) - start; n > MaxPacketSize {
		f.wbuf = wb[:start]
		f.sendError(p.Name(), fmt.Errorf("%d-byte frame exceeds the %d-byte limit", n, MaxPacketSize))
		return
	}
	f.wbuf = wb
	f.queued(len(wb) - start)
}

// EncodesOnSend marks the face as an ndn.EncodingFace: Send encodes the
// packet (or drops it) and keeps no reference to it.
func (f *Face) EncodesOnSend() {}

// SendWire sends an already encoded network packet (an Interest or Data
// TLV), such as a signed command Interest.
func (f *Face) SendWire(b []byte) error {
	if f.err != nil {
		return f.err
	}
	if len(b) > MaxPacketSize {
		return fmt.Errorf("live: %d-byte packet exceeds the %d-byte limit", len(b), MaxPacketSize)
	}
	if !f.datagram {
		f.queue(b)
		return nil
	}
	frames := [][]byte{b}
	if len(b) > f.mtu {
		var err error
		if frames, err = face.FragmentWire(b, ndn.LpFrame{}, f.mtu, &f.seq); err != nil {
			return err
		}
	}
	f.writeDatagrams(frames)
	return f.err
}

func (f *Face) sendError(name ndn.Name, err error) {
	f.out.SendErrors++
	f.log.Warn("cannot send packet", "name", name.String(), "err", err)
}

// queue buffers a stream frame; the loop writes it before it next waits.
func (f *Face) queue(b []byte) {
	if len(b) > MaxPacketSize {
		f.sendError(nil, fmt.Errorf("%d-byte frame exceeds the %d-byte limit", len(b), MaxPacketSize))
		return
	}
	f.wbuf = append(f.wbuf, b...)
	f.queued(len(b))
}

// queued counts a frame of n bytes just added to the output buffer and
// has it written, at once past flushThreshold, else before the loop next
// waits.
func (f *Face) queued(n int) {
	f.out.FramesOut++
	f.out.PacketsOut++
	f.out.BytesOut += uint64(n)
	if len(f.wbuf) >= flushThreshold {
		f.Flush()
		return
	}
	if !f.dirty {
		f.dirty = true
		f.loop.MarkDirty(f)
	}
}

// Flush writes the buffered stream output (eventloop.Flusher); the loop calls
// it before it waits.
func (f *Face) Flush() {
	f.dirty = false
	if len(f.wbuf) == 0 || f.err != nil {
		f.wbuf = f.wbuf[:0]
		return
	}
	_ = f.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := f.conn.Write(f.wbuf)
	f.wbuf = f.wbuf[:0]
	if err != nil {
		f.down(fmt.Errorf("%w: write to %s: %w", ErrFaceDown, f.transport, err))
	}
}

func (f *Face) writeDatagrams(frames [][]byte) {
	_ = f.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	for _, b := range frames {
		if _, err := f.conn.Write(b); err != nil {
			f.down(fmt.Errorf("%w: write to %s: %w", ErrFaceDown, f.transport, err))
			return
		}
		f.out.FramesOut++
		f.out.BytesOut += uint64(len(b))
	}
	f.out.PacketsOut++
	if len(frames) > 1 {
		f.out.FragmentsOut += uint64(len(frames))
	}
}

// down marks the face down once and tells the OnDown handler.
func (f *Face) down(err error) {
	if f.err != nil {
		return
	}
	f.err = err
	f.wbuf = nil
	if f.onDown != nil {
		f.onDown(err)
	}
}

// deliver hands a decoded packet to the handler (on the loop).
func (f *Face) deliver(r received) {
	if f.err != nil || f.onPacket == nil {
		return
	}
	f.current, f.currentDigest = r.pkt.Data, r.digest
	f.onPacket(r.pkt)
	f.current, f.currentDigest = nil, digestUnchecked
}

// DigestChecked tells a packet handler whether the reader already
// verified the DigestSha256 of d, the Data being handled (see
// FaceConfig.VerifyDigests), and whether it matched.
func (f *Face) DigestChecked(d *ndn.Data) (checked, ok bool) {
	if d == nil || d != f.current || f.currentDigest == digestUnchecked {
		return false, false
	}
	return true, f.currentDigest == digestOK
}

// Recycle hands back a Data received on f that the caller is done with,
// and its receive buffer: nothing may use d, its name, payload or wire
// bytes (nor anything else received in the same frame) once the current
// callback returns. Both are reused after the current loop iteration, d
// for a later Data. Each Data may be recycled once. Call it on the loop
// goroutine.
func (f *Face) Recycle(d *ndn.Data) {
	if d == nil {
		return
	}
	if len(f.bufs.recycle) == 0 {
		f.loop.MarkDirty(&f.bufs)
	}
	f.bufs.recycle = append(f.bufs.recycle, d)
}

// Close closes the connection and stops the reader. It may be called from
// any goroutine, more than once.
func (f *Face) Close() error {
	var err error
	f.closeOnce.Do(func() {
		f.loop.RemoveSource(&f.in)
		f.closed.Store(true)
		close(f.closing)
		err = f.conn.Close()
	})
	return err
}
