package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/internal/browsertest"
)

// sweepDoc is the part of `sim --sweep --json` the tests read.
type sweepDoc struct {
	Runs   int      `json:"runs"`
	Swept  []string `json:"swept"`
	Points []struct {
		Set      map[string]any   `json:"set"`
		Flows    []map[string]any `json:"flows"`
		FlowsMin []map[string]any `json:"flows_min"`
		FlowsMax []map[string]any `json:"flows_max"`
		Runs     []struct {
			Seed uint64 `json:"seed"`
		} `json:"runs"`
	} `json:"points"`
}

// TestSimSweep is issue 14's first "Done when": the bottleneck queue of
// the linear example swept over four sizes, three runs each, gives four
// points with mean, min and max; with --out, a chart per metric against
// the queue size.
func TestSimSweep(t *testing.T) {
	const key = "links.router1-router2.max-queue-size"
	out, err := run(t, "sim", linearExample, "--sweep", key+"=8,16,32,64", "--runs", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc sweepDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%s", err, out)
	}
	if len(doc.Points) != 4 || doc.Runs != 3 || len(doc.Swept) != 1 || doc.Swept[0] != key {
		t.Fatalf("%d points, %d runs, swept %v; want 4, 3, [%s]", len(doc.Points), doc.Runs, doc.Swept, key)
	}
	for i, want := range []float64{8, 16, 32, 64} {
		p := doc.Points[i]
		if p.Set[key] != want || len(p.Flows) != 1 || len(p.Runs) != 3 || p.Runs[0].Seed != 1 || p.Runs[2].Seed != 3 {
			t.Errorf("point %d: set %v, %d flows, %d runs; want %s=%v, one flow, seeds 1..3", i, p.Set, len(p.Flows), len(p.Runs), key, want)
			continue
		}
		lo, mean, hi := p.FlowsMin[0]["throughput_kbps"].(float64), p.Flows[0]["throughput_kbps"].(float64), p.FlowsMax[0]["throughput_kbps"].(float64)
		if !(lo <= mean && mean <= hi && lo > 0) {
			t.Errorf("point %d: throughput min %v mean %v max %v", i, lo, mean, hi)
		}
	}
	// An 8-packet queue drops Data a 32-packet window puts in flight; 64 does not.
	if r8, r64 := doc.Points[0].Flows[0]["retransmissions"].(float64), doc.Points[3].Flows[0]["retransmissions"].(float64); r8 == 0 || r64 != 0 {
		t.Errorf("retransmissions %v at queue 8 and %v at 64, want some and none", r8, r64)
	}

	table, err := run(t, "sim", linearExample, "--sweep", key+"=8,64", "--runs", "2")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table, key) || !regexp.MustCompile(`(?m)^8 +consumer1 +[0-9.]+ \([0-9.]+–[0-9.]+\)`).MatchString(table) {
		t.Errorf("table lacks a row for queue 8 with a range:\n%s", table)
	}

	dir := t.TempDir()
	if _, err := run(t, "sim", linearExample, "--sweep", key+"=8,64", "--out", dir); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"download_time_s", "goodput_kbps", "throughput_kbps", "timeouts", "retransmissions", "rtt_avg_ms"} {
		if _, err := os.Stat(filepath.Join(dir, "sweep-"+m+".png")); err != nil {
			t.Errorf("no chart of %s against the queue size: %v", m, err)
		}
	}
	for _, f := range []string{"report.json", "index.html", "point0/cwnd.png", "point1/topology.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("--out wrote no %s: %v", f, err)
		}
	}
}

func TestSimGrid(t *testing.T) {
	out, err := run(t, "sim", linearExample, "--sweep", "consumer.*.params.window=8,16", "--sweep", "links.router1-router2.bw=2.5,5",
		"--set", "producer.*.file-size=1MiB", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc sweepDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Points) != 4 {
		t.Fatalf("%d points, want 2 x 2", len(doc.Points))
	}
	if doc.Points[1].Set["consumer.*.params.window"] != 8.0 || doc.Points[1].Set["links.router1-router2.bw"] != 5.0 {
		t.Errorf("point 1 set %v: want the first key slowest", doc.Points[1].Set)
	}
	if b := doc.Points[0].Flows[0]["bytes"]; b != float64(1<<20) {
		t.Errorf("--set producer.*.file-size=1MiB: %v bytes", b)
	}
}

