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
// Windows are in segments. Algorithms, by the name NewAlgorithm takes, with
// their defaults (every parameter can be set by its kebab-case name; see
// Describe):
//
//	fixed      window 32 (seed 000 Design #0); never changes.
//	aimd       init-cwnd 1, init-ssthresh 200, aimd-step 1, aimd-beta 0.5,
//	           aimd-mark-beta 0 (= aimd-beta), reset-cwnd-to-init false,
//	           hystart true (slow start ends on an RTT increase)
//	           (seeds 000, 003): slow start +1 per Data, then +step/cwnd;
//	           decrease to max(cwnd*beta, 2).
//	cubic      init-cwnd 1, init-ssthresh 200, cubic-c 0.4, cubic-beta 0.7,
//	           fast-conv true, cubic-reno-friendly true (RFC 9438),
//	           hystart true (slow start ends on an RTT increase).
//	bic        init-cwnd 1, init-ssthresh 200, bic-max-increment 16,
//	           bic-min-increment 0.01, bic-low-window 14, bic-beta 0.8,
//	           fast-conv true (BIC as PCON's consumer, seed 004; Linux
//	           tcp_bic defaults).
//	vegas      init-cwnd 1, init-ssthresh 200, vegas-alpha 1, vegas-beta 3,
//	           vegas-ss-gamma 1 (TCP Vegas, seed 001).
//	ndn-vegas  vegas' parameters plus vegas-gamma inf, slow-start vegas
//	           (seed 001's NDN-Vegas).
//	raaqm      init-cwnd 1, raaqm-step 1, raaqm-beta 0.5, raaqm-pmin 1e-5,
//	           raaqm-pmax 0.01, raaqm-samples 30 (ICP's RAAQM, seed 004's
//	           baseline).
//	paced-delay  see PacedDelayConfig (the default of ndncc fetch).
//	bbr        init-cwnd 10, bbr-startup-gain 2/ln 2, bbr-cwnd-gain 2,
//	           bbr-bw-rounds 10, min-rtt-window 10s, bbr-probe-rtt-time
//	           200ms, bbr-loss-response false (bbr-loss-thresh 0.02,
//	           bbr-ecn-thresh 0.5, bbr-beta 0.7): BBRv1 pacing Interests,
//	           BBRv3's loss and mark response as an option.
//	copa       init-cwnd 10, copa-delta 0.5, min-rtt-window 10s,
//	           competitive true (Copa, NSDI 2018).
//
// Every decrease floors ssthresh at MinSsthresh (2) and never raises cwnd.
//
// Optional interfaces say what else an algorithm needs from the pipeline:
// Paced (an Interest rate: paced-delay, bbr, copa), TimeoutObserver (every
// timeout check that found Interests lost) and SignalCounter (every Data,
// marked ones included, and every lost Interest, to count congestion
// signals per round itself: bbr).
//
// AIMD and Cubic also restart from their initial window on a TCP
// retransmission timeout (OnRTO), for package tcp's sender.
//
// The pipeline's helpers: RTTSampler (every Data or once per RTT, Karn's
// rule), Conservative (seed 000's recPoint: one loss event per RTT) and
// HoleDetector (seed 003: threshold 5). The RTO estimator (RFC 6298) is
// package rtt's.
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
	// CauseLoss: an Interest was found lost before its RTO ran out, because
	// Data for Interests sent after it arrived (time-based loss detection,
	// RFC 8985's RACK): a loss, where a timeout may also be a stall.
	CauseLoss
	numCauses
)

// NumCauses is the number of distinct Cause values.
const NumCauses = int(numCauses)

// String names the cause as traces and statistics show it.
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
	case CauseLoss:
		return "loss"
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
	// SRTT is the pipeline's smoothed RTT after this Data (0: no sample
	// yet).
	SRTT time.Duration
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
	// OnData is called for each Data that satisfies an outstanding
	// segment and is not itself a congestion signal, before any decrease
	// the same Data may trigger. A marked Data the pipeline obeys goes to
	// OnDecrease instead (the window never grows on a mark, as in
	// ndncatchunks), and with hole detection an out-of-order Data only
	// counts towards the hole; neither reaches OnData, so delay-based
	// algorithms (vegas, raaqm) take no RTT sample from them. An
	// algorithm that counts signals itself (SignalCounter) gets every
	// Data here, marked or out of order.
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

// SignalCounter is implemented by an algorithm that counts congestion
// signals itself, per Data and per lost Interest, rather than taking
// them as loss events: the pipeline passes it every Data through OnData,
// marked (Ack.Marked) or out of order, and never decreases on a mark for
// it; it calls OnLost for every Interest it declares lost to congestion
// (a timeout or a congestion Nack), whether or not the conservative
// filter makes that a loss event (OnDecrease, called before it).
type SignalCounter interface {
	OnLost(now time.Duration, seg uint64)
}
