package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/palette/brewer"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ndncc/ndncc/experiment"
)

// heatGrid is a pipeline x arena grid of values for plotter.HeatMap:
// column c is pipeline c, row r arena r (the first arena at the top).
type heatGrid struct {
	v [][]float64 // [arena][pipeline]
}

func (g heatGrid) Dims() (c, r int)   { return len(g.v[0]), len(g.v) }
func (g heatGrid) Z(c, r int) float64 { return g.v[len(g.v)-1-r][c] }
func (g heatGrid) X(c int) float64    { return float64(c) }
func (g heatGrid) Y(r int) float64    { return float64(r) }

// TournamentHeatMaps draws the tournament as two heat maps, pipeline x
// arena: completion time over the limit (base-time.png, .svg) and mean
// queueing delay (base-queue.png, .svg). Each cell is labelled with its
// value; an incomplete run is drawn at the top of the scale and labelled
// "inc.". It returns the files written.
func TournamentHeatMaps(base string, rep *experiment.TournamentReport) ([]string, error) {
	if len(rep.Arenas) == 0 || len(rep.Pipelines) == 0 {
		return nil, fmt.Errorf("tournament heat map: no results")
	}
	var out []string
	maps := []struct {
		suffix, title string
		value         func(experiment.TournamentCell) float64
		label         string
		top           float64
	}{
		{"time", "completion time over the limit (1 = the link's limit; red: 2 or more)",
			func(c experiment.TournamentCell) float64 { return c.OverLimit }, "%.2f", 2},
		{"queue", "mean queueing delay, ms (red: 50 ms or more)",
			func(c experiment.TournamentCell) float64 { return c.QueueMs }, "%.1f", 50},
	}
	for _, m := range maps {
		g := heatGrid{}
		var labels plotter.XYLabels
		for i := range rep.Arenas {
			row := make([]float64, len(rep.Pipelines))
			for j := range rep.Pipelines {
				c := rep.Cells[i][j]
				text := fmt.Sprintf(m.label, m.value(c))
				v := m.value(c)
				if !c.Complete {
					v, text = m.top, "inc."
				}
				row[j] = math.Min(v, m.top)
				labels.XYs = append(labels.XYs, plotter.XY{X: float64(j), Y: float64(len(rep.Arenas) - 1 - i)})
				labels.Labels = append(labels.Labels, text)
			}
			g.v = append(g.v, row)
		}
		files, err := heatMap(base+"-"+m.suffix, m.title, g, labels, rep, m.top)
		if err != nil {
			return out, err
		}
		out = append(out, files...)
	}
	return out, nil
}

func heatMap(base, title string, g heatGrid, labels plotter.XYLabels, rep *experiment.TournamentReport, top float64) ([]string, error) {
	pal, err := brewer.GetPalette(brewer.TypeSequential, "YlOrRd", 9)
	if err != nil {
		return nil, fmt.Errorf("tournament heat map: %w", err)
	}
	p := newPlot(title, "pipeline", "arena")
	p.Title.TextStyle.Font = font.From(sans, 11)
	h := plotter.NewHeatMap(g, pal)
	h.Min, h.Max = lowest(g), top
	if h.Min >= h.Max {
		h.Min = h.Max - 1
	}
	p.Add(h)
	l, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, fmt.Errorf("tournament heat map: %w", err)
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font = font.From(sans, 8)
		l.TextStyle[i].Color = color.Black
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
	p.Add(l)
	var xt, yt []plot.Tick
	for j, name := range rep.Pipelines {
		xt = append(xt, plot.Tick{Value: float64(j), Label: name})
	}
	for i, a := range rep.Arenas {
		yt = append(yt, plot.Tick{Value: float64(len(rep.Arenas) - 1 - i), Label: a.Name})
	}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.ConstantTicks(xt), plot.ConstantTicks(yt)
	p.X.Min, p.X.Max = -0.5, float64(len(rep.Pipelines))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(rep.Arenas))-0.5
	p.X.Tick.Label.Font, p.Y.Tick.Label.Font = font.From(sans, 9), font.From(sans, 9)
	w := vg.Length(1.6+0.9*float64(len(rep.Pipelines))) * vg.Inch
	ht := vg.Length(1.0+0.28*float64(len(rep.Arenas))) * vg.Inch
	var out []string
	for _, ext := range []string{"png", "svg"} {
		path := base + "." + ext
		if err := p.Save(w, ht, path); err != nil {
			return out, fmt.Errorf("tournament heat map %s: %w", path, err)
		}
		out = append(out, path)
	}
	return out, nil
}

