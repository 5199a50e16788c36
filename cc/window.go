package cc

import (
	"fmt"
	"math"
	"time"
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

// HyStart's constants, Linux's tcp_cubic defaults (RFC 9406's
// MIN_RTT_THRESH, MAX_RTT_THRESH, MIN_RTT_DIVISOR and N_RTT_SAMPLE).
const (
	HyStartLowWindow  = 16                    // no exit below this window, segments
	HyStartSamples    = 8                     // RTT samples per round before a decision
	HyStartMinThresh  = 4 * time.Millisecond  // least RTT increase that ends slow start
	HyStartMaxThresh  = 16 * time.Millisecond // largest threshold
	hyStartMinDivisor = 8                     // threshold = minRTT/8 within the bounds
)

// HyStartThreshold is the RTT increase over minRTT that ends slow start:
// minRTT/8 clamped to [HyStartMinThresh, HyStartMaxThresh].
func HyStartThreshold(minRTT time.Duration) time.Duration {
	return min(max(minRTT/hyStartMinDivisor, HyStartMinThresh), HyStartMaxThresh)
}

// hyStart is HyStart's delay-increase detection, for the slow start of
// cubic and aimd (their hystart parameter): once per round, after
// HyStartSamples RTT samples, slow start ends if the round's least RTT
// exceeds the flow's least RTT by more than HyStartThreshold and the
// window is at least HyStartLowWindow (S. Ha and I. Rhee, "Taming the
// elephants: New TCP slow start", 2011; Linux's tcp_cubic; RFC 9406's
// constants). A round starts with a Data and ends with the first Data
// for an Interest sent after it (a.Seg above the highest segment sent
// when the round began).
type hyStart struct {
	started  bool
	roundEnd uint64        // the round ends with Data for a segment above it
	samples  int           // RTT samples taken this round
	roundMin time.Duration // least RTT of this round's samples
	minRTT   time.Duration // least RTT of the flow (0: none yet)
	exits    int           // slow starts ended by a delay increase
}

// exit takes a slow-start Data's RTT sample, before the window grows for
// it, and reports whether slow start ends at window cwnd.
func (h *hyStart) exit(a Ack, cwnd float64) bool {
	if !h.started || a.Seg > h.roundEnd {
		h.started, h.roundEnd, h.samples, h.roundMin = true, a.HighInterest, 0, 0
	}
	if a.RTT <= 0 {
		return false
	}
	if h.minRTT == 0 || a.RTT < h.minRTT {
		h.minRTT = a.RTT
	}
	if h.samples >= HyStartSamples {
		return false
	}
	h.samples++
	if h.roundMin == 0 || a.RTT < h.roundMin {
		h.roundMin = a.RTT
	}
	if h.samples < HyStartSamples || cwnd < HyStartLowWindow {
		return false
	}
	if h.roundMin > h.minRTT+HyStartThreshold(h.minRTT) {
		h.exits++
		return true
	}
	return false
}
