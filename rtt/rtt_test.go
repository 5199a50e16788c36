package rtt

import (
	"strings"
	"testing"
	"time"
)

func TestEstimatorReplay(t *testing.T) {
	e := NewEstimator(DefaultConfig())
	steps := []struct {
		name       string
		sample     time.Duration // 0: Backoff instead
		srtt, rvar time.Duration
		rto        time.Duration
	}{
		{"backoff before any sample doubles the initial RTO", 0, 0, 0, 2 * time.Second},
		{"first sample: SRTT=R, RTTVAR=R/2", ms(100), ms(100), ms(50), ms(300)},
		{"second sample", ms(200), ms(112.5), ms(62.5), ms(362.5)},
		{"backoff x2", 0, ms(112.5), ms(62.5), ms(725)},
		{"backoff x2 again", 0, ms(112.5), ms(62.5), ms(1450)},
		{"a sample recomputes from SRTT and RTTVAR", ms(112.5), ms(112.5), ms(46.875), ms(300)},
		{"a low sample", ms(20), ms(100.9375), ms(58.28125), ms(334.0625)},
	}
	for _, s := range steps {
		if s.sample == 0 {
			e.Backoff()
		} else {
			e.AddSample(s.sample)
		}
		if e.SRTT() != s.srtt || e.RTTVar() != s.rvar || e.RTO() != s.rto {
			t.Fatalf("%s: srtt %v rttvar %v rto %v, want %v %v %v", s.name, e.SRTT(), e.RTTVar(), e.RTO(), s.srtt, s.rvar, s.rto)
		}
	}
	if e.Samples() != 4 || e.MinRTT() != ms(20) || e.MaxRTT() != ms(200) || e.AvgRTT() != ms(108.125) {
		t.Errorf("stats: n %d min %v max %v avg %v, want 4 20ms 200ms 108.125ms", e.Samples(), e.MinRTT(), e.MaxRTT(), e.AvgRTT())
	}
	e.AddSample(0)
	e.AddSample(-time.Millisecond)
	if e.Samples() != 4 || e.RTO() != ms(334.0625) {
		t.Errorf("non-positive samples changed the estimator: n %d rto %v", e.Samples(), e.RTO())
	}
}

func TestEstimatorClamps(t *testing.T) {
	e := NewEstimator(DefaultConfig())
	if e.RTO() != time.Second || e.AvgRTT() != 0 {
		t.Fatalf("initial RTO %v avg %v, want 1s 0", e.RTO(), e.AvgRTT())
	}
	e.AddSample(ms(10)) // 10 + 4*5 = 30 ms
	if e.RTO() != ms(200) {
		t.Errorf("RTO %v, want MinRTO 200ms", e.RTO())
	}
	want := []time.Duration{ms(400), ms(800), ms(1600), ms(3200), ms(6400), 10 * time.Second, 10 * time.Second}
	for i, w := range want {
		e.Backoff()
		if e.RTO() != w {
			t.Errorf("backoff %d: RTO %v, want %v", i+1, e.RTO(), w)
		}
	}
	e2 := NewEstimator(DefaultConfig())
	e2.AddSample(5 * time.Second) // 5 + 4*2.5 = 15 s
	if e2.RTO() != 10*time.Second {
		t.Errorf("RTO %v, want MaxRTO 10s", e2.RTO())
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	cases := []struct {
		name string
		mod  func(*Config)
		want string
	}{
		{"alpha 0", func(c *Config) { c.Alpha = 0 }, "Alpha"},
		{"beta 2", func(c *Config) { c.Beta = 2 }, "Beta"},
		{"negative K", func(c *Config) { c.K = -1 }, "K"},
		{"zero min", func(c *Config) { c.MinRTO = 0 }, "MinRTO"},
		{"max below min", func(c *Config) { c.MaxRTO = ms(100) }, "MaxRTO"},
		{"initial above max", func(c *Config) { c.InitialRTO = time.Minute }, "InitialRTO"},
		{"backoff below 1", func(c *Config) { c.BackoffMultiplier = 0.5 }, "BackoffMultiplier"},
	}
	for _, c := range cases {
		cfg := DefaultConfig()
		c.mod(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.want)
		}
	}
}

func BenchmarkEstimator(b *testing.B) {
	e := NewEstimator(DefaultConfig())
	b.ReportAllocs()
	for i := range b.N {
		e.AddSample(ms(70) + time.Duration(i%7)*time.Millisecond)
		if e.RTO() == 0 {
			b.Fatal("zero RTO")
		}
	}
}

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