func TestSimSetAndStdin(t *testing.T) {
	file, err := os.ReadFile(linearExample)
	if err != nil {
		t.Fatal(err)
	}
	// A scenario from stdin finds its topology file in the current
	// directory.
	t.Chdir("../../examples")
	root := newRoot()
	var out strings.Builder
	root.SetOut(&out)
	root.SetIn(strings.NewReader(string(file)))
	root.SetArgs([]string{"sim", "-", "--set", "consumer.consumer1.params.window=8", "--json"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Scenario string
		Flows    []struct {
			Complete bool    `json:"complete"`
			Time     float64 `json:"download_time_s"`
		}
	}
	if err := json.Unmarshal([]byte(out.String()), &doc); err != nil {
		t.Fatal(err)
	}
	// A window of 8 cannot fill the 28-packet path: much slower than 32's 23.9 s.
	if doc.Scenario != "linear-fixed32" || len(doc.Flows) != 1 || !doc.Flows[0].Complete || doc.Flows[0].Time < 60 {
		t.Errorf("result %+v: want linear-fixed32 read from stdin, its window set to 8 (over 60 s)", doc)
	}
}

func TestSimSetErrors(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--set", "links.router1-router9.bw=5"}, "--set: links.router1-router9.bw: no link of the topology matches"},
		{[]string{"--set", "seed"}, "want KEY=VALUE"},
		{[]string{"--set", "consumer.consumer1.node=nowhere"}, `--set: consumer[0].node: no node "nowhere"`},
		{[]string{"--sweep", "links.router1-router2.max-queue-size=8,0"}, "--sweep: links.router1-router2.max-queue-size: must be at least 1 packet, got 0"},
		{[]string{"--sweep", "seed"}, "want KEY=V1,V2"},
		{[]string{"--runs", "0"}, "--runs 0"},
		{[]string{"--profile", "ndnput"}, `no profile "ndnput"`},
	} {
		_, err := run(t, append([]string{"sim", linearExample}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) || exitCode(err) != 2 {
			t.Errorf("sim %v: %v (exit %d), want %q, exit 2", tt.args, err, exitCode(err), tt.want)
		}
	}
}

// TestSimReportInChromium is issue 14's third "Done when": `ndncc sim
// examples/multipath-pcon.toml --out DIR` writes an index.html with the
// flows and links tables, the network drawn and the forwarding
// percentages of the pcon router over time, and headless Chromium renders
// every image of it.
func TestSimReportInChromium(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "sim", "../../examples/multipath-pcon.toml", "--out", dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<h2>Flows</h2>", "<h2>Links</h2>", "<h2>Network</h2>", "forwarding-r1", "r1 → a", `alt="topology"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	layout := browsertest.CheckLayout(t, browsertest.Chromium(t), filepath.Join(dir, "index.html"))
	for _, p := range layout.Problems() {
		t.Error(p)
	}
	body := layout.Body
	m := regexp.MustCompile(`data-images-ok="(\d+)/(\d+)"`).FindStringSubmatch(body)
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Errorf("chromium rendered %s: want every image loaded", body)
	}
	for _, want := range []string{`data-data-tables="Flows:1;Links:10;Routes:4"`, `data-drawings="1"`} {
		if !strings.Contains(body, want) {
			t.Errorf("chromium rendered %s: want %s (one flow, ten link directions, four nodes' routes, the network)", body, want)
		}
	}
}

// TestSimMiniNDNSprintPOP simulates a transfer across Mini-NDN's own
// sprint_pop.conf, loaded as it is (a copy in topology/testdata): its
// empty [switches] section is a note, not an error.
func TestSimMiniNDNSprintPOP(t *testing.T) {
	dir := t.TempDir()
	conf, err := os.ReadFile("../../topology/testdata/sprint_pop.conf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sprint_pop.conf"), conf, 0o644); err != nil {
		t.Fatal(err)
	}
	sc := `[topology]
file = "sprint_pop.conf"
[[producer]]
node = "NewYork"
prefix = "/sprint"
file-size = "200KB"
[[consumer]]
node = "Seattle"
prefix = "/sprint"
pipeline = "cubic"
`
	path := filepath.Join(dir, "sprint.toml")
	if err := os.WriteFile(path, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, "sim", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "note: "+filepath.Join(dir, "sprint_pop.conf")+":54: [switches] is empty: ignored") ||
		!regexp.MustCompile(`Seattle +cubic +true`).MatchString(out) {
		t.Errorf("sim of sprint_pop.conf:\n%s", out)
	}
}

