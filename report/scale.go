package report

import (
	"cmp"
	"fmt"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/ndncc/ndncc/experiment"
)

// ScaleChart draws the scale experiment's cost against size as base.png
// and base.svg: wall time, events per second and memory per flow against
// the number of flows (log scale), one line per topology size, object
// size and pipeline.
func ScaleChart(base string, rep *experiment.ScaleReport) ([]string, error) {
	if len(rep.Points) == 0 {
		return nil, fmt.Errorf("scale chart: no points")
	}
	type key struct {
		routers  int
		size     int64
		pipeline string
		window   int
	}
	var keys []key
	series := map[key][]experiment.ScaleResult{}
	for _, p := range rep.Points {
		k := key{p.Routers, p.FileSize, p.Pipeline, p.Window}
		if _, ok := series[k]; !ok {
			keys = append(keys, k)
		}
		series[k] = append(series[k], p)
	}
	panels := []struct {
		title, y string
		v        func(experiment.ScaleResult) float64
	}{
		{"wall time to run", "wall time (s)", func(r experiment.ScaleResult) float64 { return r.WallS }},
		{"events per wall second", "million events/s", func(r experiment.ScaleResult) float64 { return r.EventsPerS / 1e6 }},
		{"memory per flow (at the peak of the live heap)", "KB per flow", func(r experiment.ScaleResult) float64 { return r.BytesPerFlow / 1e3 }},
	}
	f := &figure{}
	for _, pn := range panels {
		p := newPlot(pn.title, "concurrent flows", pn.y)
		p.X.Scale, p.X.Tick.Marker = plot.LogScale{}, plot.LogTicks{Prec: -1}
		lg := newLegend()
		top := 0.0
		lo, hi := 0.0, 0.0
		for i, k := range keys {
			pts := series[k]
			slices.SortFunc(pts, func(a, b experiment.ScaleResult) int { return cmp.Compare(a.Flows, b.Flows) })
			var xys plotter.XYs
			for _, r := range pts {
				xys = append(xys, plotter.XY{X: float64(r.Flows), Y: pn.v(r)})
				top = max(top, pn.v(r))
				if lo == 0 || float64(r.Flows) < lo {
					lo = float64(r.Flows)
				}
				hi = max(hi, float64(r.Flows))
			}
			st := styleOf(i)
			l := &plotter.Line{XYs: xys, LineStyle: st.lineStyle(vg.Points(1.5))}
			sc := &plotter.Scatter{XYs: xys, GlyphStyle: st.glyphStyle(vg.Points(3))}
			p.Add(l, sc)
			label := fmt.Sprintf("%d routers, %s, %s", k.routers, experiment.SizeText(k.size), k.pipeline)
			if k.window > 0 {
				label += fmt.Sprintf(" %d", k.window)
			}
			lg.Add(label, l, sc)
		}
		p.X.Min, p.X.Max = lo/1.5, hi*1.5
		p.Y.Min, p.Y.Max = 0, max(top*1.1, 1e-9)
		f.panels = append(f.panels, panel{plot: p, legend: lg, weight: 1})
	}
	return f.save(base, []string{"png", "svg"})
}
