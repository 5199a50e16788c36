package cc

import (
	"testing"
	"time"
)

// vegasStep is a Data (seg, RTT sample in ms or 0 for none, HighInterest
// when it arrives) or a decrease, and the state after it.
type vegasStep struct {
	name     string
	decrease bool
	seg      uint64
	rttMs    float64
	hi       uint64
	cwnd     float64
	ssthresh float64
	rounds   uint64
	diff     float64
}

// vegasLike is what Vegas and NDNVegas share for the replays.
type vegasLike interface {
	Algorithm
	Diff() float64
	Round() uint64
	BaseRTT() time.Duration
}

func replayVegas(t *testing.T, v vegasLike, steps []vegasStep) {
	t.Helper()
	for i, s := range steps {
		now := time.Duration(i+1) * 10 * time.Millisecond
		if s.decrease {
			v.OnDecrease(now, CauseTimeout)
		} else {
			v.OnData(Ack{Now: now, Seg: s.seg, RTT: ms(s.rttMs), HighInterest: s.hi})
		}
		checkNear(t, s.name, "cwnd", v.Cwnd(), s.cwnd)
		checkNear(t, s.name, "ssthresh", v.Ssthresh(), s.ssthresh)
		checkNear(t, s.name, "diff", v.Diff(), s.diff)
		if v.Round() != s.rounds {
			t.Errorf("%s: rounds %d, want %d", s.name, v.Round(), s.rounds)
		}
	}
}

func TestVegasReplay(t *testing.T) {
	cfg := DefaultVegasConfig() // alpha 1, beta 3, slow-start gamma 1
	cfg.InitCwnd = 2
	v, err := NewVegas(cfg)
	if err != nil {
		t.Fatal(err)
	}
	replayVegas(t, v, []vegasStep{
		// Slow start: round 0 grows (+1 per Data) and ends with the first Data.
		{name: "round 0 grows, ends", seg: 0, rttMs: 100, hi: 1, cwnd: 3, ssthresh: 200, rounds: 1},
		// Round 1 holds the window; it ends with segment 2, the first sent after it began.
		{name: "hold", seg: 1, rttMs: 100, hi: 3, cwnd: 3, ssthresh: 200, rounds: 1},
		// 3 segments sent (2..4), avg RTT 112.5: diff = 3 - 3*100/112.5 = 1/3 <= 1.
		{name: "hold round compares, stays in slow start", seg: 2, rttMs: 125, hi: 4, cwnd: 3, ssthresh: 200, rounds: 2, diff: 1.0 / 3},
		{name: "grow", seg: 3, rttMs: 100, hi: 5, cwnd: 4, ssthresh: 200, rounds: 2, diff: 1.0 / 3},
		{name: "grow", seg: 4, rttMs: 100, hi: 6, cwnd: 5, ssthresh: 200, rounds: 2, diff: 1.0 / 3},
		{name: "grow round ends", seg: 5, rttMs: 100, hi: 8, cwnd: 6, ssthresh: 200, rounds: 3, diff: 1.0 / 3},
		{name: "hold", seg: 6, rttMs: 200, hi: 9, cwnd: 6, ssthresh: 200, rounds: 3, diff: 1.0 / 3},
		{name: "hold", seg: 7, rttMs: 200, hi: 10, cwnd: 6, ssthresh: 200, rounds: 3, diff: 1.0 / 3},
		{name: "hold", seg: 8, rttMs: 200, hi: 11, cwnd: 6, ssthresh: 200, rounds: 3, diff: 1.0 / 3},
		// 4 sent (9..12), avg 200: diff = 6 - 4*0.5 = 4 > 1: leave slow start.
		{name: "diff > gamma ends slow start", seg: 9, rttMs: 200, hi: 12, cwnd: 6, ssthresh: 6, rounds: 4, diff: 4},
		// Congestion avoidance.
		{name: "ca, mid-round", seg: 10, rttMs: 100, hi: 13, cwnd: 6, ssthresh: 6, rounds: 4, diff: 4},
		// 7 sent (13..19), avg 100: diff = 6 - 7 = -1 < alpha.
		{name: "diff < alpha: +1", seg: 13, rttMs: 100, hi: 19, cwnd: 7, ssthresh: 6, rounds: 5, diff: -1},
		// 7 sent, avg 125: diff = 7 - 5.6 = 1.4.
		{name: "alpha <= diff <= beta: hold", seg: 20, rttMs: 125, hi: 26, cwnd: 7, ssthresh: 6, rounds: 6, diff: 1.4},
		// 7 sent, avg 250: diff = 7 - 2.8 = 4.2 > beta.
		{name: "diff > beta: -1", seg: 27, rttMs: 250, hi: 33, cwnd: 6, ssthresh: 6, rounds: 7, diff: 4.2},
		// 6 sent, avg 250: diff = 6 - 2.4 = 3.6; ssthresh follows cwnd down.
		{name: "-1 again, ssthresh follows", seg: 34, rttMs: 250, hi: 39, cwnd: 5, ssthresh: 5, rounds: 8, diff: 3.6},
		{name: "loss halves", decrease: true, cwnd: 2.5, ssthresh: 2.5, rounds: 8, diff: 3.6},
		{name: "second loss in the round is ignored", decrease: true, cwnd: 2.5, ssthresh: 2.5, rounds: 8, diff: 3.6},
		{name: "the decreased round ends without a decision", seg: 40, rttMs: 100, hi: 41, cwnd: 2.5, ssthresh: 2.5, rounds: 9, diff: 3.6},
		{name: "a loss in the next round counts", decrease: true, cwnd: 2, ssthresh: 2, rounds: 9, diff: 3.6},
		{name: "no decision again", seg: 42, hi: 43, cwnd: 2, ssthresh: 2, rounds: 10, diff: 3.6},
		{name: "a round without samples decides nothing", seg: 44, hi: 45, cwnd: 2, ssthresh: 2, rounds: 11, diff: 3.6},
		// 2 sent (46, 47), avg 125: diff = 2 - 1.6 = 0.4.
		{name: "+1", seg: 46, rttMs: 125, hi: 47, cwnd: 3, ssthresh: 2, rounds: 12, diff: 0.4},
	})
	if v.BaseRTT() != ms(100) || v.Name() != "vegas" {
		t.Errorf("%s baseRTT %v, want 100ms", v.Name(), v.BaseRTT())
	}
}

