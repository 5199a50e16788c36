package cc

import (
	"math"
	"testing"
	"time"
)

func newCubic(t *testing.T, cfg CubicConfig) *Cubic {
	t.Helper()
	c, err := NewCubic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// alphaCubic is RFC 9438's 3(1-beta)/(1+beta) for beta 0.7.
const alphaCubic = 3 * 0.3 / 1.7

// paperCubic is CUBIC from a window of 1 with RFC 9438's fast
// convergence, the configuration these worked examples use.
func paperCubic() CubicConfig {
	cfg := DefaultCubicConfig()
	cfg.InitCwnd, cfg.InitSsthresh, cfg.FastConvergence = 1, 200, true
	return cfg
}

func TestCubicDefaultsAreNdnget(t *testing.T) {
	cfg := DefaultCubicConfig()
	if cfg.InitCwnd != 2 || !math.IsInf(cfg.InitSsthresh, 1) || cfg.Beta != 0.7 || cfg.FastConvergence {
		t.Errorf("DefaultCubicConfig() = %+v, want ndnget's: init-cwnd 2, init-ssthresh inf, beta 0.7, no fast convergence", cfg)
	}
}

func TestCubicEpochAfterDecrease(t *testing.T) {
	cfg := paperCubic()
	cfg.InitSsthresh = 1000
	c := newCubic(t, cfg)
	for i := range 35 {
		c.OnData(Ack{Now: time.Duration(i) * time.Millisecond, Seg: uint64(i)})
	}
	checkNear(t, "slow start", "cwnd", c.Cwnd(), 36)

	c.OnDecrease(time.Second, CauseTimeout)
	checkNear(t, "decrease", "W_max", c.WMax(), 36)
	checkNear(t, "decrease", "ssthresh", c.Ssthresh(), 25.2) // 36 * 0.7
	checkNear(t, "decrease", "cwnd", c.Cwnd(), 25.2)

	// First Data in congestion avoidance starts the epoch at 2 s.
	// K = cbrt((36 - 25.2)/0.4) = cbrt(27) = 3. W_cubic(0) = 25.2 is below
	// W_est = 25.2 + alpha/25.2: Reno-friendly region.
	c.OnData(Ack{Now: 2 * time.Second, Seg: 35, RTT: 100 * time.Millisecond})
	checkNear(t, "epoch start", "K", c.K(), 3)
	checkNear(t, "epoch start", "W_cubic(0)", c.WCubic(0), 25.2)
	w1 := 25.2 + alphaCubic/25.2
	checkNear(t, "epoch start", "cwnd", c.Cwnd(), w1)

	// t = 1 s: W_cubic(1) = 0.4*(1-3)^3 + 36 = 32.8 is above W_est, so the
	// target is W_cubic(1 + 0.1) = 0.4*(-1.9)^3 + 36 = 33.2564.
	checkNear(t, "formula", "W_cubic(1)", c.WCubic(1), 32.8)
	checkNear(t, "formula", "W_cubic(5)", c.WCubic(5), 39.2)
	c.OnData(Ack{Now: 3 * time.Second, Seg: 36, RTT: 100 * time.Millisecond})
	w2 := w1 + (33.2564-w1)/w1
	checkNear(t, "t=1s", "cwnd", c.Cwnd(), w2)
	checkNear(t, "t=1s", "W_est", c.WEst(), w1+alphaCubic/w1)

	// t = 10 s, no RTT sample (smoothed RTT stays 0.1 s):
	// W_cubic(10.1) = 0.4*7.1^3 + 36 = 179.1644 > 1.5*cwnd, so the target
	// is clamped to 1.5*cwnd and cwnd grows by 0.5.
	c.OnData(Ack{Now: 12 * time.Second, Seg: 37})
	w3 := w2 + 0.5
	checkNear(t, "t=10s", "cwnd", c.Cwnd(), w3)

	// A decrease below W_max: fast convergence, W_max = cwnd*(1+0.7)/2.
	c.OnDecrease(13*time.Second, CauseMark)
	checkNear(t, "fast convergence", "W_max", c.WMax(), w3*0.85)
	checkNear(t, "fast convergence", "ssthresh", c.Ssthresh(), w3*0.7)
	checkNear(t, "fast convergence", "cwnd", c.Cwnd(), w3*0.7)

	// The next epoch: K = cbrt((0.85 w3 - 0.7 w3)/0.4) = cbrt(0.375 w3).
	// w3 = 26.0396075..., so K = cbrt(9.7648528...) = 2.1374136...
	c.OnData(Ack{Now: 14 * time.Second, Seg: 38})
	k := 2.1374136
	if d := c.K() - k; d > 1e-6 || d < -1e-6 {
		t.Errorf("second epoch K = %.9f, want %.7f", c.K(), k)
	}
	checkNear(t, "second epoch", "cwnd", c.Cwnd(), w3*0.7+alphaCubic/(w3*0.7))
}

func TestCubicSlowStartExit(t *testing.T) {
	// Leaving slow start without a congestion event: W_max = cwnd, K = 0
	// (RFC 9438 §4.10), and W_est >= cwnd_prior at once, so alpha is 1.
	cfg := paperCubic()
	cfg.InitSsthresh = 10
	c := newCubic(t, cfg)
	for i := range 9 {
		c.OnData(Ack{Now: time.Duration(i) * time.Millisecond, Seg: uint64(i)})
	}
	checkNear(t, "slow start", "cwnd", c.Cwnd(), 10)
	c.OnData(Ack{Now: time.Second, Seg: 9})
	checkNear(t, "epoch", "W_max", c.WMax(), 10)
	checkNear(t, "epoch", "K", c.K(), 0)
	checkNear(t, "epoch", "cwnd", c.Cwnd(), 10.1) // W_est = 10 + 1/10
	c.OnData(Ack{Now: time.Second, Seg: 10})
	w := 10.1 + 1/10.1
	checkNear(t, "same instant", "cwnd", c.Cwnd(), w)
	// t = 2 s, no RTT sample yet: W_cubic(2) = 0.4*8 + 10 = 13.2.
	c.OnData(Ack{Now: 3 * time.Second, Seg: 11})
	checkNear(t, "t=2s", "cwnd", c.Cwnd(), w+(13.2-w)/w)
	checkNear(t, "t=2s", "W_est", c.WEst(), w+1/w)
}

func TestCubicWithoutFastConvergenceOrRenoRegion(t *testing.T) {
	cfg := CubicConfig{InitCwnd: 20, InitSsthresh: 20, C: 0.4, Beta: 0.5}
	c := newCubic(t, cfg)
	c.OnDecrease(0, CauseTimeout)
	checkNear(t, "first", "W_max", c.WMax(), 20)
	checkNear(t, "first", "cwnd", c.Cwnd(), 10)
	c.OnDecrease(0, CauseTimeout)
	checkNear(t, "no fast convergence", "W_max", c.WMax(), 10)
	checkNear(t, "second", "cwnd", c.Cwnd(), 5)
	// K = cbrt((10-5)/0.4) = cbrt(12.5) = 2.3207944...; at t = 0 the
	// concave target W_cubic(0) = 5 equals cwnd: no growth without the
	// Reno-friendly region.
	c.OnData(Ack{Now: time.Second})
	checkNear(t, "epoch", "K", c.K(), 2.3207944168063896)
	checkNear(t, "epoch", "cwnd", c.Cwnd(), 5)
}

func TestCubicConfigValidate(t *testing.T) {
	bad := []func(*CubicConfig){
		func(c *CubicConfig) { c.C = 0 },
		func(c *CubicConfig) { c.Beta = 1 },
		func(c *CubicConfig) { c.InitCwnd = 0 },
	}
	for i, mod := range bad {
		cfg := DefaultCubicConfig()
		mod(&cfg)
		if _, err := NewCubic(cfg); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

func BenchmarkCubicOnData(b *testing.B) {
	c, err := NewCubic(DefaultCubicConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := range b.N {
		now := time.Duration(i) * 100 * time.Microsecond
		c.OnData(Ack{Now: now, Seg: uint64(i), RTT: 70 * time.Millisecond})
		if i%2000 == 1999 {
			c.OnDecrease(now, CauseTimeout)
		}
	}
}

func TestCubicSmoothedRTT(t *testing.T) {
	// The target looks one smoothed RTT ahead: SRTT starts at the first
	// sample and moves by 1/8 of the difference for each later one.
	c := newCubic(t, CubicConfig{InitCwnd: 10, InitSsthresh: 10, C: 0.4, Beta: 0.7})
	c.OnData(Ack{Now: time.Second, RTT: 100 * time.Millisecond})
	// K = 0, W_max = 10: W_cubic(0.1) = 0.4*0.001 + 10.
	w := 10 + 0.0004/10
	checkNear(t, "first", "cwnd", c.Cwnd(), w)
	c.OnData(Ack{Now: 2 * time.Second, RTT: 200 * time.Millisecond})
	// SRTT = 0.1 + (0.2-0.1)/8 = 0.1125; target = W_cubic(1.1125).
	target := 0.4*1.1125*1.1125*1.1125 + 10
	checkNear(t, "second", "cwnd", c.Cwnd(), w+(target-w)/w)
}

func TestHyStartThreshold(t *testing.T) {
	for _, tt := range []struct{ minRTT, want time.Duration }{
		{300 * time.Microsecond, 4 * time.Millisecond}, // loopback: the 4 ms floor
		{32 * time.Millisecond, 4 * time.Millisecond},
		{80 * time.Millisecond, 10 * time.Millisecond},  // minRTT/8
		{200 * time.Millisecond, 16 * time.Millisecond}, // the 16 ms ceiling
	} {
		if got := HyStartThreshold(tt.minRTT); got != tt.want {
			t.Errorf("HyStartThreshold(%v) = %v, want %v", tt.minRTT, got, tt.want)
		}
	}
}

// slowStartRounds runs a window through slow start, round after round:
// every Data of a round gives the round's RTT, and the Interests a
// round's Data release form the next round. It returns the window slow
// start ended at (0 if it never did).
func slowStartRounds(a Algorithm, rtt func(round int) time.Duration) float64 {
	sent := uint64(a.Cwnd()) // segments 0..sent-1 are outstanding
	next := uint64(0)        // next segment to be answered
	now := time.Duration(0)
	for round := range 12 {
		end := sent // this round answers the segments sent before it
		now += rtt(round)
		for ; next < end; next++ {
			a.OnData(Ack{Now: now, Seg: next, RTT: rtt(round), HighInterest: sent - 1})
			for sent-next-1 < uint64(a.Cwnd()) {
				sent++
			}
			if !math.IsInf(a.Ssthresh(), 1) {
				return a.Ssthresh()
			}
		}
	}
	return 0
}

// TestHyStart checks HyStart's slow-start exit in cubic and aimd.
func TestHyStart(t *testing.T) {
	const base = 300 * time.Microsecond // loopback, as through ndnd fw
	grow := func(step time.Duration) func(int) time.Duration {
		return func(r int) time.Duration { return base + time.Duration(r)*step }
	}
	newAlg := func(pipeline string, hystart bool) Algorithm {
		if pipeline == "aimd" {
			cfg := DefaultAIMDConfig()
			cfg.HyStart = hystart
			a, err := NewAIMD(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return a
		}
		cfg := DefaultCubicConfig()
		cfg.HyStart = hystart
		return newCubic(t, cfg)
	}
	for _, pipeline := range []string{"cubic", "aimd"} {
		for _, tt := range []struct {
			name     string
			hystart  bool
			rtt      func(int) time.Duration
			wantExit bool
		}{
			// The RTT grows 1 ms a round: 4 ms (the threshold at this
			// minimum) is exceeded in round 5, where the window is 64,
			// over 16.
			{"queue builds", true, grow(time.Millisecond), true},
			{"queue builds, hystart off", false, grow(time.Millisecond), false},
			{"constant RTT", true, grow(0), false},
			// 0.3 ms a round stays under 4 ms for the 12 rounds.
			{"small RTT growth", true, grow(300 * time.Microsecond), false},
			// A jump in round 2: its 8th sample comes at window 15,
			// below 16.
			{"below the low window", true, func(r int) time.Duration {
				if r >= 1 && r <= 2 {
					return 10 * time.Millisecond
				}
				return base
			}, false},
		} {
			t.Run(pipeline+"/"+tt.name, func(t *testing.T) {
				a := newAlg(pipeline, tt.hystart)
				exit := slowStartRounds(a, tt.rtt)
				if got := exit != 0; got != tt.wantExit {
					t.Fatalf("slow start ended: %v at window %v (ssthresh %v), want %v", got, exit, a.Ssthresh(), tt.wantExit)
				}
				if !tt.wantExit {
					return
				}
				if n := a.(interface{ HyStartExits() int }).HyStartExits(); n != 1 {
					t.Errorf("%d HyStart exits, want 1", n)
				}
				// Round r's window is 2^(r+1); RTT - base > 4 ms first in
				// round 5.
				if exit < 64 || exit > 72 {
					t.Errorf("slow start ended at window %v, want within the 8 samples after 64", exit)
				}
				// Congestion avoidance from there: the next Data grows the
				// window by less than one segment.
				w := a.Cwnd()
				a.OnData(Ack{Now: time.Minute, Seg: 1 << 20, RTT: base, HighInterest: 1 << 20})
				if a.Cwnd()-w >= 1 {
					t.Errorf("after the exit the window grew %v on one Data, want congestion avoidance", a.Cwnd()-w)
				}
			})
		}
	}
}
