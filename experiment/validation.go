package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// ValidationColumn is one live column of the validation tables: how the
// live runs' nodes and consumers ran.
type ValidationColumn struct {
	Key    string // the stored runs' file name part: NAME.KEY.json
	Header string
}

// ValidationColumns are the live columns, in table order.
var ValidationColumns = []ValidationColumn{
	{"ndncc", "live, ndncc fw + ndncc fetch"},
	{"nfd", "live, NFD + ndncc fetch"},
	{"nfd-catchunks", "live, NFD + ndncatchunks"},
}

// checkedColumns are the columns whose differences from the simulator
// need a reason: those with the reference forwarder.
var checkedColumns = []string{"nfd", "nfd-catchunks"}

// Thresholds over which a live figure differs from the simulator's: a
// relative difference in time or goodput, a ratio in timeouts or
// retransmissions (counts under MinCount in both are not compared).
const (
	RelThreshold   = 0.10
	RatioThreshold = 2.0
	MinCount       = 5
)

// ValidationRun is one stored column of an experiment: its report
// (simulated and live) and the machine's description and load.
type ValidationRun struct {
	Report  *Report
	Machine string
}

// ValidationExperiment is an experiment with its stored columns by key.
type ValidationExperiment struct {
	Experiment *Experiment
	Columns    map[string]*ValidationRun
}

// Reason explains the differences of one row of the validation tables
// (or of several: an empty Variant, Flow or Metrics matches any), in a
// column ("nfd", "nfd-catchunks"; empty matches both), with the
// measurement behind it.
type Reason struct {
	Experiment  string   `toml:"experiment"`
	Variant     string   `toml:"variant"`
	Flow        string   `toml:"flow"`
	Column      string   `toml:"column"`
	Metrics     []string `toml:"metrics"`
	Measurement string   `toml:"measurement"`
	Text        string   `toml:"text"`
}

func (r Reason) matches(exp, variant, flow, column, metric string) bool {
	return r.Experiment == exp && (r.Variant == "" || r.Variant == variant) && (r.Flow == "" || r.Flow == flow) &&
		(r.Column == "" || r.Column == column) && (len(r.Metrics) == 0 || slices.Contains(r.Metrics, metric))
}

// DiffMark follows a live figure that differs from the simulator's over
// the thresholds.
const DiffMark = "≠"

// validationMetric is a row of a variant's block.
type validationMetric struct {
	col     Column
	checked string // "rel", "ratio" or "" (shown, not checked)
}

var validationMetrics = []validationMetric{
	{Column{Key: "download_time_s", Header: "time (s)", Format: "%.2f"}, "rel"},
	{Column{Key: "goodput_kbps", Header: "goodput (kbit/s)", Format: "%.0f"}, "rel"},
	{Column{Key: "timeouts", Header: "timeouts", Format: "%.0f"}, "ratio"},
	{Column{Key: "retransmissions", Header: "retransmissions", Format: "%.0f"}, "ratio"},
	{Column{Key: "marks", Header: "congestion marks", Format: "%.0f"}, ""},
	{Column{Key: "rtt_avg_ms", Header: "RTT avg (ms)", Format: "%.1f"}, ""},
}

// ErrUnexplained reports differences over the thresholds that no reason
// explains, or a reason that explains nothing.
var ErrUnexplained = errors.New("validation: differences without a reason")

