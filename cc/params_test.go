package cc

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestNewAlgorithmDefaults(t *testing.T) {
	cases := []struct {
		pipeline       string
		cwnd, ssthresh float64
	}{
		{"fixed", 1, 1},
		{"aimd", 2, math.Inf(1)},
		{"cubic", 2, math.Inf(1)},
		{"bic", 1, 200},
		{"vegas", 1, 200},
		{"ndn-vegas", 1, 200},
		{"raaqm", 1, 1},
		{"paced-delay", 10, math.Inf(1)},
		{"bbr", 10, 10},
		{"copa", 10, 10},
	}
	if got := Pipelines(); !slices.Equal(got, []string{"fixed", "aimd", "cubic", "bic", "vegas", "ndn-vegas", "raaqm", "paced-delay", "bbr", "copa"}) {
		t.Errorf("Pipelines() = %v", got)
	}
	for _, c := range cases {
		a, err := NewAlgorithm(c.pipeline, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.pipeline, err)
		}
		if a.Name() != c.pipeline || a.Cwnd() != c.cwnd || a.Ssthresh() != c.ssthresh {
			t.Errorf("%s: name %s cwnd %v ssthresh %v, want %v %v", c.pipeline, a.Name(), a.Cwnd(), a.Ssthresh(), c.cwnd, c.ssthresh)
		}
		if PipelineDoc(c.pipeline) == "" {
			t.Errorf("%s has no doc", c.pipeline)
		}
	}
}

func TestNewAlgorithmParams(t *testing.T) {
	a, err := NewAlgorithm("aimd", Params{"init-cwnd": "4", "init-ssthresh": "4", "aimd-beta": " 0.75 ", "reset-cwnd-to-init": "false"})
	if err != nil {
		t.Fatal(err)
	}
	a.OnDecrease(0, CauseTimeout)
	if a.Cwnd() != 3 || a.Ssthresh() != 3 {
		t.Errorf("aimd-beta 0.75 from 4: cwnd %v ssthresh %v, want 3 3", a.Cwnd(), a.Ssthresh())
	}

	f, err := NewAlgorithm("fixed", Params{"window": "16"})
	if err != nil || f.Cwnd() != 16 {
		t.Fatalf("fixed window 16: %v %v", f, err)
	}

	n, err := NewAlgorithm("ndn-vegas", Params{"vegas-alpha": "10", "vegas-beta": "20", "vegas-gamma": "inf", "slow-start": "hole", "init-cwnd": "2"})
	if err != nil {
		t.Fatal(err)
	}
	n.(*NDNVegas).OnOutOfOrder()
	if n.Ssthresh() != 2 {
		t.Errorf("slow-start hole: ssthresh %v after out-of-order, want 2", n.Ssthresh())
	}

	c, err := NewAlgorithm("cubic", Params{"cubic-beta": "0.5", "init-cwnd": "10", "fast-conv": "false"})
	if err != nil {
		t.Fatal(err)
	}
	c.OnDecrease(0, CauseTimeout)
	if c.Cwnd() != 5 {
		t.Errorf("cubic-beta 0.5 from 10: cwnd %v", c.Cwnd())
	}
}

