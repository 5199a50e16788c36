package report

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// writeForwardingTraces writes a pcon router r1's forwarding traces, as
// sim writes them: 30 intervals, path a's share falling from 100% to 60%.
func writeForwardingTraces(t *testing.T, dir string) {
	t.Helper()
	var fwd, shares strings.Builder
	fwd.WriteString("time_s,a,b\n")
	shares.WriteString("time_s,prefix,a,b\n")
	for i := 1; i <= 30; i++ {
		a := 100 - float64(i)*40/30
		if i == 5 {
			fwd.WriteString("0.500,,\n") // no Interest in this interval
		} else {
			fwd.WriteString(strings.Join([]string{fmtF(float64(i) / 10), fmtF(a), fmtF(100 - a)}, ",") + "\n")
		}
		shares.WriteString(strings.Join([]string{fmtF(float64(i) / 10), "/example/file", fmtF(a + 1), fmtF(99 - a)}, ",") + "\n")
	}
	writeFile(t, dir, "forwarding-r1.csv", fwd.String())
	writeFile(t, dir, "shares-r1.csv", shares.String())
}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'f', 3, 64) }

func TestPlotRunForwarding(t *testing.T) {
	dir := t.TempDir()
	writeRunTraces(t, dir)
	writeForwardingTraces(t, dir)
	files, err := PlotRun(dir, PlotOptions{Title: "mp", Formats: []string{"svg"}})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "forwarding-r1.svg")
	if !slices.Contains(files, want) {
		t.Fatalf("PlotRun wrote %v, want %s", files, want)
	}
	svg, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"forwarding at r1", "to a", "to b", "pcon share, a", "Interests forwarded (%)", "per 100 ms"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("forwarding-r1.svg lacks %q", s)
		}
	}
	run, err := loadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	ft := run.forwarding[0]
	if ft.node != "r1" || !slices.Equal(ft.neighbors, []string{"a", "b"}) || len(ft.percent[0]) != 29 || len(ft.shares["/example/file"][1]) != 30 {
		t.Errorf("loaded %+v", ft)
	}
}

func TestForwardingTraceErrors(t *testing.T) {
	for name, content := range map[string]string{
		"no neighbour": "time_s\n0.1\n",
		"bad number":   "time_s,a\n0.1,x\n",
		"short row":    "time_s,a,b\n0.1,50\n",
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "forwarding-r1.csv", content)
			if _, err := loadRun(dir); err == nil || !strings.Contains(err.Error(), "forwarding-r1.csv:") {
				t.Errorf("got %v, want an error naming the file and line", err)
			}
		})
	}
}

// testScenario is a dumbbell-like network: two consumers, a CoDel
// bottleneck with a lossy direction, one producer, and a pcon router.
const testScenario = `[topology]
nodes = ["c1", "c2", "r1", "r2", "p"]
links = [
  { a = "c1", b = "r1", delay = "2ms", bw = 100 },
  { a = "c2", b = "r1", delay = "2ms", bw = 100 },
  { a = "r1", b = "r2", delay = "10ms", bw = 5, max-queue-size = 32 },
  { a = "r2", b = "p", delay = "2ms" },
]
[routers.node.r1]
strategy = "pcon"
[[links]]
between = ["r1", "r2"]
queue = "codel-mark"
[[links]]
from = "r2"
to = "r1"
loss = 1
[[producer]]
node = "p"
prefix = "/a"
file-size = 1000
[[consumer]]
node = "c1"
prefix = "/a"
pipeline = "aimd"
[[consumer]]
node = "c2"
prefix = "/a"
pipeline = "fixed"
profile = "seed000"
`

