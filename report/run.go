package report

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// DefaultMinQueue is the queue length, in packets, a link must reach for
// PlotRun to chart it when PlotOptions.Links is empty.
const DefaultMinQueue = 2

// PlotOptions controls PlotRun. The zero value is ready to use.
type PlotOptions struct {
	// Title prefixes every chart title, e.g. a scenario or variant name.
	Title string
	// Links selects the queue charts by link direction "FROM-TO", as in
	// the trace file queue-FROM-TO.csv. Empty: every link whose queue
	// reached DefaultMinQueue packets. Naming a link without a queue
	// trace is an error.
	Links []string
	// MaxPoints bounds the points drawn per series (0: DefaultMaxPoints);
	// longer series are downsampled, keeping peaks and dips.
	MaxPoints int
	// Formats lists the image formats to write: "png", "svg" (nil: both).
	Formats []string
	// SkipMissing skips Links that have no queue trace in the directory
	// (a link that queued nothing in this run) instead of failing.
	SkipMissing bool
}

// BusyQueues lists the link directions ("FROM-TO") whose queue reached
// DefaultMinQueue packets in the traces in dir: the queues PlotRun charts
// by default.
func BusyQueues(dir string) ([]string, error) {
	run, err := loadRun(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, q := range run.queues {
		if q.maxPackets >= DefaultMinQueue {
			out = append(out, q.link)
		}
	}
	return out, nil
}

// PlotRun reads the CSV traces that `ndncc sim --out DIR` wrote into dir
// and writes charts beside them, each as every requested format:
//
//	cwnd.EXT             congestion window (solid) and ssthresh (dashed) of every flow over time
//	rate.EXT             receive rate (goodput) of every flow over time
//	rtt-ID.EXT           per flow: each segment's RTT sample, SRTT and RTO
//	queue-FROM-TO.EXT    per chosen link: queue length, and cumulative drops and marks if any
//	forwarding-NODE.EXT  per multipath router (pcon, pi, cf): the percentage of its Interests
//	                     sent on each face over time, and pcon's forwarding shares
//
// It returns the paths written, in that order.
func PlotRun(dir string, opts PlotOptions) ([]string, error) {
	formats, err := checkFormats(opts.Formats)
	if err != nil {
		return nil, err
	}
	if opts.MaxPoints < 0 {
		return nil, fmt.Errorf("plot run: MaxPoints %d is negative", opts.MaxPoints)
	}
	if opts.MaxPoints == 0 {
		opts.MaxPoints = DefaultMaxPoints
	}
	run, err := loadRun(dir)
	if err != nil {
		return nil, err
	}
	queues, err := chooseQueues(run, opts.Links, dir, opts.SkipMissing)
	if err != nil {
		return nil, err
	}
	type named struct {
		name string
		fig  *figure
	}
	var figs []named
	if f := cwndFigure(run, opts); f != nil {
		figs = append(figs, named{"cwnd", f})
	}
	if f := rateFigure(run, opts); f != nil {
		figs = append(figs, named{"rate", f})
	}
	for _, fl := range run.flows {
		if len(fl.rtt) > 0 {
			figs = append(figs, named{"rtt-" + fl.id, rttFigure(fl, opts)})
		}
	}
	for _, q := range queues {
		figs = append(figs, named{"queue-" + q.link, queueFigure(q, run.end, opts)})
	}
	for _, ft := range run.forwarding {
		figs = append(figs, named{"forwarding-" + ft.node, forwardingFigure(ft, run.end, opts)})
	}
	var written []string
	for _, n := range figs {
		files, err := n.fig.save(filepath.Join(dir, n.name), formats)
		written = append(written, files...)
		if err != nil {
			return written, err
		}
	}
	return written, nil
}

// chooseQueues picks the links to chart: the named ones, or those whose
// queue reached DefaultMinQueue packets.
func chooseQueues(run *runTraces, links []string, dir string, skipMissing bool) ([]*queueTraces, error) {
	if len(links) == 0 {
		var out []*queueTraces
		for _, q := range run.queues {
			if q.maxPackets >= DefaultMinQueue {
				out = append(out, q)
			}
		}
		return out, nil
	}
	var out []*queueTraces
	for _, l := range links {
		var found *queueTraces
		for _, q := range run.queues {
			if q.link == l {
				found = q
			}
		}
		if found == nil && skipMissing {
			continue
		}
		if found == nil {
			var have []string
			for _, q := range run.queues {
				have = append(have, q.link)
			}
			return nil, fmt.Errorf("plot run: no queue trace for link %q in %s (have: %s)", l, dir, strings.Join(have, ", "))
		}
		out = append(out, found)
	}
	return out, nil
}

func title(opts PlotOptions, what string) string {
	if opts.Title == "" {
		return what
	}
	return opts.Title + ": " + what
}

// line returns a styled line plotter of the downsampled points.
func line(pts plotter.XYs, max int, c color.Color, width vg.Length, step bool) chunkedLine {
	l := &plotter.Line{XYs: downsample(pts, max), LineStyle: draw.LineStyle{Color: c, Width: width}}
	if step {
		l.StepStyle = plotter.PostStep
	}
	return chunkedLine{l}
}

// strokeChunk is the most points stroked as one path. The rasterizer's
// cost grows faster than linearly with a path's length: a 5000-point
// sawtooth as one path takes seconds, as 40 paths milliseconds.
const strokeChunk = 128

// chunkedLine draws a line as consecutive shorter paths that share their
// end points, which looks the same and renders fast.
type chunkedLine struct{ *plotter.Line }

// Plot implements plot.Plotter.
func (l chunkedLine) Plot(c draw.Canvas, p *plot.Plot) {
	pts := l.XYs
	if len(pts) <= strokeChunk {
		l.Line.Plot(c, p)
		return
	}
	part := *l.Line
	for start := 0; start < len(pts)-1; start += strokeChunk - 1 {
		part.XYs = pts[start:min(start+strokeChunk, len(pts))]
		part.Plot(c, p)
	}
}

// extend holds a step series' last value until end, so that a window
// that never changes is still drawn across the run.
func extend(pts plotter.XYs, end float64) plotter.XYs {
	if n := len(pts); n > 0 && pts[n-1].X < end {
		return append(pts[:n:n], plotter.XY{X: end, Y: pts[n-1].Y})
	}
	return pts
}

func cwndFigure(run *runTraces, opts PlotOptions) *figure {
	p := newPlot(title(opts, "congestion window"), "time (s)", "window (packets)")
	lg := newLegend()
	count := 0
	var cwndMax, ssMax float64
	unlimited := false
	for i, f := range run.flows {
		if len(f.cwnd) == 0 {
			continue
		}
		count++
		st := styleOf(i)
		c := st.color
		// No threshold yet (an initial ssthresh of inf): nothing to draw.
		finite := slices.DeleteFunc(slices.Clone(f.ssthresh), func(pt plotter.XY) bool { return math.IsInf(pt.Y, 1) })
		unlimited = unlimited || len(finite) < len(f.ssthresh)
		cw := line(extend(f.cwnd, run.end), opts.MaxPoints, c, vg.Points(1.5), true)
		if len(finite) > 0 {
			ss := line(extend(finite, run.end), opts.MaxPoints, c, vg.Points(1), true)
			ss.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(ss)
		}
		cw.Dashes = st.dashes
		p.Add(cw)
		lg.Add(f.id, cw)
		for _, pt := range f.cwnd {
			cwndMax = max(cwndMax, pt.Y)
		}
		for _, pt := range finite {
			ssMax = max(ssMax, pt.Y)
		}
	}
	if count == 0 {
		return nil
	}
	key := &plotter.Line{LineStyle: draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1),
		Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}}
	lg.Add("ssthresh", key)
	// An initial ssthresh far above the window (a "no limit yet" value)
	// would flatten the window to the floor: show ssthresh only where it is
	// within twice the largest window.
	top := cwndMax
	for _, f := range run.flows {
		for _, pt := range f.ssthresh {
			if pt.Y <= 2*cwndMax && pt.Y > top && !math.IsInf(pt.Y, 1) {
				top = pt.Y
			}
		}
	}
	p.X.Min, p.X.Max = 0, run.end
	p.Y.Min, p.Y.Max = 0, max(top*1.05, 1)
	if ssMax > top*1.05 {
		lg.Add(fmt.Sprintf("(ssthresh up to %.0f clipped)", ssMax))
	}
	if unlimited {
		lg.Add("(no ssthresh before the first decrease)")
	}
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// rateSmoothing is the width, in seconds, of the moving average drawn
// over the raw receive-rate buckets.
const rateSmoothing = 1.0

