package cc

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// bbrStream is a scripted path for BBR: Data i arrives at 100+10i ms
// with an RTT sample of rtt(i) and HighInterest i+10 (ten Interests
// ahead), so the bottleneck delivers 100 segments/s and, at a 100 ms
// RTT, the BDP is 10 segments. InFlight is 10 unless a step says
// otherwise; before a Data, lost Interests and a loss event may be
// reported.
type bbrStep struct {
	i        int  // the Data's index
	inFlight int  // the flight after it, 0: 10
	marked   bool // it carried a congestion mark
	lost     int  // Interests lost (OnLost) before it
	decrease bool // a loss event (OnDecrease, timeout) before it

	state      BBRState
	round      uint64
	bw         float64
	minRTT     float64 // ms
	pacingRate float64
	cwnd       float64
}

func bbrAck(i int, rtt time.Duration, inFlight int, marked bool) Ack {
	if inFlight == 0 {
		inFlight = 10
	}
	return Ack{Now: ms(float64(100 + 10*i)), Seg: uint64(i), RTT: rtt, HighInterest: uint64(i + 10), InFlight: inFlight, Marked: marked}
}

// replayBBR feeds Data 0..last of the stream (RTT 100 ms before Data
// queueFrom, 120 ms from it: a standing queue) and checks the steps.
func replayBBR(t *testing.T, b *BBR, queueFrom, last int, steps []bbrStep) {
	t.Helper()
	k := 0
	for i := 0; i <= last; i++ {
		rtt := 100 * time.Millisecond
		if i >= queueFrom {
			rtt = 120 * time.Millisecond
		}
		var s *bbrStep
		if k < len(steps) && steps[k].i == i {
			s = &steps[k]
			k++
		}
		a := bbrAck(i, rtt, 0, false)
		if s != nil {
			a = bbrAck(i, rtt, s.inFlight, s.marked)
			for range s.lost {
				b.OnLost(a.Now, 0)
			}
			if s.decrease {
				b.OnDecrease(a.Now, CauseTimeout)
			}
		}
		b.OnData(a)
		if s == nil {
			continue
		}
		name := "Data " + strconv.Itoa(i)
		if b.State() != s.state {
			t.Errorf("%s: state %v, want %v", name, b.State(), s.state)
		}
		if s.round != 0 && b.Round() != s.round {
			t.Errorf("%s: round %d, want %d", name, b.Round(), s.round)
		}
		checkNear(t, name, "BtlBw", b.BtlBw(), s.bw)
		checkNear(t, name, "RTprop (ms)", float64(b.MinRTT())/1e6, s.minRTT)
		checkNear(t, name, "pacing rate", b.PacingRate(), s.pacingRate)
		checkNear(t, name, "cwnd", b.Cwnd(), s.cwnd)
	}
}

