package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// onInterest is the incoming-Interest pipeline: HopLimit, scope control
// (a /localhost Interest from a network face is dropped), loop detection
// (dead-nonce list, then the PIT entry's nonces), Content Store lookup for
// an Interest that is not already pending, PIT in-record, strategy.
func (f *Forwarder) onInterest(in FaceID, p *ndn.Packet) {
	f.counters.InInterests++
	fc := &f.faces[in]
	fc.counters.InInterests++
	it := p.Interest
	if f.nameTooLong(it.Name) {
		return
	}
	if fc.kind == FaceNetwork && it.HasHopLimit {
		if it.HopLimit == 0 {
			f.counters.HopLimitDrops++
			return
		}
		cp := *it // Interests are shared and immutable: decrement a copy
		cp.HopLimit--
		it, p.Interest = &cp, &cp
	}
	sc := scopeOf(it.Name)
	if sc == scopeLocalhost && fc.kind != FaceLocal {
		f.counters.ScopeInterestDrops++
		return
	}
	now := f.now()
	// The FIB's last longest match, if it is the name's too, gives the
	// hash of the name's first components (compared, not hashed again)
	// and, later, the nexthops. Then only the whole name's hash is made
	// here; the other prefix hashes (hs) only for a table that needs them.
	var hs []uint64
	var h uint64
	route := f.fib.t.lastMatch(it.Name)
	if route != nil {
		h = ndn.ExtendNameHash(route.hs[len(route.name)], it.Name, len(route.name), nil)
	} else {
		hs = f.prefixHashes(it.Name)
		h = hs[len(it.Name)]
	}
	if f.dnl.size() > 0 && f.dnl.has(deadNonceKey(h, it.Nonce), now) { // (an empty list has nothing to expire)
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
			if d := f.cs.find(it, h, now); d != nil {
				f.counters.CSHits++
				f.sendData(&InRecord{Face: in, Interest: it, PitToken: p.PitToken}, p.CongestionMark, d, 0)
				return
			}
			f.counters.CSMisses++
		}
	}
	if f.pit.size >= f.limits.pitCheck && (fc.inRecords >= f.limits.pitFaceLimit || f.pit.size >= f.limits.pitCapacity) && f.pitFull(in, p, e) {
		return
	}
	if e == nil {
		e = f.pit.insert(it, h)
		if !e.timerBound {
			e.timer.Init(f.sched, func() { f.onExpiryTimer(e) })
			e.timerBound = true
		}
		if hs == nil && f.choice.needsHashes() {
			hs = f.hasher.prefixesAfter(it.Name, route.hs)
		}
		e.strategy = f.choice.find(it.Name, hs).s
		e.scope = sc
	}
	if e.insertInRecord(in, it, p.CongestionMark, p.PitToken, now, f.lifetime(it)) {
		fc.inRecords++
	}
	e.timer.Set(e.expiry)
	var nexthops []NextHop
	if route != nil {
		nexthops = route.val // what f.fib.lookup would give
	} else {
		nexthops = f.fib.lookup(it.Name, hs)
	}
	if e.scope != scopeNone {
		nexthops = f.scopeNexthops(e, in, nexthops)
	}
	e.strategy.AfterReceiveInterest(e, in, it, nexthops)
}

// onInterestLoop answers a looping Interest with Nack Duplicate, as NFD
// does on point-to-point faces (every face here is point-to-point).
func (f *Forwarder) onInterestLoop(in FaceID, p *ndn.Packet) {
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
	if e.scope != scopeNone && f.violatesScope(e, e.downstreamOf(it), out) {
		f.counters.ScopeDeniedNexthops++ // a strategy that did not ask eligible
		return false
	}
	fc := &f.faces[out]
	if fc.kind == FaceNetwork && it.HasHopLimit && it.HopLimit == 0 {
		f.counters.HopLimitDrops++
		return false
	}
	if !e.insertOutRecord(out, it, f.now(), f.lifetime(it)) {
		fc.pending++ // a new outstanding Interest (see PendingInterests)
	}
	f.counters.OutInterests++
	fc.counters.OutInterests++
	p := ndn.Packet{Interest: it}
	if fc.localFields {
		p.IncomingFaceID = uint64(e.downstreamOf(it))
	}
	if s := fc.shaper; s != nil {
		f.shapeInterest(out, s, p)
		return true
	}
	fc.out.Send(p)
	return true
}

// onExpiryTimer finalizes e, whose latest in-record has expired. e's
// timer is lazy (internal/lazytimer): its deadline follows e.expiry, so
// renewing in-records costs nothing.
func (f *Forwarder) onExpiryTimer(e *PitEntry) {
	held := f.guard.Hold() // what the strategy sends may come back
	f.counters.UnsatisfiedExpiries++
	e.strategy.OnInterestUnsatisfied(e)
	if e.live {
		f.finalize(e, false, 0)
	}
	if held {
		f.guard.Release()
	}
}

// finalize removes e from the PIT. The nonces it sent upstream go to the
// dead-nonce list when a looping copy could otherwise go unnoticed: if e
// was not satisfied, or it was MustBeFresh and the Data's freshness is
// shorter than the dead-nonce lifetime (as in NFD).
//
// e's timer is only disarmed, not cancelled: its wake-up stays queued and
// serves the next entry that recycles e, which re-arms it for a deadline
// later than the wake-up (a lifetime after a later arrival, the common
// case) at no cost. Removing the wake-up and scheduling a new one per
// entry cost about 150 instructions per Interest (lazytimer.Timer.Cancel,
// Set); a wake-up that finds the timer disarmed does nothing.
func (f *Forwarder) finalize(e *PitEntry, satisfied bool, freshness time.Duration) {
	e.timer.Stop()
	// (the slices in locals: read once, not again after each store)
	faces, in, out := f.faces, e.in, e.out
	if len(in) == 1 { // the common case, without a loop
		faces[in[0].Face].inRecords--
	} else {
		for i := range in {
			faces[in[i].Face].inRecords--
		}
	}
	for i := range out { // their Interests are no longer outstanding (see PendingInterests)
		if out[i].Nack == ndn.NackNone {
			faces[out[i].Face].pending--
		}
	}
	if !satisfied || (e.mustBeFresh && freshness < f.dnl.lifetime) {
		now := f.now()
		for i := range e.out {
			f.dnl.add(deadNonceKey(e.hash, e.out[i].Nonce), now)
		}
	}
	f.pit.remove(e)
}
