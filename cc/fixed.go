package cc

import (
	"fmt"
	"time"
)

// DefaultFixedWindow is the fixed pipeline's default window: 1, ndnget's
// default --pipeline-size. Paper 000's Design #0 sets 32 on its linear
// topology and 16 on its dumbbell.
const DefaultFixedWindow = 1

// Fixed is a constant window (seed 000's Design #0, seed 003's fixed
// windows 50/100/200). Congestion events do not change it.
type Fixed struct {
	window float64
}

// NewFixed returns a window of the given size (at least 1 segment).
func NewFixed(window float64) (*Fixed, error) {
	if !(window >= 1 && window <= MaxWindow) {
		return nil, fmt.Errorf("fixed: window %v must be a number of segments from 1 to %d", window, MaxWindow)
	}
	return &Fixed{window: window}, nil
}

// Name implements Algorithm.
func (*Fixed) Name() string { return "fixed" }

// OnData implements Algorithm; it does nothing.
func (*Fixed) OnData(Ack) {}

// OnDecrease implements Algorithm; it does nothing.
func (*Fixed) OnDecrease(time.Duration, Cause) {}

// Cwnd implements Algorithm.
func (f *Fixed) Cwnd() float64 { return f.window }

// Ssthresh implements Algorithm. A fixed window has no slow start; it
// reports the window itself so that traces stay finite.
func (f *Fixed) Ssthresh() float64 { return f.window }