// WriteValidation writes the validation tables of exps in markdown: per
// experiment, per variant and flow, a row per metric with the paper's
// figure, the simulator's and each live column's, and beside each figure
// that differs from the simulator's over the thresholds the reason that
// explains it. It fails (ErrUnexplained) if a difference has no reason or
// a reason matches no difference; the tables are written anyway.
func WriteValidation(w io.Writer, exps []ValidationExperiment, reasons []Reason) error {
	used := make([]bool, len(reasons))
	var missing []string
	for _, ve := range exps {
		e := ve.Experiment
		sim := simReport(ve)
		if sim == nil {
			fmt.Fprintf(w, "### `%s`\n\nNo stored run (`scripts/validation.sh %s` runs its columns).\n\n", e.Name, e.Name)
			continue
		}
		fmt.Fprintf(w, "### `%s`\n\n%s. Runs per variant: %d (simulated and live alike).\n\n", e.Name, e.Title, sim.Runs)
		fmt.Fprintf(w, "| variant | flow | metric | paper | sim |")
		for _, c := range ValidationColumns {
			fmt.Fprintf(w, " %s |", c.Header)
		}
		fmt.Fprintf(w, " reason |\n|---|---|---|---|---|")
		for range ValidationColumns {
			fmt.Fprintf(w, "---|")
		}
		fmt.Fprintf(w, "---|\n")
		var notes []int // reasons cited under this table
		for _, v := range sim.Variants {
			for fi, f := range v.Flows {
				for _, m := range validationMetrics {
					if m.col.Key == "marks" && !anyMarks(ve, v.Name, fi) {
						continue
					}
					fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s |", v.Name, f.ID, m.col.Header, v.SeedFigure(m.col.Key, fi), v.Cell(m.col, fi, sim.Runs))
					var cited []int
					for _, c := range ValidationColumns {
						cell, differs := liveCell(ve, c.Key, v, fi, m)
						if differs {
							found := false
							for i, r := range reasons {
								if r.matches(e.Name, v.Name, f.ID, c.Key, m.col.Key) {
									used[i], found = true, true
									if !slices.Contains(cited, i) {
										cited = append(cited, i)
									}
									if !slices.Contains(notes, i) {
										notes = append(notes, i)
									}
								}
							}
							cell += " " + DiffMark
							if !found {
								missing = append(missing, fmt.Sprintf("%s %s %s %s %s", e.Name, v.Name, f.ID, c.Key, m.col.Key))
							}
						}
						fmt.Fprintf(w, " %s |", cell)
					}
					var refs []string
					for _, i := range cited {
						refs = append(refs, fmt.Sprintf("[R%d](#r%d)", i+1, i+1))
					}
					fmt.Fprintf(w, " %s |\n", strings.Join(refs, ", "))
				}
			}
			fmt.Fprintf(w, "| `%s` | | links' lateness (live) | | |", v.Name)
			for _, c := range ValidationColumns {
				fmt.Fprintf(w, " %s |", latenessCell(ve, c.Key, v.Name))
			}
			fmt.Fprintf(w, " |\n")
		}
		fmt.Fprintf(w, "\n%s: %s differs from the simulator's by more than %.0f%% (time, goodput) or %.0f× (timeouts, retransmissions, when either is %d or more).\n",
			DiffMark, "the live figure", RelThreshold*100, RatioThreshold, MinCount)
		writeValidationNotes(w, ve)
		if len(notes) > 0 {
			fmt.Fprintf(w, "\nReasons:\n\n")
			slices.Sort(notes)
			for _, i := range notes {
				r := reasons[i]
				fmt.Fprintf(w, "- <a id=\"r%d\"></a>**R%d** (%s): %s *Measured:* %s\n", i+1, i+1, reasonScope(r),
					strings.Join(strings.Fields(r.Text), " "), strings.Join(strings.Fields(r.Measurement), " "))
			}
		}
		fmt.Fprintf(w, "\n")
	}
	var stale []string
	for i, u := range used {
		if !u {
			r := reasons[i]
			stale = append(stale, fmt.Sprintf("R%d (%s)", i+1, reasonScope(r)))
		}
	}
	if len(missing) > 0 || len(stale) > 0 {
		return fmt.Errorf("%w: unexplained: %s; reasons matching no difference: %s", ErrUnexplained,
			strings.Join(missing, ", "), strings.Join(stale, ", "))
	}
	return nil
}

// reasonScope says which rows reason r covers.
func reasonScope(r Reason) string {
	parts := []string{r.Experiment}
	for _, p := range []string{r.Variant, r.Flow, r.Column} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(r.Metrics) > 0 {
		parts = append(parts, strings.Join(r.Metrics, ", "))
	}
	return strings.Join(parts, " ")
}

// simReport is the simulated report of ve: the first column's (every
// column's simulated runs are the same runs).
func simReport(ve ValidationExperiment) *Report {
	for _, c := range ValidationColumns {
		if r := ve.Columns[c.Key]; r != nil {
			return r.Report
		}
	}
	return nil
}

// liveVariantOf is column key's live result of variant name, nil when the
// column was not run; a variant that did not run live has NotRun set.
func liveVariantOf(ve ValidationExperiment, key, name string) *VariantResult {
	r := ve.Columns[key]
	if r == nil || r.Report.Live == nil {
		return nil
	}
	for i := range r.Report.Live.Variants {
		if v := &r.Report.Live.Variants[i]; v.Name == name {
			return v
		}
	}
	return nil
}

// liveCell is column key's figure of metric m for flow fi of sim variant
// v, and whether it differs from the simulator's over the thresholds (in
// a checked column).
func liveCell(ve ValidationExperiment, key string, v VariantResult, fi int, m validationMetric) (string, bool) {
	lv := liveVariantOf(ve, key, v.Name)
	switch {
	case lv == nil:
		return "not run", false
	case lv.NotRun != "":
		return "refused", false
	case fi >= len(lv.Flows):
		return "-", false
	case lv.NotPrintedKey(m.col.Key, fi):
		return NotPrintedCell, false
	}
	cell := lv.Cell(m.col, fi, ve.Columns[key].Report.Live.Runs)
	if !slices.Contains(checkedColumns, key) {
		return cell, false
	}
	s, ok1 := v.Value(m.col, fi)
	l, ok2 := lv.Value(m.col, fi)
	if !ok1 || !ok2 {
		return cell, false
	}
	return cell, Differs(m.checked, s, l)
}