func TestNewAlgorithmErrors(t *testing.T) {
	cases := []struct {
		pipeline string
		p        Params
		is       error
		mention  []string
	}{
		{"reno", nil, ErrUnknownPipeline, []string{`"reno"`, "fixed, aimd, cubic, bic, vegas, ndn-vegas"}},
		{"aimd", Params{"rtt-sampling": "once-per-rtt"}, ErrUnknownParam, []string{"aimd", `"rtt-sampling"`, "init-cwnd, init-ssthresh, aimd-step, aimd-beta, aimd-mark-beta, reset-cwnd-to-init"}},
		{"fixed", Params{"init-cwnd": "2"}, ErrUnknownParam, []string{`"init-cwnd"`, "accepted: window"}},
		{"aimd", Params{"aimd-beta": "1.5"}, ErrBadParam, []string{"aimd-beta", "(0,1)", `"1.5"`}},
		{"aimd", Params{"init-cwnd": "x"}, ErrBadParam, []string{"init-cwnd", "from 1 to 65536"}},
		// A window past what an int holds used to overflow into a
		// negative window: nothing was sent, and nothing ended the fetch.
		{"aimd", Params{"init-cwnd": "1e19"}, ErrBadParam, []string{"init-cwnd", "from 1 to 65536", `"1e19"`}},
		{"cubic", Params{"init-cwnd": "65537"}, ErrBadParam, []string{"init-cwnd", "from 1 to 65536"}},
		{"raaqm", Params{"init-cwnd": "1e300"}, ErrBadParam, []string{"init-cwnd", "from 1 to 65536"}},
		{"fixed", Params{"window": "9223372036854775808"}, ErrBadParam, []string{"window", "from 1 to 65536"}},
		{"cubic", Params{"fast-conv": "maybe"}, ErrBadParam, []string{"fast-conv", "true or false"}},
		{"fixed", Params{"window": "0"}, ErrBadParam, []string{"window", "from 1 to 65536"}},
		{"vegas", Params{"vegas-alpha": "5", "vegas-beta": "3"}, ErrBadParam, []string{"vegas-beta 3", "vegas-alpha 5"}},
		{"vegas", Params{"vegas-gamma": "5"}, ErrUnknownParam, []string{"vegas-ss-gamma"}},
		{"ndn-vegas", Params{"slow-start": "fast"}, ErrBadParam, []string{"slow-start", "vegas, reno or hole"}},
		{"bbr", Params{"init-cwnd": "0.5"}, ErrBadParam, []string{"init-cwnd", "from 1 to 65536"}},
		{"bbr", Params{"bbr-bw-rounds": "0"}, ErrBadParam, []string{"bbr-bw-rounds 0", "at least 1"}},
		{"bbr", Params{"bbr-startup-gain": "1"}, ErrBadParam, []string{"bbr-startup-gain 1", "above 1"}},
		{"bbr", Params{"bbr-loss-thresh": "2"}, ErrBadParam, []string{"bbr-loss-thresh", "(0,1)"}},
		{"copa", Params{"copa-delta": "0"}, ErrBadParam, []string{"copa-delta", "(0,1]"}},
		{"copa", Params{"delay-alpha": "1"}, ErrUnknownParam, []string{"copa", "init-cwnd, copa-delta, min-rtt-window, competitive"}},
		{"ndn-vegas", Params{"vegas-gamma": "nan"}, ErrBadParam, []string{"vegas-gamma", "inf"}},
		{"ndn-vegas", Params{"vegas-beta": "9", "vegas-gamma": "5"}, ErrBadParam, []string{"ndn-vegas", "vegas-gamma 5", "vegas-beta 9"}},
		{"bic", Params{"bic-min-increment": "32"}, ErrBadParam, []string{"bic-min-increment 32"}},
	}
	for _, c := range cases {
		a, err := NewAlgorithm(c.pipeline, c.p)
		if err == nil || a != nil {
			t.Errorf("%s %v: no error", c.pipeline, c.p)
			continue
		}
		if !errors.Is(err, c.is) {
			t.Errorf("%s %v: %v is not %v", c.pipeline, c.p, err, c.is)
		}
		for _, m := range c.mention {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("%s %v: %q does not mention %q", c.pipeline, c.p, err, m)
			}
		}
	}
}

func TestDescribe(t *testing.T) {
	want := []ParamDoc{
		{Name: "init-cwnd", Default: "1"},
		{Name: "init-ssthresh", Default: "200"},
		{Name: "vegas-alpha", Default: "1"},
		{Name: "vegas-beta", Default: "3"},
		{Name: "vegas-ss-gamma", Default: "1"},
		{Name: "vegas-diff-per-second", Default: "false"},
		{Name: "vegas-gamma", Default: "inf"},
		{Name: "slow-start", Default: "vegas"},
	}
	got := Describe("ndn-vegas")
	if len(got) != len(want) {
		t.Fatalf("Describe(ndn-vegas) = %v", got)
	}
	for i := range want {
		if got[i].Name != want[i].Name || got[i].Default != want[i].Default || got[i].Doc == "" {
			t.Errorf("param %d: %+v, want %+v with a doc", i, got[i], want[i])
		}
	}
	if names := ParamNames("bic"); !slices.Equal(names, []string{"init-cwnd", "init-ssthresh", "bic-max-increment", "bic-min-increment", "bic-low-window", "bic-beta", "fast-conv"}) {
		t.Errorf("ParamNames(bic) = %v", names)
	}
	if Describe("reno") != nil || ParamNames("reno") != nil || PipelineDoc("reno") != "" {
		t.Error("unknown pipeline described")
	}
}

// Every documented default parses back: the docs and the parser agree.
func TestDefaultsRoundTrip(t *testing.T) {
	for _, pl := range Pipelines() {
		p := Params{}
		for _, d := range Describe(pl) {
			p[d.Name] = d.Default
		}
		if _, err := NewAlgorithm(pl, p); err != nil {
			t.Errorf("%s with its documented defaults: %v", pl, err)
		}
	}
}