func rateFigure(run *runTraces, opts PlotOptions) *figure {
	p := newPlot(title(opts, "receive rate (goodput)"), "time (s)", "goodput (kbit/s)")
	lg := newLegend()
	var means []plot.Plotter // drawn over every raw series
	bucket := math.Inf(1)
	for i, f := range run.flows {
		if len(f.rate) == 0 {
			continue
		}
		raw := line(f.rate, opts.MaxPoints, faded(seriesColor(i)), vg.Points(0.8), true)
		mean := line(movingAverage(f.rate, rateSmoothing), opts.MaxPoints, seriesColor(i), vg.Points(2), false)
		mean.Dashes = styleOf(i).dashes
		p.Add(raw)
		means = append(means, mean)
		lg.Add(f.id, mean)
		for k := 1; k < len(f.rate); k++ {
			if d := f.rate[k].X - f.rate[k-1].X; d > 0 && d < bucket {
				bucket = d
			}
		}
	}
	if len(means) == 0 {
		return nil
	}
	p.Add(means...)
	if !math.IsInf(bucket, 1) {
		lg.Add(fmt.Sprintf("(thin: per %.0f ms, bold: %.0f s mean)", bucket*1000, rateSmoothing))
	}
	p.X.Min, p.X.Max = 0, run.end
	p.Y.Min = 0
	p.Y.Max *= 1.05
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// faded is c at a third of its opacity.
func faded(c color.Color) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 85}
}