func TestDrawTopology(t *testing.T) {
	sc, err := scenario.Parse([]byte(testScenario), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "topology.svg")
	if err := DrawTopology(path, sc); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	for _, s := range []string{"<svg", ">c1<", ">r2<", ">p<", ">pcon<", "5 Mbit/s, 10ms, q 32", "codel-mark", "loss 0% → 1% ←", "unlimited, 2ms, q 1000"} {
		if !strings.Contains(svg, s) {
			t.Errorf("topology.svg lacks %q", s)
		}
	}
	if n := strings.Count(svg, "<circle"); n != 5+3 { // nodes and the legend's keys
		t.Errorf("%d circles, want 8", n)
	}
	cols := layers(sc.Topology, nodeRoles(sc))
	if len(cols) != 4 || !slices.Equal(cols[0], []string{"c1", "c2"}) || cols[3][0] != "p" {
		t.Errorf("layers = %v, want consumers first and the producer last", cols)
	}
}

func TestScenarioParamsAndSplit(t *testing.T) {
	sc, err := scenario.Parse([]byte(testScenario), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	ps := ScenarioParams(sc)
	text := ""
	for _, p := range ps {
		text += p.Key + ": " + p.Value + "\n"
	}
	for _, s := range []string{"router r1: strategy pcon", "link r1—r2: 5 Mbit/s", "consumer c2: /a on c2 from 0s: fixed, profile seed000", "consumer c1: /a on c1 from 0s: aimd\n"} {
		if !strings.Contains(text, s) {
			t.Errorf("parameters lack %q:\n%s", s, text)
		}
	}
	other := sc.Clone()
	if err := other.Set("consumer.c1.params.window", int64(4), sc.Producers[0].Pos); err != nil {
		t.Fatal(err)
	}
	common, per := SplitParams([]string{"v1", "v2"}, [][]Param{ps, ScenarioParams(other)})
	if len(common) != len(ps)-1 || len(per) != 2 || per[0].Variant != "v1" || per[1].Params[0].Value != "/a on c1 from 0s: aimd {window=4}" {
		t.Errorf("common %v\nper %v", common, per)
	}
}

func TestResultTables(t *testing.T) {
	r := &sim.Result{Seed: 4, SimTimeS: 2,
		Flows: []sim.FlowResult{{ID: "c1", Pipeline: "aimd", Complete: false, Error: "time limit reached", RTTMinMs: 1, RTTAvgMs: 2, RTTMaxMs: 3}},
		Links: []sim.LinkResult{{From: "a", To: "b", Packets: 3, Drops: 1, TailDrops: 1}, {From: "b", To: "a"}}}
	ts := ResultTables(r)
	if len(ts) != 2 || len(ts[0].Rows) != 1 || len(ts[1].Rows) != 1 {
		t.Fatalf("tables %+v: want one flow and the one link direction that carried a packet", ts)
	}
	if row := ts[0].Rows[0]; row[4] != "false (time limit reached)" || row[len(row)-1] != "1.0/2.0/3.0" {
		t.Errorf("flow row %v", row)
	}
	if row := ts[1].Rows[0]; row[0] != "a → b" || row[5] != "1 (1/0/0)" {
		t.Errorf("link row %v", row)
	}
}

func TestSweepCharts(t *testing.T) {
	sweep := &experiment.SweepReport{Scenario: "s", Runs: 2, Swept: []string{"links.a-b.max-queue-size"}}
	for i, q := range []string{"8", "16", "32"} {
		f := sim.FlowResult{ID: "c1", DownloadTimeS: float64(30 - i)}
		lo, hi := f, f
		lo.DownloadTimeS--
		hi.DownloadTimeS++
		sweep.Points = append(sweep.Points, experiment.NewSweepPoint(map[string]any{"links.a-b.max-queue-size": q}, []string{q},
			[]sim.FlowResult{f}, []sim.FlowResult{lo}, []sim.FlowResult{hi}))
	}
	dir := t.TempDir()
	files, err := SweepCharts(dir, sweep, []experiment.Column{{Key: "download_time_s", Header: "time (s)"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || filepath.Base(files[0]) != "sweep-download_time_s.png" {
		t.Fatalf("wrote %v", files)
	}
	svg, err := os.ReadFile(files[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"time (s) against max-queue-size", "links.a-b.max-queue-size", "c1", "mean of 2 runs"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("sweep chart lacks %q", s)
		}
	}
}
