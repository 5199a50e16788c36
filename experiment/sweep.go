package experiment

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// Axis is one swept scenario key and the values it takes, in order.
type Axis struct {
	Key    string
	Values []any    // TOML values, as scenario.ParseValue reads them
	Texts  []string // the values as written
}

// ParseAxis parses "KEY=V1,V2,..." as given to `ndncc sim --sweep`.
func ParseAxis(text string) (Axis, error) {
	k, vs, ok := strings.Cut(text, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" || strings.TrimSpace(vs) == "" {
		return Axis{}, fmt.Errorf("--sweep %q: want KEY=V1,V2,..., such as links.router1-router2.max-queue-size=8,16,32", text)
	}
	a := Axis{Key: k}
	for _, v := range strings.Split(vs, ",") {
		v = strings.TrimSpace(v)
		a.Texts = append(a.Texts, v)
		a.Values = append(a.Values, scenario.ParseValue(v))
	}
	return a, nil
}

// Sweep simulates a base scenario at every point of a grid of settings,
// Runs times each: `ndncc sim --set ... --sweep ... --runs N`.
type Sweep struct {
	Base *scenario.Scenario
	// Set is applied to the base at every point, before the point's own
	// settings.
	Set  []scenario.Assignment
	Axes []Axis
	// Columns are the table's metrics (DefaultSweepColumns when nil).
	Columns []Column
}

// DefaultSweepColumns are the flow metrics a sweep shows and plots.
func DefaultSweepColumns() []Column {
	return []Column{
		{Key: "download_time_s", Header: "time (s)", Format: "%.2f"},
		{Key: "goodput_kbps", Header: "goodput (kbps)", Format: "%.0f"},
		{Key: "throughput_kbps", Header: "throughput (kbps)", Format: "%.0f"},
		{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
		{Key: "retransmissions", Header: "retx", Format: "%.0f"},
		{Key: "loss_events", Header: "decreases", Format: "%.0f"},
		{Key: "marks", Header: "marks", Format: "%.0f"},
		{Key: "rtt_avg_ms", Header: "mean RTT (ms)", Format: "%.1f"},
	}
}

// Point is one point of a sweep's grid: a value of every axis.
type Point struct {
	Name   string
	Values []any
	Texts  []string
}

// Points returns the grid's points, the first axis varying slowest; with
// no axis, the one point of the base scenario.
func (sw *Sweep) Points() []Point {
	pts := []Point{{}}
	for _, a := range sw.Axes {
		var next []Point
		for _, p := range pts {
			for i, v := range a.Values {
				next = append(next, Point{
					Values: append(append([]any(nil), p.Values...), v),
					Texts:  append(append([]string(nil), p.Texts...), a.Texts[i]),
				})
			}
		}
		pts = next
	}
	for i := range pts {
		pts[i].Name = fmt.Sprintf("point%d", i)
		if len(sw.Axes) == 0 {
			pts[i].Name = sw.Base.Name
		}
	}
	return pts
}

// Experiment returns the sweep as an experiment whose variants are the
// points (named point0, point1, ...): each builds the base scenario with
// Set and the point's values applied. The settings are checked here, on
// every point, so that a bad one is an error before anything runs.
func (sw *Sweep) Experiment() (*Experiment, error) {
	cols := sw.Columns
	if cols == nil {
		cols = DefaultSweepColumns()
	}
	e := &Experiment{Name: sw.Base.Name, Title: "sweep of " + sw.Base.Name, Description: sw.Base.Description, Columns: cols, Runs: 1}
	for _, p := range sw.Points() {
		build := sw.pointScenario(p)
		sc, err := build()
		if err != nil {
			return nil, err
		}
		if err := sc.Validate(); err != nil {
			return nil, err
		}
		var desc []string
		for i, a := range sw.Axes {
			desc = append(desc, a.Key+"="+p.Texts[i])
		}
		e.Variants = append(e.Variants, Variant{Name: p.Name, Description: strings.Join(desc, ", "), Scenario: build})
	}
	return e, nil
}

// pointScenario builds the scenario of point p.
func (sw *Sweep) pointScenario(p Point) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc := sw.Base.Clone()
		if err := sc.Apply(sw.Set); err != nil {
			return nil, err
		}
		var as []scenario.Assignment
		for i, a := range sw.Axes {
			as = append(as, scenario.Assignment{Key: a.Key, Value: p.Values[i], Pos: sweepPos()})
		}
		if err := sc.Apply(as); err != nil {
			return nil, err
		}
		return sc, nil
	}
}

