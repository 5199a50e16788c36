package cc

import (
	"fmt"
	"math"
	"time"
)

// VegasConfig parameterises TCP Vegas (seed 001; Brakmo & Peterson 1995).
// Alpha, Beta and SlowStartGamma are in segments (diff is expressed in
// segments queued in the network).
type VegasConfig struct {
	// InitCwnd is the initial window. Default 1 (seed 003).
	InitCwnd float64
	// InitSsthresh is the initial slow-start threshold. Default 200
	// (seeds 000 and 003).
	InitSsthresh float64
	// Alpha: below it the window grows by one segment per RTT. Default 1
	// (Vegas; seed 001's experiments use 5, 10 and 20).
	Alpha float64
	// Beta: above it the window shrinks by one segment per RTT. Default 3
	// (Vegas; seed 001's experiments use 10, 20 and 30).
	Beta float64
	// SlowStartGamma: slow start ends when diff exceeds it. Default 1
	// (Vegas' gamma, "one router buffer").
	SlowStartGamma float64
	// DiffPerSecond compares Alpha and Beta (and NDN-Vegas' Gamma) with
	// diff in segments per second, expected - actual, as paper 001 writes
	// it (expected = cwnd/baseRTT, actual = rttLen/avgRTT, diff = expected
	// - actual) and as its ndncatchunks pipeline computes it; the queue a
	// flow then aims for is Alpha to Beta times baseRTT in seconds, so the
	// same pair keeps four times the queue at 200 ms as at 50 ms. False
	// (the default) is Brakmo and Peterson's diff in segments, (expected -
	// actual) * baseRTT. Slow start's SlowStartGamma stays in segments.
	DiffPerSecond bool
}

// DefaultVegasConfig returns the documented defaults.
func DefaultVegasConfig() VegasConfig {
	return VegasConfig{InitCwnd: 1, InitSsthresh: 200, Alpha: 1, Beta: 3, SlowStartGamma: 1}
}

// Validate reports the first field that is out of range.
func (c VegasConfig) Validate() error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("vegas: %w", err)
	}
	return nil
}

func (c VegasConfig) validate() error {
	if err := checkInit(c.InitCwnd, c.InitSsthresh); err != nil {
		return err
	}
	switch {
	case !(c.Alpha >= 0) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("vegas-alpha %v must be a non-negative number", c.Alpha)
	case !(c.Beta > c.Alpha) || math.IsInf(c.Beta, 0):
		return fmt.Errorf("vegas-beta %v must be a number above vegas-alpha %v", c.Beta, c.Alpha)
	case !(c.SlowStartGamma >= 0) || math.IsInf(c.SlowStartGamma, 0):
		return fmt.Errorf("vegas-ss-gamma %v must be a non-negative number", c.SlowStartGamma)
	}
	return nil
}

// Vegas is TCP Vegas as seed 001 describes it, measured in rounds of one
// RTT each.
//
// Rounds come from segment numbers: a round ends with the first Data for a
// segment sent after the round began, i.e. Ack.Seg > the HighInterest seen
// when the previous round ended (the first Data ends round 0). At the end of
// a round:
//
//	expected = cwnd / baseRTT            baseRTT: the least RTT sample so far
//	actual   = rttLen / avgRTT           over the round that just ended
//	diff     = (expected - actual) * baseRTT   (segments)
//
// (with DiffPerSecond, Alpha, Beta and Gamma are compared with
// expected - actual itself, in segments per second, as paper 001 does)
// where rttLen is the number of segments transmitted during the round (the
// growth of HighInterest; seed 001's "segments transmitted during the last
// RTT") and avgRTT the mean of the RTT samples that arrived in it. A round
// without samples decides nothing.
//
// Congestion avoidance, once per round: diff < Alpha → cwnd+1; diff > Beta
// → cwnd-1 (not below 2 segments, and ssthresh follows cwnd down so the
// window stays out of slow start); otherwise hold.
//
// Slow start (cwnd < ssthresh) doubles the window every other round: a
// growing round adds 1 per Data, the next round holds the window and ends
// with the comparison; slow start ends when diff > SlowStartGamma (ssthresh
// becomes cwnd) or when cwnd reaches ssthresh.
//
// A decrease (any cause) halves the window like Reno: ssthresh =
// max(cwnd/2, MinSsthresh), cwnd = ssthresh. It happens at most once per
// round (Vegas decreases once per RTT); a second OnDecrease in the same round
// is ignored, and the round in which the window was decreased ends without
// a decision. The pipeline's Conservative filter usually stops the second
// call first.
type Vegas struct {
	core vegasCore
}

// NewVegas returns a Vegas window in its initial state.
func NewVegas(cfg VegasConfig) (*Vegas, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Vegas{core: newVegasCore(cfg, math.Inf(1), false, SlowStartVegas)}, nil
}

