package cc

import (
	"testing"
	"time"
)

func newBIC(t *testing.T, cfg BICConfig) *BIC {
	t.Helper()
	b, err := NewBIC(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBICIncrement(t *testing.T) {
	b := newBIC(t, DefaultBICConfig())
	cases := []struct {
		name       string
		cwnd, wMax float64
		inc        float64
	}{
		{"below the low window: Reno", 10, 0, 1},
		{"at the low window: Reno", 14, 100, 1},
		{"far below W_max: S_max", 20, 100, 16},
		{"binary search: half the distance", 90, 100, 5},
		{"just below W_max: S_min", 99.99, 100, 0.01},
		{"at W_max: max probing starts at 1", 100, 100, 1},
		{"max probing doubles the distance", 103, 100, 3},
		{"max probing capped at S_max", 150, 100, 16},
		{"no W_max yet", 30, 0, 16},
	}
	for _, c := range cases {
		b.cwnd, b.wMax = c.cwnd, c.wMax
		checkNear(t, c.name, "increment", b.increment(), c.inc)
	}
}

func TestBICReplay(t *testing.T) {
	cfg := DefaultBICConfig()
	cfg.InitSsthresh = 32
	b := newBIC(t, cfg)
	for i := range 31 {
		b.OnData(Ack{Now: time.Duration(i), Seg: uint64(i)})
	}
	checkNear(t, "slow start", "cwnd", b.Cwnd(), 32)
	c2 := 26.125 + 3.1875/26.125
	replay(t, b, []windowStep{
		{name: "no W_max yet: +16/cwnd", cwnd: 32.5, ssthresh: 32},
		{name: "decrease by 0.8", decrease: true, cwnd: 26, ssthresh: 26},
		{name: "binary search: +((32.5-26)/2)/26", cwnd: 26.125, ssthresh: 26},
		{name: "binary search", cwnd: c2, ssthresh: 26},
		{name: "fast convergence decrease", decrease: true, cwnd: 0.8 * c2, ssthresh: 0.8 * c2},
		{name: "search towards 0.9*c2: +(0.05 c2)/(0.8 c2)", cwnd: 0.8*c2 + 0.0625, ssthresh: 0.8 * c2},
	})
	checkNear(t, "after fast convergence", "W_max", b.WMax(), 0.9*c2)
}

func TestBICLowWindowAndNoFastConvergence(t *testing.T) {
	cfg := DefaultBICConfig()
	cfg.InitCwnd, cfg.InitSsthresh = 20, 20
	cfg.FastConvergence = false
	b := newBIC(t, cfg)
	replay(t, b, []windowStep{
		{name: "decrease above the low window", decrease: true, cwnd: 16, ssthresh: 16},
		{name: "decrease below W_max keeps W_max = cwnd", decrease: true, cwnd: 12.8, ssthresh: 12.8},
		{name: "at or below the low window: halve", decrease: true, cwnd: 6.4, ssthresh: 6.4},
		{name: "Reno increase", cwnd: 6.4 + 1/6.4, ssthresh: 6.4},
	})
	checkNear(t, "no fast convergence", "W_max", b.WMax(), 12.8)
}

func TestBICConfigValidate(t *testing.T) {
	bad := []func(*BICConfig){
		func(c *BICConfig) { c.MaxIncrement = 0 },
		func(c *BICConfig) { c.MinIncrement = 20 },
		func(c *BICConfig) { c.LowWindow = -1 },
		func(c *BICConfig) { c.Beta = 0 },
	}
	for i, mod := range bad {
		cfg := DefaultBICConfig()
		mod(&cfg)
		if _, err := NewBIC(cfg); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}
