package cc

import (
	"fmt"
	"math"
	"time"
)

// CubicConfig parameterises CUBIC. Defaults are ndn-tools' ndnget's
// (RFC 9438's C and beta; initial window 2, no initial threshold, fast
// convergence off).
type CubicConfig struct {
	// InitCwnd is the initial window. Default 2 (ndnget).
	InitCwnd float64
	// InitSsthresh is the initial slow-start threshold. Default +Inf
	// (ndnget: slow start until the first decrease).
	InitSsthresh float64
	// C scales the cubic function, in segments/s³. Default 0.4
	// (RFC 9438 §5.1).
	C float64
	// Beta is beta_cubic, the multiplicative-decrease factor. Default 0.7
	// (RFC 9438 §4.6).
	Beta float64
	// FastConvergence lowers W_max when a congestion event happens below
	// the previous W_max (RFC 9438 §4.7). Default false, as in ndnget
	// (--fast-conv turns it on).
	FastConvergence bool
	// RenoFriendly enables the Reno-friendly region (RFC 9438 §4.3): the
	// window never grows slower than Reno's estimate W_est. Default true.
	RenoFriendly bool
	// HyStart ends slow start when the RTT grows (HyStart's delay
	// increase detection, as Linux's CUBIC does): once per round, after
	// HyStartSamples RTT samples, if the round's least RTT exceeds the
	// flow's least RTT by more than clamp(minRTT/8, 4 ms, 16 ms) and
	// cwnd >= HyStartLowWindow, ssthresh = cwnd. It keeps a forwarder's
	// queue short when nothing marks and the initial ssthresh is
	// unbounded. Default true; the papers' experiments turn it off
	// (ndnget and paper 001's CUBIC have none).
	HyStart bool
}

// DefaultCubicConfig returns the documented defaults.
func DefaultCubicConfig() CubicConfig {
	return CubicConfig{InitCwnd: 2, InitSsthresh: math.Inf(1), C: 0.4, Beta: 0.7, FastConvergence: false, RenoFriendly: true, HyStart: true}
}

// Validate reports the first field that is out of range.
func (c CubicConfig) Validate() error {
	if err := checkInit(c.InitCwnd, c.InitSsthresh); err != nil {
		return fmt.Errorf("cubic: %w", err)
	}
	if err := checkPositive("cubic-c", c.C); err != nil {
		return fmt.Errorf("cubic: %w", err)
	}
	if err := checkFraction("cubic-beta", c.Beta); err != nil {
		return fmt.Errorf("cubic: %w", err)
	}
	return nil
}

// Cubic is CUBIC (RFC 9438) driven by Data instead of ACKs. Windows are in
// segments and time in seconds; each Data acknowledges one segment.
//
//   - Below ssthresh: slow start, +1 per Data; with HyStart, slow start
//     also ends (ssthresh = cwnd) when the RTT grows (see CubicConfig).
//   - Congestion avoidance runs in epochs. An epoch starts at Ack.Now of the
//     first Data handled in congestion avoidance after a decrease (or after
//     slow start ends); there cwnd_epoch = cwnd, W_est = cwnd and
//     K = cbrt((W_max - cwnd_epoch)/C). If no congestion event has happened
//     yet, W_max = cwnd and K = 0 (RFC 9438 §4.10).
//   - Per Data at t = Now - epoch: target = W_cubic(t+RTT) clamped to
//     [cwnd, 1.5*cwnd], W_cubic(t) = C*(t-K)³ + W_max;
//     W_est += alpha_cubic/cwnd with alpha_cubic = 3(1-beta)/(1+beta), or 1
//     once W_est >= cwnd_prior; if W_cubic(t) < W_est the window is W_est
//     (Reno-friendly region), otherwise cwnd += (target-cwnd)/cwnd.
//   - On a decrease (any cause): W_max = cwnd, or cwnd*(1+beta)/2 with fast
//     convergence when cwnd < W_max; cwnd_prior = cwnd;
//     ssthresh = max(cwnd*beta, MinSsthresh); cwnd = ssthresh. NDN has no
//     duplicate ACKs: a timeout is the consumer's ordinary loss signal, so
//     every cause is handled as RFC 9438 §4.6's congestion event rather than
//     as §4.8's retransmission timeout (which would reset cwnd to 1).
//
// RTT is the smoothed RTT of the samples carried by Ack.RTT (gain 1/8, the
// first sample taken as it is), so it keeps its value across Data that give
// no sample. Until the first sample it is 0 and the target is W_cubic(t).
type Cubic struct {
	cfg        CubicConfig
	alphaCubic float64

	cwnd, ssthresh float64
	wMax           float64
	cwndPrior      float64
	k              float64 // seconds
	wEst           float64
	congested      bool // a congestion event has happened
	inEpoch        bool
	epochStart     time.Duration
	srtt           float64 // seconds; 0 until the first sample
	hs             hyStart
}

