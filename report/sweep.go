package report

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ndncc/ndncc/experiment"
)

// SweepCharts writes one chart per column into dir, as sweep-KEY.png and
// sweep-KEY.svg: the metric's mean over runs against the first swept key
// (a numeric axis when every value is a number, else one tick per value),
// with a whisker from the minimum to the maximum when there were several
// runs; one line per flow and per value of the other swept keys. It
// returns the paths written.
func SweepCharts(dir string, rep *experiment.SweepReport, cols []experiment.Column) ([]string, error) {
	if rep == nil || len(rep.Points) == 0 {
		return nil, fmt.Errorf("sweep charts: no points")
	}
	var written []string
	for _, c := range cols {
		fig := sweepFigure(rep, c)
		if fig == nil {
			continue
		}
		files, err := fig.save(filepath.Join(dir, "sweep-"+fileSafe(c.Key)), []string{"png", "svg"})
		written = append(written, files...)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// sweepSeries is one line of a sweep chart.
type sweepSeries struct {
	label string
	pts   plotter.XYs
	errs  plotter.YErrors
}

func sweepFigure(rep *experiment.SweepReport, c experiment.Column) *figure {
	xKey := "(no swept key)"
	if len(rep.Swept) > 0 {
		xKey = rep.Swept[0]
	}
	// The x positions: the first axis's values, numeric if they all are.
	var xTexts []string
	for _, p := range rep.Points {
		t := pointText(p, 0)
		if !slices.Contains(xTexts, t) {
			xTexts = append(xTexts, t)
		}
	}
	numeric := true
	xs := map[string]float64{}
	for _, t := range xTexts {
		x, err := strconv.ParseFloat(t, 64)
		numeric = numeric && err == nil
		xs[t] = x
	}
	if !numeric {
		for i, t := range xTexts {
			xs[t] = float64(i)
		}
	}
	series := map[string]*sweepSeries{}
	var order []string
	found := false
	for _, p := range rep.Points {
		var rest []string
		for i := 1; i < len(rep.Swept); i++ {
			rest = append(rest, rep.Swept[i]+"="+pointText(p, i))
		}
		for fi, f := range p.Flows {
			mean, ok := experiment.FlowField(f, c.Key)
			if !ok {
				continue
			}
			found = true
			lo, _ := experiment.FlowField(p.FlowsMin[fi], c.Key)
			hi, _ := experiment.FlowField(p.FlowsMax[fi], c.Key)
			label := strings.Join(append([]string{f.ID}, rest...), ", ")
			s, ok := series[label]
			if !ok {
				s = &sweepSeries{label: label}
				series[label] = s
				order = append(order, label)
			}
			s.pts = append(s.pts, plotter.XY{X: xs[pointText(p, 0)], Y: mean})
			s.errs = append(s.errs, struct{ Low, High float64 }{mean - lo, hi - mean})
		}
	}
	if !found {
		return nil
	}
	p := newPlot(fmt.Sprintf("%s: %s against %s", rep.Scenario, c.Header, lastKey(xKey)), keyLabel(xKey), metricLabel(c))
	lg := newLegend()
	top := 0.0
	for i, label := range order {
		s := series[label]
		st := styleOf(i)
		l := line(s.pts, DefaultMaxPoints, st.color, vg.Points(1.5), false)
		l.Dashes = st.dashes
		sc := &plotter.Scatter{XYs: s.pts, GlyphStyle: st.glyphStyle(vg.Points(3))}
		p.Add(l, sc)
		if rep.Runs > 1 {
			eb := &plotter.YErrorBars{XYs: s.pts, YErrors: s.errs, LineStyle: draw.LineStyle{Color: st.color, Width: vg.Points(1)}, CapWidth: vg.Points(6)}
			p.Add(eb)
		}
		lg.Add(label, l, sc)
		for k, pt := range s.pts {
			top = max(top, pt.Y+s.errs[k].High)
		}
	}
	if !numeric {
		p.NominalX(xTexts...)
		p.X.Min, p.X.Max = -0.5, float64(len(xTexts))-0.5
	} else {
		lo, hi := xs[xTexts[0]], xs[xTexts[0]]
		for _, t := range xTexts {
			lo, hi = min(lo, xs[t]), max(hi, xs[t])
		}
		pad := max((hi-lo)*0.05, 0.5)
		p.X.Min, p.X.Max = lo-pad, hi+pad
	}
	if rep.Runs > 1 {
		lg.Add(fmt.Sprintf("(mean of %d runs,", rep.Runs))
		lg.Add("whiskers min–max)")
	}
	p.Y.Min, p.Y.Max = 0, max(top*1.1, 1e-9)
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// pointText is point p's value of swept key i as written ("" with no
// swept key).
func pointText(p experiment.SweepPoint, i int) string {
	if t := p.Texts(); i < len(t) {
		return t[i]
	}
	return ""
}

// lastKey is the last component of a dotted key path.
func lastKey(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[i+1:]
	}
	return key
}
