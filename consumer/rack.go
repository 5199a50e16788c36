package consumer

import (
	"time"

	"github.com/ndncc/ndncc/cc"
)

// rack is time-based loss detection after RFC 8985 (RACK), with an
// Interest in the role of a segment and its Data in the role of the
// (selective) acknowledgement: an Interest is lost when an Interest sent
// after it has had its Data arrive, and more than a reorder window has
// passed since it was sent plus that later Interest's RTT:
//
//	lost ⇔ order < rack.order ∧ now ≥ sentAt + rack.rtt + reoWnd
//
// where rack.order and rack.rtt belong to the most recently sent Interest
// whose Data has arrived (RFC 8985, 6.2 steps 1-2 and 5). A retransmitted
// segment's Data that comes sooner than the minimum RTT after its latest
// Interest left answers an earlier Interest and is not taken (step 2's
// test).
//
// The reorder window (step 4) is reoWnd = min(mult·minRTT/4, SRTT), with
// minRTT the least unambiguous RTT seen: RFC 8985's default of a quarter
// of the minimum RTT, bounded by the smoothed RTT. mult starts at 1 and
// grows by 1, at most once per round trip, each time a segment RACK
// declared lost turns out not to have been (its Data answers the Interest
// declared lost: the counterpart of the DSACK RFC 8985 adapts on, step 4);
// it returns to 1 after 16 loss events without such a spurious one
// (reo_wnd_persist). Unlike RFC 8985, the window is never zeroed during
// recovery: Interests may be reordered on a forwarder's multiple paths.
//
// The pipeline applies the rule at each Data and at each timeout check
// (Options.CheckInterval), in place of RFC 8985's reordering timer; a tail
// Interest with no later one delivered is left to the RTO. rack holds a
// fixed number of fields: no state per segment beyond the pipeline's own.
type rack struct {
	valid  bool          // some Data has arrived
	order  uint64        // transmission order of the newest-sent delivered Interest
	rtt    time.Duration // its RTT
	minRTT time.Duration // least unambiguous RTT (0: none yet)
	mult   int           // reorder window multiplier, from 1
	// persist counts the loss events left before mult returns to 1.
	persist int
	// spuriousRound is the send order before which a spurious loss does
	// not raise mult again (one raise per round trip).
	spuriousRound uint64
}

// rackPersist is RFC 8985's reo_wnd_persist: loss events (its recoveries)
// after which a raised reorder window returns to its least.
const rackPersist = 16

func newRack() rack { return rack{mult: 1} }

// sample takes an unambiguous RTT sample (an Interest sent once).
func (r *rack) sample(rtt time.Duration) {
	if r.minRTT == 0 || rtt < r.minRTT {
		r.minRTT = rtt
	}
}

// delivered takes the Data of the Interest with transmission order order,
// sent at sentAt; retx tells whether its segment was sent more than once.
// It reports whether the Data was taken (false: it may answer an earlier
// Interest of the segment).
func (r *rack) delivered(now, sentAt time.Duration, order uint64, retx bool) bool {
	rtt := now - sentAt
	if retx && rtt < r.minRTT {
		return false
	}
	if !r.valid || order > r.order {
		r.valid, r.order, r.rtt = true, order, rtt
	}
	return true
}

// reoWnd is the reorder window given the smoothed RTT.
func (r *rack) reoWnd(srtt time.Duration) time.Duration {
	w := time.Duration(r.mult) * r.minRTT / 4
	if srtt > 0 {
		w = min(w, srtt)
	}
	return w
}

// lost reports whether the Interest with transmission order order, sent at
// sentAt, is lost at now.
func (r *rack) lost(now, sentAt time.Duration, order uint64, srtt time.Duration) bool {
	return r.valid && order < r.order && now >= sentAt+r.rtt+r.reoWnd(srtt)
}

// spurious takes a segment RACK declared lost whose Data answered the
// Interest it declared lost; sendOrder is the next transmission order.
func (r *rack) spurious(sendOrder uint64) {
	r.persist = rackPersist
	if r.order < r.spuriousRound {
		return
	}
	r.mult++
	r.spuriousRound = sendOrder
}

