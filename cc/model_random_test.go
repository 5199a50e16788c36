package cc

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestBBRCopaRandomEvents drives bbr (with and without the v3 response)
// and copa with seeded random Data, losses, marks and decreases, and
// checks that the window stays a finite number of segments in range and
// the pacing interval is never negative.
func TestBBRCopaRandomEvents(t *testing.T) {
	v3 := DefaultBBRConfig()
	v3.LossResponse = true
	for seed := uint64(1); seed <= 10; seed++ {
		b1, _ := NewBBR(DefaultBBRConfig())
		b3, _ := NewBBR(v3)
		c, _ := NewCopa(DefaultCopaConfig())
		r := rand.New(rand.NewPCG(seed, 7))
		var now time.Duration
		var seg, high uint64
		base := time.Duration(1+r.IntN(300)) * time.Millisecond
		for i := 0; i < 10000; i++ {
			now += time.Duration(r.IntN(2000)) * time.Microsecond
			high += uint64(r.IntN(3))
			if seg < high {
				seg += uint64(r.IntN(int(high-seg) + 1))
			}
			var rtt time.Duration
			if r.IntN(10) > 0 {
				rtt = base + time.Duration(r.IntN(int(base/time.Microsecond)+1))*time.Microsecond
			}
			if r.IntN(5000) == 0 {
				base = time.Duration(1+r.IntN(300)) * time.Millisecond // the path changes
			}
			a := Ack{Now: now, Seg: seg, RTT: rtt, SRTT: base, HighInterest: high, InFlight: r.IntN(200), Marked: r.IntN(20) == 0}
			for _, alg := range []Algorithm{b1, b3, c} {
				switch r.IntN(100) {
				case 0:
					alg.OnDecrease(now, Cause(r.IntN(NumCauses)))
				case 1:
					if s, ok := alg.(SignalCounter); ok {
						s.OnLost(now, seg)
					}
				}
				alg.OnData(a)
				w := alg.Cwnd()
				if math.IsNaN(w) || w < MinSsthresh || w > MaxWindow || math.IsNaN(alg.Ssthresh()) {
					t.Fatalf("seed %d, event %d: %s window %v", seed, i, alg.Name(), w)
				}
				if iv := alg.(Paced).PacingInterval(); iv < 0 {
					t.Fatalf("seed %d, event %d: %s pacing interval %v", seed, i, alg.Name(), iv)
				}
			}
		}
	}
}
