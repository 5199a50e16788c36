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
// The reorder window (step 4) is
//
//	reoWnd = max(min(mult·minRTT/4, SRTT), reoSeen,
//	             once reordered: maxRTT − minRTT + K·RTTVAR)
//
// with minRTT the least unambiguous RTT seen: RFC 8985's default of a
// quarter of the minimum RTT, bounded by the smoothed RTT; mult starts at
// 1 and grows by 1, at most once per round trip, with each spurious loss.
// Once a Data has come after that of an Interest sent later (RFC 8985's
// RACK.reord), the path reorders, and by as much as its RTTs vary: a
// later-sent Interest overtakes an earlier one by the difference of their
// RTTs, which the range of the RTTs bounds (maxRTT, the largest
// unambiguous RTT of the last second, less minRTT; an Interest whose wait
// spanned a stall of the runtime gives no sample), and the next RTT may exceed the largest seen by about as much
// as RTTs deviate: K·RTTVAR, the RTO's variance term (rto-k) without its
// floor. A forwarder whose threads each queue their own share of a
// flow's Interests (ndnd fw's) reorders them so, by as much as those
// queues differ, up to the queueing delay itself, in bursts that RTTVAR
// alone follows only on average. So on a path that reorders, an Interest
// is declared lost once it has waited longer than the longest RTT of late
// by the RTO's margin (still far less than the RTO's floor on a short
// path); on one that does not (one FIFO path, however its queue varies),
// a quarter of the minimum RTT after a later-sent one's Data.
//
// A segment RACK declared lost that turns out not to have been (its Data
// answers the Interest declared lost: the counterpart of the DSACK RFC
// 8985 adapts on) is a spurious loss. One whose Data came before the
// retransmission left measures the reordering it met: reoSeen becomes at
// least the time from when the rule started counting the window for it
// (sentAt + rack.rtt) to its Data, less the runtime's stalls meanwhile,
// and the window covers that at once, where RFC 8985's step of minRTT/4
// per round trip would need dozens of round trips on a path whose
// reordering is many times its minimum RTT (a forwarder's threads on a
// loaded host), and its SRTT bound would stop it short where the
// reordered Data are few. mult and reoSeen return to their least after 16
// loss events without a spurious loss (reo_wnd_persist; a timeout counts
// as one). Unlike RFC 8985, the window is never zeroed during recovery:
// Interests may be reordered on a forwarder's multiple paths.
//
// The pipeline applies the rule from timers: a Data after which the
// oldest Interest in flight is lost schedules a run at once (armRack, RFC
// 8985's reordering timer without its wait), and each timeout check
// (Options.CheckInterval) runs it too; a tail Interest with no later one
// delivered is left to the RTO. rack holds a
// fixed number of fields: no state per segment beyond the pipeline's own.
type rack struct {
	valid  bool          // some Data has arrived
	order  uint64        // transmission order of the newest-sent delivered Interest
	rtt    time.Duration // its RTT
	minRTT time.Duration // least unambiguous RTT (0: none yet)
	mult   int           // reorder window multiplier, from 1
	// reord: a Data has come after that of an Interest sent later.
	reord bool
	// varK multiplies the RTT's mean deviation in the window of a path
	// that reorders: the RTO estimator's K (rto-k).
	varK float64
	// rttMax is the largest RTT of the Interests sent once and answered
	// over the last rackSpreadWindow, those whose wait spanned a stall of
	// the runtime left out (ns, ticks of time in ns).
	rttMax cc.WindowedMax
	// reoSeen is the largest reordering a spurious loss has measured
	// since the window last returned to its least.
	reoSeen time.Duration
	// persist counts the loss events left before mult returns to 1.
	persist int
	// spuriousRound is the send order before which a spurious loss does
	// not raise mult again (one raise per round trip).
	spuriousRound uint64
}

// rackPersist is RFC 8985's reo_wnd_persist: loss events (its recoveries)
// after which a raised reorder window returns to its least.
const rackPersist = 16

