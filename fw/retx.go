package fw

import "time"

// Defaults of the exponential retransmission suppression used by the
// built-in strategies (NFD's values).
const (
	DefaultRetxInitial    = 10 * time.Millisecond
	DefaultRetxMultiplier = 2.0
	DefaultRetxMax        = 250 * time.Millisecond
)

// RetxDecision is what retransmission suppression says about an Interest
// that arrived for an existing PIT entry.
type RetxDecision uint8

// Retransmission decisions.
const (
	// RetxNew: nothing is pending upstream; forward as a new Interest.
	RetxNew RetxDecision = iota
	// RetxForward: a retransmission outside the suppression interval;
	// forward it (the interval has been widened).
	RetxForward
	// RetxSuppress: a retransmission (or an aggregated Interest) inside
	// the suppression interval; do not forward it.
	RetxSuppress
)

// RetxSuppression is NFD-style exponential retransmission suppression: an
// Interest for a PIT entry that is already pending upstream is suppressed
// if it comes within the current interval after the last transmission;
// each forwarded retransmission multiplies the interval, up to Max. The
// state lives in the PIT entry (per entry) and its out-records (per
// upstream).
type RetxSuppression struct {
	Initial    time.Duration
	Multiplier float64
	Max        time.Duration
}

// DefaultRetxSuppression returns the suppression with the default
// parameters (10 ms, ×2, 250 ms).
func DefaultRetxSuppression() RetxSuppression {
	return RetxSuppression{Initial: DefaultRetxInitial, Multiplier: DefaultRetxMultiplier, Max: DefaultRetxMax}
}

func (r RetxSuppression) grow(iv time.Duration) time.Duration {
	return min(r.Max, time.Duration(float64(iv)*r.Multiplier))
}

// DecidePerEntry decides for e as a whole, measuring from the latest
// transmission to any upstream (best-route).
func (r RetxSuppression) DecidePerEntry(e *PitEntry, now time.Duration) RetxDecision {
	if len(e.out) == 0 { // a new entry, sent nowhere yet: the common case, inlined
		return RetxNew
	}
	return r.decideSent(e, now)
}

// decideAt is DecidePerEntry at the time a reads, which it reads only for
// an entry sent upstream before: one sent nowhere yet is new whatever the
// time, and the clock is an interface call. It returns the time it read
// (0 if none).
func (r RetxSuppression) decideAt(e *PitEntry, a Actions) (RetxDecision, time.Duration) {
	if len(e.out) == 0 { // a new entry: the common case, inlined
		return RetxNew, 0
	}
	return r.decideSentAt(e, a)
}

// decideSentAt is decideAt for an entry sent upstream before.
func (r RetxSuppression) decideSentAt(e *PitEntry, a Actions) (RetxDecision, time.Duration) {
	now := a.Now()
	return r.decideSent(e, now), now
}

// decideSent is DecidePerEntry for an entry sent upstream before.
func (r RetxSuppression) decideSent(e *PitEntry, now time.Duration) RetxDecision {
	if !e.HasPendingOutRecords(now) {
		return RetxNew
	}
	if e.retxInterval == 0 {
		e.retxInterval = r.Initial
	}
	if now-e.LastOutgoing() < e.retxInterval {
		return RetxSuppress
	}
	e.retxInterval = r.grow(e.retxInterval)
	return RetxForward
}

// DecidePerUpstream decides for upstream face of e, measuring from the last
// transmission to that face (multicast). After forwarding a RetxForward
// Interest, call IncrementUpstream.
func (r RetxSuppression) DecidePerUpstream(e *PitEntry, face FaceID, now time.Duration) RetxDecision {
	o := e.OutRecord(face)
	if o == nil {
		return RetxNew
	}
	if o.retxInterval == 0 {
		o.retxInterval = r.Initial
	}
	if now-o.LastSent < o.retxInterval {
		return RetxSuppress
	}
	return RetxForward
}

// IncrementUpstream widens the suppression interval of upstream face of e.
func (r RetxSuppression) IncrementUpstream(e *PitEntry, face FaceID) {
	if o := e.OutRecord(face); o != nil {
		o.retxInterval = r.grow(max(o.retxInterval, r.Initial))
	}
}