// NewCubic returns a CUBIC window in its initial state.
func NewCubic(cfg CubicConfig) (*Cubic, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Cubic{
		cfg:        cfg,
		alphaCubic: 3 * (1 - cfg.Beta) / (1 + cfg.Beta),
		cwnd:       cfg.InitCwnd,
		ssthresh:   cfg.InitSsthresh,
	}, nil
}

// Name implements Algorithm.
func (*Cubic) Name() string { return "cubic" }

// OnData implements Algorithm.
func (c *Cubic) OnData(a Ack) {
	if a.RTT > 0 {
		s := a.RTT.Seconds()
		if c.srtt == 0 {
			c.srtt = s
		} else {
			c.srtt += (s - c.srtt) / 8
		}
	}
	if c.cwnd < c.ssthresh && c.cfg.HyStart && c.hs.exit(a, c.cwnd) {
		c.ssthresh = c.cwnd // checked before the increase, as Linux's CUBIC
	}
	if c.cwnd < c.ssthresh {
		c.cwnd++
		return
	}
	if !c.inEpoch {
		c.startEpoch(a.Now)
	}
	t := (a.Now - c.epochStart).Seconds()
	if c.cfg.RenoFriendly {
		alpha := c.alphaCubic
		if c.wEst >= c.cwndPrior {
			alpha = 1
		}
		c.wEst += alpha / c.cwnd
		if c.WCubic(t) < c.wEst {
			c.cwnd = c.wEst
			return
		}
	}
	target := min(max(c.WCubic(t+c.srtt), c.cwnd), 1.5*c.cwnd)
	c.cwnd += (target - c.cwnd) / c.cwnd
}

// HyStartExits is how many slow starts HyStart ended (0 or 1: after a
// decrease slow start runs only below ssthresh).
func (c *Cubic) HyStartExits() int { return c.hs.exits }

func (c *Cubic) startEpoch(now time.Duration) {
	c.inEpoch = true
	c.epochStart = now
	c.wEst = c.cwnd
	if !c.congested {
		c.wMax = c.cwnd
		c.cwndPrior = c.cwnd
		c.k = 0
		return
	}
	c.k = math.Cbrt((c.wMax - c.cwnd) / c.cfg.C)
}

// OnDecrease implements Algorithm.
func (c *Cubic) OnDecrease(time.Duration, Cause) {
	if c.cfg.FastConvergence && c.cwnd < c.wMax {
		c.wMax = c.cwnd * (1 + c.cfg.Beta) / 2
	} else {
		c.wMax = c.cwnd
	}
	c.cwndPrior = c.cwnd
	c.ssthresh = max(c.cwnd*c.cfg.Beta, MinSsthresh)
	c.cwnd = decreased(c.cwnd, c.ssthresh)
	c.congested = true
	c.inEpoch = false
}

// OnRTO restarts the window after a retransmission timeout, as RFC 9438
// §4.8 and TCP's loss window (RFC 5681 §3.1) have it: cwnd goes back to
// InitCwnd, ssthresh stays (the sender lowered it first, with OnDecrease),
// and CUBIC forgets its history — W_max, the epoch, W_est, its smoothed
// RTT and whether a congestion event happened — as Linux's cubic resets
// its state on a timeout. Slow start begins afresh (HyStart watches it
// from a new round; its exit count stays).
func (c *Cubic) OnRTO(time.Duration) {
	*c = Cubic{cfg: c.cfg, alphaCubic: c.alphaCubic, cwnd: c.cfg.InitCwnd, ssthresh: c.ssthresh, hs: hyStart{exits: c.hs.exits}}
}

// WCubic is the cubic window function of the current epoch at t seconds
// after its start: C*(t-K)³ + W_max.
func (c *Cubic) WCubic(t float64) float64 {
	d := t - c.k
	return c.cfg.C*d*d*d + c.wMax
}

// WMax is the window the cubic function plateaus at.
func (c *Cubic) WMax() float64 { return c.wMax }

// K is the time, in seconds from the epoch start, at which W_cubic reaches
// W_max. It is computed when an epoch starts.
func (c *Cubic) K() float64 { return c.k }

// WEst is the Reno-friendly estimate of the window.
func (c *Cubic) WEst() float64 { return c.wEst }

// Cwnd implements Algorithm.
func (c *Cubic) Cwnd() float64 { return c.cwnd }

// Ssthresh implements Algorithm.
func (c *Cubic) Ssthresh() float64 { return c.ssthresh }
