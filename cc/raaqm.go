package cc

import (
	"fmt"
	"math"
	"time"
)

// RAAQMConfig parameterises RAAQM, the consumer window control of ICP
// (Carofiglio, Gallo, Muscariello, Papalini, Wang, "Optimal multipath
// congestion control and request forwarding in information-centric
// networks", ICNP 2013), the baseline PCON compared against (seed 004).
type RAAQMConfig struct {
	// InitCwnd is the initial window (1, as ICP).
	InitCwnd float64
	// Step is the additive increase: cwnd += Step/cwnd per Data (eta, 1).
	Step float64
	// Beta is the multiplicative decrease factor (0.5).
	Beta float64
	// PMin and PMax bound the decrease probability, which grows linearly
	// with the RTT between the least and largest of the recent samples
	// (defaults 1e-5 and 0.01).
	PMin, PMax float64
	// Samples is how many recent RTT samples define Rmin and Rmax (30).
	Samples int
}

// DefaultRAAQMConfig returns the defaults: window 1, eta 1, beta 0.5,
// pmin 1e-5, pmax 0.01, 30 samples.
func DefaultRAAQMConfig() RAAQMConfig {
	return RAAQMConfig{InitCwnd: 1, Step: 1, Beta: 0.5, PMin: 1e-5, PMax: 0.01, Samples: 30}
}

// Validate reports the first parameter out of range.
func (c RAAQMConfig) Validate() error {
	switch {
	case !(c.InitCwnd >= 1 && c.InitCwnd <= MaxWindow):
		return fmt.Errorf("raaqm: init-cwnd %v must be a number of segments from 1 to %d", c.InitCwnd, MaxWindow)
	case !(c.Step > 0):
		return fmt.Errorf("raaqm: raaqm-step %v not positive", c.Step)
	case !(c.Beta > 0 && c.Beta < 1):
		return fmt.Errorf("raaqm: raaqm-beta %v not in (0,1)", c.Beta)
	case !(c.PMin >= 0 && c.PMin <= c.PMax && c.PMax <= 1):
		return fmt.Errorf("raaqm: need 0 <= raaqm-pmin (%v) <= raaqm-pmax (%v) <= 1", c.PMin, c.PMax)
	case c.Samples < 2 || c.Samples > 1024:
		return fmt.Errorf("raaqm: raaqm-samples %d not in [2,1024]", c.Samples)
	}
	return nil
}

// RAAQM is Remote Adaptive Active Queue Management: additive increase per
// Data, and a decrease by Beta with a probability that rises with the
// RTT's position between the recent minimum and maximum, so a growing
// queue is felt before anything is lost. At most one probabilistic
// decrease happens per round trip (until a segment sent after the last
// decrease is acknowledged). ICP's route labels, which give each route its
// own Rmin/Rmax, are not modelled: the flow's samples form one route.
//
// The draw is pseudo-random but clock-free and deterministic: SplitMix64
// of the segment number, so a replay gives the same decisions.
type RAAQM struct {
	cfg  RAAQMConfig
	cwnd float64

	rtts    []time.Duration // ring of recent samples
	next    int
	n       int
	holdSeg uint64 // no probabilistic decrease until a Data beyond it
	holding bool
	lastP   float64
}

// NewRAAQM returns RAAQM with cfg.
func NewRAAQM(cfg RAAQMConfig) (*RAAQM, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &RAAQM{cfg: cfg, cwnd: cfg.InitCwnd, rtts: make([]time.Duration, cfg.Samples)}, nil
}

// Name implements Algorithm.
func (*RAAQM) Name() string { return "raaqm" }

// Cwnd implements Algorithm.
func (r *RAAQM) Cwnd() float64 { return r.cwnd }

// Ssthresh implements Algorithm: RAAQM has no slow start.
func (r *RAAQM) Ssthresh() float64 { return r.cwnd }

// LastProbability is the decrease probability computed for the last Data.
func (r *RAAQM) LastProbability() float64 { return r.lastP }

// OnData implements Algorithm.
func (r *RAAQM) OnData(a Ack) {
	r.cwnd += r.cfg.Step / r.cwnd
	if a.RTT <= 0 {
		return
	}
	r.rtts[r.next] = a.RTT
	r.next = (r.next + 1) % len(r.rtts)
	r.n = min(r.n+1, len(r.rtts))
	lo, hi := r.rtts[0], r.rtts[0]
	for _, x := range r.rtts[:r.n] {
		lo, hi = min(lo, x), max(hi, x)
	}
	p := r.cfg.PMin
	if hi > lo {
		p += (r.cfg.PMax - r.cfg.PMin) * float64(a.RTT-lo) / float64(hi-lo)
	}
	r.lastP = p
	if r.holding && a.Seg <= r.holdSeg {
		return
	}
	r.holding = false
	if unitDraw(a.Seg) < p {
		r.cwnd = math.Max(1, r.cwnd*r.cfg.Beta)
		r.holdSeg, r.holding = a.HighInterest, true
	}
}

// OnDecrease implements Algorithm: a timeout, mark or Nack multiplies the
// window by Beta.
func (r *RAAQM) OnDecrease(time.Duration, Cause) {
	r.cwnd = math.Max(1, r.cwnd*r.cfg.Beta)
}

// unitDraw maps a segment number to [0,1) with SplitMix64's finalizer.
func unitDraw(seg uint64) float64 {
	z := seg + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}