// TestBBRStateMachine walks BBRv1 through its states on the scripted
// path. The gains are the paper's: Startup paces at 2/ln2 × BtlBw
// (288.539 segments/s once BtlBw is 100) with a window of 2/ln2 × BDP + 3
// quanta (31.85); three rounds without 25% more bandwidth fill the pipe;
// Drain ends at once (a flight of 10 is within BDP + 3 = 13); ProbeBW's
// window is 2 × BDP + 3 = 23 and its phases last one RTprop (100 ms),
// 1.25 until the flight reaches 1.25 × BDP + 3 = 15.5, 0.75 until it is
// within 13. With a standing queue (RTT 120 ms) RTprop is not renewed;
// 10 s after its last renewal ProbeRTT holds the window at 4, and once
// the flight is 4, for 200 ms and a round; then ProbeBW again with the
// window it had.
func TestBBRStateMachine(t *testing.T) {
	b, err := NewBBR(DefaultBBRConfig())
	if err != nil {
		t.Fatal(err)
	}
	g := 2 / math.Ln2
	replayBBR(t, b, 100, 1130, []bbrStep{
		// 1 Data over 100 ms; the window grows by 1 while fewer than
		// init-cwnd were delivered.
		{i: 0, state: BBRStartup, round: 1, bw: 10, minRTT: 100, pacingRate: g * 10, cwnd: 11},
		{i: 9, state: BBRStartup, round: 1, bw: 100, minRTT: 100, pacingRate: g * 100, cwnd: 20},
		{i: 21, state: BBRStartup, round: 2, bw: 100, minRTT: 100, pacingRate: g * 100, cwnd: 32},
		{i: 22, state: BBRStartup, round: 3, bw: 100, minRTT: 100, pacingRate: g * 100, cwnd: 32},
		// Round 5 (Data 44) is the third without growth: the pipe is
		// full, Drain ends at once, ProbeBW starts in phase 6 (540000 µs
		// mod 7), gain 1.
		{i: 43, state: BBRStartup, round: 4, bw: 100, minRTT: 100, pacingRate: g * 100, cwnd: 32},
		{i: 44, state: BBRProbeBW, round: 5, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		// Phase 6 ends after one RTprop (at 650 ms > 540 + 100), 7 at 760.
		{i: 55, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		{i: 66, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 23},
		// 1.25 goes on past its RTprop while the flight is below 15.5...
		{i: 77, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 23},
		// ... and ends when it reaches it (16 before this Data); 0.75
		// ends as soon as the flight (12 before the Data) is within 13.
		{i: 78, inFlight: 15, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 75, cwnd: 23},
		{i: 79, inFlight: 11, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		// The next 1.25 phase (from Data 145) never ends: the scripted
		// flight stays 10. RTT 120 ms from Data 100 (1100 ms); RTprop was
		// last renewed by Data 99 at 1090 ms and expires after 11090:
		// Data 1100. ProbeRTT takes the sample (120 ms), paces at 1 ×
		// BtlBw and holds the window at 4.
		{i: 1099, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 23},
		{i: 1100, state: BBRProbeRTT, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 4},
		// The flight is 4: hold until 11110 + 200 ms and a round from
		// here (its first segment 1112).
		{i: 1101, inFlight: 4, state: BBRProbeRTT, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 4},
		{i: 1121, state: BBRProbeRTT, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 4},
		// 11320 ms: ProbeBW again in phase 6 (11320000 µs mod 7), the
		// window restored to 23 and growing by 1 towards 2 × 12 + 3.
		{i: 1122, state: BBRProbeBW, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 24},
		{i: 1125, state: BBRProbeBW, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 27},
		{i: 1126, state: BBRProbeBW, bw: 100, minRTT: 120, pacingRate: 100, cwnd: 27},
	})
}

// TestBBRLossConservation: BBRv1 answers a loss event with packet
// conservation for a round trip (the window is the flight plus one, and
// grows with it), then restores the window it had; it ignores marks.
func TestBBRLossConservation(t *testing.T) {
	b, err := NewBBR(DefaultBBRConfig())
	if err != nil {
		t.Fatal(err)
	}
	replayBBR(t, b, 1000, 70, []bbrStep{
		{i: 44, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		// A timeout before Data 50: flight 10 + 1; the round trip ends
		// with segment 60 (HighInterest 59 at the loss).
		{i: 50, decrease: true, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 11},
		{i: 55, inFlight: 12, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 13},
		{i: 59, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 13},
		{i: 60, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		// Phase 0 (1.25) from Data 66; a marked Data changes nothing.
		{i: 70, marked: true, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 23},
	})
}

// TestBBRLossResponse: with BBRv3's response a round whose loss rate
// exceeds 2% (1 of 12) bounds the flight: inflight_hi = max(the flight
// then 10 + 1 lost, 0.7 × min(BDP, cwnd) = 7) = 11, inflight_lo =
// max(11 delivered, 0.7 × 23) = 16.1; outside the probing phase the
// window keeps 15% headroom below inflight_hi. Probing up (phase 0,
// from Data 66) lets inflight_lo go and raises inflight_hi by 1, 2, 4
// per clean round; a round with 6 of 11 Data marked (over 50%) ends the
// probe and bounds the flight at max(10, 0.7 × 10) = 10, inflight_lo at
// 0.7 × 18 = 12.6, the window at 0.85 × 10 = 8.5.
func TestBBRLossResponse(t *testing.T) {
	cfg := DefaultBBRConfig()
	cfg.LossResponse = true
	b, err := NewBBR(cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps := []bbrStep{
		{i: 44, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		{i: 60, lost: 1, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 23},
		// Round 6 (Data 55-65) judged at Data 66, in phase 7; then phase
		// 0 begins (one RTprop since 650 ms).
		{i: 66, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 11},
		{i: 77, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 12},
		{i: 87, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 12},
		{i: 89, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 14},
		{i: 103, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 18},
	}
	for i := 104; i <= 109; i++ {
		steps = append(steps, bbrStep{i: i, marked: true, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 125, cwnd: 18})
	}
	steps = append(steps, bbrStep{i: 110, state: BBRProbeBW, bw: 100, minRTT: 100, pacingRate: 100, cwnd: 8.5})
	replayBBR(t, b, 1000, 110, steps)
	if got := b.InflightHi(); got != 10 {
		t.Errorf("inflight_hi %v, want 10", got)
	}
}
