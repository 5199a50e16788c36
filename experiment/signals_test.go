package experiment

import (
	"reflect"
	"testing"
)

// runVariants runs the named variants of an experiment once (seed 1).
func runVariants(t *testing.T, name string, variants ...string) map[string]VariantResult {
	t.Helper()
	e, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := e.Run(Options{Runs: 1, Variants: variants})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]VariantResult{}
	for _, v := range rep.Variants {
		out[v.Name] = v
	}
	return out
}

// Issue 4: AIMD reacting to CoDel marks keeps the bottleneck >= 97% busy
// without a timeout or retransmission and with a mean RTT at least 15 ms
// below drop-tail AIMD's.
func TestSeed000LinearMarks(t *testing.T) {
	v := runVariants(t, "seed000-linear-marks", "aimd-droptail", "aimd-codel-mark")
	dt, cm := v["aimd-droptail"].Flows[0], v["aimd-codel-mark"].Flows[0]
	if cm.ThroughputKbps < 4850 || cm.Timeouts != 0 || cm.Retransmissions != 0 {
		t.Errorf("aimd-codel-mark: %.0f kbit/s, %d timeouts, %d retx; want >= 4850, 0, 0", cm.ThroughputKbps, cm.Timeouts, cm.Retransmissions)
	}
	if dt.RTTAvgMs-cm.RTTAvgMs < 15 {
		t.Errorf("mean RTT %.1f ms with marks vs %.1f ms drop-tail: want at least 15 ms lower", cm.RTTAvgMs, dt.RTTAvgMs)
	}
}

// Issue 4: PCON splits by capacity on paths of different bandwidth.
func TestSeed004MultipathBandwidth(t *testing.T) {
	v := runVariants(t, "seed004-multipath", "bw-pcon", "bw-pi", "bw-cf")
	p := v["bw-pcon"]
	if p.Extra["split_error_pp"] > 10 || p.Extra["capacity_fraction"] < 0.9 {
		t.Errorf("bw-pcon: split %.3f (optimal %.3f), capacity fraction %.3f; want within 10 pp and >= 0.9",
			p.Extra["split_ratio"], p.Extra["optimal_split_ratio"], p.Extra["capacity_fraction"])
	}
	for _, name := range []string{"bw-pi", "bw-cf"} {
		if _, ok := v[name].Extra["split_ratio"]; !ok {
			t.Errorf("%s reports no split_ratio", name)
		}
	}
}

// Issue 4: link-loss Nacks at 1% random loss give >= 1.5x the goodput.
func TestSeed004Wireless(t *testing.T) {
	v := runVariants(t, "seed004-wireless")
	with, without := v["link-loss-nack"].Flows[0], v["plain"].Flows[0]
	if with.GoodputKbps < 1.5*without.GoodputKbps {
		t.Errorf("goodput %.0f with link-loss Nacks vs %.0f without: want >= 1.5x", with.GoodputKbps, without.GoodputKbps)
	}
}

// PCON's fixed RTO removes the spurious timeouts a cache-trained RTO has.
func TestSeed004Caching(t *testing.T) {
	v := runVariants(t, "seed004-caching")
	for i := range v["pcon"].Flows {
		if p, d := v["pcon"].Flows[i], v["codel-drop"].Flows[i]; p.LateData != 0 || d.LateData == 0 || p.Retransmissions >= d.Retransmissions {
			t.Errorf("flow %d: pcon late Data %d retx %d, codel-drop late Data %d retx %d", i, p.LateData, p.Retransmissions, d.LateData, d.Retransmissions)
		}
	}
}

// Issue 6: repeated runs differ (seeded jitter), yet a seed reproduces
// its numbers exactly.
func TestRunsVaryButSeedsReproduce(t *testing.T) {
	e, err := Lookup("seed000-linear")
	if err != nil {
		t.Fatal(err)
	}
	a, err := e.Run(Options{Runs: 5, Variants: []string{"design3"}})
	if err != nil {
		t.Fatal(err)
	}
	v := a.Variants[0]
	if lo, hi := v.FlowsMin[0].DownloadTimeS, v.FlowsMax[0].DownloadTimeS; !(lo < hi) {
		t.Errorf("design3 over 5 runs: download time min %v, max %v; want runs to differ", lo, hi)
	}
	b, err := e.Run(Options{Runs: 1, BaseSeed: 3, Variants: []string{"design3"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Variants[0].Runs[0].Flows[0], v.Runs[2].Flows[0]; !reflect.DeepEqual(got, want) {
		t.Errorf("seed 3 alone gave %+v, within the sweep %+v", got, want)
	}
}

func TestPlannedRunsSplitAcrossShards(t *testing.T) {
	e, err := Lookup("seed001-vegas")
	if err != nil {
		t.Fatal(err)
	}
	total := e.PlannedRuns(Options{Runs: 4})
	if total != 4*len(e.Variants) {
		t.Fatalf("planned %d runs, want %d", total, 4*len(e.Variants))
	}
	sum := 0
	for i := 0; i < 3; i++ {
		sum += e.PlannedRuns(Options{Runs: 4, Shard: Shard{Index: i, Count: 3}})
	}
	if sum != total {
		t.Errorf("shards plan %d runs in all, want %d", sum, total)
	}
}
