package report

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
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
// the paper's figure for it, when the paper gives a number or a range;
// with live runs, the same figure live.
type bar struct {
	label         string
	flow          int // colour index
	mean, lo, hi  float64
	legend, value string
	paper         experiment.Figure
	live          *liveBar
}

// liveBar is a bar's figure from the live runs.
type liveBar struct {
	mean, lo, hi float64
	value        string
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
		lv := liveVariant(rep, v.Name)
		if x, ok := v.Extra[c.Key]; ok {
			b := bar{label: v.Name, mean: x, lo: v.ExtraMin[c.Key], hi: v.ExtraMax[c.Key],
				value: fmt.Sprintf(format, x), paper: experiment.ParseFigure(v.SeedFigure(c.Key, 0))}
			if lv != nil {
				if y, ok := lv.Extra[c.Key]; ok {
					b.live = &liveBar{mean: y, lo: lv.ExtraMin[c.Key], hi: lv.ExtraMax[c.Key], value: fmt.Sprintf(format, y)}
				}
			}
			bars = append(bars, b)
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
			if lv != nil && i < len(lv.Flows) && i < len(lv.FlowsMin) && i < len(lv.FlowsMax) {
				y, _ := numericField(lv.Flows[i], c.Key)
				lo, _ := numericField(lv.FlowsMin[i], c.Key)
				hi, _ := numericField(lv.FlowsMax[i], c.Key)
				b.live = &liveBar{mean: y, lo: lo, hi: hi, value: fmt.Sprintf(format, y)}
			}
			bars = append(bars, b)
		}
	}
	return bars
}

// liveVariant is the live runs' variant called name, nil when there were
// no live runs or it did not run live.
func liveVariant(rep *experiment.Report, name string) *experiment.VariantResult {
	if rep.Live == nil {
		return nil
	}
	for i := range rep.Live.Variants {
		if v := &rep.Live.Variants[i]; v.Name == name && v.NotRun == "" {
			return v
		}
	}
	return nil
}

// Positions within a bar's slot (one unit wide, centred on the bar's
// index): our bar, the live one beside it when there were live runs, and
// the paper's band right of them.
const (
	simOffset   = -0.18 // with a live bar
	liveOffset  = 0.18
	paperOffset = 0.42
)

