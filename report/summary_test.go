package report

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ndncc/ndncc/experiment"
)

func TestSummaryBars(t *testing.T) {
	e, rep := testExperiment(), testReport()
	none := experiment.Figure{Text: "-"} // the paper gives no figure
	tests := []struct {
		col  int
		want []bar
	}{
		{0, []bar{
			{label: "fixed\nc1", flow: 0, mean: 23.8, lo: 23.8, hi: 23.8, legend: "c1", value: "23.8",
				paper: experiment.Figure{Text: "23.8–23.9", Min: 23.8, Max: 23.9, Numeric: true}},
			{label: "aimd\nc1", flow: 0, mean: 24.74, lo: 24.5, hi: 25.0, legend: "c1", value: "24.7",
				paper: experiment.Figure{Text: "24.5–25.0", Min: 24.5, Max: 25, Numeric: true}},
			{label: "aimd\nc2", flow: 1, mean: 25.1, lo: 25.1, hi: 25.1, legend: "c2", value: "25.1", paper: none},
		}},
		{1, []bar{
			{label: "fixed\nc1", flow: 0, mean: 0, lo: 0, hi: 0, legend: "c1", value: "0", paper: none},
			{label: "aimd\nc1", flow: 0, mean: 30, lo: 20, hi: 41, legend: "c1", value: "30", paper: none},
			{label: "aimd\nc2", flow: 1, mean: 12, lo: 12, hi: 12, legend: "c2", value: "12",
				paper: experiment.Figure{Text: "250", Min: 250, Max: 250, Numeric: true}},
		}},
		{2, nil}, // complete: a yes/no flag
		{3, []bar{{label: "aimd", mean: 0.9987, lo: 0.998, hi: 0.9995, value: "0.999", paper: none}}}, // fairness: per variant
		{4, nil}, // no variant reports it
	}
	for _, tt := range tests {
		c := e.Columns[tt.col]
		if got := summaryBars(rep, c); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: bars\n got %+v\nwant %+v", c.Key, got, tt.want)
		}
	}
}

func TestSummaryCharts(t *testing.T) {
	dir := t.TempDir()
	e, rep := testExperiment(), testReport()
	files, err := SummaryCharts(dir, rep, e.Columns)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, k := range []string{"download_time_s", "retransmissions", "fairness"} {
		want = append(want, filepath.Join(dir, "summary-"+k+".png"), filepath.Join(dir, "summary-"+k+".svg"))
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("SummaryCharts wrote %v\nwant %v", files, want)
	}
	if w, h := pngSize(t, files[0]); w != 1536 || h != 768 {
		t.Errorf("summary chart is %dx%d, want 1536x768", w, h)
	}
	if _, err := SummaryCharts(dir, nil, e.Columns); err == nil || err.Error() != "summary charts: no report" {
		t.Errorf("nil report: error %v", err)
	}
}

func TestFileSafe(t *testing.T) {
	if got := fileSafe("a/b c:ü.d-e_f"); got != "a_b_c__.d-e_f" {
		t.Errorf("fileSafe = %q", got)
	}
}