func newRack(varK float64) rack { return rack{mult: 1, varK: varK} }

// rackSpreadWindow is how long the largest RTT the reorder window of a
// path that reorders covers (rack.rttMax) is remembered.
const rackSpreadWindow = time.Second

// sample takes an unambiguous RTT sample (an Interest sent once, its
// wait spanning no stall of the runtime) at now.
func (r *rack) sample(now, rtt time.Duration) {
	if r.minRTT == 0 || rtt < r.minRTT {
		r.minRTT = rtt
	}
	r.rttMax.Update(float64(rtt), uint64(max(now, 0)), uint64(rackSpreadWindow))
}

// spread is the range of the RTTs the reorder window of a path that
// reorders covers: the largest over the last rackSpreadWindow less the
// least.
func (r *rack) spread() time.Duration {
	return max(time.Duration(r.rttMax.Best())-r.minRTT, 0)
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
	switch {
	case !r.valid || order > r.order:
		r.valid, r.order, r.rtt = true, order, rtt
	case order < r.order:
		r.reord = true
	}
	return true
}

// reoWnd is the reorder window given the smoothed RTT.
func (r *rack) reoWnd(srtt, rttvar time.Duration) time.Duration {
	w := time.Duration(r.mult) * r.minRTT / 4
	if srtt > 0 {
		w = min(w, srtt)
	}
	if r.reord {
		w = max(w, r.spread()+time.Duration(r.varK*float64(rttvar)))
	}
	return max(w, r.reoSeen)
}

// since is when the rule starts counting the reorder window for an
// Interest sent at sentAt: the time its Data would have come at the RTT of
// the newest-sent Interest answered.
func (r *rack) since(sentAt time.Duration) time.Duration { return sentAt + r.rtt }

// lost reports whether the Interest with transmission order order, sent at
// sentAt, is lost at now.
func (r *rack) lost(now, sentAt time.Duration, order uint64, srtt, rttvar time.Duration) bool {
	return r.valid && order < r.order && now >= r.since(sentAt)+r.reoWnd(srtt, rttvar)
}

// spurious takes a segment RACK declared lost whose Data answered the
// Interest it declared lost, reordered by reordering (the wait from when
// the rule started counting the window to its Data); sendOrder is the
// next transmission order.
func (r *rack) spurious(reordering time.Duration, sendOrder uint64) {
	r.persist = rackPersist
	r.reoSeen = max(r.reoSeen, reordering)
	if r.order < r.spuriousRound {
		return
	}
	r.mult++
	r.spuriousRound = sendOrder
}

// lossEvent counts a loss event (a RACK loss or a timeout) towards the
// reorder window's return to its least.
func (r *rack) lossEvent() {
	if r.persist > 0 {
		r.persist--
		if r.persist == 0 {
			r.mult, r.reoSeen = 1, 0
		}
	}
}

// rackDelivered feeds a Data for the in-flight or lost segment st to the
// loss detection, before the segment is marked received.
func (p *Pipeline) rackDelivered(now time.Duration, st *segment) {
	if !st.retx && st.stallsAtSend == p.stalls() {
		p.rack.sample(now, now-st.sentAt)
	}
	taken := st.status == segInFlight && p.rack.delivered(now, st.sentAt, st.order, st.retx)
	if st.status == segRetxWait {
		// Lost, not yet asked again: this Data answers the lost Interest.
		taken = p.rack.delivered(now, st.sentAt, st.order, false)
	}
	if st.rackLost && (st.status == segRetxWait || !taken) {
		p.stats.SpuriousRackLosses++
		var reordering time.Duration
		if st.status == segRetxWait {
			// Here before the retransmission left, it surely answers the
			// Interest declared lost, and measures its reordering: but for
			// the runtime's stalls since (those at its send when it was
			// declared), which delayed it without reordering anything.
			// One sooner than the min RTT after the retransmission most
			// likely does too, but a path's RTT can fall below the least
			// seen so far (its queue empties): it only takes RFC 8985's step.
			reordering = now - st.rackSince - (p.stalls() - st.stallsAtSend)
		}
		p.rack.spurious(reordering, p.sendOrder)
	}
}

