package face

import (
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/ndn"
)

// ErrFaceDown reports an application's face whose connection to the
// forwarder ended.
var ErrFaceDown = errors.New("live: connection to the forwarder lost")

// writeTimeout bounds how long a write of an application's face may
// block before the face is declared down.
const writeTimeout = 10 * time.Second

// flushThreshold is the buffered output of an application's stream face
// that is written at once rather than at the end of the loop iteration.
const flushThreshold = 64 << 10

// client is an application's face's part: its loop, handlers, pools and
// the reader's digest verification.
type client struct {
	loop    *eventloop.Loop // nil on a forwarder's face
	digests bool            // the reader verifies DigestSha256
	verify  digestBatch     // the reader's
	pools   *pools          // free lists of the reader's buffers, Data and batches
	rx      *readBatch      // the batch a datagram reader fills

	current       *ndn.Data // the Data being handled, and its digest check
	currentDigest digestCheck

	onPacket func(ndn.Packet)
	onDown   func(error)
	err      error              // set when the face went down
	iw       ndn.InterestWriter // writes a consumer's Interests into the stream output
}

// NewApp returns an application's face over conn, an established
// connection to its forwarder (a Unix or TCP stream, or a connected UDP
// socket), on loop, and starts its reader. Packets are dropped until
// OnPacket sets a handler.
func NewApp(loop *eventloop.Loop, conn net.Conn, cfg Config) *Face {
	f := newFace(cfg, func(b []byte) error {
		_ = conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		_, err := conn.Write(b)
		return err
	})
	f.loop, f.digests = loop, cfg.VerifyDigests
	f.closeTx = conn.Close
	f.pools = newPools()
	f.dec.NewData = f.pools.datas.get
	f.in.queued, f.in.datagram = ReceiveQueue(conn), f.datagram
	loop.AddSource(&f.in)
	if f.datagram {
		if uc, ok := conn.(*net.UDPConn); ok {
			// Best effort: a larger buffer absorbs a window's burst of
			// fragments (the kernel caps it at net.core.rmem_max).
			_ = uc.SetReadBuffer(udpBuffer)
			_ = uc.SetWriteBuffer(udpBuffer)
		}
		f.reader = func() { f.readDatagrams(conn) }
	} else {
		f.reader = func() { f.readStream(conn) }
	}
	f.Start()
	return f
}

// OnPacket sets the handler of incoming packets (on the loop goroutine).
func (f *Face) OnPacket(fn func(ndn.Packet)) { f.onPacket = fn }

// OnDown sets the handler called once when an application's connection
// ends or fails.
func (f *Face) OnDown(fn func(error)) { f.onDown = fn }

// Err returns why an application's face went down, or nil while it is up.
func (f *Face) Err() error { return f.err }

// sendNow encodes p into an application's output: a stream face's
// buffer, written before the loop next waits (at once past
// flushThreshold), or a UDP face's datagrams, written at once. A consumer's
// Interests are encoded straight into the buffer, from a template when
// they differ only in their segment and nonce.
func (f *Face) sendNow(p *ndn.Packet) {
	if f.err != nil {
		f.out.SendErrors++
		return
	}
	if f.datagram {
		frames, err := Fragment(p, ndn.LinkFields{}, f.mtu, &f.seq)
		if err != nil {
			f.sendError(p, err)
			return
		}
		if f.writeOrDown(frames) {
			f.countOut(p)
		}
		return
	}
	start := len(f.wbuf)
	wb, err := f.iw.AppendFrame(f.wbuf, p)
	if err == nil && len(wb)-start > MaxPacketSize {
		err = fmt.Errorf("%d-byte frame exceeds the %d-byte limit", len(wb)-start, MaxPacketSize)
	}
	if err != nil {
		f.wbuf = wb[:start]
		f.sendError(p, err)
		return
	}
	f.wbuf = wb
	f.countOut(p)
	f.queued(len(wb) - start)
}

// SendWire sends an already encoded network packet, an Interest or a
// Data TLV (such as a signed command Interest), on an application's face.
// A packet that cannot be sent is counted as Send counts it.
func (f *Face) SendWire(b []byte) error {
	err := f.sendWire(b)
	if err != nil {
		f.out.SendErrors++
	}
	return err
}

