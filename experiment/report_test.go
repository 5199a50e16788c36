package experiment

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

func TestJain(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{
		{[]float64{2490, 2490}, 1},
		{[]float64{1, 0}, 0.5},
		{[]float64{1, 0, 0, 0}, 0.25},
		{[]float64{1, 2, 3}, 36.0 / 42},
		{[]float64{5}, 1},
		{[]float64{0, 0}, 0},
		{nil, 0},
	}
	for _, tt := range tests {
		if got := Jain(tt.xs); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("Jain(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

func TestAggregateFlows(t *testing.T) {
	runs := []sim.FlowResult{
		{ID: "c1", Pipeline: "aimd", Segments: 10, DownloadTimeS: 1, Complete: true, Timeouts: 1, TimeoutPct: 0.25,
			Decreases: map[string]int64{"timeout": 1, "mark": 0}},
		{ID: "c1", Pipeline: "aimd", Segments: 11, DownloadTimeS: 2, Complete: false, Timeouts: 2, TimeoutPct: 0.5,
			Decreases: map[string]int64{"timeout": 2, "mark": 3}},
		{ID: "c1", Pipeline: "aimd", Segments: 13, DownloadTimeS: 4.5, Complete: true, Timeouts: 2, TimeoutPct: 1,
			Decreases: map[string]int64{"timeout": 4, "mark": 0}},
	}
	mean, lo, hi := aggregateFlows(runs)
	// Integer counters keep their type: means are rounded (34/3 -> 11,
	// 5/3 -> 2); floats are exact means; Complete only if every run was.
	if mean.ID != "c1" || mean.Pipeline != "aimd" {
		t.Errorf("strings %q %q, want the first run's", mean.ID, mean.Pipeline)
	}
	if mean.Segments != 11 || mean.DownloadTimeS != 2.5 || mean.Timeouts != 2 || mean.TimeoutPct != 0.583333 || mean.Complete {
		t.Errorf("mean = segments %d, time %v, timeouts %d, timeout%% %v, complete %v; want 11, 2.5, 2, 0.583333, false",
			mean.Segments, mean.DownloadTimeS, mean.Timeouts, mean.TimeoutPct, mean.Complete)
	}
	if want := map[string]int64{"timeout": 2, "mark": 1}; !reflect.DeepEqual(mean.Decreases, want) {
		t.Errorf("mean decreases %v, want %v", mean.Decreases, want)
	}
	if lo.Segments != 10 || lo.DownloadTimeS != 1 || lo.Timeouts != 1 || lo.TimeoutPct != 0.25 {
		t.Errorf("min = %d, %v, %d, %v; want 10, 1, 1, 0.25", lo.Segments, lo.DownloadTimeS, lo.Timeouts, lo.TimeoutPct)
	}
	if hi.Segments != 13 || hi.DownloadTimeS != 4.5 || hi.Timeouts != 2 || hi.TimeoutPct != 1 {
		t.Errorf("max = %d, %v, %d, %v; want 13, 4.5, 2, 1", hi.Segments, hi.DownloadTimeS, hi.Timeouts, hi.TimeoutPct)
	}
	// The inputs are not modified.
	if runs[0].Decreases["mark"] != 0 || runs[1].Segments != 11 {
		t.Error("aggregateFlows modified its input")
	}
}

func TestVariantFinish(t *testing.T) {
	v := &VariantResult{Name: "v"}
	// Added out of seed order, as parallel runs may finish.
	v.add(&sim.Result{Seed: 2, Flows: []sim.FlowResult{{ID: "a", DownloadTimeS: 3}, {ID: "b", DownloadTimeS: 5}}}, map[string]float64{"fairness": 0.9}, nil)
	v.add(&sim.Result{Seed: 1, Flows: []sim.FlowResult{{ID: "a", DownloadTimeS: 1}, {ID: "b", DownloadTimeS: 6}}}, map[string]float64{"fairness": 1}, nil)
	v.finish()
	if v.Runs[0].Seed != 1 || v.Runs[1].Seed != 2 {
		t.Errorf("runs in seed order %d, %d; want 1, 2", v.Runs[0].Seed, v.Runs[1].Seed)
	}
	if len(v.Flows) != 2 || v.Flows[0].DownloadTimeS != 2 || v.Flows[1].DownloadTimeS != 5.5 {
		t.Fatalf("mean flows %+v, want a: 2 s, b: 5.5 s", v.Flows)
	}
	if v.FlowsMin[0].DownloadTimeS != 1 || v.FlowsMax[0].DownloadTimeS != 3 || v.FlowsMin[1].DownloadTimeS != 5 || v.FlowsMax[1].DownloadTimeS != 6 {
		t.Errorf("min/max a %v-%v, b %v-%v; want 1-3, 5-6", v.FlowsMin[0].DownloadTimeS, v.FlowsMax[0].DownloadTimeS, v.FlowsMin[1].DownloadTimeS, v.FlowsMax[1].DownloadTimeS)
	}
	if v.Extra["fairness"] != 0.95 || v.ExtraMin["fairness"] != 0.9 || v.ExtraMax["fairness"] != 1 {
		t.Errorf("fairness %v (%v-%v), want 0.95 (0.9-1)", v.Extra["fairness"], v.ExtraMin["fairness"], v.ExtraMax["fairness"])
	}
}

// tiny is a quick two-variant experiment: two 256 KiB transfers over the
// dumbbell, fixed windows 4 and 16.
func tiny() *Experiment {
	variant := func(window string) Variant {
		return Variant{
			Name:        "w" + window,
			Description: "fixed window " + window,
			Scenario: func() (*scenario.Scenario, error) {
				p := map[string]string{"window": window}
				return transfer("tiny-w"+window, "dumbbell.conf", 60*time.Second,
					flowSpec{id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/tiny/a", size: 256 << 10, pipeline: "fixed", params: p},
					flowSpec{id: "c2", consumer: "consumer2", producer: "producer2", prefix: "/tiny/b", size: 256 << 10, pipeline: "fixed", params: p})
			},
			Extra:       fairnessExtra,
			SeedFigures: map[string][]string{"download_time_s": {"1.5", ""}},
		}
	}
	return &Experiment{
		Name: "tiny", Seed: "000", Title: "tiny test experiment", Runs: 2,
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.2f"},
			{Key: "fairness", Header: "Jain", Format: "%.3f"},
		},
		Variants: []Variant{variant("4"), variant("16")},
	}
}

// withoutTiming is a report's JSON with its timing zeroed.
func withoutTiming(t *testing.T, r *Report) string {
	t.Helper()
	c := *r
	c.Timing = sim.Timing{}
	var b bytes.Buffer
	if err := c.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReportJSONShape(t *testing.T) {
	rep, err := tiny().Run(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Experiment string                       `json:"experiment"`
		Runs       int                          `json:"runs"`
		Variants   []map[string]json.RawMessage `json:"variants"`
		Timing     map[string]float64           `json:"timing"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("report is not JSON: %v", err)
	}
	if doc.Experiment != "tiny" || doc.Runs != 2 || len(doc.Variants) != 2 {
		t.Fatalf("experiment %q, runs %d, %d variants; want tiny, 2, 2", doc.Experiment, doc.Runs, len(doc.Variants))
	}
	for _, k := range []string{"wall_s", "events", "events_per_s"} {
		if _, ok := doc.Timing[k]; !ok {
			t.Errorf("timing lacks %s", k)
		}
	}
	flowKeys := []string{"id", "consumer", "producer", "pipeline", "segments", "bytes", "complete",
		"download_time_s", "goodput_kbps", "throughput_kbps", "timeouts", "timeout_pct", "retransmissions",
		"loss_events", "marks", "nacks", "rtt_min_ms", "rtt_avg_ms", "rtt_max_ms"}
	for i, v := range doc.Variants {
		var name string
		json.Unmarshal(v["name"], &name)
		if want := []string{"w4", "w16"}[i]; name != want {
			t.Errorf("variant %d named %q, want %q", i, name, want)
		}
		var fairness float64
		if err := json.Unmarshal(v["fairness"], &fairness); err != nil || fairness < 0.99 {
			t.Errorf("variant %s: inlined fairness %s, want a number near 1", name, v["fairness"])
		}
		for _, key := range []string{"flows", "flows_min", "flows_max"} {
			var flows []map[string]any
			if err := json.Unmarshal(v[key], &flows); err != nil || len(flows) != 2 {
				t.Fatalf("variant %s: %s = %s, want two flows", name, key, v[key])
			}
			for _, k := range flowKeys {
				if _, ok := flows[0][k]; !ok {
					t.Errorf("variant %s: %s[0] lacks %s", name, key, k)
				}
			}
		}
		var runs []RunResult
		if err := json.Unmarshal(v["runs"], &runs); err != nil || len(runs) != 2 || runs[0].Seed != 1 || runs[1].Seed != 2 {
			t.Errorf("variant %s: runs %s, want seeds 1 and 2", name, v["runs"])
		}
	}
	// The means are the means of the runs.
	for _, v := range rep.Variants {
		for i := range v.Flows {
			a, b := v.Runs[0].Flows[i].DownloadTimeS, v.Runs[1].Flows[i].DownloadTimeS
			if v.Flows[i].DownloadTimeS != round((a+b)/2, 6) || v.FlowsMin[i].DownloadTimeS != min(a, b) || v.FlowsMax[i].DownloadTimeS != max(a, b) {
				t.Errorf("%s flow %d: mean %v min %v max %v of runs %v, %v", v.Name, i,
					v.Flows[i].DownloadTimeS, v.FlowsMin[i].DownloadTimeS, v.FlowsMax[i].DownloadTimeS, a, b)
			}
			if !v.Flows[i].Complete {
				t.Errorf("%s flow %d incomplete", v.Name, i)
			}
		}
	}
}

func TestReportTable(t *testing.T) {
	e := tiny()
	rep, err := e.Run(Options{Runs: 1})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.PrintTable(&b, e)
	lines := strings.Split(b.String(), "\n")
	if !strings.HasPrefix(lines[0], "tiny — tiny test experiment (paper 000), 1 run(s) per variant, seeds 1..1") {
		t.Errorf("title line %q", lines[0])
	}
	if h := strings.Fields(lines[2]); !reflect.DeepEqual(h, []string{"variant", "flow", "time", "(s)", "paper", "Jain", "paper"}) {
		t.Errorf("header %q", lines[2])
	}
	// w4's time (about 4.3 s) lies outside the paper's 1.5: marked.
	row := strings.Fields(lines[3])
	if len(row) != 7 || row[0] != "w4" || row[1] != "c1" || row[3] != OutOfRange || row[4] != "1.5" || row[6] != "-" {
		t.Errorf("first row %q: want w4 c1 <time> ✗ 1.5 <jain> -", lines[3])
	}
	if !strings.Contains(b.String(), "0 of 2 cells within the paper's range as printed (±10% for a single number); 0 of 2 within it widened by 10%.") {
		t.Errorf("table lacks its fidelity line:\n%s", b.String())
	}
	for i, want := range []string{"w4 c2", "w16 c1", "w16 c2"} {
		if f := strings.Fields(lines[4+i]); len(f) < 2 || f[0]+" "+f[1] != want {
			t.Errorf("row %d %q, want it to start with %q", 2+i, lines[4+i], want)
		}
	}
}

func TestRunIndependentOfJobsAndShards(t *testing.T) {
	e := tiny()
	one, err := e.Run(Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := e.Run(Options{Jobs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if withoutTiming(t, one) != withoutTiming(t, many) {
		t.Error("reports with 1 and 4 jobs differ outside timing")
	}
	var parts []*Report
	for i := 0; i < 3; i++ {
		p, err := e.Run(Options{Shard: Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	merged, err := Merge(parts)
	if err != nil {
		t.Fatal(err)
	}
	merged.Shard = one.Shard
	if withoutTiming(t, one) != withoutTiming(t, merged) {
		t.Error("three merged shards differ from one run outside timing")
	}
	if _, err := Merge(parts[:2]); err == nil {
		t.Error("merging 2 of 3 shards succeeded, want an error")
	}
	other, err := e.Run(Options{Shard: Shard{Index: 2, Count: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Merge([]*Report{parts[0], parts[1], other}); err == nil || !strings.Contains(err.Error(), "different splits") {
		t.Errorf("merging shards of a 3-way and a 4-way split: error %v, want one about different splits", err)
	}
}

func TestRunUnknownVariant(t *testing.T) {
	known := tiny().Variants[0].Name
	for _, vs := range [][]string{{"nope"}, {known, "nope"}} {
		if _, err := tiny().Run(Options{Variants: vs}); err == nil || !strings.Contains(err.Error(), `"nope"`) {
			t.Errorf("variants %v: error %v, want one naming the unknown variant", vs, err)
		}
	}
}

func TestCatalog(t *testing.T) {
	names := ExperimentNames()
	for _, want := range []string{"seed000-dumbbell", "seed000-linear", "seed003-aimd", "seed003-fixed"} {
		if _, err := Lookup(want); err != nil {
			t.Errorf("Lookup(%q): %v", want, err)
		}
	}
	if _, err := Lookup("nope"); err == nil || !strings.Contains(err.Error(), "seed000-linear") {
		t.Errorf("Lookup(nope) error %v, want one listing the experiments", err)
	}
	seen := map[string]bool{}
	for i, e := range Catalog() {
		if e.Name != names[i] {
			t.Errorf("catalog entry %d is %s, want %s (sorted)", i, e.Name, names[i])
		}
		if seen[e.Name] {
			t.Errorf("experiment %s listed twice", e.Name)
		}
		seen[e.Name] = true
		if e.Title == "" || len(e.Variants) == 0 || len(e.Columns) == 0 {
			t.Errorf("experiment %s: title %q, %d variants, %d columns", e.Name, e.Title, len(e.Variants), len(e.Columns))
		}
		// Every variant's scenario is valid and builds (without running).
		vnames := map[string]bool{}
		for _, v := range e.Variants {
			if vnames[v.Name] {
				t.Errorf("%s: variant %s twice", e.Name, v.Name)
			}
			vnames[v.Name] = true
			sc, err := v.Scenario()
			if err != nil {
				t.Errorf("%s/%s: scenario: %v", e.Name, v.Name, err)
				continue
			}
			if _, err := sim.Build(sc, sim.Options{}); err != nil {
				t.Errorf("%s/%s: build: %v", e.Name, v.Name, err)
			}
		}
	}
}
