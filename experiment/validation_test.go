package experiment

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/sim"
)

// TestDiffers checks the thresholds of the validation tables.
func TestDiffers(t *testing.T) {
	tests := []struct {
		kind       string
		sim, live  float64
		wantDiffer bool
	}{
		{"rel", 10, 11, false},
		{"rel", 10, 11.01, true},
		{"rel", 10, 8.9, true},
		{"ratio", 10, 20, false},
		{"ratio", 10, 21, true},
		{"ratio", 0, 4, false}, // under MinCount
		{"ratio", 0, 5, true},
		{"ratio", 30, 14, true},
		{"", 1, 100, false},
	}
	for _, tt := range tests {
		if got := Differs(tt.kind, tt.sim, tt.live); got != tt.wantDiffer {
			t.Errorf("Differs(%q, %v, %v) = %v, want %v", tt.kind, tt.sim, tt.live, got, tt.wantDiffer)
		}
	}
}

// TestWriteValidationReasons checks that a difference in an NFD column
// needs a reason, that the reason is cited beside the row and written
// under the table, and that a reason matching nothing is an error too.
func TestWriteValidationReasons(t *testing.T) {
	flow := func(time, retx float64) sim.FlowResult {
		return sim.FlowResult{ID: "c1", Consumer: "c", DownloadTimeS: time, GoodputKbps: 1000 / time, Retransmissions: uint64(retx)}
	}
	report := func(f sim.FlowResult) *Report {
		v := VariantResult{Name: "v1"}
		v.add(&sim.Result{Seed: 1, Flows: []sim.FlowResult{f}}, nil, &Lateness{MaxMs: 3})
		v.finish()
		return &Report{Runs: 1, Variants: []VariantResult{v}}
	}
	simRep := report(flow(10, 10))
	nfd := *simRep
	nfd.Live = report(flow(12, 10)) // 20% slower
	ve := ValidationExperiment{Experiment: &Experiment{Name: "x", Title: "X", Variants: []Variant{{Name: "v1"}}},
		Columns: map[string]*ValidationRun{"nfd": {Report: &nfd, Machine: "m\n"}}}
	var b bytes.Buffer
	err := WriteValidation(&b, []ValidationExperiment{ve}, nil)
	if !errors.Is(err, ErrUnexplained) || !strings.Contains(err.Error(), "x v1 c1 nfd download_time_s") {
		t.Fatalf("no reason: err %v", err)
	}
	reasons := []Reason{{Experiment: "x", Column: "nfd", Metrics: []string{"download_time_s", "goodput_kbps"}, Measurement: "run M", Text: "because T."}}
	b.Reset()
	if err := WriteValidation(&b, []ValidationExperiment{ve}, reasons); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| `v1` | c1 | time (s) | - | 10.00 | not run | 12.00 " + DiffMark + " | not run | [R1](#r1) |", "**R1** (x nfd download_time_s, goodput_kbps): because T. *Measured:* run M"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
	reasons = append(reasons, Reason{Experiment: "x", Variant: "v9", Measurement: "m", Text: "t"})
	if err := WriteValidation(&b, []ValidationExperiment{ve}, reasons); !errors.Is(err, ErrUnexplained) || !strings.Contains(err.Error(), "R2 (x v9)") {
		t.Errorf("stale reason: err %v", err)
	}
}
