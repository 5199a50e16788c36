// Package cc holds ndncc's congestion-control algorithms and the RTT
// estimator. Everything here is pure and clock-free: time arrives as an
// argument, nothing is scheduled, nothing is sent.
//
// An Algorithm owns the congestion window and slow-start threshold and
// nothing else; the consumer pipeline (package consumer) owns segments,
// timers and retransmissions and tells the algorithm what happened. Loss
// filtering that the seeds define on segment numbers (seed 000's
// conservative window adaptation, seed 003's hole detection) lives here
// too, as small state machines the pipeline consults.
//
// This package must not import sched, sim, live, fw or consumer.
package cc

import "time"

// Cause says why the window is being decreased.
type Cause uint8

// Causes of a window decrease.
const (
	CauseTimeout Cause = iota // an Interest's RTO expired
	CauseMark                 // a Data carried an NDNLPv2 CongestionMark
	CauseNack                 // a Nack with reason Congestion (or a marked link-loss Nack)
	CauseHole                 // sequence-hole detection (out-of-order Data) fired
	numCauses
)

// NumCauses is the number of distinct Cause values.
const NumCauses = int(numCauses)

func (c Cause) String() string {
	switch c {
	case CauseTimeout:
		return "timeout"
	case CauseMark:
		return "mark"
	case CauseNack:
		return "nack"
	case CauseHole:
		return "hole"
	}
	return "unknown"
}

// Ack describes one Data that satisfied an outstanding segment.
type Ack struct {
	Now time.Duration // when the Data arrived
	Seg uint64        // its segment number
	// RTT is the sample this Data gave, or 0 when it gave none (Karn's
	// rule: a retransmitted segment's RTT is ambiguous).
	RTT time.Duration
	// HighInterest is the highest segment number sent so far.
	HighInterest uint64
	// InFlight is the number of Interests outstanding after this Data.
	InFlight int
	Marked   bool // the Data carried a CongestionMark
}

// Algorithm is a window policy.
type Algorithm interface {
	// Name is the pipeline name used in scenarios and on the CLI.
	Name() string
	// OnData is called for each Data that satisfies an outstanding segment,
	// before any decrease the same Data may trigger.
	OnData(a Ack)
	// OnDecrease is called when the pipeline has decided that a
	// congestion event happened (after conservative filtering).
	OnDecrease(now time.Duration, cause Cause)
	// Cwnd is the congestion window in segments (fractional windows are
	// allowed; the pipeline sends while InFlight < floor(Cwnd)).
	Cwnd() float64
	// Ssthresh is the slow-start threshold in segments.
	Ssthresh() float64
}
