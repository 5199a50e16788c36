package cc

import "testing"

func TestHoleDetectorSeed003(t *testing.T) {
	h := NewHoleDetector(DefaultHoleThreshold)
	steps := []struct {
		outOfOrder, fire bool
		count            int
	}{
		{false, false, 0},
		{true, false, 1},
		{true, false, 2},
		{false, false, 2}, // in-order Data do not reset the count
		{true, false, 3},
		{true, false, 4},
		{true, false, 5}, // at the threshold: not above it yet
		{false, false, 5},
		{true, true, 0}, // the sixth exceeds 5: decrease, count restarts
		{true, false, 1},
	}
	for i, s := range steps {
		if got := h.OnData(s.outOfOrder); got != s.fire || h.Count() != s.count {
			t.Errorf("step %d: fire %v count %d, want %v %d", i, got, h.Count(), s.fire, s.count)
		}
	}
	if h.Threshold() != 5 {
		t.Errorf("threshold %d", h.Threshold())
	}
}

func TestHoleDetectorThresholdZero(t *testing.T) {
	h := NewHoleDetector(0)
	if h.OnData(false) || !h.OnData(true) || !h.OnData(true) {
		t.Error("threshold 0 must fire on every out-of-order Data and only then")
	}
}
