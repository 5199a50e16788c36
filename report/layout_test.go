package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/internal/browsertest"
	"github.com/ndncc/ndncc/sim"
)

// crowdedReport is a synthetic report of n variants with long names,
// flows flows each, whose values grow with the bar's index, and, with
// live, the same variants live at 90%.
func crowdedReport(n, flows int, live bool) *experiment.Report {
	rep := &experiment.Report{Experiment: "crowded", Runs: 2}
	for v := range n {
		vr := experiment.VariantResult{Name: fmt.Sprintf("aimd-droptail-cwa-%02d", v)}
		for f := range flows {
			x := 1000 + 37.5*float64(v*flows+f)
			fl := func(k float64) sim.FlowResult {
				return sim.FlowResult{ID: fmt.Sprintf("consumer%d", f+1), GoodputKbps: x * k, RTTAvgMs: x / 10 * k}
			}
			vr.Flows = append(vr.Flows, fl(1))
			vr.FlowsMin = append(vr.FlowsMin, fl(0.97))
			vr.FlowsMax = append(vr.FlowsMax, fl(1.02))
		}
		rep.Variants = append(rep.Variants, vr)
	}
	if live {
		l := *rep
		l.Variants = nil
		for _, v := range rep.Variants {
			lv := v
			lv.Flows, lv.FlowsMin, lv.FlowsMax = nil, nil, nil
			for i := range v.Flows {
				for _, dst := range []*[]sim.FlowResult{&lv.Flows, &lv.FlowsMin, &lv.FlowsMax} {
					f := v.Flows[i]
					f.GoodputKbps *= 0.9
					f.RTTAvgMs *= 1.1
					*dst = append(*dst, f)
				}
			}
			l.Variants = append(l.Variants, lv)
		}
		rep.Live = &l
	}
	return rep
}

// TestSummaryChartLabelsDoNotOverlap lays out, at 1,280 px in headless
// Chromium, summary charts whose bar labels cannot stand level: 18 bars
// of two flows with live bars beside them (upright labels), and 60 bars
// (numbered, the key under the chart). No two texts may overlap and the
// page may not be wider than the window.
func TestSummaryChartLabelsDoNotOverlap(t *testing.T) {
	browser := browsertest.Chromium(t)
	dir := t.TempDir()
	var files []string
	for _, tc := range []struct {
		rep  *experiment.Report
		col  experiment.Column
		want string // in the SVG
	}{
		{crowdedReport(9, 2, true), experiment.Column{Key: "goodput_kbps", Header: "goodput (kbps)", Format: "%.0f"}, "live (dashed, pale)"},
		{crowdedReport(60, 1, false), experiment.Column{Key: "rtt_avg_ms", Header: "mean RTT (ms)", Format: "%.1f"}, "bars:  1 aimd-droptail-cwa-00"},
	} {
		written, err := SummaryCharts(dir, tc.rep, []experiment.Column{tc.col})
		if err != nil {
			t.Fatal(err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, "summary-"+tc.col.Key+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(svg), tc.want) {
			t.Errorf("summary-%s.svg lacks %q", tc.col.Key, tc.want)
		}
		files = append(files, written...)
	}
	if err := WriteHTML(dir, Page{Title: "crowded summary charts", Summary: files}); err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("NDNCC_KEEP_LAYOUT"); keep != "" {
		defer os.CopyFS(keep, os.DirFS(dir))
	}
	l := browsertest.CheckLayout(t, browser, filepath.Join(dir, "index.html"))
	if l.SVGs != 2 {
		t.Errorf("laid out %d SVG figures, want 2", l.SVGs)
	}
	for _, p := range l.Problems() {
		t.Error(p)
	}
}
