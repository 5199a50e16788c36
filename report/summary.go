package report

import (
	"fmt"
	"image/color"
	"path/filepath"
	"reflect"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/sim"
)

// bar is one bar of a summary chart: a mean with its range over runs, and
// the paper's figure for it, when the paper gives a number or a range.
type bar struct {
	label         string
	flow          int // colour index
	mean, lo, hi  float64
	legend, value string
	paper         experiment.Figure
}

// SummaryCharts writes one bar chart per column of an experiment's table
// into dir, as summary-KEY.png and summary-KEY.svg: one bar per variant
// and flow (per variant for variant-level metrics such as fairness), at
// the mean over runs, with a whisker from the minimum to the maximum when
// there were several runs. Columns that are yes/no flags, or that no
// variant reports, get no chart. It returns the paths written.
func SummaryCharts(dir string, rep *experiment.Report, cols []experiment.Column) ([]string, error) {
	if rep == nil {
		return nil, fmt.Errorf("summary charts: no report")
	}
	var written []string
	for _, c := range cols {
		bars := summaryBars(rep, c)
		if len(bars) == 0 {
			continue
		}
		fig := summaryFigure(rep, c, bars)
		files, err := fig.save(filepath.Join(dir, "summary-"+fileSafe(c.Key)), []string{"png", "svg"})
		written = append(written, files...)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// summaryBars collects the bars of column c, in the table's order.
func summaryBars(rep *experiment.Report, c experiment.Column) []bar {
	format := c.Fmt()
	multiFlow := false
	for _, v := range rep.Variants {
		multiFlow = multiFlow || len(v.Flows) > 1
	}
	var bars []bar
	for _, v := range rep.Variants {
		if x, ok := v.Extra[c.Key]; ok {
			bars = append(bars, bar{label: v.Name, mean: x, lo: v.ExtraMin[c.Key], hi: v.ExtraMax[c.Key],
				value: fmt.Sprintf(format, x), paper: experiment.ParseFigure(v.SeedFigure(c.Key, 0))})
			continue
		}
		for i, f := range v.Flows {
			x, ok := numericField(f, c.Key)
			if !ok || i >= len(v.FlowsMin) || i >= len(v.FlowsMax) {
				continue
			}
			lo, _ := numericField(v.FlowsMin[i], c.Key)
			hi, _ := numericField(v.FlowsMax[i], c.Key)
			b := bar{label: v.Name, flow: i, mean: x, lo: lo, hi: hi, legend: f.ID, value: fmt.Sprintf(format, x),
				paper: experiment.ParseFigure(v.SeedFigure(c.Key, i))}
			if multiFlow {
				b.label = v.Name + "\n" + f.ID
			}
			bars = append(bars, b)
		}
	}
	return bars
}

func summaryFigure(rep *experiment.Report, c experiment.Column, bars []bar) *figure {
	what := "mean"
	if rep.Runs > 1 {
		what = fmt.Sprintf("mean of %d runs, whiskers min–max", rep.Runs)
	}
	p := newPlot(fmt.Sprintf("%s: %s (%s)", rep.Experiment, c.Header, what), "", c.Header)
	lg := newLegend()
	width := min(vg.Inch/2, vg.Length(0.7*float64(6*vg.Inch)/float64(len(bars))))
	labels := make([]string, len(bars))
	errs := &plotter.YErrorBars{LineStyle: draw.LineStyle{Width: vg.Points(1.2)}, CapWidth: vg.Points(6)}
	values := &plotter.Labels{Offset: vg.Point{Y: vg.Points(3)}}
	seen := map[string]bool{}
	top := 0.0
	for i, b := range bars {
		labels[i] = b.label
		bc := &plotter.BarChart{Values: plotter.Values{b.mean}, Width: width, Color: seriesColor(b.flow), XMin: float64(i)}
		p.Add(bc)
		if b.legend != "" && !seen[b.legend] {
			seen[b.legend] = true
			lg.Add(b.legend, bc)
		}
		errs.XYs = append(errs.XYs, plotter.XY{X: float64(i), Y: b.mean})
		errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{b.mean - b.lo, b.hi - b.mean})
		values.XYs = append(values.XYs, plotter.XY{X: float64(i), Y: max(b.hi, b.mean)})
		values.Labels = append(values.Labels, b.value)
		values.TextStyle = append(values.TextStyle, text.Style{Font: font.From(sans, 9), XAlign: draw.XCenter,
			YAlign: draw.YBottom, Handler: plot.DefaultTextHandler})
		top = max(top, b.hi, b.mean)
	}
	if rep.Runs > 1 {
		p.Add(errs)
	}
	// The paper's figure: a grey band from its minimum to its maximum (a
	// line for a single value) just right of our bar, which spans at most
	// 0.35 either side of its position.
	var paper plotter.XYs
	for i, b := range bars {
		if !b.paper.Numeric {
			continue
		}
		x := float64(i) + 0.42
		lo, hi := b.paper.Min, b.paper.Max
		if hi-lo < top*0.004 { // a single value: a visible line
			lo, hi = lo-top*0.002, hi+top*0.002
		}
		band := &plotter.Polygon{XYs: []plotter.XYs{{{X: x - 0.06, Y: lo}, {X: x + 0.06, Y: lo}, {X: x + 0.06, Y: hi}, {X: x - 0.06, Y: hi}}},
			Color: color.Gray{Y: 120}, LineStyle: draw.LineStyle{Color: color.Gray{Y: 60}, Width: vg.Points(0.5)}}
		p.Add(band)
		paper = append(paper, plotter.XY{X: x, Y: b.paper.Max})
		top = max(top, b.paper.Max)
	}
	if len(paper) > 0 {
		key := &plotter.Polygon{Color: color.Gray{Y: 120}}
		lg.Add("paper (min–max)", key)
	}
	p.Add(values)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.5, float64(len(bars))-0.5
	p.X.Tick.Label.Font = font.From(sans, 10)
	p.Y.Min, p.Y.Max = 0, max(top*1.12, 1e-9)
	if len(seen) < 2 && len(paper) == 0 {
		lg = newLegend() // one colour: a legend would say nothing
	}
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// numericField returns the numeric FlowResult field whose JSON name is
// key; yes/no and text fields do not count.
func numericField(f sim.FlowResult, key string) (float64, bool) {
	v := reflect.ValueOf(f)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		if jsonName(t.Field(i)) != key {
			continue
		}
		switch fv := v.Field(i); fv.Kind() {
		case reflect.Float64:
			return fv.Float(), true
		case reflect.Uint64:
			return float64(fv.Uint()), true
		case reflect.Int64, reflect.Int:
			return float64(fv.Int()), true
		}
		return 0, false
	}
	return 0, false
}

func jsonName(f reflect.StructField) string {
	return strings.Split(f.Tag.Get("json"), ",")[0]
}

// fileSafe keeps letters, digits, '-', '_' and '.' of s and replaces the
// rest with '_'.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '_'
	}, s)
}
