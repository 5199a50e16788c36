package cc

import (
	"testing"
	"time"
)

// The per-Data paths must not allocate.
func TestHotPathsDoNotAllocate(t *testing.T) {
	for _, name := range Pipelines() {
		a, err := NewAlgorithm(name, nil)
		if err != nil {
			t.Fatal(err)
		}
		var i uint64
		n := testing.AllocsPerRun(1000, func() {
			i++
			a.OnData(Ack{Now: time.Duration(i) * time.Millisecond, Seg: i, RTT: 70 * time.Millisecond, HighInterest: i + 10})
			if i%100 == 0 {
				a.OnDecrease(time.Duration(i), CauseTimeout)
			}
		})
		if n != 0 {
			t.Errorf("%s: %v allocations per Data", name, n)
		}
	}
	e := NewRTTEstimator(DefaultRTTConfig())
	s := NewRTTSampler(SampleOncePerRTT)
	c := NewConservative(true)
	h := NewHoleDetector(DefaultHoleThreshold)
	var seg uint64
	if n := testing.AllocsPerRun(1000, func() {
		seg++
		c.OnInterestSent(seg + 5)
		c.OnData(seg)
		if s.Take(seg, false, seg+5) {
			e.AddSample(70 * time.Millisecond)
		}
		if h.OnData(seg%3 == 0) || c.TryLossEvent() {
			e.Backoff()
		}
	}); n != 0 {
		t.Errorf("pipeline helpers: %v allocations per Data", n)
	}
}
