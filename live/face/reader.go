package face

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ndncc/ndncc/internal/sha256batch"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// readBatchLimit is the most packets a reader hands on at once: a stream
// read's packets go together, up to this many.
func readBatchLimit() int { const maxReadBatch = 32; return maxReadBatch }

// readBatch is what a face's reader hands on at once: the frames one read
// from its socket gave, or the end of its input. On an application's face
// it is an eventloop.Batch.
type readBatch struct {
	face   *Face
	frames []link.Frame
	digest []digestCheck // each frame's, on an application's face
	err    error         // the input ended (an application's face)
}

// newBatch returns an empty batch for the reader: an application's face
// reuses one when one is free.
func (f *Face) newBatch() *readBatch {
	if f.pools == nil {
		return &readBatch{face: f}
	}
	select {
	case b := <-f.pools.batches:
		return b
	default:
		n := readBatchLimit()
		return &readBatch{face: f, frames: make([]link.Frame, 0, n), digest: make([]digestCheck, 0, n)}
	}
}

// reuseBatch hands a handled batch back for the reader's next one.
func (f *Face) reuseBatch(b *readBatch) {
	clear(b.frames) // drop the references to the packets
	b.frames, b.digest, b.err = b.frames[:0], b.digest[:0], nil
	select {
	case f.pools.batches <- b:
	default:
	}
}

// Handle hands the packets of an application's batch to the face's
// handler on the loop, then takes the face down if its input ended, and
// gives the batch back to the reader (eventloop.Batch).
func (b *readBatch) Handle() {
	f := b.face
	for i := range b.frames {
		if f.loop.Stopped() {
			return
		}
		f.deliver(b.frames[i].Pkt, b.digest[i])
	}
	if b.err != nil {
		f.down(b.err)
	}
	f.reuseBatch(b)
}

// receive decodes frame p, received at now (the reassembler's clock),
// into b. It reports false for a frame that gives nothing to hand on:
// malformed, an IDLE frame without Acks, or a fragment of an incomplete
// packet; on an application's face, which runs no link reliability, any
// IDLE frame. A Data whose digest the face verifies is left
// digestPending, for digestBatch.check.
func (f *Face) receive(b *readBatch, p []byte, now time.Duration) bool {
	fr, ok := f.dec.Decode(p, now)
	if !ok {
		return false
	}
	if f.loop == nil {
		b.frames = append(b.frames, fr)
		return true
	}
	if fr.IsIdle() {
		return false
	}
	check := digestUnchecked
	if f.digests && fr.Pkt.Data != nil && fr.Pkt.Data.Sig.Type == ndn.SigDigestSHA256 {
		check = digestPending
	}
	b.frames = append(b.frames, fr)
	b.digest = append(b.digest, check)
	return true
}

// handOn hands batch b, whose first packet the reader took from the
// socket at loop time at, to the host or the loop, its digests verified
// first when the face verifies them. It returns the batch to fill next,
// nil once the face is closing.
func (f *Face) handOn(b *readBatch, at time.Duration) *readBatch {
	if f.host != nil {
		if f.isClosing() {
			return nil
		}
		f.host.Deliver(f, b.frames)
		b.frames = nil // the host's now
		return b
	}
	if f.digests {
		f.verify.check(b.frames, b.digest)
	}
	if !f.loop.Deliver(b, at, f.closing) {
		return nil
	}
	return f.newBatch()
}

// inputEnded reports the end of the face's input, unless it is closing: a
// forwarder's face to its host, an application's to its loop, which
// takes the face down.
func (f *Face) inputEnded(err error) {
	if f.isClosing() {
		return
	}
	if f.host != nil {
		if errors.Is(err, io.EOF) {
			err = fmt.Errorf("face %s: the peer closed the connection: %w", f.cfg.Remote, err)
		} else {
			err = fmt.Errorf("face %s: read: %w", f.cfg.Remote, err)
		}
		f.fail(err)
		return
	}
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: %s closed the connection", ErrFaceDown, f.cfg.Remote)
	} else {
		err = fmt.Errorf("%w: read from %s: %w", ErrFaceDown, f.cfg.Remote, err)
	}
	b := f.newBatch()
	b.err = err
	f.loop.Deliver(b, -1, f.closing)
}

// readStream is a stream face's reader goroutine: it delimits TLV frames
// on the connection and hands on the packets of each read in one batch.
func (f *Face) readStream(conn net.Conn) {
	fr := NewFrameReader(streamCounter{conn, &f.in}, MaxPacketSize)
	if f.pools != nil {
		fr.Alloc = f.pools.frames.get
	}
	limit := readBatchLimit()
	b := f.newBatch()
	var at time.Duration
	for {
		p, err := fr.Next()
		if err != nil {
			if len(b.frames) > 0 && f.handOn(b, at) == nil {
				return
			}
			f.inputEnded(err)
			return
		}
		if f.receive(b, p, 0) && len(b.frames) == 1 {
			at = f.now()
		}
		if len(b.frames) > 0 && (len(b.frames) == limit || !fr.Buffered()) {
			if b = f.handOn(b, at); b == nil {
				return
			}
		}
	}
}