// movingAverage returns, at each point, the mean of the points whose x
// lies within width/2 of it. pts must be sorted by x.
func movingAverage(pts plotter.XYs, width float64) plotter.XYs {
	out := make(plotter.XYs, len(pts))
	var sum float64
	lo, hi := 0, 0 // the window is pts[lo:hi]
	for i, pt := range pts {
		for hi < len(pts) && pts[hi].X <= pt.X+width/2 {
			sum += pts[hi].Y
			hi++
		}
		for pts[lo].X < pt.X-width/2 {
			sum -= pts[lo].Y
			lo++
		}
		out[i] = plotter.XY{X: pt.X, Y: sum / float64(hi-lo)}
	}
	return out
}

func rttFigure(f *flowTraces, opts PlotOptions) *figure {
	p := newPlot(title(opts, "RTT and RTO per segment, flow "+f.id), "segment number", "time (ms)")
	lg := newLegend()
	measured := measuredRTT(f.rtt)
	samples := &plotter.Scatter{XYs: downsample(measured, opts.MaxPoints),
		GlyphStyle: draw.GlyphStyle{Color: seriesColor(0), Radius: vg.Points(1.3), Shape: draw.CircleGlyph{}}}
	srtt := line(f.srtt, opts.MaxPoints, seriesColor(2), vg.Points(1.2), false)
	rto := line(f.rto, opts.MaxPoints, seriesColor(1), vg.Points(1.5), false)
	p.Add(samples, srtt, rto)
	lg.Add("RTT sample", samples)
	lg.Add("SRTT", srtt)
	lg.Add("RTO", rto)
	if n := len(f.rtt) - len(measured); n > 0 {
		lg.Add(fmt.Sprintf("(%d retransmitted: no sample)", n))
	}
	p.Y.Min = 0
	p.Y.Max *= 1.05
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

// measuredRTT drops the rows of retransmitted segments, whose RTT is
// ambiguous (Karn's rule) and traced as 0.
func measuredRTT(rtt plotter.XYs) plotter.XYs {
	out := make(plotter.XYs, 0, len(rtt))
	for _, pt := range rtt {
		if pt.Y > 0 {
			out = append(out, pt)
		}
	}
	return out
}

func queueFigure(q *queueTraces, end float64, opts PlotOptions) *figure {
	p := newPlot(title(opts, "queue "+strings.Replace(q.link, "-", " → ", 1)), "time (s)", "queue (packets)")
	lg := newLegend()
	l := line(q.packets, opts.MaxPoints, seriesColor(0), vg.Points(1), false)
	p.Add(l)
	lg.Add("queue length", l)
	p.X.Min, p.X.Max = 0, end
	p.Y.Min, p.Y.Max = 0, max(q.maxPackets*1.05, 1)
	fig := &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
	drops, marks := last(q.drops), last(q.marks)
	if drops == 0 && marks == 0 {
		return fig
	}
	p.X.Label.Text = ""
	b := newPlot("", "time (s)", "cumulative count")
	blg := newLegend()
	if drops > 0 {
		d := line(q.drops, opts.MaxPoints, seriesColor(1), vg.Points(1.5), true)
		b.Add(d)
		blg.Add(fmt.Sprintf("drops (%.0f)", drops), d)
	}
	if marks > 0 {
		m := line(q.marks, opts.MaxPoints, seriesColor(4), vg.Points(1.5), true)
		b.Add(m)
		blg.Add(fmt.Sprintf("marks (%.0f)", marks), m)
	}
	b.X.Min, b.X.Max = 0, end
	b.Y.Min = 0
	b.Y.Max *= 1.05
	fig.panels[0].weight = 0.62
	fig.panels = append(fig.panels, panel{plot: b, legend: blg, weight: 0.38})
	return fig
}

// forwardingSmoothing is the width, in seconds, of the moving average
// drawn over a router's per-interval forwarding percentages.
const forwardingSmoothing = 1.0

// forwardingFigure draws, per face of a multipath router, the percentage
// of its Interests it forwarded there: thin per sampling interval, bold
// averaged over forwardingSmoothing; pcon's own forwarding shares (the
// split it draws new Interests from) dashed.
func forwardingFigure(ft *forwardingTraces, end float64, opts PlotOptions) *figure {
	p := newPlot(title(opts, "forwarding at "+ft.node+": share of its Interests per face"), "time (s)", "Interests forwarded (%)")
	lg := newLegend()
	var bold []plot.Plotter
	bucket := math.Inf(1)
	for i, nb := range ft.neighbors {
		pts := ft.percent[i]
		if len(pts) == 0 {
			continue
		}
		c := seriesColor(i)
		p.Add(line(pts, opts.MaxPoints, faded(c), vg.Points(0.8), true))
		mean := line(movingAverage(pts, forwardingSmoothing), opts.MaxPoints, c, vg.Points(2), false)
		mean.Dashes = styleOf(i).dashes
		bold = append(bold, mean)
		lg.Add("to "+nb, mean)
		for k := 1; k < len(pts); k++ {
			if d := pts[k].X - pts[k-1].X; d > 0 && d < bucket {
				bucket = d
			}
		}
	}
	p.Add(bold...)
	for _, prefix := range ft.prefixes {
		for i, nb := range ft.neighbors {
			pts := ft.shares[prefix][i]
			if len(pts) == 0 {
				continue
			}
			l := line(extend(pts, end), opts.MaxPoints, seriesColor(i), vg.Points(1.2), true)
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
			p.Add(l)
			if len(ft.prefixes) == 1 {
				lg.Add("pcon share, "+nb, l)
			} else if i == 0 {
				lg.Add("pcon shares ("+prefix+", ...)", l)
			}
		}
	}
	if !math.IsInf(bucket, 1) {
		lg.Add(fmt.Sprintf("(thin: per %.0f ms, bold: %.0f s mean)", bucket*1000, forwardingSmoothing))
	}
	p.X.Min, p.X.Max = 0, end
	p.Y.Min, p.Y.Max = 0, 105
	return &figure{panels: []panel{{plot: p, legend: lg, weight: 1}}}
}

func last(pts plotter.XYs) float64 {
	if len(pts) == 0 {
		return 0
	}
	return pts[len(pts)-1].Y
}
