package cc

// Conservative is seed 000's conservative window adaptation, after TCP
// SACK's conservative loss recovery: the consumer reacts to at most one
// loss event per RTT, so a burst of timeouts from one window halves the
// window once.
//
// It tracks, in segment numbers:
//   - highData: the highest segment of any Data received so far;
//   - highInterest: the highest segment of any Interest sent so far;
//   - recPoint: highInterest as it was at the last loss event.
//
// A congestion signal is a loss event iff highData > recPoint; the loss
// event then sets recPoint = highInterest. Signals for segments sent before
// that moment cannot raise highData above recPoint until a Data for a
// segment sent after it arrives, about one RTT later.
//
// The first loss event: seed 000 starts highData, highInterest and recPoint
// at 0 and segment numbers start at 0, so taken literally a loss while
// only segment 0 has arrived would not count. Here "no Data yet" and "no
// loss event yet" are states of their own, as if both values started at
// -1: the first congestion signal after any Data has arrived is a loss
// event, and signals before any Data has arrived are not (the window is
// still at its initial value then; the pipeline still backs off its RTO
// and retransmits).
//
// Disabled, Conservative treats every signal as a loss event (seed 000's
// Design #1) but keeps tracking, so traces show the same values.
type Conservative struct {
	enabled      bool
	haveData     bool
	haveRec      bool
	highData     uint64
	highInterest uint64
	recPoint     uint64
}

// NewConservative returns the filter in its initial state; enabled false
// makes every signal a loss event.
func NewConservative(enabled bool) *Conservative { return &Conservative{enabled: enabled} }

// Enabled reports whether the filter is on.
func (c *Conservative) Enabled() bool { return c.enabled }

// OnInterestSent records that an Interest for seg was sent (first
// transmission or retransmission).
func (c *Conservative) OnInterestSent(seg uint64) {
	c.highInterest = max(c.highInterest, seg)
}

// OnData records that a Data for seg arrived.
func (c *Conservative) OnData(seg uint64) {
	if !c.haveData || seg > c.highData {
		c.highData = seg
	}
	c.haveData = true
}

// TryLossEvent is called for each congestion signal (timeout, mark, Nack,
// hole). It reports whether the signal is a new loss event, in which case
// it sets recPoint = highInterest and the caller should decrease the
// window; otherwise the signal belongs to a loss event already reacted to.
func (c *Conservative) TryLossEvent() bool {
	event := !c.enabled || (c.haveData && (!c.haveRec || c.highData > c.recPoint))
	if event {
		c.recPoint = c.highInterest
		c.haveRec = true
	}
	return event
}

// HighData is the highest segment received so far (0 before any Data;
// see HasData).
func (c *Conservative) HighData() uint64 { return c.highData }

// HasData reports whether any Data has arrived.
func (c *Conservative) HasData() bool { return c.haveData }

// HighInterest is the highest segment sent so far (0 before any Interest).
func (c *Conservative) HighInterest() uint64 { return c.highInterest }

// RecPoint is highInterest at the last loss event (0 before the first;
// see HasLossEvent).
func (c *Conservative) RecPoint() uint64 { return c.recPoint }

// HasLossEvent reports whether a loss event has happened.
func (c *Conservative) HasLossEvent() bool { return c.haveRec }
