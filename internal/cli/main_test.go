package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const linearExample = "../../examples/linear-fixed32.toml"

// run executes the CLI in-process and returns what it printed.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), err
}

// exitCode is the code main would exit with for err.
func exitCode(err error) int {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if err != nil {
		return 1
	}
	return 0
}

func TestSimJSON(t *testing.T) {
	out, err := run(t, "sim", linearExample, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Flows  []map[string]any   `json:"flows"`
		Links  []map[string]any   `json:"links"`
		Timing map[string]float64 `json:"timing"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("sim --json is not one JSON document: %v\n%s", err, out)
	}
	if len(doc.Flows) != 1 {
		t.Fatalf("%d flows, want 1", len(doc.Flows))
	}
	for _, k := range []string{"id", "consumer", "producer", "pipeline", "segments", "bytes", "complete",
		"download_time_s", "goodput_kbps", "throughput_kbps", "timeouts", "timeout_pct", "retransmissions",
		"loss_events", "marks", "nacks", "rtt_min_ms", "rtt_avg_ms", "rtt_max_ms"} {
		if _, ok := doc.Flows[0][k]; !ok {
			t.Errorf("flows[0] lacks %s", k)
		}
	}
	f := doc.Flows[0]
	if f["id"] != "consumer1" || f["consumer"] != "consumer1" || f["producer"] != "producer1" || f["pipeline"] != "fixed" ||
		f["complete"] != true || f["segments"] != 10240.0 || f["bytes"] != 10485760.0 {
		t.Errorf("flow %v: want consumer1 <- producer1, fixed, complete, 10240 segments, 10485760 bytes", f)
	}
	if len(doc.Links) != 6 {
		t.Errorf("%d link directions, want 6 (3 links)", len(doc.Links))
	}
	for _, l := range doc.Links {
		for _, k := range []string{"from", "to", "packets", "drops", "marks", "max_queue"} {
			if _, ok := l[k]; !ok {
				t.Errorf("link %v lacks %s", l, k)
			}
		}
	}
	for _, k := range []string{"wall_s", "events", "events_per_s"} {
		if doc.Timing[k] <= 0 {
			t.Errorf("timing.%s = %v, want > 0", k, doc.Timing[k])
		}
	}
}

// stripTiming removes the "timing" object from a result document.
func stripTiming(t *testing.T, out string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "timing")
	b, _ := json.Marshal(m)
	return string(b)
}

func TestSimJSONRepeatable(t *testing.T) {
	a, err := run(t, "sim", linearExample, "--json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := run(t, "sim", linearExample, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if stripTiming(t, a) != stripTiming(t, b) {
		t.Error("two runs of the same scenario differ outside timing")
	}
}

func TestSimSeedFlagIsReported(t *testing.T) {
	out, err := run(t, "sim", linearExample, "--seed", "7", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Seed uint64 }
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Seed != 7 {
		t.Errorf("seed %d in the result, want 7", doc.Seed)
	}
}

func TestSimTable(t *testing.T) {
	out, err := run(t, "sim", linearExample)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"scenario linear-fixed32, seed 1", "consumer1", "fixed", "router2->router1"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestSimOutWritesTraces(t *testing.T) {
	dir := t.TempDir()
	if _, err := run(t, "sim", linearExample, "--out", dir); err != nil {
		t.Fatal(err)
	}
	for file, header := range map[string]string{
		"cwnd-consumer1.csv":        "time_s,cwnd,ssthresh",
		"rtt-consumer1.csv":         "time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms",
		"rate-consumer1.csv":        "time_s,goodput_kbps",
		"queue-router2-router1.csv": "time_s,packets,bytes,drops,marks",
	} {
		b, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Errorf("trace %s: %v", file, err)
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if lines[0] != header || len(lines) < 2 {
			t.Errorf("%s: header %q and %d lines, want %q and data", file, lines[0], len(lines), header)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		t.Errorf("result.json: %v", err)
	}
}

func TestSimErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.toml")
	topo, err := os.ReadFile("../../examples/linear.conf")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "linear.conf"), topo, 0o644); err != nil {
		t.Fatal(err)
	}
	scenario := `name = "bad"
[topology]
file = "linear.conf"

[[producer]]
node = "producer1"
prefix = "/a"
file-size = 1000

[[consumer]]
id = "c"
node = "consumer9"
prefix = "/a"
pipeline = "fixed"
`
	if err := os.WriteFile(bad, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	// A window past what an int holds used to overflow into a negative
	// one: the flow sent nothing until the run's time limit.
	huge := filepath.Join(dir, "huge.toml")
	hugeWindow := strings.Replace(strings.Replace(scenario, "consumer9", "consumer1", 1), `pipeline = "fixed"`, `pipeline = "aimd"
params = { init-cwnd = 1e19 }`, 1)
	if err := os.WriteFile(huge, []byte(hugeWindow), 0o644); err != nil {
		t.Fatal(err)
	}
	// A queue discipline's error names the line that sets it.
	queue := filepath.Join(dir, "queue.toml")
	badQueue := strings.Replace(scenario, "consumer9", "consumer1", 1) + "\n[[links]]\nbetween = [\"router1\", \"router2\"]\nqueue = \"codel-mark\"\nqueue-params = { bogus = 1 }\n"
	if err := os.WriteFile(queue, []byte(badQueue), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string // substrings of the error
		code int
	}{
		{"missing file", []string{"sim", filepath.Join(dir, "nope.toml")}, []string{"nope.toml"}, 2},
		{"bad node", []string{"sim", bad}, []string{"bad.toml:", "consumer9"}, 2},
		{"window overflow", []string{"sim", huge}, []string{"huge.toml:15", "init-cwnd", "from 1 to 65536"}, 2},
		{"queue parameter", []string{"sim", queue}, []string{"queue.toml:16: queue on router1->router2", `no parameter "bogus"`}, 2},
		{"no argument", []string{"sim"}, []string{"arg"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run(t, tt.args...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if c := exitCode(err); c != tt.code {
				t.Errorf("exit code %d, want %d", c, tt.code)
			}
		})
	}
}

func TestExperimentList(t *testing.T) {
	out, err := run(t, "experiment", "--list")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"seed000-linear", "seed000-dumbbell", "seed003-fixed",
		"ndncc experiment tournament", "ndncc experiment scale"} {
		if !strings.Contains(out, want) {
			t.Errorf("--list lacks %s:\n%s", want, out)
		}
	}
}

func TestExperimentErrors(t *testing.T) {
	_, err := run(t, "experiment", "no-such-experiment")
	if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), "seed000-linear") {
		t.Errorf("unknown experiment: error %v (exit %d), want exit 2 listing the catalog", err, exitCode(err))
	}
	if _, err := run(t, "experiment"); err == nil {
		t.Error("experiment without a name succeeded")
	}
	for _, args := range [][]string{
		{"--shard", "0/2x", "--out", t.TempDir()},
		{"--shard", "1/2/3", "--out", t.TempDir()},
		{"--shard", "2/2", "--out", t.TempDir()},
		{"--runs", "-1"},
		{"--jobs", "-5"},
	} {
		_, err := run(t, append([]string{"experiment", "seed000-linear"}, args...)...)
		if exitCode(err) != 2 {
			t.Errorf("experiment seed000-linear %v: error %v (exit %d), want exit 2", args, err, exitCode(err))
		}
	}
	if _, err := run(t, "reproduce", "--runs", "0"); exitCode(err) != 2 {
		t.Errorf("reproduce --runs 0: error %v, want exit 2", err)
	}
	for _, args := range [][]string{
		{"--out", t.TempDir(), "--runs", "0"},
		{"--runs", "1"},
		{"--out", t.TempDir(), "--rates", "10,-5"},
		{"--out", t.TempDir(), "--buffers", "0"},
		{"--out", t.TempDir(), "--rates", "ten"},
	} {
		if _, err := run(t, append([]string{"seed001-sweep"}, args...)...); exitCode(err) != 2 {
			t.Errorf("seed001-sweep %v: error %v (exit %d), want exit 2", args, err, exitCode(err))
		}
	}
}

func TestExperimentJSON(t *testing.T) {
	out, err := run(t, "experiment", "seed003-fixed", "--variant", "fixed-50", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Experiment string `json:"experiment"`
		Variants   []struct {
			Name  string           `json:"name"`
			Flows []map[string]any `json:"flows"`
		} `json:"variants"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("experiment --json: %v", err)
	}
	if doc.Experiment != "seed003-fixed" || len(doc.Variants) != 1 || doc.Variants[0].Name != "fixed-50" || len(doc.Variants[0].Flows) != 1 {
		t.Fatalf("report %+v, want seed003-fixed with variant fixed-50 and one flow", doc)
	}
	if doc.Variants[0].Flows[0]["complete"] != true {
		t.Errorf("fixed-50 incomplete: %v", doc.Variants[0].Flows[0])
	}
}