func (f *Face) sendWire(b []byte) error {
	if f.loop == nil {
		return errors.New("face: SendWire sends on an application's face only")
	}
	if f.err != nil {
		return f.err
	}
	if len(b) > MaxPacketSize {
		return fmt.Errorf("face: %d-byte packet exceeds the %d-byte limit", len(b), MaxPacketSize)
	}
	var p ndn.Packet // what b is, for the counters
	switch {
	case len(b) > 0 && b[0] == tlvInterest:
		p.Interest = &ndn.Interest{}
	case len(b) > 0 && b[0] == tlvData:
		p.Data = &ndn.Data{}
	default:
		return fmt.Errorf("face: SendWire takes an Interest or a Data, not a TLV of %d bytes starting %#x", len(b), b[:min(len(b), 1)])
	}
	if !f.datagram {
		f.wbuf = append(f.wbuf, b...)
		f.countOut(&p)
		f.queued(len(b))
		return nil
	}
	frames := [][]byte{b}
	if len(b) > f.mtu {
		var err error
		if frames, err = FragmentWire(b, ndn.LpFrame{}, f.mtu, &f.seq); err != nil {
			return err
		}
	}
	if f.writeOrDown(frames) {
		f.countOut(&p)
	}
	return f.err
}

// The TLV-TYPEs of Interest and Data (one byte on the wire).
const (
	tlvInterest = 0x05
	tlvData     = 0x06
)

// queued counts a stream frame of n bytes just added to the output and
// has it written, at once past flushThreshold, else before the loop next
// waits.
func (f *Face) queued(n int) {
	f.txFrames.Add(1)
	f.txBytes.Add(uint64(n))
	if len(f.wbuf) >= flushThreshold {
		f.flushNow()
		return
	}
	f.markDirty()
}

// flushNow writes an application's buffered stream output.
func (f *Face) flushNow() {
	f.dirty = false
	if len(f.wbuf) == 0 || f.err != nil {
		f.wbuf = f.wbuf[:0]
		return
	}
	err := f.tx(f.wbuf)
	f.wbuf = f.wbuf[:0]
	if err != nil {
		f.down(fmt.Errorf("%w: write to %s: %w", ErrFaceDown, f.cfg.Remote, err))
	}
}

// writeOrDown writes the datagrams of one packet on an application's face
// and reports whether they all went; a failed write takes the face down.
func (f *Face) writeOrDown(frames [][]byte) bool {
	if err := f.writeDatagrams(frames); err != nil {
		f.down(fmt.Errorf("%w: write to %s: %w", ErrFaceDown, f.cfg.Remote, err))
		return false
	}
	return true
}

// down marks an application's face down once and tells the OnDown
// handler.
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

// deliver hands a packet the reader decoded, and the outcome of its
// digest check, to the handler (on the loop).
func (f *Face) deliver(p ndn.Packet, digest digestCheck) {
	if f.err != nil || f.onPacket == nil {
		return
	}
	f.current, f.currentDigest = p.Data, digest
	f.onPacket(p)
	f.current, f.currentDigest = nil, digestUnchecked
}

// DigestChecked tells a packet handler whether the reader already
// verified the DigestSha256 of d, the Data being handled (see
// Config.VerifyDigests), and whether it matched.
func (f *Face) DigestChecked(d *ndn.Data) (checked, ok bool) {
	if d == nil || d != f.current || f.currentDigest == digestUnchecked {
		return false, false
	}
	return true, f.currentDigest == digestOK
}

// Recycle hands back a Data received on an application's face that the
// caller is done with, and its receive buffer: nothing may use d, its
// name, payload or wire bytes (nor anything else received in the same
// frame) once the current callback returns. Both are reused after the
// current loop iteration, d for a later Data. Each Data may be recycled
// once. Call it on the loop goroutine; on a forwarder's face it does
// nothing.
func (f *Face) Recycle(d *ndn.Data) {
	if d == nil || f.pools == nil {
		return
	}
	if len(f.pools.recycle) == 0 {
		f.loop.MarkDirty(f.pools)
	}
	f.pools.recycle = append(f.pools.recycle, d)
}
