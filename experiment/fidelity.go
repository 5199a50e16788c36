package experiment

import (
	"fmt"
	"io"
	"math"
	"strconv"
)

// Tolerance is the margin of the two rules that compare our mean, as the
// table prints it, with a paper's figure. The strict rule (the headline
// count, WithinStrict) takes the paper's range as printed and widens only
// a single number by Tolerance of itself: a range is already the spread
// of the paper's own runs. The lenient rule (Within) widens every range
// to [min - Tolerance*|min|, max + Tolerance*|max|]. The papers ran each
// configuration 1-5 times on shared testbeds; 10% is about the spread of
// their own repeated runs (paper 003's AIMD times span 46.5-54.9 s).
const Tolerance = 0.10

// OutOfRange marks a cell of ours that lies outside the paper's range
// under both rules in every table (terminal, Markdown, HTML).
const OutOfRange = "✗"

// NearRange marks a cell of ours outside the paper's range as printed but
// within it widened by Tolerance: a miss under the strict rule, a hit
// under the lenient one.
const NearRange = "≈"

// Within reports whether x lies in the paper's range [lo, hi] widened by
// Tolerance (the lenient rule).
func Within(x, lo, hi float64) bool {
	return x >= lo-Tolerance*math.Abs(lo) && x <= hi+Tolerance*math.Abs(hi)
}

// WithinStrict reports whether x lies in the paper's range [lo, hi] as
// printed, or, where the paper gives a single number (lo == hi), within
// Tolerance of it (the strict rule).
func WithinStrict(x, lo, hi float64) bool {
	if lo == hi {
		return Within(x, lo, hi)
	}
	return x >= lo && x <= hi
}

// Verdict is how one cell of ours compares with the paper's figure.
type Verdict int

// Verdicts of a cell.
const (
	NoFigure Verdict = iota // the paper gives no counted figure for the cell
	Inside                  // within the paper's range (WithinStrict)
	Near                    // outside it, within it widened by Tolerance (Within)
	Outside                 // outside both
)

// Value is our mean for column c of flow, as the table prints it (rounded
// to the column's precision); ok is false where the flow has no such field.
func (v *VariantResult) Value(c Column, flow int) (float64, bool) {
	x, ok := v.Extra[c.Key]
	if !ok {
		if flow >= len(v.Flows) {
			return 0, false
		}
		if x, ok = FlowField(v.Flows[flow], c.Key); !ok {
			return 0, false
		}
	}
	if r, err := strconv.ParseFloat(fmt.Sprintf(c.Fmt(), x), 64); err == nil {
		x = r
	}
	return x, true
}

// Verdict compares our figure for column c of flow with the paper's.
func (v *VariantResult) Verdict(c Column, flow int) Verdict {
	fig := ParseFigure(v.SeedFigure(c.Key, flow))
	if !fig.Numeric {
		return NoFigure
	}
	lo, hi := fig.Min, fig.Max
	x, ok := v.Value(c, flow)
	if !ok {
		return NoFigure
	}
	switch {
	case WithinStrict(x, lo, hi):
		return Inside
	case Within(x, lo, hi):
		return Near
	}
	return Outside
}

// MarkedCell is Cell followed by OutOfRange when the cell lies outside the
// paper's range under both rules, by NearRange when only the lenient rule
// admits it.
func (v *VariantResult) MarkedCell(c Column, flow, runs int) string {
	s := v.Cell(c, flow, runs)
	switch v.Verdict(c, flow) {
	case Outside:
		s += " " + OutOfRange
	case Near:
		s += " " + NearRange
	}
	return s
}

// Finding is a claim of a paper that reports findings rather than numbers
// (paper 001): a row of the experiment's findings table, checked against
// our runs.
type Finding struct {
	Claim string
	// Check decides from a report whether the claim holds and returns the
	// figures that decide it.
	Check func(r *Report) (holds bool, figures string)
}

// FindingResult is one finding checked against a report.
type FindingResult struct {
	Claim   string `json:"claim"`
	Holds   bool   `json:"holds"`
	Figures string `json:"figures"`
}

// CheckFindings checks every finding of e against r.
func (r *Report) CheckFindings(e *Experiment) []FindingResult {
	var out []FindingResult
	for _, f := range e.Findings {
		holds, figs := f.Check(r)
		out = append(out, FindingResult{Claim: f.Claim, Holds: holds, Figures: figs})
	}
	return out
}

// Fidelity counts the cells of a report that the paper gives a counted
// figure for, those of ours within its range under the strict rule
// (Within) and under the lenient one (Lenient); each checked finding
// counts as one cell, within under both rules when it holds. A figure the
// tables show in parentheses (not in the paper's text, or counted in
// another row) is not a number here and is not counted (ParseFigure).
type Fidelity struct {
	Within  int `json:"within"`
	Lenient int `json:"within_lenient"`
	Cells   int `json:"cells"`
}

// Add returns the sum of two counts.
func (f Fidelity) Add(g Fidelity) Fidelity {
	return Fidelity{Within: f.Within + g.Within, Lenient: f.Lenient + g.Lenient, Cells: f.Cells + g.Cells}
}

// String is the sentence every table ends with.
func (f Fidelity) String() string {
	return fmt.Sprintf("%d of %d cells within the paper's range as printed (±%.0f%% for a single number); %d of %d within it widened by %.0f%%",
		f.Within, f.Cells, Tolerance*100, f.Lenient, f.Cells, Tolerance*100)
}

// Fidelity scores r against the paper's figures of e.
func (r *Report) Fidelity(e *Experiment) Fidelity {
	var f Fidelity
	for vi := range r.Variants {
		v := &r.Variants[vi]
		for i := range v.Flows {
			for _, c := range e.Columns {
				switch v.Verdict(c, i) {
				case Inside:
					f.Within++
					f.Lenient++
					f.Cells++
				case Near:
					f.Lenient++
					f.Cells++
				case Outside:
					f.Cells++
				}
			}
		}
	}
	for _, fr := range r.CheckFindings(e) {
		f.Cells++
		if fr.Holds {
			f.Within++
			f.Lenient++
		}
	}
	return f
}

// writeFidelity writes the findings table of an experiment with findings
// (Markdown when md, else plain text) and the fidelity line of one that
// reproduces a paper or has the paper's figures ("0 of 0" when the paper
// gives no figures for it).
func (r *Report) writeFidelity(w io.Writer, e *Experiment, md bool) {
	if findings := r.CheckFindings(e); len(findings) > 0 {
		fmt.Fprintln(w)
		if md {
			fmt.Fprintf(w, "| finding | holds | figures |\n|---|---|---|\n")
		}
		for _, f := range findings {
			verdict := "holds"
			if !f.Holds {
				verdict = "does not hold " + OutOfRange
			}
			if md {
				fmt.Fprintf(w, "| %s | %s | %s |\n", f.Claim, verdict, f.Figures)
			} else {
				fmt.Fprintf(w, "- %s: %s (%s)\n", f.Claim, verdict, f.Figures)
			}
		}
	}
	if f := r.Fidelity(e); f.Cells > 0 || e.Seed != "" {
		fmt.Fprintf(w, "\n%s.\n", f)
	}
}
