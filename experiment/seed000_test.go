package experiment

import (
	"testing"

	"github.com/ndncc/ndncc/sim"
)

// runOnce runs an experiment once per variant and indexes the variants.
func runOnce(t *testing.T, name string) map[string]VariantResult {
	t.Helper()
	e, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Run(Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]VariantResult{}
	for _, v := range rep.Variants {
		out[v.Name] = v
		for _, f := range v.Flows {
			if !f.Complete {
				t.Errorf("%s/%s flow %s incomplete: %s", name, v.Name, f.ID, f.Error)
			}
		}
	}
	return out
}

// Issue 3, "Done when": seed 000's Designs #0–#3 on the linear topology.
func TestSeed000Linear(t *testing.T) {
	v := runOnce(t, "seed000-linear")
	flow := func(name string) sim.FlowResult {
		r, ok := v[name]
		if !ok || len(r.Flows) != 1 {
			t.Fatalf("variant %s missing or without one flow", name)
		}
		return r.Flows[0]
	}
	d0, d1, d2, d3 := flow("design0"), flow("design1"), flow("design2"), flow("design3")
	for _, d := range []struct {
		name string
		f    sim.FlowResult
	}{{"design0", d0}, {"design1", d1}, {"design2", d2}, {"design3", d3}} {
		t.Logf("%s: %.2f s, %.0f kbps, timeout %.2f%%", d.name, d.f.DownloadTimeS, d.f.ThroughputKbps, d.f.TimeoutPct)
	}
	if d3.DownloadTimeS > 25.5 || d3.TimeoutPct > 0.5 {
		t.Errorf("design3: %.2f s, timeout %.2f%%; want <= 25.5 s and <= 0.5%%", d3.DownloadTimeS, d3.TimeoutPct)
	}
	if !(d1.DownloadTimeS > d3.DownloadTimeS && d1.TimeoutPct > d3.TimeoutPct) {
		t.Errorf("design1 (%.2f s, %.2f%%) must be slower than design3 (%.2f s, %.2f%%) and time out more",
			d1.DownloadTimeS, d1.TimeoutPct, d3.DownloadTimeS, d3.TimeoutPct)
	}
	// Seed 000's order is #0 < #3 < #2 < #1. With the reference stack's
	// 200 ms RTO floor the RTO stays above the path's RTTs and Designs #2
	// and #3 run alike (docs/reproduction.md: not reproduced), so only
	// the ends of the order are checked.
	if !(d0.DownloadTimeS < d3.DownloadTimeS && d0.DownloadTimeS < d2.DownloadTimeS && max(d2.DownloadTimeS, d3.DownloadTimeS) < d1.DownloadTimeS) {
		t.Errorf("times #0 %.2f, #3 %.2f, #2 %.2f, #1 %.2f: want #0 fastest and #1 slowest",
			d0.DownloadTimeS, d3.DownloadTimeS, d2.DownloadTimeS, d1.DownloadTimeS)
	}
	if d0.Timeouts != 0 {
		t.Errorf("design0 (fixed 32) timed out %d times, want 0", d0.Timeouts)
	}
}

// Issue 3, "Done when": Design #3's two dumbbell flows are fair and each
// finishes within 10% of seed 000's times.
func TestSeed000Dumbbell(t *testing.T) {
	v := runOnce(t, "seed000-dumbbell")
	d3, ok := v["design3"]
	if !ok || len(d3.Flows) != 2 {
		t.Fatal("design3 missing or without two flows")
	}
	if j := d3.Extra["fairness"]; j < 0.95 {
		t.Errorf("design3 Jain fairness %.3f, want >= 0.95", j)
	}
	for _, f := range d3.Flows {
		t.Logf("design3 %s: %.2f s, %.0f kbps", f.ID, f.DownloadTimeS, f.ThroughputKbps)
		if f.DownloadTimeS < 45 || f.DownloadTimeS > 49 {
			t.Errorf("design3 flow %s: %.2f s, want 45–49 s", f.ID, f.DownloadTimeS)
		}
	}
}

// Issue 2, "Done when": window 50 loses (almost) nothing; 100 and 200
// overflow the 32-packet queue, and the timeout percentage grows with the
// window.
func TestSeed003Fixed(t *testing.T) {
	v := runOnce(t, "seed003-fixed")
	f50, f100, f200 := v["fixed-50"].Flows[0], v["fixed-100"].Flows[0], v["fixed-200"].Flows[0]
	if f50.LossRatePct > 0.5 || f50.Timeouts > 10 {
		t.Errorf("window 50: loss rate %.2f%%, %d timeouts; want almost none", f50.LossRatePct, f50.Timeouts)
	}
	if !(f50.TimeoutPct < f100.TimeoutPct && f100.TimeoutPct < f200.TimeoutPct) {
		t.Errorf("timeout %% 50: %.2f, 100: %.2f, 200: %.2f; want growing with the window", f50.TimeoutPct, f100.TimeoutPct, f200.TimeoutPct)
	}
	for _, r := range v["fixed-100"].Runs {
		for _, l := range r.Links {
			if l.From == "router2" && l.To == "router1" && l.TailDrops == 0 {
				t.Error("window 100 did not overflow the router2->router1 queue")
			}
		}
	}
}
