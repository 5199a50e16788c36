package experiment

import (
	"bytes"
	"path"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/scenario"
)

// exampleSource finds files as LoadFS does for a file in
// examples/experiments.
func exampleSource() fileSource {
	return fileSource{
		load: func(s string) (*scenario.Scenario, error) {
			return scenario.LoadFS(examples.FS, path.Join("experiments", s))
		},
		open: scenario.FSOpener(examples.FS, "experiments"),
	}
}

// TestCatalogInputsNameTheirSources checks that every catalog experiment
// of a paper lists its inputs and that each names its source: a line of
// the paper, the reference stack, or a stated choice.
func TestCatalogInputsNameTheirSources(t *testing.T) {
	for _, e := range Catalog() {
		t.Run(e.Name, func(t *testing.T) {
			if err := e.CheckInputs(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestInputKind(t *testing.T) {
	for _, tc := range []struct {
		source, want string
	}{
		{"seed 000, line 114: `router1:router2 ...`", "seed"},
		{"reference stack: ndn-cxx 0.9.0's minRto", "reference stack"},
		{"chosen, because the paper gives none", "chosen"},
		{"chosen to land a cell", ""},
		{"", ""},
	} {
		if got := (Input{Source: tc.source}).Kind(); got != tc.want {
			t.Errorf("Kind(%q) = %q, want %q", tc.source, got, tc.want)
		}
	}
}

// TestSeed000LinearExplainsItsRTOFloor checks the explanation of the input
// that used to be fitted: seed000-linear's RTO floor is the reference
// stack's.
func TestSeed000LinearExplainsItsRTOFloor(t *testing.T) {
	e, err := Lookup("seed000-linear")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	e.WriteInputs(&b, false)
	if want := "min-rto = 200 ms\n    reference stack: ndn-cxx 0.9.0"; !strings.Contains(b.String(), want) {
		t.Errorf("explanation lacks %q:\n%s", want, b.String())
	}
}

func TestFileInputs(t *testing.T) {
	base := "name = \"x\"\npaper = \"000\"\n[scenario]\ntopology.file = \"../linear.conf\"\n[[scenario.producer]]\nnode = \"producer1\"\nprefix = \"/p\"\nfile-size = 1000\n[[scenario.consumer]]\nid = \"c1\"\nnode = \"consumer1\"\nprefix = \"/p\"\npipeline = \"aimd\"\n[[variant]]\nname = \"v\"\n"
	tests := []struct {
		name, input, err string
		n                int
	}{
		{"one input", "[[input]]\nname = \"a\"\nvalue = \"1\"\nsource = \"chosen, because b\"\n", "", 1},
		{"no source kind", "[[input]]\nname = \"a\"\nvalue = \"1\"\nsource = \"because\"\n", "needs a name, a value and a source", 0},
		{"unknown key", "[[input]]\nname = \"a\"\nvalue = \"1\"\nsource = \"seed 000, line 1\"\nwhy = 1\n", "unknown key", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := parseFile([]byte(base+tt.input), "experiments/x.toml", exampleSource())
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Inputs) != tt.n {
				t.Errorf("%d inputs, want %d", len(e.Inputs), tt.n)
			}
		})
	}
}
