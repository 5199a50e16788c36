package experiment

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/examples"
)

func TestParseFigure(t *testing.T) {
	for text, want := range map[string]Figure{
		"23.8":      {Text: "23.8", Min: 23.8, Max: 23.8, Numeric: true},
		"23.8–23.9": {Text: "23.8–23.9", Min: 23.8, Max: 23.9, Numeric: true},
		"0.85-1.3":  {Text: "0.85-1.3", Min: 0.85, Max: 1.3, Numeric: true},
		"-3":        {Text: "-3", Min: -3, Max: -3, Numeric: true},
		"6–9 (log)": {Text: "6–9 (log)"},
		"~5":        {Text: "~5"},
		"-":         {Text: "-"},
		"9–3":       {Text: "9–3"},
	} {
		if got := ParseFigure(text); got != want {
			t.Errorf("ParseFigure(%q) = %+v, want %+v", text, got, want)
		}
	}
}

func TestLoadExampleExperiment(t *testing.T) {
	e, err := LoadFS(examples.FS, "experiments/linear-designs.toml")
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "linear-designs" || e.Seed != "000" || e.Runs != 3 || e.Profile != "seed000" || len(e.Columns) != 3 || len(e.Variants) != 4 {
		t.Fatalf("loaded %+v", e)
	}
	d0 := e.Variants[0]
	if d0.SeedFigures["throughput_kbps"][0] != "4969–4986" || d0.SeedFigures["timeout_pct"][0] != "0" {
		t.Errorf("design0's figures %v", d0.SeedFigures)
	}
	sc, err := e.Scenario(e.Variants[3])
	if err != nil {
		t.Fatal(err)
	}
	c := sc.Consumers[0]
	if c.Pipeline != "aimd" || c.Params["rtt-sampling"] != "once-per-rtt" || c.Params["min-rto"] != "200ms" || sc.Profile != "seed000" {
		t.Errorf("design3's consumer %+v, profile %q", c, sc.Profile)
	}
	if l, ok := sc.Topology.Link("router1", "router2"); !ok || l.QueuePackets != 32 {
		t.Errorf("the linear topology's bottleneck: %+v", l)
	}
}

func TestExperimentFileErrors(t *testing.T) {
	const base = `[scenario]
topology.nodes = ["c", "p"]
topology.links = [{ a = "c", b = "p" }]
producer = [{ node = "p", prefix = "/x", file-size = 1000 }]
consumer = [{ node = "c", prefix = "/x", pipeline = "fixed" }]
`
	for _, tt := range []struct {
		name, doc, want string
	}{
		{"unknown key", "titel = \"x\"\n" + base + "[[variant]]\nname = \"a\"\n", "x.toml:1: titel: unknown key"},
		{"no variant", base, "variant: the experiment has no [[variant]]"},
		{"no scenario", "[[variant]]\nname = \"a\"\n", "scenario: required"},
		{"bad setting", base + "[[variant]]\nname = \"a\"\nset = { \"links.c-q.bw\" = 5 }\n", "x.toml:8: links.c-q.bw: no link of the topology matches"},
		{"bad value", base + "[[variant]]\nname = \"a\"\nset = { \"links.c-p.bw\" = -5 }\n", "x.toml:8: links.c-p.bw: must be a positive number"},
		{"scenario error", strings.Replace(base, `"fixed"`, `""`, 1) + "[[variant]]\nname = \"a\"\n", "x.toml:5: consumer[0].pipeline: required"},
		{"twice", base + "[[variant]]\nname = \"a\"\n[[variant]]\nname = \"a\"\n", "x.toml:9: variant[1].name: variant \"a\" is defined twice"},
		{"bad figure", base + "[[variant]]\nname = \"a\"\npaper = { time = { min = 3, max = 1 } }\n", "x.toml:8: variant[0].paper.time: want a range"},
		{"bad metric", "metrics = [\"speed\"]\n" + base + "[[variant]]\nname = \"a\"\n", "x.toml:1: metrics[0]: unknown metric speed"},
		{"syntax", "runs = \n", "x.toml:1:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFile([]byte(tt.doc), "x.toml", fileSource{open: nil})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestFileCopyOfSeed000Linear is issue 14's check that an experiment file
// gives exactly what the catalog's Go entry gives: the file-defined copy
// of seed000-linear (examples/experiments/linear-designs.toml) against the
// catalog's, two runs of every design.
func TestFileCopyOfSeed000Linear(t *testing.T) {
	file, err := LoadFS(examples.FS, "experiments/linear-designs.toml")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := Lookup("seed000-linear")
	if err != nil {
		t.Fatal(err)
	}
	a, err := file.Run(Options{Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	b, err := cat.Run(Options{Runs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Variants) != len(b.Variants) {
		t.Fatalf("%d variants, catalog %d", len(a.Variants), len(b.Variants))
	}
	for i := range a.Variants {
		va, vb := a.Variants[i], b.Variants[i]
		if va.Name != vb.Name || !reflect.DeepEqual(va.Flows, vb.Flows) || !reflect.DeepEqual(va.FlowsMin, vb.FlowsMin) ||
			!reflect.DeepEqual(va.FlowsMax, vb.FlowsMax) || !reflect.DeepEqual(va.Runs, vb.Runs) || !reflect.DeepEqual(va.SeedFigures, vb.SeedFigures) {
			t.Errorf("variant %s differs from the catalog's %s:\nfile    %+v\ncatalog %+v", va.Name, vb.Name, va.Flows, vb.Flows)
		}
	}
	var fa, fb strings.Builder
	a.WriteMarkdown(&fa, file)
	b.WriteMarkdown(&fb, cat)
	if fa.String() != fb.String() {
		t.Errorf("tables differ:\nfile\n%s\ncatalog\n%s", fa.String(), fb.String())
	}
}
