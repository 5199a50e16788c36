package report

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestPlotRun(t *testing.T) {
	dir := t.TempDir()
	writeRunTraces(t, dir)
	files, err := PlotRun(dir, PlotOptions{Title: "aimd"})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range []string{"cwnd", "rate", "rtt-c1", "rtt-c2", "queue-r1-r2"} {
		want = append(want, filepath.Join(dir, n+".png"), filepath.Join(dir, n+".svg"))
	}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("PlotRun wrote %v\nwant %v", files, want)
	}
	// 8 x 4 inches at 192 dpi; the queue chart with drops has a second panel.
	sizes := map[string][2]int{"cwnd": {1536, 768}, "rate": {1536, 768}, "rtt-c1": {1536, 768}, "queue-r1-r2": {1536, 960}}
	for name, size := range sizes {
		w, h := pngSize(t, filepath.Join(dir, name+".png"))
		if w != size[0] || h != size[1] {
			t.Errorf("%s.png is %dx%d, want %dx%d", name, w, h, size[0], size[1])
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "cwnd.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<svg", "aimd: congestion window", "time (s)", "window (packets)", "ssthresh", "c1", "c2"} {
		if !strings.Contains(string(svg), s) {
			t.Errorf("cwnd.svg lacks %q", s)
		}
	}
}

func pngSize(t *testing.T, path string) (int, int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg.Width, cfg.Height
}

func TestPlotRunOptions(t *testing.T) {
	dir := t.TempDir()
	writeRunTraces(t, dir)
	files, err := PlotRun(dir, PlotOptions{Links: []string{"c1-r1"}, Formats: []string{"png"}})
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range []string{"cwnd", "rate", "rtt-c1", "rtt-c2", "queue-c1-r1"} {
		want = append(want, filepath.Join(dir, n+".png"))
	}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("PlotRun wrote %v\nwant %v", files, want)
	}
	if w, h := pngSize(t, filepath.Join(dir, "queue-c1-r1.png")); w != 1536 || h != 768 {
		t.Errorf("queue without drops is %dx%d, want one panel, 1536x768", w, h)
	}

	empty := t.TempDir()
	tests := []struct {
		name string
		dir  string
		opts PlotOptions
		err  string
	}{
		{"unknown link", dir, PlotOptions{Links: []string{"r2-r1"}},
			`plot run: no queue trace for link "r2-r1" in ` + dir + ` (have: c1-r1, r1-r2)`},
		{"bad format", dir, PlotOptions{Formats: []string{"png", "pdf"}}, `unsupported plot format "pdf" (want png or svg)`},
		{"negative points", dir, PlotOptions{MaxPoints: -1}, `plot run: MaxPoints -1 is negative`},
		{"no traces", empty, PlotOptions{},
			"no traces in " + empty + " (want cwnd-ID.csv, rtt-ID.csv, rate-ID.csv or queue-FROM-TO.csv as `ndncc sim --out` writes)"},
		{"missing dir", filepath.Join(empty, "nope"), PlotOptions{},
			"read traces: open " + filepath.Join(empty, "nope") + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PlotRun(tt.dir, tt.opts)
			if err == nil || err.Error() != tt.err {
				t.Errorf("error = %v\nwant    %s", err, tt.err)
			}
		})
	}
}