func TestVegasFloor(t *testing.T) {
	v, err := NewVegas(VegasConfig{InitCwnd: 2.5, InitSsthresh: 2, Alpha: 0, Beta: 0.5, SlowStartGamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	replayVegas(t, v, []vegasStep{
		// 1 sent, avg = base: diff = 2.5 - 1 = 1.5 > beta, but 1.5 < 2.
		{name: "no decrease below 2", seg: 0, rttMs: 100, hi: 0, cwnd: 2.5, ssthresh: 2, rounds: 1, diff: 1.5},
	})
}

func TestVegasConfigValidate(t *testing.T) {
	bad := []VegasConfig{
		{InitCwnd: 1, InitSsthresh: 200, Alpha: 3, Beta: 3, SlowStartGamma: 1},
		{InitCwnd: 1, InitSsthresh: 200, Alpha: -1, Beta: 3, SlowStartGamma: 1},
		{InitCwnd: 1, InitSsthresh: 200, Alpha: 1, Beta: 3, SlowStartGamma: -1},
		{InitCwnd: 0, InitSsthresh: 200, Alpha: 1, Beta: 3, SlowStartGamma: 1},
	}
	for _, c := range bad {
		if _, err := NewVegas(c); err == nil {
			t.Errorf("NewVegas(%+v) accepted", c)
		}
	}
}

// TestVegasDiffPerSecond checks that DiffPerSecond compares alpha and beta
// with expected - actual in segments per second (paper 001's diff): the
// same one segment of queue is below alpha in segments, at beta per second
// at 100 ms, above it at 50 ms, and within the pair at 200 ms.
func TestVegasDiffPerSecond(t *testing.T) {
	tests := []struct {
		name      string
		perSecond bool
		rttMs     float64
		cwnd      float64 // after the round: 10 +1, hold or -1
	}{
		{"segments: 1 < alpha 5", false, 100, 11},
		{"per second at 100 ms: 10/s, at beta", true, 100, 10},
		{"per second at 50 ms: 20/s > beta 10", true, 50, 9},
		{"per second at 200 ms: 5/s, at alpha", true, 200, 10},
		{"per second at 400 ms: 2.5/s < alpha", true, 400, 11},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVegas(VegasConfig{InitCwnd: 10, InitSsthresh: 2, Alpha: 5, Beta: 10, SlowStartGamma: 1, DiffPerSecond: tt.perSecond})
			if err != nil {
				t.Fatal(err)
			}
			// One round: 9 segments sent (0..8) at the base RTT, so
			// diff = cwnd - 9 = 1 segment, 1/baseRTT per second.
			replayVegas(t, v, []vegasStep{
				{name: tt.name, seg: 0, rttMs: tt.rttMs, hi: 8, cwnd: tt.cwnd, ssthresh: 2, rounds: 1, diff: 1},
			})
		})
	}
}