// TestExperimentFileShardsAndMerge runs the example experiment file as
// two shards and merges them: merge reads the file again (report.json's
// source) and gives the unsharded table.
func TestExperimentFileShardsAndMerge(t *testing.T) {
	const file = "../../examples/experiments/linear-designs.toml"
	dir := t.TempDir()
	whole, err := run(t, "experiment", file, "--runs", "2", "--variant", "design0", "--variant", "design3")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := run(t, "experiment", file, "--runs", "2", "--variant", "design0", "--variant", "design3",
			"--shard", strconv.Itoa(i)+"/2", "--out", filepath.Join(dir, "part"+strconv.Itoa(i))); err != nil {
			t.Fatal(err)
		}
	}
	merged, err := run(t, "experiment", "merge", filepath.Join(dir, "part0"), filepath.Join(dir, "part1"))
	if err != nil {
		t.Fatal(err)
	}
	if merged != whole || !strings.Contains(whole, "linear-designs — Designs #0–#3 of paper 000") || !strings.Contains(whole, "24.5–25") {
		t.Errorf("merged shards:\n%s\nwant the unsharded table:\n%s", merged, whole)
	}
	// Runs made apart, as --json files: design3's seed 1, design0's
	// seeds 1-2, then design3's seed 2.
	var files []string
	for i, args := range [][]string{
		{"--runs", "1", "--variant", "design3"},
		{"--runs", "2", "--variant", "design0"},
		{"--runs", "1", "--seed", "2", "--variant", "design3"},
	} {
		out, err := run(t, append([]string{"experiment", file, "--json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(dir, "run"+strconv.Itoa(i)+".json"))
		if err := os.WriteFile(files[i], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if merged, err := run(t, append([]string{"experiment", "merge"}, files...)...); err != nil || merged != whole {
		t.Errorf("merged runs made apart (error %v):\n%s\nwant the table of one run:\n%s", err, merged, whole)
	}
	if _, err := run(t, "experiment", "merge", files[0], files[1]); err == nil || !strings.Contains(err.Error(), "variant design3 has 1 of 2 runs") {
		t.Errorf("merging design3's one run with design0's two: error %v, want one naming design3's runs", err)
	}
}

// TestSweepPageOfTenSeries lays out, at 1,280 px in headless Chromium,
// the page of a sweep with ten series per chart (two flows by five
// pipelines, against the bottleneck's rate): no two texts overlap, the
// page is no wider than the window, the swept key's axis names its unit,
// and the series past the palette's seven are dashed.
func TestSweepPageOfTenSeries(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := run(t, "sim", "../../examples/dumbbell-fixed16.toml", "--set", "producer.*.file-size=30KiB",
		"--sweep", "links.router1-router2.bw=2,10", "--sweep", "consumer.*.pipeline=aimd,cubic,bic,vegas,paced-delay",
		"--out", dir); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "sweep-goodput_kbps.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"links.router1-router2.bw (Mbit/s)", "consumer2, consumer.*.pipeline=paced-delay", "stroke-dasharray"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("sweep-goodput_kbps.svg lacks %q", want)
		}
	}
	layout := browsertest.CheckLayout(t, browsertest.Chromium(t), filepath.Join(dir, "index.html"))
	if layout.SVGs == 0 {
		t.Error("the page links no SVG figure")
	}
	for _, p := range layout.Problems() {
		t.Error(p)
	}
}

// TestSimPrintsRoutes: sim's text and --json give each node's next hops
// toward each prefix, best (shortest delay) first; slowing r1's link to
// a moves r1's best next hop to b.
func TestSimPrintsRoutes(t *testing.T) {
	const example = "../../examples/multipath-pcon.toml"
	first := func(args ...string) string {
		t.Helper()
		out, err := run(t, append([]string{"sim", example, "--set", "producer.*.file-size=50KiB", "--json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Routes []routeEntry }
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		for _, r := range doc.Routes {
			if r.Node == "r1" && r.Prefix == "/example/file" && len(r.NextHops) == 2 {
				return r.NextHops[0].Neighbor
			}
		}
		t.Fatalf("no route of r1 to /example/file through two next hops in %+v", doc.Routes)
		return ""
	}
	if got := first(); got != "a" {
		t.Errorf("r1's best next hop %s, want a (5 ms links on both paths; ties go to the name)", got)
	}
	if got := first("--set", "links.r1-a.delay=50ms"); got != "b" {
		t.Errorf("with r1-a at 50 ms, r1's best next hop %s, want b", got)
	}
	text, err := run(t, "sim", example, "--set", "producer.*.file-size=50KiB")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^  r1 +/example/file +a \(10 ms\), b \(10 ms\)$`).MatchString(text) {
		t.Errorf("the table lacks r1's routes:\n%s", text)
	}
}