// lossEvent counts a loss event RACK caused towards the reorder window's
// return to its least.
func (r *rack) lossEvent() {
	if r.persist > 0 {
		r.persist--
		if r.persist == 0 {
			r.mult = 1
		}
	}
}

// rackDelivered feeds a Data for the in-flight or lost segment st to the
// loss detection, before the segment is marked received.
func (p *Pipeline) rackDelivered(now time.Duration, st *segment) {
	if !st.retx {
		p.rack.sample(now - st.sentAt)
	}
	taken := st.status == segInFlight && p.rack.delivered(now, st.sentAt, st.order, st.retx)
	if st.status == segRetxWait {
		// Lost, not yet asked again: this Data answers the lost Interest.
		taken = p.rack.delivered(now, st.sentAt, st.order, false)
	}
	if st.rackLost && (st.status == segRetxWait || !taken) {
		p.stats.SpuriousRackLosses++
		p.rack.spurious(p.sendOrder)
	}
}

// detectLosses declares lost, in send order, every Interest in flight that
// the rule of rack finds lost at now: each is a loss event for the window
// and goes to the retransmission queue, to leave as the window allows
// rather than after its RTO, and no sooner than the forwarders'
// retransmission suppression lets it pass; when it leaves it is a loss
// event for the window (through the conservative filter, as a timeout's;
// rackLossEvent). It stops at the first Interest not (yet) lost: those sent after
// it were sent later still; and at the first one in flight across a stall
// of the runtime. Each Interest leaves the order queue once, so
// the cost is O(1) amortised per Interest.
func (p *Pipeline) detectLosses(now time.Duration) {
	if !p.opt.Rack {
		return
	}
	srtt := p.rto.est.SRTT()
	stalls := p.stalls()
	for p.orderQ.Len() > 0 && !p.done {
		e := p.orderQ.Peek()
		if !p.live(e) {
			p.orderQ.Pop()
			continue
		}
		st := p.slot(e.seg)
		if st.stallsAtSend != stalls {
			// In flight across a stall of the runtime (Config.Stalls):
			// its Data and later ones queued meanwhile in the forwarder
			// and the socket and come out of order as those drain. Its
			// RTO, which leaves the stall out, decides.
			return
		}
		if !p.rack.lost(now, st.sentAt, e.order, srtt) {
			return
		}
		p.orderQ.Pop()
		p.stats.RackLosses++
		p.lose(e.seg, st, false)
		st.rackLost, st.rackEvent = true, true
		st.holdUntil = st.sentAt + fwRetxSuppression(st.retries)
	}
}

// rackLossEvent takes a RACK loss as a loss event when its retransmission
// leaves: a Data that comes during the suppression wait shows reordering,
// not a loss, and costs the window nothing.
func (p *Pipeline) rackLossEvent(now time.Duration, seg uint64, st *segment) {
	st.rackEvent = false
	if p.decrease(now, cc.CauseLoss) {
		p.rack.lossEvent()
	}
	if p.counter != nil {
		p.counter.OnLost(now, seg)
	}
}

// Retransmission suppression as NFD and ndnd apply it by default: a
// forwarder drops a retransmitted Interest that reaches it within an
// interval of the previous one it forwarded for the same PIT entry; the
// interval starts at 10 ms and doubles with each retransmission it
// forwards, up to 250 ms.
const (
	fwRetxInitial = 10 * time.Millisecond
	fwRetxMax     = 250 * time.Millisecond
)

// fwRetxSuppression is the least wait after a segment's latest Interest,
// sent after retries earlier ones, before a retransmission of it passes
// the consumer's own forwarder: sent sooner, it would be dropped there and
// the loss detection would find it lost again, spending a retry each time.
// (A retransmission after an RTO of at least 200 ms passes anyway.)
func fwRetxSuppression(retries uint16) time.Duration {
	if retries >= 5 {
		return fwRetxMax
	}
	return min(fwRetxInitial<<retries, fwRetxMax)
}