// Name implements Algorithm.
func (*Vegas) Name() string { return "vegas" }

// OnData implements Algorithm.
func (v *Vegas) OnData(a Ack) { v.core.onData(a) }

// OnDecrease implements Algorithm.
func (v *Vegas) OnDecrease(time.Duration, Cause) { v.core.onDecrease() }

// Cwnd implements Algorithm.
func (v *Vegas) Cwnd() float64 { return v.core.cwnd }

// Ssthresh implements Algorithm.
func (v *Vegas) Ssthresh() float64 { return v.core.ssthresh }

// BaseRTT is the RTT the window is compared against (0 before a sample).
func (v *Vegas) BaseRTT() time.Duration { return v.core.baseRTT }

// Diff is diff at the end of the last round that had RTT samples (0 before).
func (v *Vegas) Diff() float64 { return v.core.diff }

// Round is the number of rounds completed.
func (v *Vegas) Round() uint64 { return v.core.round }

// vegasCore is the state Vegas and NDN-Vegas share.
type vegasCore struct {
	alpha, beta, ssGamma float64
	gamma                float64 // NDN-Vegas' baseRTT adaptation threshold
	adapt                bool    // NDN-Vegas' rules are on
	perSecond            bool    // compare alpha, beta, gamma with diff per second
	ss                   SlowStart

	cwnd, ssthresh   float64
	baseRTT, lastRTT time.Duration
	diff             float64

	round     uint64
	mark      uint64 // HighInterest+1 when the round began
	rttSum    time.Duration
	rttN      int64
	grow      bool // Vegas slow start: this round doubles the window
	decreased bool // the window was decreased in this round
}

func newVegasCore(cfg VegasConfig, gamma float64, adapt bool, ss SlowStart) vegasCore {
	return vegasCore{
		alpha: cfg.Alpha, beta: cfg.Beta, ssGamma: cfg.SlowStartGamma,
		gamma: gamma, adapt: adapt, ss: ss, perSecond: cfg.DiffPerSecond,
		cwnd: cfg.InitCwnd, ssthresh: cfg.InitSsthresh,
		grow: true,
	}
}

func (v *vegasCore) inSlowStart() bool { return v.cwnd < v.ssthresh }

func (v *vegasCore) onData(a Ack) {
	if a.RTT > 0 {
		v.lastRTT = a.RTT
		if v.baseRTT == 0 || a.RTT < v.baseRTT {
			v.baseRTT = a.RTT
		}
		v.rttSum += a.RTT
		v.rttN++
	}
	if v.inSlowStart() && (v.ss != SlowStartVegas || v.grow) {
		v.cwnd++
	}
	if a.Seg >= v.mark {
		v.endRound(a.HighInterest)
	}
}

func (v *vegasCore) endRound(highInterest uint64) {
	var sent uint64
	if highInterest+1 > v.mark {
		sent = highInterest + 1 - v.mark
	}
	if !v.decreased {
		v.decide(float64(sent))
	}
	v.round++
	v.mark = highInterest + 1
	v.rttSum, v.rttN = 0, 0
	v.decreased = false
}

// decide applies the once-per-round rules at the end of a round in which
// sent segments were transmitted.
func (v *vegasCore) decide(sent float64) {
	slow := v.inSlowStart()
	if slow && v.ss == SlowStartVegas && v.grow {
		v.grow = false // the next round holds the window and compares
		return
	}
	if v.rttN == 0 {
		return
	}
	avg := float64(v.rttSum) / float64(v.rttN)
	v.diff = v.cwnd - sent*float64(v.baseRTT)/avg
	if slow {
		if v.ss == SlowStartVegas {
			if v.diff > v.ssGamma {
				v.ssthresh = v.cwnd
			} else {
				v.grow = true
			}
		}
		return
	}
	d := v.diff // what alpha, beta and gamma are compared with
	if v.perSecond {
		d = v.diff / v.baseRTT.Seconds()
	}
	if v.adapt {
		switch {
		case d < 0:
			// A nearer source: baseRTT already follows the least
			// sample, so it is the smaller RTT; start afresh from it.
			return
		case d > v.gamma:
			// A farther source: the least RTT is stale.
			v.baseRTT = v.lastRTT
			return
		}
	}
	switch {
	case d < v.alpha:
		v.cwnd++
	case d > v.beta:
		if v.cwnd-1 >= MinSsthresh {
			v.cwnd--
		}
		v.ssthresh = min(v.ssthresh, v.cwnd)
	}
}

func (v *vegasCore) onDecrease() {
	if v.decreased {
		return
	}
	v.decreased = true
	v.ssthresh = max(v.cwnd/2, MinSsthresh)
	v.cwnd = decreased(v.cwnd, v.ssthresh)
}