// SweepReport is a sweep's outcome: per point, the values it set and the
// flows aggregated over its runs (docs/results.md).
type SweepReport struct {
	Scenario string `json:"scenario"`
	Runs     int    `json:"runs"`
	BaseSeed uint64 `json:"base_seed"`
	// Set are the settings applied at every point, by key.
	Set map[string]any `json:"set,omitempty"`
	// Swept names the swept keys, in grid order.
	Swept  []string     `json:"swept"`
	Points []SweepPoint `json:"points"`
	Timing sim.Timing   `json:"timing"`
}

// SweepPoint is one point of a sweep.
type SweepPoint struct {
	Name string `json:"name"`
	// Set holds the point's value of every swept key.
	Set      map[string]any   `json:"set"`
	Flows    []sim.FlowResult `json:"flows"`
	FlowsMin []sim.FlowResult `json:"flows_min"`
	FlowsMax []sim.FlowResult `json:"flows_max"`
	Links    []sim.LinkResult `json:"links"`
	Runs     []RunResult      `json:"runs"`

	texts []string // the swept values as written
}

// NewSweepReport arranges an experiment report of sw's Experiment by
// point.
func (sw *Sweep) NewSweepReport(rep *Report) *SweepReport {
	out := &SweepReport{Scenario: sw.Base.Name, Runs: rep.Runs, BaseSeed: rep.BaseSeed, Swept: []string{}, Timing: rep.Timing}
	if len(sw.Set) > 0 {
		out.Set = map[string]any{}
		for _, a := range sw.Set {
			out.Set[a.Key] = a.Value
		}
	}
	for _, a := range sw.Axes {
		out.Swept = append(out.Swept, a.Key)
	}
	pts := sw.Points()
	for i, v := range rep.Variants {
		sp := SweepPoint{Name: v.Name, Set: map[string]any{}, Flows: v.Flows, FlowsMin: v.FlowsMin, FlowsMax: v.FlowsMax, Links: v.Links, Runs: v.Runs}
		for j, a := range sw.Axes {
			sp.Set[a.Key] = pts[i].Values[j]
			sp.texts = append(sp.texts, pts[i].Texts[j])
		}
		out.Points = append(out.Points, sp)
	}
	return out
}

// NewSweepPoint returns a point that set the swept keys to set (written as
// texts, in the order of the report's Swept) and whose flows' means,
// minima and maxima are flows, lo and hi.
func NewSweepPoint(set map[string]any, texts []string, flows, lo, hi []sim.FlowResult) SweepPoint {
	return SweepPoint{Set: set, texts: texts, Flows: flows, FlowsMin: lo, FlowsMax: hi}
}

// Texts returns the point's swept values as written.
func (p *SweepPoint) Texts() []string { return p.texts }

// WriteJSON writes the report as one JSON document.
func (r *SweepReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// PrintTable writes one row per point and flow: the swept values, then
// each column as "mean (min–max)".
func (r *SweepReport) PrintTable(w io.Writer, cols []Column) {
	fmt.Fprintf(w, "scenario %s: %d point(s) x %d run(s), seeds %d..%d\n", r.Scenario, len(r.Points), r.Runs, r.BaseSeed, r.BaseSeed+uint64(r.Runs)-1)
	for k, v := range r.Set {
		fmt.Fprintf(w, "set %s = %v\n", k, v)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	hdr := append(append([]string(nil), r.Swept...), "flow")
	for _, c := range cols {
		hdr = append(hdr, c.Header)
	}
	fmt.Fprintln(tw, strings.Join(hdr, "\t")+"\t")
	for _, p := range r.Points {
		v := VariantResult{Flows: p.Flows, FlowsMin: p.FlowsMin, FlowsMax: p.FlowsMax}
		for i, f := range p.Flows {
			row := append(append([]string(nil), p.texts...), f.ID)
			for _, c := range cols {
				row = append(row, v.Cell(c, i, r.Runs))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
	}
	tw.Flush()
	if r.Runs > 1 {
		fmt.Fprintf(w, "\nEach cell is the mean over the runs, then (min–max) when they differ.\n")
	}
}

// sweepPos is where a swept value comes from, for errors.
func sweepPos() topology.Pos { return topology.Pos{File: "--sweep"} }
