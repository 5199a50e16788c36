package cc

import (
	"testing"
	"time"
)

// copaStep is a Data (arrival and RTT sample in ms; SRTT 20 ms, so the
// standing RTT is the least sample of the last 10 ms) or a loss event,
// and the state after it. Each Data ends a round (HighInterest is its
// own segment), so the velocity moves with every Data.
type copaStep struct {
	name      string
	at, rtt   float64
	decrease  bool
	cwnd      float64
	velocity  float64
	delta     float64
	slowStart bool
	competing bool
}

func replayCopa(t *testing.T, c *Copa, steps []copaStep) {
	t.Helper()
	var seg uint64
	for _, s := range steps {
		if s.decrease {
			c.OnDecrease(ms(s.at), CauseTimeout)
		} else {
			c.OnData(Ack{Now: ms(s.at), Seg: seg, RTT: ms(s.rtt), SRTT: 20 * time.Millisecond, HighInterest: seg})
			seg++
		}
		checkNear(t, s.name, "cwnd", c.Cwnd(), s.cwnd)
		checkNear(t, s.name, "velocity", c.Velocity(), s.velocity)
		checkNear(t, s.name, "delta", c.Delta(), s.delta)
		if c.InSlowStart() != s.slowStart || c.Competing() != s.competing {
			t.Errorf("%s: slow start %v competing %v, want %v %v", s.name, c.InSlowStart(), c.Competing(), s.slowStart, s.competing)
		}
	}
}

