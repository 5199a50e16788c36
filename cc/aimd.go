package cc

import (
	"fmt"
	"math"
	"time"
)

// AIMDConfig parameterises AIMD. Defaults are ndn-tools' ndnget's, which
// match paper 003's parameter list (§3.2) but for the initial window and
// threshold (the profiles seed000 and seed003 of package consumer select
// the papers' 1 and 200).
type AIMDConfig struct {
	// InitCwnd is the initial window. Default 2 (ndnget; paper 003: 1).
	// It is also the window after a decrease with ResetToInit.
	InitCwnd float64
	// InitSsthresh is the initial slow-start threshold. Default +Inf
	// (ndnget: slow start until the first decrease; papers 000 and 003:
	// 200).
	InitSsthresh float64
	// Step is the additive-increase step: in congestion avoidance each
	// Data adds Step/cwnd (one Step per RTT). Slow start always adds 1 per
	// Data. Default 1 (seed 003, "additive increase step").
	Step float64
	// Beta is the multiplicative-decrease factor:
	// ssthresh = max(cwnd*Beta, MinSsthresh). Default 0.5 (seed 000's
	// cwnd/2; seed 003, "multiplicative decrease factor").
	Beta float64
	// ResetToInit makes a decrease set cwnd to InitCwnd, as seed 003 §2.2
	// (and seed 000's prose, "cwnd = 1") say; otherwise cwnd falls to the
	// new ssthresh, as seed 000's pseudocode does. A CauseHole decrease
	// always falls to ssthresh: seed 003 §2.3 calls it fast recovery; so
	// does a CauseLoss one, a loss found by later Data as a hole is.
	// Default false.
	ResetToInit bool
	// MarkBeta, when non-zero, is the decrease factor for a congestion
	// mark instead of Beta: a mark is an early signal sent before any
	// queue overflows, so a milder reaction keeps the link busy (RFC 8511,
	// "Alternative Backoff with ECN", recommends 0.8 for marks). Default 0:
	// marks are treated like losses (ndn-tools' behaviour).
	MarkBeta float64
	// HyStart ends slow start when the RTT grows, as CubicConfig.HyStart
	// does (RFC 9406 applies it to any slow start). Default true; the
	// papers' experiments turn it off.
	HyStart bool
}

// DefaultAIMDConfig returns the documented defaults.
func DefaultAIMDConfig() AIMDConfig {
	return AIMDConfig{InitCwnd: 2, InitSsthresh: math.Inf(1), Step: 1, Beta: 0.5, HyStart: true}
}

// Validate reports the first field that is out of range.
func (c AIMDConfig) Validate() error {
	if err := checkInit(c.InitCwnd, c.InitSsthresh); err != nil {
		return fmt.Errorf("aimd: %w", err)
	}
	if err := checkPositive("aimd-step", c.Step); err != nil {
		return fmt.Errorf("aimd: %w", err)
	}
	if err := checkFraction("aimd-beta", c.Beta); err != nil {
		return fmt.Errorf("aimd: %w", err)
	}
	if c.MarkBeta != 0 {
		if err := checkFraction("aimd-mark-beta", c.MarkBeta); err != nil {
			return fmt.Errorf("aimd: %w", err)
		}
	}
	return nil
}

// AIMD is TCP Reno's window policy as seeds 000 and 003 use it: slow start
// below ssthresh (+1 per Data), additive increase above (+Step/cwnd per
// Data), multiplicative decrease on a congestion event.
type AIMD struct {
	cfg      AIMDConfig
	cwnd     float64
	ssthresh float64
	hs       hyStart
}

// NewAIMD returns an AIMD window in its initial state.
func NewAIMD(cfg AIMDConfig) (*AIMD, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &AIMD{cfg: cfg, cwnd: cfg.InitCwnd, ssthresh: cfg.InitSsthresh}, nil
}

// Name implements Algorithm.
func (*AIMD) Name() string { return "aimd" }

// OnData implements Algorithm: seed 000's OnData (with HyStart's check
// first in slow start).
func (w *AIMD) OnData(a Ack) {
	if w.cwnd < w.ssthresh && w.cfg.HyStart && w.hs.exit(a, w.cwnd) {
		w.ssthresh = w.cwnd
	}
	if w.cwnd < w.ssthresh {
		w.cwnd++
	} else {
		w.cwnd += w.cfg.Step / w.cwnd
	}
}

// OnDecrease implements Algorithm: seed 000's OnTimeout window update.
func (w *AIMD) OnDecrease(_ time.Duration, cause Cause) {
	beta := w.cfg.Beta
	if cause == CauseMark && w.cfg.MarkBeta != 0 {
		beta = w.cfg.MarkBeta
	}
	w.ssthresh = max(w.cwnd*beta, MinSsthresh)
	if w.cfg.ResetToInit && cause != CauseHole && cause != CauseLoss {
		w.cwnd = decreased(w.cwnd, w.cfg.InitCwnd)
		return
	}
	w.cwnd = decreased(w.cwnd, w.ssthresh)
}

// OnRTO restarts the window after a retransmission timeout, as TCP's
// loss window (RFC 5681 §3.1): cwnd goes back to InitCwnd, ssthresh stays
// (the sender lowered it first, with OnDecrease), and slow start begins
// afresh (HyStart watches it from a new round; its exit count stays).
func (w *AIMD) OnRTO(time.Duration) {
	w.cwnd = w.cfg.InitCwnd
	w.hs = hyStart{exits: w.hs.exits}
}

// Cwnd implements Algorithm.
func (w *AIMD) Cwnd() float64 { return w.cwnd }

// Ssthresh implements Algorithm.
func (w *AIMD) Ssthresh() float64 { return w.ssthresh }

// HyStartExits is how many slow starts HyStart ended.
func (w *AIMD) HyStartExits() int { return w.hs.exits }
