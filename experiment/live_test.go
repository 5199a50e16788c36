package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// liveTestExperiment is two small variants: one a runner can run, one it
// refuses (named "refused").
func liveTestExperiment() *Experiment {
	small := func(name string, window string) func() (*scenario.Scenario, error) {
		return func() (*scenario.Scenario, error) {
			sc := newScenario(name, graph(link("c", "p", 10, 5*time.Millisecond, 50, 0)), 60*time.Second)
			addFlows(sc, flowSpec{id: "f", consumer: "c", producer: "p", prefix: "/x", size: 200 << 10,
				pipeline: "fixed", params: map[string]string{"window": window}})
			return sc, nil
		}
	}
	return &Experiment{
		Name: "live-test", Seed: "000", Title: "live side by side", Runs: 2,
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.3f"},
			{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
			{Key: "fairness", Header: "fairness", Format: "%.2f"},
		},
		Variants: []Variant{
			{Name: "w8", Scenario: small("w8", "8"), Extra: fairnessExtra, SeedFigures: map[string][]string{"download_time_s": {"0.2"}}},
			{Name: "refused", Scenario: small("refused", "4")},
		},
	}
}

// TestRunLiveSideBySide checks that RunLive runs the simulator's runs and
// then the runner's, one at a time, and that every table shows the live
// figures beside the simulator's, the lateness, and the variant the runner
// refused with its reason. The runner here is a stand-in for the emulator
// (which package experiment does not import): the simulator with a fixed
// extra delay on every flow's time, so live and simulated cells differ.
func TestRunLiveSideBySide(t *testing.T) {
	e := liveTestExperiment()
	var running, most atomic.Int32
	runner := func(sc *scenario.Scenario, seed uint64, traceDir string) (LiveRun, error) {
		if strings.HasPrefix(sc.Name, "refused") {
			return LiveRun{}, fmt.Errorf("%w: link c-p is a TCP tunnel", ErrNotRunnable)
		}
		if n := running.Add(1); n > most.Load() {
			most.Store(n)
		}
		defer running.Add(-1)
		net, err := sim.Build(sc, sim.Options{Seed: seed})
		if err != nil {
			return LiveRun{}, err
		}
		r := net.Run()
		for i := range r.Flows {
			r.Flows[i].DownloadTimeS += 1
		}
		return LiveRun{Result: r, Lateness: &Lateness{MeanMs: 0.1 * float64(seed), MaxMs: float64(seed), Overruns: seed}}, nil
	}
	rep, err := e.RunLive(Options{Jobs: 4}, runner, "")
	if err != nil {
		t.Fatal(err)
	}
	if most.Load() != 1 {
		t.Errorf("%d live runs at once, want 1", most.Load())
	}
	if rep.Live == nil || rep.Live.Mode != LiveMode || rep.Mode != "" {
		t.Fatalf("report mode %q, live %+v", rep.Mode, rep.Live)
	}
	sim0, live0 := rep.Variants[0].Flows[0].DownloadTimeS, rep.Live.Variants[0].Flows[0].DownloadTimeS
	if d := live0 - sim0; d < 0.999 || d > 1.001 {
		t.Errorf("live time %.3f, simulated %.3f: want the runner's +1 s", live0, sim0)
	}
	if l := rep.Live.Variants[0].Lateness; l == nil || *l != (Lateness{MeanMs: 0.15, MaxMs: 2, Overruns: 2}) {
		t.Errorf("lateness %+v, want mean of means 0.15, max 2, mean overruns 1.5 rounded to 2", l)
	}
	if nr := rep.Live.Variants[1].NotRun; !strings.Contains(nr, "TCP tunnel") {
		t.Errorf("refused variant's reason %q", nr)
	}

	var tab bytes.Buffer
	rep.PrintTable(&tab, e)
	text := tab.String()
	wantHeader := "variant  flow  time (s)  live  paper  timeouts  live  paper  fairness  live  paper  live lateness"
	if !strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(wantHeader), " ")) {
		t.Errorf("table lacks the header %q:\n%s", wantHeader, text)
	}
	v0, lv0 := &rep.Variants[0], &rep.Live.Variants[0]
	w8 := fmt.Sprintf("w8 f %s %s 0.2 0 0 - 1.00 1.00 - 2 late, max 2.0 ms", v0.MarkedCell(e.Columns[0], 0, 2), lv0.MarkedCell(e.Columns[0], 0, 2))
	refused := "refused f"
	for _, want := range []string{w8, refused, "- refused did not run live: ", "TCP tunnel"} {
		if !strings.Contains(strings.Join(strings.Fields(text), " "), want) {
			t.Errorf("table lacks %q:\n%s", want, text)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "refused" && f[len(f)-2]+" "+f[len(f)-1] != "not run" {
			t.Errorf("refused row %q: want its live cells - and lateness \"not run\"", line)
		}
	}

	var md bytes.Buffer
	rep.WriteMarkdown(&md, e)
	if !strings.Contains(md.String(), "| time (s) | live | paper | timeouts | live | paper | fairness | live | paper | live lateness |") {
		t.Errorf("markdown header:\n%s", md.String())
	}

	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	back, err := DecodeReport(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var again bytes.Buffer
	back.PrintTable(&again, e)
	if again.String() != text {
		t.Errorf("the table of the decoded report differs:\n%s\nwant\n%s", again.String(), text)
	}
	var doc struct {
		Live struct {
			Mode     string `json:"mode"`
			Variants []struct {
				Name     string    `json:"name"`
				NotRun   string    `json:"not_run"`
				Lateness *Lateness `json:"lateness"`
				Runs     []RunResult
			} `json:"variants"`
		} `json:"live"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Live.Mode != "live" || len(doc.Live.Variants) != 2 || doc.Live.Variants[0].Lateness == nil ||
		len(doc.Live.Variants[0].Runs) != 2 || doc.Live.Variants[0].Runs[1].Lateness.Overruns != 2 || doc.Live.Variants[1].NotRun == "" {
		t.Errorf("JSON live part: %+v", doc.Live)
	}
}

// TestRunLiveErrors checks that a runner's failure other than
// ErrNotRunnable fails the experiment, and that live runs are not
// sharded.
func TestRunLiveErrors(t *testing.T) {
	e := liveTestExperiment()
	failing := func(*scenario.Scenario, uint64, string) (LiveRun, error) {
		return LiveRun{}, fmt.Errorf("node r1 failed")
	}
	if _, err := e.RunLive(Options{Runs: 1}, failing, ""); err == nil || !strings.Contains(err.Error(), "node r1 failed") {
		t.Errorf("failing runner: err %v", err)
	}
	if _, err := e.RunLive(Options{Runs: 1, Shard: Shard{Index: 0, Count: 2}}, failing, ""); err == nil || !strings.Contains(err.Error(), "sharded") {
		t.Errorf("sharded live run: err %v", err)
	}
}

// TestMergeRunsMadeApart checks that live runs made apart (one variant's
// first seeds, its next seed later, the other variant alone) merge into
// the report one run of them all gives, in the experiment's variant
// order, and that Merge refuses a run given twice, a gap in the seeds, a
// variant short of runs and parts with and without live runs.
func TestMergeRunsMadeApart(t *testing.T) {
	e := liveTestExperiment()
	runner := func(sc *scenario.Scenario, seed uint64, traceDir string) (LiveRun, error) {
		if strings.HasPrefix(sc.Name, "refused") {
			return LiveRun{}, fmt.Errorf("%w: link c-p is a TCP tunnel", ErrNotRunnable)
		}
		net, err := sim.Build(sc, sim.Options{Seed: seed})
		if err != nil {
			return LiveRun{}, err
		}
		return LiveRun{Result: net.Run(), Lateness: &Lateness{MeanMs: 0.1 * float64(seed), MaxMs: float64(seed), Overruns: seed}}, nil
	}
	run := func(opt Options) *Report {
		t.Helper()
		r, err := e.RunLive(opt, runner, "")
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	shape := func(r *Report) string {
		t.Helper()
		c := *r
		l := *r.Live
		l.Timing, c.Timing, c.Live = sim.Timing{}, sim.Timing{}, &l
		return withoutTiming(t, &c)
	}
	whole := run(Options{Runs: 3})
	first := run(Options{Runs: 2, Variants: []string{"w8"}})
	next := run(Options{Runs: 1, BaseSeed: 3, Variants: []string{"w8"}})
	other := run(Options{Runs: 3, Variants: []string{"refused"}})
	merged, err := Merge([]*Report{other, next, first})
	if err != nil {
		t.Fatal(err)
	}
	merged.OrderLike(e)
	if got, want := shape(merged), shape(whole); got != want {
		t.Errorf("merged runs made apart:\n%s\nwant one run's:\n%s", got, want)
	}
	later := run(Options{Runs: 1, BaseSeed: 5, Variants: []string{"w8"}})
	simOnly, err := e.Run(Options{Runs: 3, Variants: []string{"refused"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		parts []*Report
		want  string
	}{
		{"a run twice", []*Report{first, first, other}, "seed 1 is in two reports"},
		{"a gap in the seeds", []*Report{first, later}, "seeds 1,2,5, want 1..3"},
		{"a variant short of runs", []*Report{first, other}, "variant w8 has 2 of 3 runs"},
		{"live and simulated only", []*Report{first, next, simOnly}, "some reports have live runs and some do not"},
	} {
		if _, err := Merge(c.parts); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}