// TestCopaVelocity: the target rate 1/(δ·dq) against cwnd/RTTstanding
// decides the direction; each Data moves the window by v/(δ·cwnd) = 2v/cwnd;
// after three rounds in one direction v doubles each round, and a Data
// against the direction brings it back to 1.
func TestCopaVelocity(t *testing.T) {
	cfg := DefaultCopaConfig()
	cfg.InitCwnd, cfg.Competitive = 9, false
	c, err := NewCopa(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w1 := 10 - 2.0/10
	w2 := w1 + 2/w1
	w3 := w2 + 2/w2
	w4 := w3 + 2/w3
	w5 := w4 + 2/w4
	w6 := w5 + 2*2/w5
	w7 := w6 + 4*2/w6
	w8 := w7 - 2/w7
	replayCopa(t, c, []copaStep{
		// dq = 0: λt = ∞; slow start adds 1.
		{name: "slow start", at: 20, rtt: 100, cwnd: 10, velocity: 1, delta: 0.5, slowStart: true},
		// dq = 50 ms: λt = 1/(0.5 × 0.05) = 40/s < λ = 10/0.15 = 66.7/s.
		{name: "λ > λt ends slow start, down", at: 40, rtt: 150, cwnd: w1, velocity: 1, delta: 0.5},
		{name: "up: direction changes", at: 60, rtt: 100, cwnd: w2, velocity: 1, delta: 0.5},
		{name: "up 1", at: 80, rtt: 100, cwnd: w3, velocity: 1, delta: 0.5},
		{name: "up 2", at: 100, rtt: 100, cwnd: w4, velocity: 1, delta: 0.5},
		{name: "up 3: v doubles", at: 120, rtt: 100, cwnd: w5, velocity: 2, delta: 0.5},
		{name: "v 2", at: 140, rtt: 100, cwnd: w6, velocity: 4, delta: 0.5},
		{name: "v 4", at: 160, rtt: 100, cwnd: w7, velocity: 8, delta: 0.5},
		// λ = 13/0.15 > 40: down, and against v's direction: v = 1.
		{name: "down resets v", at: 180, rtt: 150, cwnd: w8, velocity: 1, delta: 0.5},
	})
	// Paced at 2·cwnd/RTTstanding.
	if got, want := c.PacingInterval(), time.Duration(150e6/(2*w8)); got != want {
		t.Errorf("pacing interval %v, want %v", got, want)
	}
}

// TestCopaEquilibrium: the paper's fixed point, λ = λt, is a queue of
// 1/δ segments per flow. On a 200 segment/s bottleneck with RTTmin 100
// ms and δ = 0.5, dq = 1/(δ·λ) = 10 ms and cwnd = λ·RTTstanding = 22:
// there the window still grows (λ <= λt), just above it shrinks. With δ
// = 0.25 the queue is 4 segments: dq 20 ms, cwnd 24.
func TestCopaEquilibrium(t *testing.T) {
	cases := []struct {
		name           string
		delta          float64
		cwnd, standing float64
		up             bool
	}{
		{"δ 0.5 at the fixed point", 0.5, 22, 110, true},
		{"δ 0.5 above it", 0.5, 22.5, 110, false},
		{"δ 0.5 below it", 0.5, 21.5, 110, true},
		{"δ 0.25 at the fixed point", 0.25, 24, 120, true},
		{"δ 0.25 above it", 0.25, 24.5, 120, false},
		{"empty queue: λt infinite", 0.5, 1000, 100, true},
	}
	for _, k := range cases {
		cfg := DefaultCopaConfig()
		cfg.Delta = k.delta
		c, err := NewCopa(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c.OnData(Ack{Now: ms(100), Seg: 0, RTT: ms(100), SRTT: 20 * time.Millisecond})
		c.slowStart, c.cwnd = false, k.cwnd
		c.OnData(Ack{Now: ms(200), Seg: 1, RTT: ms(k.standing), SRTT: 20 * time.Millisecond})
		want := k.cwnd - 1/(k.delta*k.cwnd)
		if k.up {
			want = k.cwnd + 1/(k.delta*k.cwnd)
		}
		checkNear(t, k.name, "cwnd", c.Cwnd(), want)
	}
}

// TestCopaCompetitive: with SRTT 20 ms, a queue never nearly empty for 5
// SRTT (dq 10 ms against a threshold of max(0.1 × (RTTmax - RTTmin),
// RTTstanding/cwnd) ≈ 1.1 ms) enters competitive mode; 1/δ then grows
// by 1 per round and halves on a loss event (not below 2), and returns
// to 2 once the queue is nearly empty.
func TestCopaCompetitive(t *testing.T) {
	cfg := DefaultCopaConfig()
	cfg.InitCwnd = 100
	c, err := NewCopa(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The window moves by 2/cwnd per Data, as TestCopaVelocity checks;
	// here only the mode and δ are checked, so cwnd is replayed alike.
	w := []float64{101}
	next := func(invDelta float64, up bool) float64 {
		p := w[len(w)-1]
		n := p - invDelta/p
		if up {
			n = p + invDelta/p
		}
		w = append(w, n)
		return n
	}
	steps := []copaStep{
		{name: "first sample: empty", at: 20, rtt: 100, cwnd: 101, velocity: 1, delta: 0.5, slowStart: true},
		{name: "queue 10 ms: slow start ends", at: 40, rtt: 110, cwnd: next(2, false), velocity: 1, delta: 0.5},
		{name: "60", at: 60, rtt: 110, cwnd: next(2, false), velocity: 1, delta: 0.5},
		{name: "80", at: 80, rtt: 110, cwnd: next(2, false), velocity: 1, delta: 0.5},
		{name: "100", at: 100, rtt: 110, cwnd: next(2, false), velocity: 2, delta: 0.5},
		{name: "120: 100 ms since empty, not more", at: 120, rtt: 110, cwnd: next(4, false), velocity: 4, delta: 0.5},
		{name: "140: competitive, 1/δ 2 → 3 at the round's end", at: 140, rtt: 110, cwnd: next(8, false), velocity: 8, delta: 1.0 / 3, competing: true},
		{name: "160: 1/δ 4", at: 160, rtt: 110, cwnd: next(3*8, false), velocity: 16, delta: 0.25, competing: true},
		{name: "loss: 1/δ halves", decrease: true, at: 170, cwnd: w[len(w)-1], velocity: 16, delta: 0.5, competing: true},
		{name: "no increase in the loss's round", at: 180, rtt: 110, cwnd: next(2*16, false), velocity: 32, delta: 0.5, competing: true},
		{name: "200: 1/δ 3", at: 200, rtt: 110, cwnd: next(2*32, false), velocity: 64, delta: 1.0 / 3, competing: true},
		{name: "loss: not below 2", decrease: true, at: 210, cwnd: w[len(w)-1], velocity: 64, delta: 0.5, competing: true},
		// dq 0: nearly empty; default mode, δ 0.5; up against v: v 1.
		{name: "queue empties: default mode", at: 220, rtt: 100, cwnd: next(2, true), velocity: 1, delta: 0.5},
	}
	replayCopa(t, c, steps)
}

// TestCopaStandingRTT: RTTstanding is the least sample of the last span.
func TestCopaStandingRTT(t *testing.T) {
	w := newRTTWindow()
	steps := []struct {
		at, rtt, span, want float64
	}{
		{0, 50, 10, 50},
		{5, 60, 10, 50},
		{8, 55, 10, 50},
		{11, 70, 10, 55}, // 50 (at 0) left the window; 55 removed 60
		{19, 80, 10, 70}, // 55 (at 8) left
		{20, 40, 10, 40}, // a lower sample removes every larger one
		{25, 45, 2, 45},  // a shorter span
	}
	for _, s := range steps {
		if got := w.add(ms(s.at), ms(s.rtt), ms(s.span)); got != ms(s.want) {
			t.Errorf("at %v ms: %v, want %v ms", s.at, got, s.want)
		}
	}
	for i := range 200 { // grows past its first capacity
		w.add(ms(float64(30+i)), ms(float64(50+i)), time.Second)
	}
	if got := w.min(); got != ms(45) {
		t.Errorf("after growing: %v, want 45ms", got)
	}
}
