package experiment

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/sim"
)

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		x, lo, hi float64
		want      bool
	}{
		{50, 46.5, 54.9, true},
		{41.9, 46.5, 54.9, true},  // 46.5 - 4.65 = 41.85
		{41.8, 46.5, 54.9, false}, // just below
		{60.3, 46.5, 54.9, true},  // 54.9 + 5.49 = 60.39
		{60.4, 46.5, 54.9, false},
		{0, 0, 0, true},
		{1, 0, 0, false},
	} {
		if got := Within(tc.x, tc.lo, tc.hi); got != tc.want {
			t.Errorf("Within(%v, %v, %v) = %v, want %v", tc.x, tc.lo, tc.hi, got, tc.want)
		}
	}
}

func TestWithinStrict(t *testing.T) {
	for _, tc := range []struct {
		name      string
		x, lo, hi float64
		want      bool
	}{
		{"inside a range", 50, 46.5, 54.9, true},
		{"on a bound", 46.5, 46.5, 54.9, true},
		{"below a range, within 10% of it", 41.9, 46.5, 54.9, false},
		{"above a range, within 10% of it", 55, 46.5, 54.9, false},
		{"a single number, 10% below", 23.4, 26, 26, true},
		{"a single number, more than 10% below", 23.3, 26, 26, false},
		{"a single number, 10% above", 28.6, 26, 26, true},
		{"zero is exact", 0, 0, 0, true},
		{"zero is exact, missed", 0.01, 0, 0, false},
	} {
		if got := WithinStrict(tc.x, tc.lo, tc.hi); got != tc.want {
			t.Errorf("%s: WithinStrict(%v, %v, %v) = %v, want %v", tc.name, tc.x, tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestFidelityRules checks how a cell is counted under the two rules, and
// that a figure in parentheses is shown but never counted.
func TestFidelityRules(t *testing.T) {
	e := &Experiment{Name: "x", Seed: "002", Columns: []Column{{Key: "marks", Header: "marks", Format: "%.0f"}}}
	tests := []struct {
		name    string
		ours    uint64
		figure  string
		verdict Verdict
		want    Fidelity
		mark    string
	}{
		{"inside the printed range", 50, "46–55", Inside, Fidelity{Within: 1, Lenient: 1, Cells: 1}, ""},
		{"only inside the widened range", 44, "46–55", Near, Fidelity{Lenient: 1, Cells: 1}, " " + NearRange},
		{"outside both", 30, "46–55", Outside, Fidelity{Cells: 1}, " " + OutOfRange},
		{"in parentheses: shown, not counted", 1706, "(1475)", NoFigure, Fidelity{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := []sim.FlowResult{{ID: "c1", Marks: tt.ours}}
			r := &Report{Runs: 1, Variants: []VariantResult{{Name: "v", Flows: f, FlowsMin: f, FlowsMax: f,
				SeedFigures: map[string][]string{"marks": {tt.figure}}}}}
			v := &r.Variants[0]
			if got := v.Verdict(e.Columns[0], 0); got != tt.verdict {
				t.Errorf("verdict %v, want %v", got, tt.verdict)
			}
			if got := r.Fidelity(e); got != tt.want {
				t.Errorf("Fidelity %+v, want %+v", got, tt.want)
			}
			if got, want := v.MarkedCell(e.Columns[0], 0, 1), strings.TrimSpace(strings.Fields(v.Cell(e.Columns[0], 0, 1))[0]+tt.mark); got != want {
				t.Errorf("cell %q, want %q", got, want)
			}
			if got := v.SeedFigure("marks", 0); got != tt.figure {
				t.Errorf("figure shown as %q, want %q", got, tt.figure)
			}
		})
	}
}

// fidelityFixture is an experiment of two columns and a finding, and a
// report of two variants: time 31.4 against 46.5–54.9 (outside), 24.0
// against 23.8–24.1 (inside), retransmissions without a seed figure.
func fidelityFixture(holds bool) (*Experiment, *Report) {
	e := &Experiment{
		Name: "x", Seed: "003", Title: "t",
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
		},
		Findings: []Finding{{Claim: "aimd is slower", Check: func(r *Report) (bool, string) {
			return holds, "31.4 vs 24.0 s"
		}}},
	}
	flow := func(t float64) []sim.FlowResult {
		return []sim.FlowResult{{ID: "c1", DownloadTimeS: t, Retransmissions: 3}}
	}
	r := &Report{Experiment: "x", Seed: "003", Runs: 1, BaseSeed: 1, Variants: []VariantResult{
		{Name: "aimd", Flows: flow(31.44), FlowsMin: flow(31.44), FlowsMax: flow(31.44),
			SeedFigures: map[string][]string{"download_time_s": {"46.5–54.9"}}},
		{Name: "fixed", Flows: flow(24.04), FlowsMin: flow(24.04), FlowsMax: flow(24.04),
			SeedFigures: map[string][]string{"download_time_s": {"23.8–24.1"}, "retransmissions": {"-"}}},
	}}
	return e, r
}

func TestFidelity(t *testing.T) {
	for _, holds := range []bool{true, false} {
		e, r := fidelityFixture(holds)
		want := Fidelity{Within: 1, Lenient: 1, Cells: 3}
		if holds {
			want.Within, want.Lenient = 2, 2
		}
		if got := r.Fidelity(e); got != want {
			t.Errorf("holds=%v: Fidelity = %+v, want %+v", holds, got, want)
		}
	}
	e, r := fidelityFixture(false)
	if v := r.Variants[0].Verdict(e.Columns[0], 0); v != Outside {
		t.Errorf("aimd time verdict %v, want Outside", v)
	}
	if v := r.Variants[1].Verdict(e.Columns[1], 0); v != NoFigure {
		t.Errorf("fixed retx verdict %v, want NoFigure", v)
	}
}

// TestTablesMarkOutOfRange checks that the terminal and Markdown tables
// mark the out-of-range cell, list the finding and end with the count.
func TestTablesMarkOutOfRange(t *testing.T) {
	e, r := fidelityFixture(false)
	var md, term bytes.Buffer
	r.WriteMarkdown(&md, e)
	r.PrintTable(&term, e)
	for name, out := range map[string]string{"markdown": md.String(), "terminal": term.String()} {
		for _, want := range []string{"31.4 ✗", "aimd is slower", "does not hold ✗", "31.4 vs 24.0 s",
			"1 of 3 cells within the paper's range as printed (±10% for a single number); 1 of 3 within it widened by 10%."} {
			if !strings.Contains(out, want) {
				t.Errorf("%s table lacks %q:\n%s", name, want, out)
			}
		}
		if strings.Contains(out, "24.0 ✗") {
			t.Errorf("%s table marks the in-range 24.0:\n%s", name, out)
		}
	}
	if !strings.Contains(md.String(), "| `aimd` | c1 | 31.4 ✗ | 46.5–54.9 | 3 | - |") {
		t.Errorf("markdown row:\n%s", md.String())
	}
}
