package fw

import (
	"fmt"

	"github.com/ndncc/ndncc/ndn"
)

// DefaultLossNackWindow is how many Data sent on a face EnableLossNacks
// remembers by default: the default window of the link layer's
// reliability service (link.DefaultWindow), which bounds the frames that
// can be reported lost.
const DefaultLossNackWindow = 1024

// LossCause says why a packet a face was given never reached the other
// end of its link. The link layer finds out (package link: a link-loss
// report of its Reliability, a drop by a Channel's output queue) and the
// runtime tells the forwarder with OnSendFailure.
type LossCause uint8

// Loss causes.
const (
	// CauseLinkLoss: lost on the link, as the link layer's reliability
	// service detects it. The consumer should retransmit without cutting
	// its window.
	CauseLinkLoss LossCause = iota + 1
	// CauseQueueDrop: dropped by the face's output queue (tail drop or
	// an AQM drop), a congestion signal: retransmit and cut.
	CauseQueueDrop
)

func (c LossCause) String() string {
	switch c {
	case CauseLinkLoss:
		return "link-loss"
	case CauseQueueDrop:
		return "queue-drop"
	}
	return fmt.Sprintf("LossCause(%d)", uint8(c))
}

// mark is the CongestionMark of the Nack a loss of this cause produces.
func (c LossCause) mark() uint64 {
	if c == CauseQueueDrop {
		return 1
	}
	return 0
}

// EnableLossNacks makes the forwarder remember, for the last window Data
// it sent on face (0 means DefaultLossNackWindow), which downstream
// Interest each answered, so that OnSendFailure can Nack a lost one.
// window should cover the Data that can be sent before a loss is
// detected: the link's link.ReliabilityConfig.Window does.
func (f *Forwarder) EnableLossNacks(face FaceID, window int) error {
	if !f.faceUp(face) {
		return fmt.Errorf("fw %s: enable loss Nacks: no face %d", f.name, face)
	}
	if window < 0 {
		return fmt.Errorf("fw %s: enable loss Nacks on face %d: negative window %d", f.name, face, window)
	}
	if window == 0 {
		window = DefaultLossNackWindow
	}
	f.faces[face].sent = &sentDataRing{buf: make([]sentData, window)}
	return nil
}

// OnSendFailure tells the forwarder that packet p, which it sent on face,
// was lost (see LossCause); p is the packet as sent. The reaction is
// PCON's Nack, with CongestionMark 0 for CauseLinkLoss and 1 for
// CauseQueueDrop:
//
//   - a lost Interest that is still awaited from face is handled as if
//     face had returned Nack Congestion: the entry's strategy decides
//     (best-route Nacks the downstreams once no other upstream is
//     pending; pcon first retries another nexthop);
//   - a lost Data is answered with Nack Congestion on face itself, for the
//     Interest the Data answered (if EnableLossNacks remembers it): the
//     forwarder downstream still has the PIT entry, matches the Nack to
//     its out-record and passes it on to the consumer;
//   - a lost Nack is sent again on face (Counters.LostNacks): the
//     downstream's PIT entry still waits for an answer, and without one
//     its consumer would only learn of the loss by timeout;
//   - anything that no longer matches is only counted
//     (Counters.UnmatchedLosses).
//
// It may be called from within a face's Send: the report is then handled
// once the current packet is done.
func (f *Forwarder) OnSendFailure(face FaceID, p ndn.Packet, cause LossCause) {
	f.guard.Do(work{face: face, pkt: p, loss: cause})
}

func (f *Forwarder) onSendFailure(face FaceID, p ndn.Packet, cause LossCause) {
	if face == 0 || int(face) >= len(f.faces) || (p.Interest == nil && p.Data == nil) {
		return // not a face, or no packet: nothing to answer
	}
	switch {
	case p.Data != nil:
		var it *ndn.Interest
		if r := f.faces[face].sent; r != nil {
			it = r.find(p.Data)
		}
		if it == nil || !f.send(face, ndn.Packet{Interest: it, Nack: ndn.NackCongestion, CongestionMark: cause.mark()}) {
			f.counters.UnmatchedLosses++
			return
		}
		f.counters.LostData++
		f.counters.OutNacks++
		f.faces[face].counters.OutNacks++
		if cause.mark() > 0 {
			f.counters.MarksForwarded++
		}
	case p.IsNack():
		// The downstream still waits for this answer: send it again.
		if !f.send(face, p) {
			f.counters.UnmatchedLosses++
			return
		}
		f.counters.LostNacks++
		f.counters.OutNacks++
		f.faces[face].counters.OutNacks++
	default:
		it := p.Interest
		e := f.pit.find(it, f.hasher.full(it.Name))
		var o *OutRecord
		if e != nil {
			o = e.OutRecord(face)
		}
		if o == nil || o.Nonce != it.Nonce || o.Nack != ndn.NackNone {
			f.counters.UnmatchedLosses++
			return
		}
		f.counters.LostInterests++
		f.upstreamNack(e, o, face, ndn.Packet{Interest: it, Nack: ndn.NackCongestion, CongestionMark: cause.mark()})
	}
}

// sentData pairs a Data sent on a face with the downstream Interest it
// answered.
type sentData struct {
	d  *ndn.Data
	it *ndn.Interest
}

// sentDataRing remembers the last len(buf) Data sent on one face.
type sentDataRing struct {
	buf  []sentData
	next int
}

func (r *sentDataRing) add(d *ndn.Data, it *ndn.Interest) {
	r.buf[r.next] = sentData{d: d, it: it}
	r.next = (r.next + 1) % len(r.buf)
}

// find returns the Interest that the latest sending of d answered, or nil.
func (r *sentDataRing) find(d *ndn.Data) *ndn.Interest {
	n := len(r.buf)
	for i := 1; i <= n; i++ {
		x := &r.buf[(r.next-i+n)%n]
		if x.d == d {
			return x.it
		}
	}
	return nil
}
