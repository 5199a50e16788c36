package cc

import (
	"fmt"
	"math"
)

// MinSsthresh is the floor of the slow-start threshold after a decrease, in
// segments, for every algorithm here. Seed 000 halves the window
// (ssthresh = cwnd/2) with no floor; without one a window of 1 would halve
// to 0.5, which the pipeline rounds down to no Interests at all. 2 is
// ndn-tools' and Linux's floor.
const MinSsthresh = 2.0

// MaxWindow is the largest window, in segments, a parameter may ask for
// and the pipeline acts on: a window of Interests beyond it is no network's
// (65536 segments of 8 KB are 512 MB in flight), and the pipeline's state
// is sized by the window.
const MaxWindow = 1 << 16

// decreased is the window after a multiplicative decrease to ssthresh: the
// window falls to ssthresh but a decrease never raises it (a window of 1
// with MinSsthresh 2 stays 1, and slow start brings it back to 2).
func decreased(cwnd, ssthresh float64) float64 { return min(cwnd, ssthresh) }

// checkInit validates the initial window and slow-start threshold shared by
// the loss-based algorithms.
func checkInit(initCwnd, initSsthresh float64) error {
	if !(initCwnd >= 1 && initCwnd <= MaxWindow) {
		return fmt.Errorf("init-cwnd %v must be a number of segments from 1 to %d", initCwnd, MaxWindow)
	}
	if !(initSsthresh >= 1) {
		return fmt.Errorf("init-ssthresh %v must be a number >= 1, or inf", initSsthresh)
	}
	return nil
}

// checkFraction validates a multiplicative-decrease factor in (0,1).
func checkFraction(name string, v float64) error {
	if !(v > 0 && v < 1) {
		return fmt.Errorf("%s %v not in (0,1)", name, v)
	}
	return nil
}

// checkPositive validates a finite positive number.
func checkPositive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("%s %v must be a positive number", name, v)
	}
	return nil
}
