package sim

import (
	"strings"
	"testing"

	"github.com/ndncc/ndncc/scenario"
)

// TestPipelineSetDropsParams: a setting that switches a consumer's
// pipeline leaves out the file's params the new pipeline lacks (and says
// so); the same param under the file's own pipeline, or a param no
// pipeline has, is still an error.
func TestPipelineSetDropsParams(t *testing.T) {
	const file = `name = "p"
[topology]
file = "../examples/linear.conf"
[[producer]]
node = "producer1"
prefix = "/p"
file-size = "10KB"
[[consumer]]
id = "c1"
node = "consumer1"
prefix = "/p"
pipeline = "fixed"
params = { window = "16", lifetime = "2s" }
`
	tests := []struct {
		name    string
		sets    []string
		wantErr string // "" for none
		notes   []string
	}{
		{name: "file's pipeline", sets: nil},
		{name: "switched", sets: []string{"consumer.*.pipeline=cubic"},
			notes: []string{"consumer c1: pipeline cubic has no parameter window: left out"}},
		{name: "switched to the same", sets: []string{"consumer.c1.pipeline=fixed"}},
		{name: "unknown param without a switch", sets: []string{"consumer.c1.params.windw=3"}, wantErr: "windw"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc, err := scenario.Parse([]byte(file), "p.toml")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.sets {
				a, err := scenario.ParseAssignment(s, "--set")
				if err != nil {
					t.Fatal(err)
				}
				if err := sc.Apply([]scenario.Assignment{a}); err != nil {
					t.Fatal(err)
				}
			}
			_, err = ConsumerOptions(sc, sc.Consumers[0])
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("ConsumerOptions: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("ConsumerOptions: %v, want an error naming %q", err, tt.wantErr)
			}
			if got := DroppedParams(sc); strings.Join(got, "\n") != strings.Join(tt.notes, "\n") {
				t.Errorf("DroppedParams = %q, want %q", got, tt.notes)
			}
		})
	}
	// A cubic consumer whose file gives it a fixed window's param: refused.
	sc, err := scenario.Parse([]byte(strings.Replace(file, `pipeline = "fixed"`, `pipeline = "cubic"`, 1)), "p.toml")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ConsumerOptions(sc, sc.Consumers[0]); err == nil || !strings.Contains(err.Error(), "window") {
		t.Errorf("cubic with window in its file: %v, want an error naming window", err)
	}
}
