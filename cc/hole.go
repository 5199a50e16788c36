package cc

// DefaultHoleThreshold is seed 003's "out-of-order packets counter
// threshold".
const DefaultHoleThreshold = 5

// HoleDetector is seed 003's sequence-hole detection (§2.3). It assumes Data
// mostly arrive in the order their Interests were sent, and counts the
// Data that do not. When the count exceeds the threshold (with the default
// 5: on the sixth out-of-order Data) it reports that the window should be
// decreased, which the pipeline does with CauseHole (ssthresh = cwnd*beta,
// cwnd = ssthresh: seed 003's "fast recovery"), and the count starts again
// from 0.
//
// The count resets only when the detector fires: in-order Data do not reset
// it, and neither do decreases for other causes (seed 003 counts "how many
// out-of-order data packets have [been] received", not a run of them).
//
// Seed 003 also says an out-of-order Data does not grow the window; that is
// the pipeline's decision, not the detector's.
type HoleDetector struct {
	threshold int
	count     int
}

// NewHoleDetector returns a detector that fires when more than threshold
// out-of-order Data have been counted.
func NewHoleDetector(threshold int) *HoleDetector { return &HoleDetector{threshold: threshold} }

// OnData records one Data; outOfOrder says whether an Interest sent before
// this Data's Interest is still outstanding. It reports whether the window
// should be decreased now.
func (h *HoleDetector) OnData(outOfOrder bool) bool {
	if !outOfOrder {
		return false
	}
	h.count++
	if h.count <= h.threshold {
		return false
	}
	h.count = 0
	return true
}

// Count is the number of out-of-order Data counted since the detector last
// fired.
func (h *HoleDetector) Count() int { return h.count }

// Threshold is the count the detector tolerates.
func (h *HoleDetector) Threshold() int { return h.threshold }
