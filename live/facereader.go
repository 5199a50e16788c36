package live

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
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// received is a decoded packet and what the reader found of its digest.
type received struct {
	pkt    ndn.Packet
	digest digestCheck
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

// readBatch is a batch of decoded packets from one face (those one read
// from its socket gave), or the end of its input: an eventloop.Batch.
type readBatch struct {
	face *Face
	pkts []received
	err  error // the face went down
}

// Handle hands the packets to the face's handler on the loop, then takes
// the face down if its input ended, and gives the batch back to the
// reader (eventloop.Batch).
func (b *readBatch) Handle() {
	f := b.face
	for _, r := range b.pkts {
		if f.loop.Stopped() {
			return
		}
		f.deliver(r)
	}
	if b.err != nil {
		f.down(b.err)
	}
	f.reuseBatch(b)
}

// newBatch returns an empty batch for the reader, reused when one is free.
func (f *Face) newBatch() *readBatch {
	select {
	case b := <-f.bufs.batches:
		return b
	default:
		return &readBatch{face: f, pkts: make([]received, 0, maxReadBatch)}
	}
}

// reuseBatch hands a handled batch back for the reader's next one.
func (f *Face) reuseBatch(b *readBatch) {
	clear(b.pkts) // drop the references to the packets
	b.pkts, b.err = b.pkts[:0], nil
	select {
	case f.bufs.batches <- b:
	default:
	}
}

// post hands a batch the reader took from the socket at loop time at (-1:
// none) to the loop unless the face is closing.
func (f *Face) post(b *readBatch, at time.Duration) bool {
	return f.loop.Deliver(b, at, f.closing)
}

// readFailed reports the end of the input to the loop.
func (f *Face) readFailed(err error) {
	if f.closed.Load() {
		return
	}
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("%w: %s closed the connection", ErrFaceDown, f.transport)
	} else {
		err = fmt.Errorf("%w: read from %s: %w", ErrFaceDown, f.transport, err)
	}
	b := f.newBatch()
	b.err = err
	f.post(b, -1)
}

// maxReadBatch bounds the packets a reader hands to the loop at once.
const maxReadBatch = 32

// readStream delimits TLV frames on a stream socket and hands the loop the
// packets of each read in one batch.
func (f *Face) readStream() {
	fr := face.NewFrameReader(streamCounter{f.conn, &f.in}, MaxPacketSize)
	fr.Alloc = f.bufs.frames.get
	batch := f.newBatch()
	var digests digestBatch
	var at time.Duration
	for {
		b, err := fr.Next()
		if err != nil {
			digests.check(batch.pkts)
			if len(batch.pkts) > 0 && !f.post(batch, at) {
				return
			}
			f.readFailed(err)
			return
		}
		if r, ok := f.receive(b, 0); ok {
			if len(batch.pkts) == 0 {
				at = f.loop.Now()
			}
			batch.pkts = append(batch.pkts, r)
		}
		if len(batch.pkts) > 0 && (len(batch.pkts) == maxReadBatch || !fr.Buffered()) {
			digests.check(batch.pkts)
			if !f.post(batch, at) {
				return
			}
			batch = f.newBatch()
		}
	}
}

// readDatagrams reads one frame per datagram, reassembling fragments.
func (f *Face) readDatagrams() {
	buf := make([]byte, 1<<16)
	var digests digestBatch
	start := time.Now()
	for {
		f.in.idle.Store(f.in.read.Load()) // every datagram read so far is handed on
		n, err := f.conn.Read(buf)
		if n > 0 || err == nil {
			f.in.read.Add(1)
		}
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				err = fmt.Errorf("nothing listens at %s: %w", f.transport, err)
			}
			f.readFailed(err)
			return
		}
		b := make([]byte, n)
		copy(b, buf[:n])
		if r, ok := f.receive(b, time.Since(start)); ok {
			b := f.newBatch()
			b.pkts = digests.check(append(b.pkts, r))
			if !f.post(b, f.loop.Now()) {
				return
			}
		}
	}
}

// receive decodes one frame with the face's decoder. It reports false for
// a frame that gives no packet to deliver (malformed, IDLE, or a fragment
// of an incomplete packet). A Data whose digest the face verifies is
// left digestPending, for digestBatch.check.
func (f *Face) receive(b []byte, now time.Duration) (received, bool) {
	fr, ok := f.dec.Decode(b, now)
	if !ok || fr.IsIdle() { // an application's face runs no link reliability
		return received{}, false
	}
	pkt := fr.Pkt
	r := received{pkt: pkt}
	if f.digests && pkt.Data != nil && pkt.Data.Sig.Type == ndn.SigDigestSHA256 {
		r.digest = digestPending
	}
	return r, true
}

// digestBatch verifies the DigestSha256 of the Data in a reader's batch
// together: sha256batch hashes up to 16 of them side by side. It keeps its
// buffers from batch to batch, so a batch allocates nothing.
type digestBatch struct {
	h    sha256batch.Hasher
	msgs [][]byte                 // the covered parts being hashed
	at   []int                    // where each is in the batch
	sums [][sha256batch.Size]byte // their digests
}

// check settles every digestPending packet of batch to digestOK or
// digestBad and returns batch.
func (v *digestBatch) check(batch []received) []received {
	v.msgs, v.at = v.msgs[:0], v.at[:0]
	for i := range batch {
		r := &batch[i]
		if r.digest != digestPending {
			continue
		}
		if covered, ok := ndn.DigestCovered(r.pkt.Data); ok {
			v.msgs = append(v.msgs, covered)
			v.at = append(v.at, i)
			continue
		}
		r.digest = digestOK
		if ndn.VerifyDigest(r.pkt.Data) != nil {
			r.digest = digestBad
		}
	}
	if len(v.msgs) == 0 {
		return batch
	}
	if len(v.sums) < len(v.msgs) {
		v.sums = make([][sha256batch.Size]byte, max(len(v.msgs), maxReadBatch))
	}
	v.h.Sum(v.sums, v.msgs)
	for k, i := range v.at {
		r := &batch[i]
		r.digest = digestOK
		if !bytes.Equal(v.sums[k][:], r.pkt.Data.Sig.Value) {
			r.digest = digestBad
		}
	}
	clear(v.msgs) // drop the references to the frames
	return batch
}

// readProgress is how far a face's reader goroutine got through its
// socket, for the loop's catchUp.
type readProgress struct {
	// read counts what the reader took from the socket: bytes on a stream,
	// datagrams on a datagram socket.
	read atomic.Uint64
	// idle is read as it was when the reader last went back to the socket
	// having handed the loop every whole packet among them.
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
// frame, and readStream hands the loop its batch before that.
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