// TestChartRanges checks what the charts show of the synthetic run.
func TestChartRanges(t *testing.T) {
	dir := t.TempDir()
	writeRunTraces(t, dir)
	run, err := loadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if run.end != 2.02 {
		t.Errorf("run end = %v s, want 2.02 (the last RTT sample)", run.end)
	}
	opts := PlotOptions{MaxPoints: DefaultMaxPoints}
	// Windows reach 15; ssthresh 5 is shown, the initial 200 is clipped.
	cw := cwndFigure(run, opts).panels[0].plot
	if cw.X.Min != 0 || cw.X.Max != 2.02 || cw.Y.Min != 0 || cw.Y.Max != 15*1.05 {
		t.Errorf("cwnd axes x [%v, %v] y [%v, %v], want x [0, 2.02] y [0, 15.75]", cw.X.Min, cw.X.Max, cw.Y.Min, cw.Y.Max)
	}
	if got := extend(plotter.XYs{{X: 0, Y: 8}}, 2.02); !reflect.DeepEqual(got, plotter.XYs{{X: 0, Y: 8}, {X: 2.02, Y: 8}}) {
		t.Errorf("a fixed window is drawn as %v, want it held to the end", got)
	}
	if got := len(measuredRTT(run.flows[0].rtt)); got != 39 {
		t.Errorf("%d RTT samples drawn, want 39 (segment 17 was retransmitted)", got)
	}
	if q := queueFigure(run.queues[1], run.end, opts); len(q.panels) != 2 || q.panels[0].plot.Y.Max != 8*1.05 {
		t.Errorf("queue r1-r2: %d panels, y max %v; want 2 panels (drops), y max 8.4", len(q.panels), q.panels[0].plot.Y.Max)
	}
}

func TestMovingAverage(t *testing.T) {
	in := plotter.XYs{{X: 0, Y: 0}, {X: 0.5, Y: 3}, {X: 1, Y: 6}, {X: 1.5, Y: 9}, {X: 3, Y: 30}}
	want := plotter.XYs{{X: 0, Y: 1.5}, {X: 0.5, Y: 3}, {X: 1, Y: 6}, {X: 1.5, Y: 7.5}, {X: 3, Y: 30}}
	if got := movingAverage(in, 1); !reflect.DeepEqual(got, want) {
		t.Errorf("movingAverage = %v\nwant %v", got, want)
	}
}

func TestNiceTicks(t *testing.T) {
	labels := func(min, max float64) string {
		var out []string
		for _, tk := range (niceTicks{}).Ticks(min, max) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return strings.Join(out, " ")
	}
	tests := []struct {
		min, max float64
		want     string
	}{
		{0, 47.88, "0 10 20 30 40"},
		{0, 262.5, "0 50 100 150 200 250"},
		{0, 10240, "0 2000 4000 6000 8000 10000"},
		{0, 1.05, "0.0 0.2 0.4 0.6 0.8 1.0"},
		{-0.5, 7.5, "0 2 4 6"},
		{0, 0.021, "0.000 0.005 0.010 0.015 0.020"},
		{3, 3, "3"},
	}
	for _, tt := range tests {
		if got := labels(tt.min, tt.max); got != tt.want {
			t.Errorf("ticks(%v, %v) = %q, want %q", tt.min, tt.max, got, tt.want)
		}
	}
}

// BenchmarkPlotRunLarge plots a 100 MB transfer's traces: 102,400 RTT
// rows and window changes, 17,000 queue samples.
func BenchmarkPlotRunLarge(b *testing.B) {
	dir := b.TempDir()
	var cw, rtt, q strings.Builder
	cw.WriteString("time_s,cwnd,ssthresh\n")
	rtt.WriteString("time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms\n")
	for seg := 0; seg < 102_400; seg++ {
		t := float64(seg) * 0.00166
		fmt.Fprintf(&cw, "%.6f,%.4f,%.4f\n", t, float64(10+seg%40), 25.0)
		fmt.Fprintf(&rtt, "%.6f,%d,%.3f,%.3f,%.3f,%.3f\n", t, seg, 70+float64(seg%40), 85.0, 6.0, 200.0)
	}
	q.WriteString("time_s,packets,bytes,drops,marks\n")
	for i := 0; i < 17_000; i++ {
		fmt.Fprintf(&q, "%.3f,%d,%d,%d,%d\n", float64(i)*0.01, i%33, (i%33)*1449, i/400, 0)
	}
	for name, s := range map[string]string{"cwnd-c1.csv": cw.String(), "rtt-c1.csv": rtt.String(), "queue-r1-r2.csv": q.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := PlotRun(dir, PlotOptions{Formats: []string{"png"}}); err != nil {
			b.Fatal(err)
		}
	}
}