func summaryFigure(rep *experiment.Report, c experiment.Column, bars []bar) *figure {
	what := "mean"
	if rep.Runs > 1 {
		what = fmt.Sprintf("mean of %d runs, whiskers min–max", rep.Runs)
	}
	p := newPlot(fmt.Sprintf("%s: %s (%s)", rep.Experiment, c.Header, what), "", metricLabel(c))
	lg := newLegend()
	live := false
	for _, b := range bars {
		live = live || b.live != nil
	}
	share, simX := 0.7, 0.0 // of a slot, per bar
	if live {
		share, simX = 0.3, simOffset
	}
	slot := dataWidth(bars, live) / vg.Length(len(bars))
	width := min(vg.Inch/2, vg.Length(share*float64(slot)))
	labels := make([]string, len(bars))
	errs := &plotter.YErrorBars{LineStyle: draw.LineStyle{Width: vg.Points(1.2)}, CapWidth: vg.Points(6)}
	valueStyle := text.Style{Font: font.From(sans, 9), XAlign: draw.XCenter, YAlign: draw.YBottom, Handler: plot.DefaultTextHandler}
	// Values too wide for their bar's share of the slot stand upright.
	room := slot
	if live {
		room = slot / 2
	}
	// Values too tall even upright are left to the table.
	showValues := valueStyle.Height("0") <= room*9/10
	for _, b := range bars {
		for _, v := range []string{b.value, liveValue(b)} {
			if valueStyle.Width(v) > room*9/10 {
				valueStyle.Rotation, valueStyle.XAlign, valueStyle.YAlign = math.Pi/2, draw.XLeft, draw.YCenter
			}
		}
	}
	values := &plotter.Labels{Offset: vg.Point{Y: vg.Points(3)}}
	seen := map[string]bool{}
	top := 0.0
	addValue := func(x, y float64, v string) {
		if !showValues {
			return
		}
		values.XYs = append(values.XYs, plotter.XY{X: x, Y: y})
		values.Labels = append(values.Labels, v)
		values.TextStyle = append(values.TextStyle, valueStyle)
	}
	var liveKey plot.Thumbnailer
	for i, b := range bars {
		labels[i] = b.label
		bc := &plotter.BarChart{Values: plotter.Values{b.mean}, Width: width, Color: seriesColor(b.flow), XMin: float64(i) + simX}
		p.Add(bc)
		if b.legend != "" && !seen[b.legend] {
			seen[b.legend] = true
			lg.Add(b.legend, bc)
		}
		errs.XYs = append(errs.XYs, plotter.XY{X: float64(i) + simX, Y: b.mean})
		errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{b.mean - b.lo, b.hi - b.mean})
		addValue(float64(i)+simX, max(b.hi, b.mean), b.value)
		top = max(top, b.hi, b.mean)
		if b.live == nil {
			continue
		}
		l := b.live
		lc := &plotter.BarChart{Values: plotter.Values{l.mean}, Width: width, Color: faded(seriesColor(b.flow)),
			LineStyle: draw.LineStyle{Color: seriesColor(b.flow), Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(2)}},
			XMin:      float64(i) + liveOffset}
		p.Add(lc)
		liveKey = lc
		errs.XYs = append(errs.XYs, plotter.XY{X: float64(i) + liveOffset, Y: l.mean})
		errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{l.mean - l.lo, l.hi - l.mean})
		addValue(float64(i)+liveOffset, max(l.hi, l.mean), l.value)
		top = max(top, l.hi, l.mean)
	}
	if rep.Runs > 1 {
		p.Add(errs)
	}
	if liveKey != nil {
		lg.Add("live (dashed, pale)", liveKey)
	}
	// The paper's figure: a grey band from its minimum to its maximum (a
	// line for a single value) just right of our bar (and the live one).
	var paper plotter.XYs
	for i, b := range bars {
		if !b.paper.Numeric {
			continue
		}
		x := float64(i) + paperOffset
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
	labelBars(p, labels, slot)
	p.X.Min, p.X.Max = -0.5, float64(len(bars))-0.5
	headroom := 1.12
	if valueStyle.Rotation != 0 {
		// Upright values: room above the tallest bar for the longest.
		longest := vg.Length(0)
		for _, v := range values.Labels {
			longest = max(longest, valueStyle.Width(v))
		}
		headroom = 1 + float64(longest+vg.Points(8))/float64(figureHeight*3/5)
	}
	p.Y.Min, p.Y.Max = 0, max(top*headroom, 1e-9)
	if len(seen) < 2 && len(paper) == 0 && liveKey == nil {
		lg = newLegend() // one colour: a legend would say nothing
	}
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// liveValue is the text of a bar's live figure, "" without one.
func liveValue(b bar) string {
	if b.live == nil {
		return ""
	}
	return b.live.value
}

// dataWidth estimates the width of a summary chart's data area: the
// figure less the y axis and the legend beside it.
func dataWidth(bars []bar, live bool) vg.Length {
	st := text.Style{Font: font.From(sans, 10), Handler: plot.DefaultTextHandler}
	legend := vg.Length(0)
	for _, b := range bars {
		legend = max(legend, st.Width(b.legend))
	}
	if live {
		legend = max(legend, st.Width("live (dashed, pale)"))
	}
	legend = max(legend, st.Width("paper (min–max)"))
	return figureWidth - vg.Inch - legend - vg.Points(40)
}

// upright stands the x axis's labels on end, reading upward. NominalX
// keeps half the first label's width free left of the data for a level
// label; an upright one needs half its height.
func upright(p *plot.Plot) {
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	p.Y.Padding = p.X.Tick.Label.Height("0") / 2
}

// labelBars names the bars on the x axis: level when every label fits
// its slot; else upright, on one line (a variant and its flow side by
// side); and when even an upright line is too tall for its slot, by
// number (every few bars when even numbers are too tall), the key below
// the chart naming each.
func labelBars(p *plot.Plot, labels []string, slot vg.Length) {
	st := p.X.Tick.Label
	st.Font = font.From(sans, 10)
	p.X.Tick.Label = st
	wide := vg.Length(0)
	for _, l := range labels {
		wide = max(wide, st.Width(l))
	}
	if wide <= slot*9/10 {
		p.NominalX(labels...)
		return
	}
	flat := make([]string, len(labels))
	for i, l := range labels {
		flat[i] = strings.ReplaceAll(l, "\n", " ")
	}
	if st.Height("Xg") <= slot*9/10 {
		p.NominalX(flat...)
		upright(p)
		return
	}
	// Every k-th bar numbered, upright, as often as their height allows.
	k := int(math.Ceil(float64(st.Height("0") / (slot * 9 / 10))))
	nums := make([]string, len(labels))
	for i := 0; i < len(labels); i += k {
		nums[i] = strconv.Itoa(i + 1)
	}
	p.NominalX(nums...)
	upright(p)
	key := make([]string, len(flat))
	for i, l := range flat {
		key[i] = fmt.Sprintf("%d %s", i+1, l)
	}
	// The key, wrapped to the figure's width.
	var lines []string
	line := "bars:"
	for _, k := range key {
		if p.X.Label.TextStyle.Width(line+"  "+k) > figureWidth*9/10 {
			lines = append(lines, line)
			line = k
			continue
		}
		line += "  " + k
	}
	p.X.Label.Text = strings.Join(append(lines, line), "\n")
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
