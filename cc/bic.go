package cc

import (
	"fmt"
	"time"
)

// BICConfig parameterises BIC. MaxIncrement, LowWindow, Beta and fast
// convergence are Linux tcp_bic's defaults (max_increment 16, low_window
// 14, beta 819/1024 ≈ 0.8, fast_convergence 1); MinIncrement is the BIC
// paper's S_min (Xu, Harfoush, Rhee, INFOCOM 2004).
type BICConfig struct {
	// InitCwnd is the initial window. Default 1 (seed 003).
	InitCwnd float64
	// InitSsthresh is the initial slow-start threshold. Default 200
	// (seeds 000 and 003).
	InitSsthresh float64
	// MaxIncrement (S_max) caps the growth per RTT, in segments. Default 16.
	MaxIncrement float64
	// MinIncrement (S_min) is the least growth per RTT while searching
	// below W_max, so that the search reaches W_max. Default 0.01.
	MinIncrement float64
	// LowWindow: at or below this window BIC behaves as Reno (+1 per RTT,
	// halve on a decrease). Default 14.
	LowWindow float64
	// Beta is the multiplicative-decrease factor above LowWindow.
	// Default 0.8.
	Beta float64
	// FastConvergence lowers W_max to the midpoint of the window before
	// and after the decrease when the decrease happens below the previous
	// W_max. Default true.
	FastConvergence bool
}

// DefaultBICConfig returns the documented defaults.
func DefaultBICConfig() BICConfig {
	return BICConfig{
		InitCwnd:        1,
		InitSsthresh:    200,
		MaxIncrement:    16,
		MinIncrement:    0.01,
		LowWindow:       14,
		Beta:            0.8,
		FastConvergence: true,
	}
}

// Validate reports the first field that is out of range.
func (c BICConfig) Validate() error {
	if err := checkInit(c.InitCwnd, c.InitSsthresh); err != nil {
		return fmt.Errorf("bic: %w", err)
	}
	if err := checkPositive("bic-max-increment", c.MaxIncrement); err != nil {
		return fmt.Errorf("bic: %w", err)
	}
	if err := checkPositive("bic-min-increment", c.MinIncrement); err != nil {
		return fmt.Errorf("bic: %w", err)
	}
	if c.MinIncrement > c.MaxIncrement {
		return fmt.Errorf("bic: bic-min-increment %v exceeds bic-max-increment %v", c.MinIncrement, c.MaxIncrement)
	}
	if err := checkPositive("bic-low-window", c.LowWindow); err != nil {
		return fmt.Errorf("bic: %w", err)
	}
	if err := checkFraction("bic-beta", c.Beta); err != nil {
		return fmt.Errorf("bic: %w", err)
	}
	return nil
}

// BIC is Binary Increase Congestion control, the consumer window PCON uses
// (seed 004). Per RTT the window grows by an increment inc, spread over the
// Data of that RTT (cwnd += inc/cwnd per Data):
//
//   - slow start below ssthresh: +1 per Data;
//   - cwnd <= LowWindow: inc = 1 (Reno);
//   - cwnd < W_max, binary search: the window moves to the midpoint of
//     itself and W_max, inc = (W_max-cwnd)/2 clamped to
//     [MinIncrement, MaxIncrement] (additive increase when far away);
//   - cwnd >= W_max, max probing: inc = cwnd-W_max clamped to
//     [1, MaxIncrement], so the distance above W_max doubles every RTT
//     (1, 2, 4, …, as slow start) until the increment reaches MaxIncrement,
//     then grows linearly. Before the first decrease W_max is 0.
//
// A decrease (any cause): W_max = cwnd, or cwnd*(1+Beta)/2 with fast
// convergence when cwnd < W_max; ssthresh = max(cwnd*Beta, MinSsthresh), or
// max(cwnd/2, MinSsthresh) at or below LowWindow; cwnd = ssthresh.
type BIC struct {
	cfg            BICConfig
	cwnd, ssthresh float64
	wMax           float64
}

// NewBIC returns a BIC window in its initial state.
func NewBIC(cfg BICConfig) (*BIC, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &BIC{cfg: cfg, cwnd: cfg.InitCwnd, ssthresh: cfg.InitSsthresh}, nil
}

// Name implements Algorithm.
func (*BIC) Name() string { return "bic" }

// OnData implements Algorithm.
func (b *BIC) OnData(Ack) {
	if b.cwnd < b.ssthresh {
		b.cwnd++
		return
	}
	b.cwnd += b.increment() / b.cwnd
}

// increment is the growth per RTT at the current window.
func (b *BIC) increment() float64 {
	switch {
	case b.cwnd <= b.cfg.LowWindow:
		return 1
	case b.cwnd < b.wMax:
		return min(max((b.wMax-b.cwnd)/2, b.cfg.MinIncrement), b.cfg.MaxIncrement)
	default:
		return min(max(b.cwnd-b.wMax, 1), b.cfg.MaxIncrement)
	}
}

// OnDecrease implements Algorithm.
func (b *BIC) OnDecrease(time.Duration, Cause) {
	if b.cfg.FastConvergence && b.cwnd < b.wMax {
		b.wMax = b.cwnd * (1 + b.cfg.Beta) / 2
	} else {
		b.wMax = b.cwnd
	}
	beta := b.cfg.Beta
	if b.cwnd <= b.cfg.LowWindow {
		beta = 0.5
	}
	b.ssthresh = max(b.cwnd*beta, MinSsthresh)
	b.cwnd = decreased(b.cwnd, b.ssthresh)
}

// WMax is the window at the last decrease (after fast convergence), the
// target of the binary search.
func (b *BIC) WMax() float64 { return b.wMax }

// Cwnd implements Algorithm.
func (b *BIC) Cwnd() float64 { return b.cwnd }

// Ssthresh implements Algorithm.
func (b *BIC) Ssthresh() float64 { return b.ssthresh }
