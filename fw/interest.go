package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// onInterest is the incoming-Interest pipeline: HopLimit, loop detection
// (dead-nonce list, then the PIT entry's nonces), Content Store lookup for
// an Interest that is not already pending, PIT in-record, strategy.
func (f *Forwarder) onInterest(in FaceID, p ndn.Packet) {
	f.counters.InInterests++
	f.faces[in].counters.InInterests++
	it := p.Interest
	if f.faces[in].kind == FaceNetwork && it.HasHopLimit {
		if it.HopLimit == 0 {
			f.counters.HopLimitDrops++
			return
		}
		cp := *it // Interests are shared and immutable: decrement a copy
		cp.HopLimit--
		it, p.Interest = &cp, &cp
	}
	now := f.sched.Now()
	hs := f.hasher.prefixes(it.Name)
	h := hs[len(it.Name)]
	if f.dnl.has(deadNonceKey(h, it.Nonce), now) {
		f.onInterestLoop(in, p)
		return
	}
	e := f.pit.find(it, h)
	if e != nil && e.duplicateNonce(it.Nonce, in) {
		f.onInterestLoop(in, p)
		return
	}
	if e == nil { // not pending: the Content Store may answer
		if f.cs.serves() {
			if d := f.cs.find(it, hs, now); d != nil {
				f.counters.CSHits++
				f.sendData(downstream{face: in, mark: p.CongestionMark, it: it, token: p.PitToken}, d, 0)
				return
			}
			f.counters.CSMisses++
		}
		e = f.pit.insert(it, h)
		if e.onTimer == nil {
			e.onTimer = f.expiryCallback(e)
		}
		e.strategy = f.choice.find(it.Name, hs).s
	}
	e.insertInRecord(in, it, p.CongestionMark, p.PitToken, now)
	f.armExpiry(e, now)
	e.strategy.AfterReceiveInterest(e, in, p, f.fib.lookup(it.Name, hs))
}

// onInterestLoop answers a looping Interest with Nack Duplicate, as NFD
// does on point-to-point faces (every face here is point-to-point).
func (f *Forwarder) onInterestLoop(in FaceID, p ndn.Packet) {
	f.counters.DuplicateNonceDrops++
	if f.send(in, ndn.Packet{Interest: p.Interest, Nack: ndn.NackDuplicate, PitToken: p.PitToken}) {
		f.counters.OutNacks++
		f.faces[in].counters.OutNacks++
	}
}

// sendInterest is the outgoing-Interest pipeline (see Actions.SendInterest).
// The Interest goes without a CongestionMark and without the downstream's
// PitToken: both are per hop, and a marked Interest is answered here with
// a marked reply. A face with local fields learns the downstream face.
func (f *Forwarder) sendInterest(e *PitEntry, out FaceID, it *ndn.Interest) bool {
	if !e.live || !f.faceUp(out) {
		return false
	}
	if f.faces[out].kind == FaceNetwork && it.HasHopLimit && it.HopLimit == 0 {
		f.counters.HopLimitDrops++
		return false
	}
	if o := e.OutRecord(out); o == nil || o.Nack != ndn.NackNone {
		f.faces[out].pending++ // a new outstanding Interest (see PendingInterests)
	}
	e.insertOutRecord(out, it, f.sched.Now())
	f.counters.OutInterests++
	f.faces[out].counters.OutInterests++
	p := ndn.Packet{Interest: it}
	if f.faces[out].localFields {
		p.IncomingFaceID = uint64(e.downstreamOf(it))
	}
	f.faces[out].out.Send(p)
	return true
}

// expiryCallback returns the expiry-timer callback of a new entry object.
func (f *Forwarder) expiryCallback(e *PitEntry) func() {
	return func() { f.onExpiryTimer(e) }
}

// armExpiry makes e's one timer fire no later than e.expiry. A timer that
// is already armed for an earlier time is left alone: when it fires it
// re-arms for the current expiry, so renewing in-records costs nothing.
func (f *Forwarder) armExpiry(e *PitEntry, now time.Duration) {
	if e.timer != nil {
		if e.timerAt <= e.expiry {
			return
		}
		e.timer.Stop()
	}
	e.timerAt = e.expiry
	e.timer = f.sched.After(e.expiry-now, e.onTimer)
}

// onExpiryTimer finalizes e if its latest in-record has expired, or
// re-arms the timer for it.
func (f *Forwarder) onExpiryTimer(e *PitEntry) {
	e.timer = nil
	now := f.sched.Now()
	if e.expiry > now {
		f.armExpiry(e, now)
		return
	}
	wasBusy := f.busy
	f.busy = true
	f.counters.UnsatisfiedExpiries++
	e.strategy.OnInterestUnsatisfied(e)
	if e.live {
		f.finalize(e, false, 0)
	}
	if !wasBusy {
		f.drain()
	}
}

// finalize removes e from the PIT. The nonces it sent upstream go to the
// dead-nonce list when a looping copy could otherwise go unnoticed: if e
// was not satisfied, or it was MustBeFresh and the Data's freshness is
// shorter than the dead-nonce lifetime (as in NFD).
func (f *Forwarder) finalize(e *PitEntry, satisfied bool, freshness time.Duration) {
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	for i := range e.out { // their Interests are no longer outstanding (see PendingInterests)
		if e.out[i].Nack == ndn.NackNone {
			f.faces[e.out[i].Face].pending--
		}
	}
	if !satisfied || (e.mustBeFresh && freshness < f.dnl.lifetime) {
		now := f.sched.Now()
		for i := range e.out {
			f.dnl.add(deadNonceKey(e.hash, e.out[i].Nonce), now)
		}
	}
	f.pit.remove(e)
}