// TestUsageErrorsExit2 runs every command with bad arguments: each exits
// with status 2 (some used to exit 1) and says what is wrong.
func TestUsageErrorsExit2(t *testing.T) {
	long := "/" + strings.Repeat("a", 9000)
	longMany := "/" + strings.Repeat(strings.Repeat("b", 200)+"/", 45)
	noForwarder := "unix://" + filepath.Join(t.TempDir(), "none.sock")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"nosuch"}, `unknown command "nosuch" for "ndncc"`},
		{[]string{"sim"}, "accepts 1 arg(s), received 0"},
		{[]string{"sim", "a.toml", "b.toml"}, "accepts 1 arg(s), received 2"},
		{[]string{"sim", "--nosuch", linearExample}, "unknown flag: --nosuch"},
		{[]string{"experiment"}, "want one experiment: a name (see --list) or an experiment file"},
		{[]string{"experiment", "nosuch.toml"}, "load experiment: stat nosuch.toml: no such file or directory"},
		{[]string{"sim", linearExample, "--set", "links.router1-router2.bw=-5"}, "--set: links.router1-router2.bw: must be a positive number"},
		{[]string{"experiment", "--runs", "x", "seed000-linear"}, `invalid argument "x" for "--runs"`},
		{[]string{"experiment", "seed000-linear", "--variant", "nosuch", "--runs", "1"}, `no variant "nosuch"`},
		{[]string{"experiment", "merge"}, "requires at least 1 arg(s)"},
		{[]string{"experiment", "scale", "--routers", "3"}, "--routers: isp: 3 routers, want 4 to 10000"},
		{[]string{"experiment", "scale", "--flows", "0"}, "want positive numbers"},
		{[]string{"experiment", "scale", "--file-size", "big"}, `--file-size "big": want a positive size`},
		{[]string{"experiment", "scale", "--pipeline", "nosuch"}, `--pipeline "nosuch": want one of`},
		{[]string{"experiment", "scale", "extra"}, `unknown command "extra" for "ndncc experiment scale"`},
		{[]string{"reproduce", "extra"}, `unknown command "extra" for "ndncc reproduce"`},
		{[]string{"params", "extra"}, `unknown command "extra" for "ndncc params"`},
		{[]string{"fw", "--nosuch"}, "unknown flag: --nosuch"},
		{[]string{"fetch"}, "accepts 1 arg(s), received 0"},
		{[]string{"fetch", "/a", "-l", "99999999999999999", "--transport", noForwarder}, "--lifetime: 99999999999999999 ms is too long"},
		{[]string{"fetch", long, "--transport", noForwarder}, "name component 0 is 9000 bytes long (at most 252 are supported)"},
		{[]string{"fetch", longMany, "--transport", noForwarder}, "name is too long: 9090 bytes, over NDN's 8800-byte packet limit"},
		{[]string{"fetch", "/a", "--reconnect", "soon", "--transport", noForwarder}, `--reconnect: want milliseconds or a duration like 10s, got "soon"`},
		{[]string{"serve"}, "accepts between 1 and 2 arg(s), received 0"},
		{[]string{"serve", "/v=5", "--no-register", "--transport", noForwarder}, `name "/v=5" is only a version`},
		{[]string{"serve", longMany, "--transport", noForwarder}, "name is too long"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " ")[:min(40, len(strings.Join(tt.args, " ")))], func(t *testing.T) {
			r := runCLI(context.Background(), nil, tt.args...)
			if r.code != exitUsage || r.err == nil || !strings.Contains(r.err.Error(), tt.want) {
				t.Errorf("exit %d (%v), want %d saying %q", r.code, r.err, exitUsage, tt.want)
			}
		})
	}
}

// experiment scale runs its points and writes its JSON and charts.
func TestExperimentScaleSmall(t *testing.T) {
	out := t.TempDir()
	r := runCLI(context.Background(), nil, "experiment", "scale", "--routers", "20", "--flows", "10,30", "--file-size", "32KiB", "--json", "--out", out)
	if r.code != 0 {
		t.Fatalf("exit %d: %v\n%s", r.code, r.err, r.stderr)
	}
	var rep struct {
		Points []struct {
			Routers, Flows, Complete int
			EventsPerS               float64 `json:"events_per_s"`
			BytesPerFlow             float64 `json:"bytes_per_flow"`
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Points) != 4 {
		t.Fatalf("%d points, want 2 sizes and 2 objects", len(rep.Points))
	}
	for _, p := range rep.Points {
		if p.Routers != 20 || p.Complete != p.Flows || p.EventsPerS <= 0 {
			t.Errorf("point %+v", p)
		}
	}
	for _, f := range []string{"scale.json", "scale.png", "scale.svg"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}