// Differs reports whether live differs from sim over the thresholds:
// kind "rel" (time, goodput) by more than RelThreshold of sim, kind
// "ratio" (counts) by more than RatioThreshold times when either reaches
// MinCount.
func Differs(kind string, sim, live float64) bool {
	switch kind {
	case "rel":
		return sim != 0 && math.Abs(live-sim) > RelThreshold*math.Abs(sim)
	case "ratio":
		lo, hi := math.Min(sim, live), math.Max(sim, live)
		return hi >= MinCount && hi > RatioThreshold*lo
	}
	return false
}

// anyMarks reports whether flow fi of variant name has congestion marks
// in the simulator or any live column.
func anyMarks(ve ValidationExperiment, name string, fi int) bool {
	for _, c := range ValidationColumns {
		r := ve.Columns[c.Key]
		if r == nil {
			continue
		}
		for _, rep := range []*Report{r.Report, r.Report.Live} {
			if rep == nil {
				continue
			}
			for _, v := range rep.Variants {
				if v.Name == name && fi < len(v.Flows) && v.Flows[fi].Marks > 0 {
					return true
				}
			}
		}
	}
	return false
}

// latenessCell is column key's links' lateness for variant name: "-"
// where it did not run, "none emulated" where the run had no emulated
// link whose timers could be late (reports stored before that was told
// apart carry zeros there).
func latenessCell(ve ValidationExperiment, key, name string) string {
	lv := liveVariantOf(ve, key, name)
	if lv == nil || lv.NotRun != "" {
		return "-"
	}
	if lv.Lateness == nil || *lv.Lateness == (Lateness{}) {
		return "none emulated"
	}
	return fmt.Sprintf("max %.1f ms, mean %.2f ms", lv.Lateness.MaxMs, lv.Lateness.MeanMs)
}

// writeValidationNotes writes under an experiment's table, per column:
// the command and machine, the variants it refused and why, the
// ndncatchunks command lines and what they could not map, and the
// Interests each first router forwarded of those its consumers sent.
func writeValidationNotes(w io.Writer, ve ValidationExperiment) {
	e := ve.Experiment
	for _, c := range ValidationColumns {
		r := ve.Columns[c.Key]
		if r == nil {
			fmt.Fprintf(w, "\n**%s**: not run.\n", c.Header)
			continue
		}
		fmt.Fprintf(w, "\n**%s**: `ndncc experiment %s --live --forwarder %s%s --runs %d%s --json`; the machine:\n\n```\n%s```\n",
			c.Header, e.Name, forwarderOf(r.Report.Live), programFlag(r.Report.Live), r.Report.Runs, VariantFlags(e, r.Report), r.Machine)
		if r.Report.Live == nil {
			continue
		}
		for _, lv := range r.Report.Live.Variants {
			if lv.NotRun != "" {
				fmt.Fprintf(w, "- `%s` refused: %s\n", lv.Name, strings.TrimSpace(lv.NotRun))
				continue
			}
			if len(lv.Runs) > 0 {
				for _, p := range lv.Runs[0].Programs {
					fmt.Fprintf(w, "- `%s` %s: `%s`; not mapped: %s\n", lv.Name, p.ID, p.Command, strings.Join(p.Unmapped, "; "))
				}
			}
			if s := interestsForwarded(lv); s != "" {
				fmt.Fprintf(w, "- `%s`: %s\n", lv.Name, s)
			}
		}
	}
}

// forwarderOf is the live report's forwarder as --forwarder names it.
func forwarderOf(r *Report) string {
	if r == nil || r.Forwarder == "" {
		return "ndncc"
	}
	return r.Forwarder
}

// programFlag is the --consumer-program flag of the live report, if any.
func programFlag(r *Report) string {
	if r == nil || r.ConsumerProgram == "" {
		return ""
	}
	return " --consumer-program " + r.ConsumerProgram
}

// VariantFlags are the --variant flags that chose rep's variants, "" when
// it has all of e's.
func VariantFlags(e *Experiment, rep *Report) string {
	if len(rep.Variants) == len(e.Variants) {
		return ""
	}
	var b strings.Builder
	for _, v := range rep.Variants {
		b.WriteString(" --variant " + v.Name)
	}
	return b.String()
}

// interestsForwarded says how many Interests (mean per run) the
// consumers' nodes sent to their first router and how many that router
// sent on toward the producers: the difference is what it suppressed,
// answered from its Content Store or dropped.
func interestsForwarded(v VariantResult) string {
	consumers := map[string]bool{}
	for _, f := range v.Flows {
		consumers[f.Consumer] = true
	}
	var in, out float64
	routers := map[string]bool{}
	for _, l := range v.Links {
		if consumers[l.From] && !consumers[l.To] {
			in += float64(l.Interests)
			routers[l.To] = true
		}
	}
	for _, l := range v.Links {
		if routers[l.From] && !consumers[l.To] {
			out += float64(l.Interests)
		}
	}
	if in == 0 {
		return ""
	}
	var names []string
	for r := range routers {
		names = append(names, r)
	}
	slices.Sort(names)
	return fmt.Sprintf("Interests to the first router (%s) %.0f, on from it %.0f (%.0f fewer: suppressed, answered from its store, or lost)",
		strings.Join(names, ", "), in, out, in-out)
}
