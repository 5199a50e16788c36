package live

import (
	"errors"
	"fmt"
	"io"
	"syscall"
	"time"

	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// post hands an event to the loop unless the face is closing.
func (f *Face) post(ev inboxEvent) bool {
	select {
	case f.loop.inbox <- ev:
		return true
	case <-f.closing:
		return false
	}
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
	f.post(inboxEvent{face: f, err: err})
}

// maxReadBatch bounds the packets a reader hands to the loop at once.
const maxReadBatch = 32

// readStream delimits TLV frames on a stream socket and hands the loop the
// packets of each read in one batch.
func (f *Face) readStream() {
	fr := face.NewFrameReader(f.conn, MaxPacketSize)
	fr.Alloc = f.loop.frames.get
	var batch []received
	for {
		b, err := fr.Next()
		if err != nil {
			if len(batch) > 0 && !f.post(inboxEvent{face: f, pkts: batch}) {
				return
			}
			f.readFailed(err)
			return
		}
		if r, ok := f.receive(b, nil); ok {
			batch = append(batch, r)
		}
		if len(batch) > 0 && (len(batch) == maxReadBatch || !fr.Buffered()) {
			if !f.post(inboxEvent{face: f, pkts: batch}) {
				return
			}
			batch = nil
		}
	}
}

// readDatagrams reads one frame per datagram.
func (f *Face) readDatagrams(r *face.Reassembler) {
	buf := make([]byte, 1<<16)
	start := time.Now()
	reassemble := func(lp ndn.LpFrame) (ndn.LpFrame, bool, error) {
		return r.Add(lp, time.Since(start))
	}
	for {
		n, err := f.conn.Read(buf)
		if err != nil {
			if errors.Is(err, syscall.ECONNREFUSED) {
				err = fmt.Errorf("nothing listens at %s: %w", f.transport, err)
			}
			f.readFailed(err)
			return
		}
		b := make([]byte, n)
		copy(b, buf[:n])
		if r, ok := f.receive(b, reassemble); ok {
			if !f.post(inboxEvent{face: f, pkts: []received{r}}) {
				return
			}
		}
	}
}

// lpPacketType is the TLV-TYPE of an NDNLPv2 LpPacket (one byte on the
// wire).
const lpPacketType = 0x64

// receive decodes one frame. It reports false for a frame that gives no
// packet to deliver (malformed, IDLE, or a fragment of an incomplete
// packet). reassemble is nil on stream faces.
func (f *Face) receive(b []byte, reassemble func(ndn.LpFrame) (ndn.LpFrame, bool, error)) (received, bool) {
	f.in.frames.Add(1)
	f.in.bytes.Add(uint64(len(b)))
	var (
		pkt ndn.Packet
		err error
	)
	if reassemble != nil && len(b) > 0 && b[0] == lpPacketType {
		pkt, err = f.decodeLp(b, reassemble)
	} else {
		pkt, err = ndn.DecodeFrame(b)
	}
	if err != nil {
		f.countBad(err)
		return received{}, false
	}
	if pkt.Interest == nil && pkt.Data == nil {
		return received{}, false
	}
	f.in.packets.Add(1)
	r := received{pkt: pkt}
	if f.digests && pkt.Data != nil && pkt.Data.Sig.Type == ndn.SigDigestSHA256 {
		r.digest = digestOK
		if ndn.VerifyDigest(pkt.Data) != nil {
			r.digest = digestBad
		}
	}
	return r, true
}

// decodeLp decodes an LpPacket on a datagram face, reassembling fragments.
func (f *Face) decodeLp(b []byte, reassemble func(ndn.LpFrame) (ndn.LpFrame, bool, error)) (ndn.Packet, error) {
	lp, err := ndn.DecodeLp(b)
	if err != nil {
		return ndn.Packet{}, err
	}
	if lp.FragCount > 1 {
		f.in.fragments.Add(1)
		whole, done, err := reassemble(lp)
		if err != nil {
			f.in.reassembly.Add(1)
			f.log.Debug("fragment dropped", "face", f.transport.String(), "err", err)
			return ndn.Packet{}, nil
		}
		if !done {
			return ndn.Packet{}, nil
		}
		lp = whole
	}
	return lp.Packet()
}

func (f *Face) countBad(err error) {
	if errors.Is(err, ndn.ErrUnsupported) {
		f.in.unsupported.Add(1)
	} else {
		f.in.malformed.Add(1)
	}
	f.log.Debug("frame dropped", "face", f.transport.String(), "err", err)
}
