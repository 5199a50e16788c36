package cc

import (
	"math"
	"testing"
)

func newNDNVegas(t *testing.T, mod func(*NDNVegasConfig)) *NDNVegas {
	t.Helper()
	cfg := DefaultNDNVegasConfig()
	mod(&cfg)
	n, err := NewNDNVegas(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestNDNVegasBaseRTTAdaptation(t *testing.T) {
	n := newNDNVegas(t, func(c *NDNVegasConfig) {
		c.InitCwnd, c.InitSsthresh = 10, 10 // start in congestion avoidance
		c.Gamma = 5
	})
	replayVegas(t, n, []vegasStep{
		// 10 sent (0..9), avg = base: diff 0, Vegas' rules: +1.
		{name: "constant source", seg: 0, rttMs: 100, hi: 9, cwnd: 11, ssthresh: 10, rounds: 1, diff: 0},
		// 11 sent, avg 300: diff = 11 - 11/3 = 22/3 > gamma: farther source.
		{name: "diff > gamma: baseRTT = latest, hold", seg: 10, rttMs: 300, hi: 20, cwnd: 11, ssthresh: 10, rounds: 2, diff: 22.0 / 3},
		{name: "against the new baseRTT", seg: 21, rttMs: 300, hi: 31, cwnd: 12, ssthresh: 10, rounds: 3, diff: 0},
		// A 250 ms sample lowers baseRTT (least sample).
		{name: "nearer samples lower baseRTT", seg: 32, rttMs: 250, hi: 43, cwnd: 13, ssthresh: 10, rounds: 4, diff: 0},
		// 15 sent, avg = base: diff = 13 - 15 = -2 < 0. Vegas would add 1.
		{name: "diff < 0: hold", seg: 44, rttMs: 250, hi: 58, cwnd: 13, ssthresh: 10, rounds: 5, diff: -2},
	})
	if n.BaseRTT() != ms(250) {
		t.Errorf("baseRTT %v, want 250ms", n.BaseRTT())
	}
}

func TestNDNVegasRenoSlowStart(t *testing.T) {
	n := newNDNVegas(t, func(c *NDNVegasConfig) {
		c.InitCwnd = 2
		c.SlowStart = SlowStartReno
	})
	replayVegas(t, n, []vegasStep{
		// 2 sent (0, 1), avg = base: diff = 3 - 2 = 1 (recorded, not acted on).
		{name: "+1 per Data", seg: 0, rttMs: 100, hi: 1, cwnd: 3, ssthresh: 200, rounds: 1, diff: 1},
		{name: "+1 per Data, no hold round", seg: 1, rttMs: 100, hi: 3, cwnd: 4, ssthresh: 200, rounds: 1, diff: 1},
		// 4 sent (2..5), avg 150: diff = 5 - 4*100/150 = 7/3 > 1, but Reno's
		// slow start does not stop on diff.
		{name: "diff does not end it", seg: 2, rttMs: 200, hi: 5, cwnd: 5, ssthresh: 200, rounds: 2, diff: 7.0 / 3},
		{name: "a timeout ends it", decrease: true, cwnd: 2.5, ssthresh: 2.5, rounds: 2, diff: 7.0 / 3},
		{name: "congestion avoidance", seg: 3, rttMs: 100, hi: 6, cwnd: 2.5, ssthresh: 2.5, rounds: 2, diff: 7.0 / 3},
	})
	n.OnOutOfOrder() // not SlowStartHole: nothing
	if n.Ssthresh() != 2.5 {
		t.Errorf("OnOutOfOrder changed ssthresh to %v", n.Ssthresh())
	}
}

func TestNDNVegasHoleSlowStart(t *testing.T) {
	n := newNDNVegas(t, func(c *NDNVegasConfig) {
		c.InitCwnd = 2
		c.SlowStart = SlowStartHole
	})
	replayVegas(t, n, []vegasStep{
		{name: "+1", seg: 0, rttMs: 100, hi: 1, cwnd: 3, ssthresh: 200, rounds: 1, diff: 1},
		{name: "+1", seg: 1, rttMs: 100, hi: 3, cwnd: 4, ssthresh: 200, rounds: 1, diff: 1},
	})
	n.OnOutOfOrder()
	if n.Cwnd() != 4 || n.Ssthresh() != 4 {
		t.Fatalf("after out-of-order: cwnd %v ssthresh %v, want 4 4", n.Cwnd(), n.Ssthresh())
	}
	replayVegas(t, n, []vegasStep{
		// Round 1 ends: 4 sent (2..5), avg = base: diff = 4 - 4 = 0 < alpha.
		{name: "congestion avoidance", seg: 3, rttMs: 100, hi: 5, cwnd: 5, ssthresh: 4, rounds: 2, diff: 0},
	})
}

func TestNDNVegasConfig(t *testing.T) {
	d := DefaultNDNVegasConfig()
	if !math.IsInf(d.Gamma, 1) || d.SlowStart != SlowStartVegas {
		t.Errorf("defaults: %+v", d)
	}
	if n := newNDNVegas(t, func(*NDNVegasConfig) {}); n.Name() != "ndn-vegas" {
		t.Errorf("name %s", n.Name())
	}
	for i, mod := range []func(*NDNVegasConfig){
		func(c *NDNVegasConfig) { c.Gamma = 3 }, // not above beta
		func(c *NDNVegasConfig) { c.Gamma = math.NaN() },
		func(c *NDNVegasConfig) { c.SlowStart = 7 },
		func(c *NDNVegasConfig) { c.Alpha = 4 },
	} {
		cfg := DefaultNDNVegasConfig()
		mod(&cfg)
		if _, err := NewNDNVegas(cfg); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

func TestParseSlowStart(t *testing.T) {
	for _, s := range []SlowStart{SlowStartVegas, SlowStartReno, SlowStartHole} {
		got, err := ParseSlowStart(s.String())
		if err != nil || got != s {
			t.Errorf("%v: %v %v", s, got, err)
		}
	}
	if _, err := ParseSlowStart("cubic"); err == nil {
		t.Error("accepted cubic")
	}
}