// lowest is the least value of the grid.
func lowest(g heatGrid) float64 {
	m := math.Inf(1)
	for _, row := range g.v {
		for _, v := range row {
			m = math.Min(m, v)
		}
	}
	return m
}

// TournamentPage is the tournament's HTML page: what ran, a summary
// table per measure (pipeline x arena) and the heat maps (the files
// TournamentHeatMaps wrote).
func TournamentPage(rep *experiment.TournamentReport, pipeline string, files []string) Page {
	head := append([]string{"arena"}, rep.Pipelines...)
	measures := []struct {
		title, caption string
		cell           func(experiment.TournamentCell) string
	}{
		{"Completion time over the limit", "the last measured flow's end over the arena's limit (bytes on the wire over the bottleneck, plus one RTT); inc.: did not complete",
			func(c experiment.TournamentCell) string {
				if !c.Complete {
					return "inc."
				}
				return fmt.Sprintf("%.3f", c.OverLimit)
			}},
		{"Mean queueing delay (ms)", "mean RTT minus the least RTT any pipeline saw on the flow's path, averaged over the flows",
			func(c experiment.TournamentCell) string { return fmt.Sprintf("%.1f", c.QueueMs) }},
		{"Retransmissions / timeouts", "summed over the measured flows",
			func(c experiment.TournamentCell) string { return fmt.Sprintf("%d / %d", c.Retransmissions, c.Timeouts) }},
		{"Jain's index", "over the flows' wire bytes while all were active (late-starter: over each flow's own throughput); – for one flow",
			func(c experiment.TournamentCell) string {
				if c.Jain == 0 {
					return "–"
				}
				return fmt.Sprintf("%.3f", c.Jain)
			}},
	}
	var tables []Table
	for _, m := range measures {
		t := Table{Title: m.title, Caption: m.caption, Header: head}
		for i, a := range rep.Arenas {
			row := []string{a.Name}
			for j := range rep.Pipelines {
				row = append(row, m.cell(rep.Cells[i][j]))
			}
			t.Rows = append(t.Rows, row)
		}
		tables = append(tables, t)
	}
	arenas := Table{Title: "Arenas", Header: []string{"arena", "what", "limit (s)"}}
	for _, a := range rep.Arenas {
		doc := a.Doc
		if a.NoProcessing {
			doc += " (forwarders take no processing time)"
		}
		arenas.Rows = append(arenas.Rows, []string{a.Name, doc, fmt.Sprintf("%.2f", a.LimitS)})
	}
	vs := rep.Verdicts(pipeline)
	wins, lows := experiment.Score(vs)
	return Page{
		Title:      "tournament — every pipeline in every arena",
		Experiment: "tournament",
		Description: fmt.Sprintf(`Every pipeline, each with its defaults (fixed: window 32), fetches in every arena (random seed 1).
%s wins or ties (within %.0f%%) on completion time in %d of %d arenas and has the lowest queueing
delay, or within %.0f%% of it, in %d (docs/tournament.md says where not, and why).`,
			pipeline, experiment.TimeTie*100, wins, len(vs), experiment.QueueTie*100, lows),
		Tables:  append([]Table{arenas}, tables...),
		Summary: files,
	}
}
