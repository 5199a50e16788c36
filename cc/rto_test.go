package cc

import (
	"testing"
	"time"
)

// rtoAlgorithm is a window a TCP sender restarts on a retransmission
// timeout.
type rtoAlgorithm interface {
	Algorithm
	OnRTO(now time.Duration)
}

// TestOnRTORestartsTheWindow: after a history of growth, decreases and
// RTT samples, OnDecrease(CauseTimeout) then OnRTO leaves a window that
// behaves, Data after Data and decrease after decrease, exactly as a new
// one of the same configuration started from ssthresh: cwnd at InitCwnd,
// ssthresh kept, nothing else remembered (CUBIC's W_max, epoch, W_est and
// smoothed RTT included).
func TestOnRTORestartsTheWindow(t *testing.T) {
	aimd := func(ss float64, hyStart bool) rtoAlgorithm {
		cfg := DefaultAIMDConfig()
		cfg.InitCwnd, cfg.InitSsthresh, cfg.HyStart = 1, ss, hyStart
		a, err := NewAIMD(cfg)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	cubic := func(ss float64, hyStart bool) rtoAlgorithm {
		cfg := paperCubic()
		cfg.InitSsthresh, cfg.HyStart = ss, hyStart
		return newCubic(t, cfg)
	}
	tests := []struct {
		name    string
		make    func(ssthresh float64, hyStart bool) rtoAlgorithm
		hyStart bool
	}{
		{"aimd", aimd, true},
		{"aimd with hystart off", aimd, false},
		{"cubic", cubic, true},
		{"cubic with hystart off", cubic, false},
	}
	// feed gives n Data from segment *seg on, 20 ms apart, with RTTs that
	// grow from 40 ms by 0.1 ms a segment.
	feed := func(a Algorithm, now *time.Duration, seg *uint64, n int) {
		for range n {
			*now += 20 * time.Millisecond
			a.OnData(Ack{Now: *now, Seg: *seg, RTT: 40*time.Millisecond + time.Duration(*seg)*100*time.Microsecond, HighInterest: *seg + 10, InFlight: 10})
			*seg++
		}
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := tc.make(1000, tc.hyStart)
			var now time.Duration
			var seg uint64
			feed(a, &now, &seg, 300)
			a.OnDecrease(now, CauseHole)
			feed(a, &now, &seg, 400)
			a.OnDecrease(now, CauseTimeout)
			ss := a.Ssthresh()
			if a.Cwnd() <= 1 || ss <= MinSsthresh {
				t.Fatalf("cwnd %v ssthresh %v before the RTO: the history should have left both above their floors", a.Cwnd(), ss)
			}
			a.OnRTO(now)
			fresh := tc.make(ss, tc.hyStart)
			if a.Cwnd() != 1 || a.Ssthresh() != ss {
				t.Fatalf("after OnRTO cwnd %v ssthresh %v, want 1 and %v", a.Cwnd(), a.Ssthresh(), ss)
			}
			freshNow, freshSeg := now, seg
			for round := range 4 {
				feed(a, &now, &seg, 300)
				feed(fresh, &freshNow, &freshSeg, 300)
				if a.Cwnd() != fresh.Cwnd() || a.Ssthresh() != fresh.Ssthresh() {
					t.Fatalf("round %d: cwnd %v ssthresh %v, a new window has %v and %v", round, a.Cwnd(), a.Ssthresh(), fresh.Cwnd(), fresh.Ssthresh())
				}
				a.OnDecrease(now, CauseHole)
				fresh.OnDecrease(freshNow, CauseHole)
			}
		})
	}
}
