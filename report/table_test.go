package report

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/sim"
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
		{"fixed", "c1", []tableCell{{"23.8", "23.8–23.9", false, ""}, {"0", "-", false, ""}, {"1", "-", false, ""}, {"-", "-", false, ""}, {"-", "-", false, ""}}},
		{"aimd", "c1", []tableCell{{"24.7 (24.5–25.0)", "24.5–25.0", false, ""}, {"30 (20–41)", "-", false, ""}, {"1", "-", false, ""}, {"0.999 (0.998–1.000)", "-", false, ""}, {"-", "-", false, ""}}},
		// 12 retransmissions against the seed's 250: outside, marked.
		{"aimd", "c2", []tableCell{{"25.1", "-", false, ""}, {"12 ✗", "250", true, ""}, {"1", "-", false, ""}, {"0.999 (0.998–1.000)", "-", false, ""}, {"-", "-", false, ""}}},
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

// TestLiveTableMatchesPrintTable checks that with live figures (experiment
// --live) the HTML table shows each column's simulated, live and paper
// figures, then the lateness, exactly as PrintTable prints them, and a
// variant that did not run live as "-" and "not run".
func TestLiveTableMatchesPrintTable(t *testing.T) {
	e, rep := testExperiment(), testReport()
	live := *testReport()
	live.Mode = experiment.LiveMode
	live.Variants = append([]experiment.VariantResult(nil), live.Variants...)
	live.Variants[0].Flows = append([]sim.FlowResult(nil), live.Variants[0].Flows...)
	live.Variants[0].Flows[0].DownloadTimeS = 24.4
	live.Variants[0].Lateness = &experiment.Lateness{MeanMs: 0.2, MaxMs: 3.5, Overruns: 4}
	live.Variants[1] = experiment.VariantResult{Name: live.Variants[1].Name, NotRun: "link r1-r2 is a TCP tunnel"}
	rep.Live = &live
	tab := buildTable(rep, e.Columns)
	if !tab.Live || tab.Groups[0].Lateness != "4 late, max 3.5 ms" || tab.Groups[1].Lateness != "not run" {
		t.Fatalf("live table: %+v", tab)
	}
	// The live 24.4 is outside the paper's 23.8–23.9 as printed, inside it
	// widened by 10%: marked as near.
	if c := tab.Groups[0].Rows[0].Cells[0]; c.Ours != "23.8" || c.Live != "24.4 "+experiment.NearRange || c.Seed != "23.8–23.9" {
		t.Errorf("fixed's time cell %+v, want ours 23.8, live 24.4 ≈, paper 23.8–23.9", c)
	}
	var buf bytes.Buffer
	rep.PrintTable(&buf, e)
	printed := strings.Split(buf.String(), "\n")[3:]
	i := 0
	for _, g := range tab.Groups {
		for _, r := range g.Rows {
			fields := []string{g.Variant, r.Flow}
			for _, c := range r.Cells {
				fields = append(fields, c.Ours, c.Live, c.Seed)
			}
			fields = append(fields, g.Lateness)
			if want, got := strings.Join(strings.Fields(strings.Join(fields, " ")), " "), strings.Join(strings.Fields(printed[i]), " "); got != want {
				t.Errorf("row %d: PrintTable %q, HTML table %q", i, got, want)
			}
			i++
		}
	}
	var html bytes.Buffer
	dir := t.TempDir()
	page := NewPage(e, rep)
	if err := WriteHTML(dir, page); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	html.Write(b)
	for _, want := range []string{"<th>sim</th><th>live</th><th>paper</th>", `<td class="live">24.4 ≈</td>`, `<td class="live">not run</td>`, "live lateness"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}
