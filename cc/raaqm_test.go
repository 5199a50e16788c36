package cc

import (
	"testing"
	"time"
)

func TestRAAQMProbabilityFollowsRTT(t *testing.T) {
	cfg := DefaultRAAQMConfig()
	cfg.InitCwnd, cfg.PMin, cfg.PMax, cfg.Samples = 10, 0, 1, 4
	r, err := NewRAAQM(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	steps := []struct {
		seg      uint64
		rtt      time.Duration
		wantP    float64
		wantCwnd float64
	}{
		// The first sample spans no range: p = PMin = 0, additive increase.
		{1, 10 * ms, 0, 10.1},
		// 20 ms is the largest of {10, 20}: p = 1, a certain decrease.
		{2, 20 * ms, 1, (10.1 + 1/10.1) * 0.5},
	}
	for _, st := range steps {
		r.OnData(Ack{Seg: st.seg, RTT: st.rtt, HighInterest: 5})
		if r.LastProbability() != st.wantP || !near(r.Cwnd(), st.wantCwnd) {
			t.Fatalf("seg %d rtt %v: p %v cwnd %v, want %v, %v", st.seg, st.rtt, r.LastProbability(), r.Cwnd(), st.wantP, st.wantCwnd)
		}
	}
	// Segments up to HighInterest (5) at the decrease are in the same
	// round trip: no second decrease even at p = 1.
	w := r.Cwnd()
	r.OnData(Ack{Seg: 5, RTT: 20 * ms, HighInterest: 9})
	if r.LastProbability() != 1 || !near(r.Cwnd(), w+1/w) {
		t.Fatalf("same round: p %v cwnd %v, want 1 and %v", r.LastProbability(), r.Cwnd(), w+1/w)
	}
	// 15 ms between 10 and 20: p = 0.5 exactly.
	r.OnData(Ack{Seg: 6, RTT: 15 * ms, HighInterest: 9})
	if r.LastProbability() != 0.5 {
		t.Fatalf("p = %v at the midpoint, want 0.5", r.LastProbability())
	}
	// A timeout halves.
	w = r.Cwnd()
	r.OnDecrease(0, CauseTimeout)
	if !near(r.Cwnd(), max(1, w/2)) {
		t.Errorf("after a timeout cwnd %v, want %v", r.Cwnd(), w/2)
	}
}

func TestRAAQMValidate(t *testing.T) {
	for _, cfg := range []RAAQMConfig{
		{InitCwnd: 0, Step: 1, Beta: 0.5, PMax: 0.01, Samples: 30},
		{InitCwnd: 1, Step: 1, Beta: 1, PMax: 0.01, Samples: 30},
		{InitCwnd: 1, Step: 1, Beta: 0.5, PMin: 0.1, PMax: 0.01, Samples: 30},
		{InitCwnd: 1, Step: 1, Beta: 0.5, PMax: 0.01, Samples: 1},
	} {
		if _, err := NewRAAQM(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
}

func TestUnitDrawRange(t *testing.T) {
	var sum float64
	for seg := uint64(0); seg < 10000; seg++ {
		u := unitDraw(seg)
		if u < 0 || u >= 1 {
			t.Fatalf("unitDraw(%d) = %v", seg, u)
		}
		sum += u
	}
	if mean := sum / 10000; mean < 0.49 || mean > 0.51 {
		t.Errorf("mean draw %v, want about 0.5", mean)
	}
}