// receiveDatagram decodes one datagram of the face's and hands on the
// packet it completes, on the goroutine that reads the socket (the
// face's, or its UDP listener's). It reports false once the face is
// closing.
func (f *Face) receiveDatagram(p []byte) bool {
	if f.rx == nil {
		f.rx = f.newBatch()
	}
	now := f.now()
	if !f.receive(f.rx, p, now) {
		return true
	}
	f.rx = f.handOn(f.rx, now)
	return f.rx != nil
}

// readDatagrams is the reader goroutine of a face on a connected UDP
// socket: one frame per datagram, fragments reassembled.
func (f *Face) readDatagrams(conn net.Conn) {
	buf := make([]byte, 1<<16)
	for {
		f.in.idle.Store(f.in.read.Load()) // every datagram read so far is handed on
		n, err := conn.Read(buf)
		if n > 0 || err == nil {
			f.in.read.Add(1)
		}
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				err = fmt.Errorf("nothing listens at %s: %w", f.cfg.Remote, err)
			}
			f.inputEnded(err)
			return
		}
		b := make([]byte, n)
		copy(b, buf[:n])
		if !f.receiveDatagram(b) {
			return
		}
	}
}

// digestCheck is the outcome of a reader's DigestSha256 verification.
type digestCheck int8

const (
	digestUnchecked digestCheck = iota
	digestOK
	digestBad
	// digestPending: the reader has yet to check it, with the rest of its
	// batch (never seen by the loop).
	digestPending
)

// digestBatch verifies the DigestSha256 of the Data in a reader's batch
// together: sha256batch hashes up to 16 of them side by side. It keeps its
// buffers from batch to batch, so a batch allocates nothing.
type digestBatch struct {
	h    sha256batch.Hasher
	msgs [][]byte                 // the covered parts being hashed
	at   []int                    // where each is in the batch
	sums [][sha256batch.Size]byte // their digests
}

// check settles the check of every digestPending frame of a batch (frames,
// and their checks) to digestOK or digestBad.
func (v *digestBatch) check(frames []link.Frame, checks []digestCheck) {
	v.msgs, v.at = v.msgs[:0], v.at[:0]
	for i := range frames {
		if checks[i] != digestPending {
			continue
		}
		d := frames[i].Pkt.Data
		if covered, ok := ndn.DigestCovered(d); ok {
			v.msgs = append(v.msgs, covered)
			v.at = append(v.at, i)
			continue
		}
		checks[i] = digestOK
		if ndn.VerifyDigest(d) != nil {
			checks[i] = digestBad
		}
	}
	if len(v.msgs) == 0 {
		return
	}
	if len(v.sums) < len(v.msgs) {
		v.sums = make([][sha256batch.Size]byte, max(len(v.msgs), readBatchLimit()))
	}
	v.h.Sum(v.sums, v.msgs)
	for k, i := range v.at {
		checks[i] = digestOK
		if !bytes.Equal(v.sums[k][:], frames[i].Pkt.Data.Sig.Value) {
			checks[i] = digestBad
		}
	}
	clear(v.msgs) // drop the references to the frames
}

// readProgress is how far a face's reader goroutine got through its
// socket, for the loop's catch-up after a stall (eventloop.Source).
type readProgress struct {
	// read counts what the reader took from the socket: bytes on a stream,
	// datagrams on a datagram socket.
	read atomic.Uint64
	// idle is read as it was when the reader last went back to the socket
	// having handed on every whole packet among them.
	idle atomic.Uint64
	// queued returns the bytes waiting in the socket's kernel receive
	// buffer (on a datagram socket, the size of the first datagram); nil
	// where the system does not tell.
	queued   func() int
	datagram bool
}

// inputMark is how far a reader must get to have handed the loop all
// its socket held when the mark was taken.
type inputMark struct {
	p      *readProgress
	target uint64
}

// mark notes how far the reader must get: on a stream, past the bytes it
// read so far and those in the kernel's buffer. A datagram socket does not
// say how many datagrams it holds: its reader must find it empty.
func (p *readProgress) mark() inputMark {
	m := inputMark{p: p, target: p.read.Load()}
	if !p.datagram && p.queued != nil {
		m.target += uint64(max(p.queued(), 0))
	}
	return m
}

// reached reports whether the reader got as far as m asks. (A datagram
// the reader took from the socket but has not counted yet passes unseen.)
func (m inputMark) reached() bool {
	if m.p.datagram {
		return m.p.idle.Load() == m.p.read.Load() && (m.p.queued == nil || m.p.queued() <= 0)
	}
	return m.p.idle.Load() >= m.target
}

// Mark notes how far the reader must get and returns the test of whether
// it got there (eventloop.Source).
func (p *readProgress) Mark() (reached func() bool) { return p.mark().reached }

// streamCounter reads a stream socket for a FrameReader, keeping the
// face's readProgress: a FrameReader reads only when it holds no whole
// frame, and readStream hands its batch on before that.
type streamCounter struct {
	conn net.Conn
	p    *readProgress
}

func (s streamCounter) Read(b []byte) (int, error) {
	s.p.idle.Store(s.p.read.Load())
	n, err := s.conn.Read(b)
	if n > 0 {
		s.p.read.Add(uint64(n))
	}
	return n, err
}
