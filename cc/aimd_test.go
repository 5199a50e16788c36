package cc

import (
	"math"
	"testing"
	"time"
)

// windowStep is one event of a replay: a Data (decrease false) or a
// congestion event with the given cause, and the window after it.
type windowStep struct {
	name     string
	decrease bool
	cause    Cause
	cwnd     float64
	ssthresh float64
}

func replay(t *testing.T, a Algorithm, steps []windowStep) {
	t.Helper()
	for i, s := range steps {
		now := time.Duration(i+1) * 10 * time.Millisecond
		if s.decrease {
			a.OnDecrease(now, s.cause)
		} else {
			a.OnData(Ack{Now: now, Seg: uint64(i)})
		}
		checkNear(t, s.name, "cwnd", a.Cwnd(), s.cwnd)
		checkNear(t, s.name, "ssthresh", a.Ssthresh(), s.ssthresh)
	}
}

func newAIMD(t *testing.T, cfg AIMDConfig) *AIMD {
	t.Helper()
	a, err := NewAIMD(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// paperAIMD is the AIMD of papers 000 and 003: initial window 1.
func paperAIMD() AIMDConfig {
	cfg := DefaultAIMDConfig()
	cfg.InitCwnd, cfg.InitSsthresh = 1, 200
	return cfg
}

func TestAIMDDefaultsAreNdnget(t *testing.T) {
	cfg := DefaultAIMDConfig()
	if cfg.InitCwnd != 2 || !math.IsInf(cfg.InitSsthresh, 1) || cfg.Step != 1 || cfg.Beta != 0.5 || cfg.ResetToInit {
		t.Errorf("DefaultAIMDConfig() = %+v, want ndnget's: init-cwnd 2, init-ssthresh inf, step 1, beta 0.5", cfg)
	}
}

func TestAIMDSeed000(t *testing.T) {
	cfg := paperAIMD()
	cfg.InitSsthresh = 4
	a := newAIMD(t, cfg)
	if a.Cwnd() != 1 || a.Ssthresh() != 4 || a.Name() != "aimd" {
		t.Fatalf("initial %s cwnd %v ssthresh %v", a.Name(), a.Cwnd(), a.Ssthresh())
	}
	replay(t, a, []windowStep{
		{name: "slow start +1", cwnd: 2, ssthresh: 4},
		{name: "slow start +1", cwnd: 3, ssthresh: 4},
		{name: "slow start reaches ssthresh", cwnd: 4, ssthresh: 4},
		{name: "congestion avoidance +1/cwnd", cwnd: 4.25, ssthresh: 4},
		{name: "timeout: ssthresh=cwnd/2, cwnd=ssthresh", decrease: true, cause: CauseTimeout, cwnd: 2.125, ssthresh: 2.125},
		{name: "CA from ssthresh", cwnd: 2.125 + 8.0/17, ssthresh: 2.125},
		{name: "ssthresh floors at 2", decrease: true, cause: CauseMark, cwnd: 2, ssthresh: 2},
		{name: "CA", cwnd: 2.5, ssthresh: 2},
	})
}

func TestAIMDResetToInitSeed003(t *testing.T) {
	cfg := paperAIMD()
	cfg.InitSsthresh = 4
	cfg.ResetToInit = true
	replay(t, newAIMD(t, cfg), []windowStep{
		{name: "ss", cwnd: 2, ssthresh: 4},
		{name: "ss", cwnd: 3, ssthresh: 4},
		{name: "ss", cwnd: 4, ssthresh: 4},
		{name: "ca", cwnd: 4.25, ssthresh: 4},
		{name: "timeout resets cwnd to 1", decrease: true, cause: CauseTimeout, cwnd: 1, ssthresh: 2.125},
		{name: "slow start again", cwnd: 2, ssthresh: 2.125},
		{name: "slow start overshoots ssthresh by < 1", cwnd: 3, ssthresh: 2.125},
		{name: "ca", cwnd: 3 + 1.0/3, ssthresh: 2.125},
		{name: "hole: fast recovery to ssthresh, not init", decrease: true, cause: CauseHole, cwnd: 2, ssthresh: 2},
		{name: "nack resets", decrease: true, cause: CauseNack, cwnd: 1, ssthresh: 2},
		{name: "slow start", cwnd: 2, ssthresh: 2},
		{name: "ca", cwnd: 2.5, ssthresh: 2},
		{name: "RACK loss: fast recovery to ssthresh, not init", decrease: true, cause: CauseLoss, cwnd: 2, ssthresh: 2},
	})
}

func TestAIMDStepAndBeta(t *testing.T) {
	cfg := AIMDConfig{InitCwnd: 4, InitSsthresh: 4, Step: 2, Beta: 0.75}
	replay(t, newAIMD(t, cfg), []windowStep{
		{name: "ca +step/cwnd", cwnd: 4.5, ssthresh: 4},
		{name: "ca +step/cwnd", cwnd: 4.5 + 2/4.5, ssthresh: 4},
		{name: "decrease by beta", decrease: true, cwnd: (4.5 + 2/4.5) * 0.75, ssthresh: (4.5 + 2/4.5) * 0.75},
	})
}

func TestAIMDDecreaseNeverRaisesCwnd(t *testing.T) {
	replay(t, newAIMD(t, paperAIMD()), []windowStep{
		{name: "loss at cwnd 1", decrease: true, cwnd: 1, ssthresh: 2},
		{name: "slow start to the floor", cwnd: 2, ssthresh: 2},
		{name: "ca", cwnd: 2.5, ssthresh: 2},
	})
}

func TestAIMDConfigValidate(t *testing.T) {
	bad := []AIMDConfig{
		{InitCwnd: 0.5, InitSsthresh: 200, Step: 1, Beta: 0.5},
		{InitCwnd: 1, InitSsthresh: 0, Step: 1, Beta: 0.5},
		{InitCwnd: 1, InitSsthresh: 200, Step: 0, Beta: 0.5},
		{InitCwnd: 1, InitSsthresh: 200, Step: 1, Beta: 1},
	}
	for _, c := range bad {
		if _, err := NewAIMD(c); err == nil {
			t.Errorf("NewAIMD(%+v) accepted", c)
		}
	}
}

func BenchmarkAIMDOnData(b *testing.B) {
	a, err := NewAIMD(DefaultAIMDConfig())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := range b.N {
		a.OnData(Ack{Now: time.Duration(i), Seg: uint64(i), RTT: 70 * time.Millisecond})
		if i%1000 == 999 {
			a.OnDecrease(time.Duration(i), CauseTimeout)
		}
	}
}

func TestAIMDMarkBeta(t *testing.T) {
	tests := []struct {
		name         string
		markBeta     float64
		cause        Cause
		wantSsthresh float64
	}{
		{"mark uses mark beta", 0.8, CauseMark, 32},
		{"timeout keeps beta", 0.8, CauseTimeout, 20},
		{"unset mark beta falls back to beta", 0, CauseMark, 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultAIMDConfig()
			cfg.InitCwnd, cfg.InitSsthresh, cfg.MarkBeta = 40, 10, tc.markBeta
			a, err := NewAIMD(cfg)
			if err != nil {
				t.Fatal(err)
			}
			a.OnDecrease(0, tc.cause)
			if a.Ssthresh() != tc.wantSsthresh || a.Cwnd() != tc.wantSsthresh {
				t.Fatalf("after %v: cwnd %v ssthresh %v, want both %v", tc.cause, a.Cwnd(), a.Ssthresh(), tc.wantSsthresh)
			}
		})
	}
}