// rackHead returns the oldest Interest in flight, pruning the order
// queue's stale entries, and whether the rule of rack finds it lost at
// now. One in flight across a stall of the runtime (Config.Stalls) is not:
// its Data and later ones queued meanwhile in the forwarder and the socket
// and come out of order as those drain; its RTO, which leaves the stall
// out, decides.
func (p *Pipeline) rackHead(now time.Duration) (orderEntry, *segment, bool) {
	for p.orderQ.Len() > 0 {
		e := p.orderQ.Peek()
		if !p.live(e) {
			p.orderQ.Pop()
			continue
		}
		st := p.slot(e.seg)
		if st.stallsAtSend != p.stalls() {
			return e, st, false
		}
		return e, st, p.rack.lost(now, st.sentAt, e.order, p.rto.est.SRTT(), p.rto.est.RTTVar())
	}
	return orderEntry{}, nil, false
}

// armRack schedules the loss detection (rackCheck) to run at now, once,
// when the Data just handled made the oldest Interest in flight lost by
// the rule of rack: RFC 8985's reordering timer, with no wait. It runs
// after the callbacks already due: on a live runtime, after the input that
// waits to be handled, which it reads in first when it finds it had
// stalled and counts the stall (Config.Stalls). A Data handled right after
// the runtime resumed from a stall it has not yet counted sees the time
// jump, and the segments whose Data wait behind it look lost; by the time
// the detection runs they have come, or the stall is counted and their
// RTO decides. In a simulation it is one more event at the same time.
func (p *Pipeline) armRack(now time.Duration) {
	if !p.opt.Rack || p.rackArmed || p.done {
		return
	}
	if _, _, lost := p.rackHead(now); !lost {
		return
	}
	p.rackArmed = true
	if p.rackTimer != nil {
		p.rackTimer.Reset(now)
		return
	}
	p.rackAfter = p.s.After(0, p.rackFn)
}

// rackCheck is the run of the loss detection armRack scheduled: it
// declares lost what is still lost and sends what the window allows.
func (p *Pipeline) rackCheck() {
	p.rackArmed, p.rackAfter = false, nil
	if p.done {
		return
	}
	p.detectLosses(p.s.Now())
	if !p.done {
		p.schedule()
	}
}

// stopRack cancels a scheduled run of the loss detection.
func (p *Pipeline) stopRack() {
	if p.rackTimer != nil {
		p.rackTimer.Stop()
	}
	if p.rackAfter != nil {
		p.rackAfter.Stop()
		p.rackAfter = nil
	}
	p.rackArmed = false
}

// detectLosses declares lost, in send order, every Interest in flight that
// the rule of rack finds lost at now (rackHead): each is a loss event for
// the window and goes to the retransmission queue, to leave as the window
// allows rather than after its RTO, and no sooner than the forwarders'
// retransmission suppression lets it pass; when it leaves it is a loss
// event for the window (through the conservative filter, as a timeout's;
// rackLossEvent). It stops at the first Interest not (yet) lost: those
// sent after it were sent later still; and at the first one in flight
// across a stall of the runtime. Each Interest leaves the order queue
// once, so the cost is O(1) amortised per Interest. It runs from timers
// only (rackCheck and the timeout check), never inline on a Data.
func (p *Pipeline) detectLosses(now time.Duration) {
	if !p.opt.Rack {
		return
	}
	for !p.done {
		e, st, lost := p.rackHead(now)
		if !lost {
			return
		}
		p.orderQ.Pop()
		p.stats.RackLosses++
		p.lose(e.seg, st, false)
		st.rackLost, st.rackEvent = true, true
		st.rackSince = p.rack.since(st.sentAt)
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
