package experiment

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/sim"
)

func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		exact, shape bool
		want         string
	}{
		{true, true, Reproduced},
		{true, false, Reproduced},
		{false, true, InShapeOnly},
		{false, false, NotReproduced},
	} {
		if got := judge(tc.exact, tc.shape); got != tc.want {
			t.Errorf("judge(%v, %v) = %q, want %q", tc.exact, tc.shape, got, tc.want)
		}
	}
}

// TestVerdictsFromFigures checks that a verdict follows the figures: the
// hole-detection finding of paper 003 for three pairs of times.
func TestVerdictsFromFigures(t *testing.T) {
	rep := func(aimd, hole float64) *Report {
		v := func(name string, s float64) VariantResult {
			return VariantResult{Name: name, Flows: []sim.FlowResult{{ID: "c1", DownloadTimeS: s}}}
		}
		return &Report{Variants: []VariantResult{v("aimd", aimd), v("aimd-hole", hole)}}
	}
	for _, tc := range []struct {
		name       string
		aimd, hole float64
		want       string
	}{
		{"inside the paper's range and faster", 50, 44, Reproduced},
		{"faster, outside the range", 31, 30, InShapeOnly},
		{"slower", 31.0, 34.2, NotReproduced},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got *FindingVerdict
			for _, v := range Verdicts(map[string]*Report{"seed003-aimd": rep(tc.aimd, tc.hole)}) {
				if v.Claim == "hole detection makes AIMD faster" {
					got = &v
				}
			}
			if got == nil || got.Verdict != tc.want {
				t.Fatalf("verdict %+v, want %q", got, tc.want)
			}
			if tc.want == NotReproduced && got.Why == "" {
				t.Error("a finding not reproduced gives no reason")
			}
		})
	}
}

func TestWriteVerdictsCounts(t *testing.T) {
	var b bytes.Buffer
	WriteVerdicts(&b, []FindingVerdict{
		{Paper: "000", Claim: "a | b", Verdict: Reproduced},
		{Paper: "002", Claim: "c", Verdict: NotReproduced, Why: "d"},
	})
	for _, want := range []string{`| 000 | a \| b |`, "| not yet run | **reproduced** | - |", "2 findings: 1 reproduced, 0 in shape only, 1 not reproduced, 0 not compared."} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
}
