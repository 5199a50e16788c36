package cc

import (
	"testing"
	"time"

	"github.com/ndncc/ndncc/rtt"
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
	e := rtt.NewEstimator(rtt.DefaultConfig())
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

// BBR's and Copa's per-Data paths must not allocate once their
// histories (the delivery history, the standing-RTT window) have grown to
// the flight: marked Data, lost Interests and varying RTTs included.
func TestBBRCopaDoNotAllocate(t *testing.T) {
	cfg := DefaultBBRConfig()
	cfg.LossResponse = true
	b, err := NewBBR(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCopa(DefaultCopaConfig())
	if err != nil {
		t.Fatal(err)
	}
	var i uint64
	step := func() {
		i++
		rtt := time.Duration(70+i%13) * time.Millisecond
		a := Ack{Now: time.Duration(i) * 100 * time.Microsecond, Seg: i, RTT: rtt, SRTT: 75 * time.Millisecond, HighInterest: i + 700, InFlight: 700, Marked: i%7 == 0}
		if i%50 == 0 {
			b.OnLost(a.Now, i)
			b.OnDecrease(a.Now, CauseTimeout)
			c.OnDecrease(a.Now, CauseTimeout)
		}
		b.OnData(a)
		c.OnData(a)
	}
	for range 5000 {
		step() // the histories grow to the flight
	}
	if n := testing.AllocsPerRun(5000, step); n != 0 {
		t.Errorf("%v allocations per Data", n)
	}
}
