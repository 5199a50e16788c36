package report

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestBuildTable(t *testing.T) {
	e, rep := testExperiment(), testReport()
	tab := buildTable(rep, e.Columns)
	type row struct {
		variant, flow string
		cells         []tableCell
	}
	var got []row
	for _, g := range tab.Groups {
		for _, r := range g.Rows {
			got = append(got, row{g.Variant, r.Flow, r.Cells})
		}
	}
	want := []row{
		{"fixed", "c1", []tableCell{{"23.8", "23.8–23.9", false}, {"0", "-", false}, {"1", "-", false}, {"-", "-", false}, {"-", "-", false}}},
		{"aimd", "c1", []tableCell{{"24.7 (24.5–25.0)", "24.5–25.0", false}, {"30 (20–41)", "-", false}, {"1", "-", false}, {"0.999 (0.998–1.000)", "-", false}, {"-", "-", false}}},
		// 12 retransmissions against the seed's 250: outside, marked.
		{"aimd", "c2", []tableCell{{"25.1", "-", false}, {"12 ✗", "250", true}, {"1", "-", false}, {"0.999 (0.998–1.000)", "-", false}, {"-", "-", false}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("table rows\n got %v\nwant %v", got, want)
	}
	if tab.Groups[1].Description != "AIMD, one loss event per RTT" {
		t.Errorf("variant description = %q", tab.Groups[1].Description)
	}
}

// TestTableMatchesPrintTable checks that the HTML table shows exactly the
// cells experiment.Report.PrintTable prints.
func TestTableMatchesPrintTable(t *testing.T) {
	e, rep := testExperiment(), testReport()
	var buf bytes.Buffer
	rep.PrintTable(&buf, e)
	lines := strings.Split(buf.String(), "\n")
	// A title line, a blank line, the header, then one line per flow.
	printed := lines[3:]
	i := 0
	for _, g := range buildTable(rep, e.Columns).Groups {
		for _, r := range g.Rows {
			fields := []string{g.Variant, r.Flow}
			for _, c := range r.Cells {
				fields = append(fields, c.Ours, c.Seed)
			}
			if want, got := strings.Join(fields, " "), strings.Join(strings.Fields(printed[i]), " "); got != want {
				t.Errorf("row %d: PrintTable %q, HTML table %q", i, got, want)
			}
			i++
		}
	}
}

func TestSeedList(t *testing.T) {
	rep := testReport()
	if got := seedList(rep); got != "7–9" {
		t.Errorf("seedList = %q, want 7–9", got)
	}
	rep.Variants[1].Runs[1].Seed = 12
	rep.Variants[1].Runs = append(rep.Variants[1].Runs, rep.Variants[1].Runs[0])
	if got := seedList(rep); got != "7–9, 12" {
		t.Errorf("seedList = %q, want \"7–9, 12\"", got)
	}
	for i := range rep.Variants {
		rep.Variants[i].Runs = nil
	}
	if got := seedList(rep); got != "7–9" {
		t.Errorf("seedList without run records = %q, want 7–9 (BaseSeed 7, 3 runs)", got)
	}
}
