package report

import (
	"fmt"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/ndncc/ndncc/experiment"
)

// FindingsSweepChart draws paper 001's sensitivity sweep as base.png and
// base.svg: one panel per finding, over bottleneck rate (x, Mbit/s) and
// buffer (y, bandwidth-delay products), a filled dot where the finding
// holds and a ring where it does not; a last panel gives the number of
// findings that hold at each point. titles are the panels' short names,
// one per finding; plausibleMaxMbps, if positive, is drawn as a dashed
// line: the plausible region lies left of it.
func FindingsSweepChart(base string, points []experiment.FindingsPoint, titles []string, plausibleMaxMbps float64) ([]string, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("findings sweep chart: no points")
	}
	var rates, bufs []float64
	for _, p := range points {
		if len(p.Findings) != len(titles) {
			return nil, fmt.Errorf("findings sweep chart: point %v Mbit/s, %v BDP has %d findings, want %d", p.RateMbps, p.BufferBDP, len(p.Findings), len(titles))
		}
		rates, bufs = append(rates, p.RateMbps), append(bufs, p.BufferBDP)
	}
	xmin, xmax := slices.Min(rates)/1.6, slices.Max(rates)*1.6
	ymin, ymax := slices.Min(bufs)/1.8, slices.Max(bufs)*1.8
	panel := func(title string) *plot.Plot {
		p := newPlot(title, "bottleneck rate (Mbit/s)", "buffer (BDP)")
		p.Title.TextStyle.Font = font.From(sans, 10)
		p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
		p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = xmin, xmax, ymin, ymax
		for _, a := range []*plot.Axis{&p.X, &p.Y} {
			a.Label.TextStyle.Font = font.From(sans, 9)
			a.Tick.Label.Font = font.From(sans, 8)
		}
		if plausibleMaxMbps > 0 {
			l, err := plotter.NewLine(plotter.XYs{{X: plausibleMaxMbps, Y: ymin}, {X: plausibleMaxMbps, Y: ymax}})
			if err == nil {
				l.Color, l.Dashes = color.Gray{Y: 100}, []vg.Length{vg.Points(4), vg.Points(3)}
				p.Add(l)
			}
		}
		return p
	}
	var plots []*plot.Plot
	for i, title := range titles {
		p := panel(fmt.Sprintf("F%d %s", i+1, title))
		var yes, no plotter.XYs
		for _, pt := range points {
			xy := plotter.XY{X: pt.RateMbps, Y: pt.BufferBDP}
			if pt.Findings[i].Holds {
				yes = append(yes, xy)
			} else {
				no = append(no, xy)
			}
		}
		for _, set := range []struct {
			xys   plotter.XYs
			shape draw.GlyphDrawer
			c     color.Color
		}{{yes, draw.CircleGlyph{}, seriesColor(2)}, {no, draw.RingGlyph{}, color.Gray{Y: 120}}} {
			if len(set.xys) == 0 {
				continue
			}
			s, err := plotter.NewScatter(set.xys)
			if err != nil {
				return nil, fmt.Errorf("findings sweep chart: %w", err)
			}
			s.GlyphStyle = draw.GlyphStyle{Shape: set.shape, Color: set.c, Radius: vg.Points(4)}
			p.Add(s)
		}
		plots = append(plots, p)
	}
	total := panel(fmt.Sprintf("findings that hold (of %d)", len(titles)))
	var xys plotter.XYs
	var labels []string
	for _, pt := range points {
		xys = append(xys, plotter.XY{X: pt.RateMbps, Y: pt.BufferBDP})
		labels = append(labels, fmt.Sprint(pt.Holding()))
	}
	lb, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return nil, fmt.Errorf("findings sweep chart: %w", err)
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font = font.From(sans, 10)
		lb.TextStyle[i].XAlign, lb.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	total.Add(lb)
	plots = append(plots, total)

	const cols = 4
	rows := (len(plots) + cols - 1) / cols
	grid := make([][]*plot.Plot, rows)
	for r := range grid {
		grid[r] = make([]*plot.Plot, cols)
		for c := range cols {
			if i := r*cols + c; i < len(plots) {
				grid[r][c] = plots[i]
			}
		}
	}
	width, height := 2*figureWidth, vg.Length(rows)*figureHeight*3/4
	var out []string
	for _, format := range []string{"png", "svg"} {
		var cw vg.CanvasWriterTo
		if format == "png" {
			cw = pngCanvas{vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(pngDPI/2))}
		} else {
			if cw, err = draw.NewFormattedCanvas(width, height, format); err != nil {
				return out, fmt.Errorf("findings sweep chart: %w", err)
			}
		}
		dc := draw.New(cw)
		dc.FillPolygon(color.White, []vg.Point{dc.Min, {X: dc.Max.X, Y: dc.Min.Y}, dc.Max, {X: dc.Min.X, Y: dc.Max.Y}})
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(14), PadY: vg.Points(14),
			PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: vg.Points(6)}
		canvases := plot.Align(grid, tiles, dc)
		for r := range grid {
			for c := range grid[r] {
				if grid[r][c] != nil {
					grid[r][c].Draw(canvases[r][c])
				}
			}
		}
		path := base + "." + format
		if err := writeTo(path, cw); err != nil {
			return out, err
		}
		out = append(out, path)
	}
	return out, nil
}
