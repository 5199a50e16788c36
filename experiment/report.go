package experiment

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ndncc/ndncc/sim"
)

// Report is an experiment's aggregated outcome.
type Report struct {
	Experiment string          `json:"experiment"`
	Source     string          `json:"source,omitempty"` // the experiment file, if not a catalog entry
	Seed       string          `json:"paper"`            // the paper reproduced, e.g. "000" (Experiment.Seed)
	Title      string          `json:"title"`
	Runs       int             `json:"runs"`
	BaseSeed   uint64          `json:"base_seed"`
	Shard      Shard           `json:"shard"`
	Variants   []VariantResult `json:"variants"`
	Timing     sim.Timing      `json:"timing"`
	// Mode is "live" for the runs of a Runner (RunLive), "" for the
	// simulator's.
	Mode string `json:"mode,omitempty"`
	// Forwarder says which forwarder the live runs' nodes ran (emu's
	// --forwarder: ndncc, nfd, ndnd), "" for ndncc's own or the
	// scenarios' choice.
	Forwarder string `json:"forwarder,omitempty"`
	// ConsumerProgram is the program that fetched in the live runs in
	// place of ndncc's consumers (experiment --consumer-program), "" for
	// ndncc's own.
	ConsumerProgram string `json:"consumer_program,omitempty"`
	// Live is the same experiment run live (RunLive), shown beside this
	// report's figures in its tables.
	Live *Report `json:"live,omitempty"`
}

// VariantResult aggregates the runs of one variant: per flow, the mean
// (Flows), minimum and maximum of every numeric field.
type VariantResult struct {
	Name        string           `json:"name"`
	Description string           `json:"description"`
	Flows       []sim.FlowResult `json:"flows"`
	FlowsMin    []sim.FlowResult `json:"flows_min"`
	FlowsMax    []sim.FlowResult `json:"flows_max"`
	// Links are the link directions' counters, the mean over runs.
	Links       []sim.LinkResult    `json:"links,omitempty"`
	Runs        []RunResult         `json:"runs"`
	Extra       map[string]float64  `json:"-"` // means, inlined into the JSON object
	ExtraMin    map[string]float64  `json:"extra_min,omitempty"`
	ExtraMax    map[string]float64  `json:"extra_max,omitempty"`
	SeedFigures map[string][]string `json:"paper_figures,omitempty"`
	// NotRun says why a live report's variant did not run (a Runner's
	// ErrNotRunnable); it then has no flows.
	NotRun string `json:"not_run,omitempty"`
	// Lateness is how late the live runs' links ran (aggregateLateness).
	Lateness *Lateness `json:"lateness,omitempty"`
}

// RunResult is one run of a variant.
type RunResult struct {
	Seed  uint64             `json:"seed"`
	Flows []sim.FlowResult   `json:"flows"`
	Links []sim.LinkResult   `json:"links"`
	TCP   []sim.TCPResult    `json:"tcp,omitempty"`
	Extra map[string]float64 `json:"extra,omitempty"`
	// Lateness is how late a live run's links ran.
	Lateness *Lateness `json:"lateness,omitempty"`
	// NotPrinted and Programs are the live run's (LiveRun).
	NotPrinted [][]string    `json:"not_printed,omitempty"`
	Programs   []FlowProgram `json:"programs,omitempty"`
	// SignedOnDemand is the live run's (LiveRun).
	SignedOnDemand uint64 `json:"signed_on_demand,omitempty"`
}

// MarshalJSON inlines the variant-level metrics (Extra) as fields of the
// variant object, next to name and flows.
func (v VariantResult) MarshalJSON() ([]byte, error) {
	type plain VariantResult
	b, err := json.Marshal(plain(v))
	if err != nil || len(v.Extra) == 0 {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, x := range v.Extra {
		raw, _ := json.Marshal(x)
		m[k] = raw
	}
	return json.Marshal(m)
}

func (v *VariantResult) add(r *sim.Result, extra map[string]float64, late *Lateness) {
	v.Runs = append(v.Runs, RunResult{Seed: r.Seed, Flows: r.Flows, Links: r.Links, TCP: r.TCP, Extra: extra, Lateness: late})
}

// finish computes means, minima and maxima over the runs, in seed order.
func (v *VariantResult) finish() {
	sort.SliceStable(v.Runs, func(i, j int) bool { return v.Runs[i].Seed < v.Runs[j].Seed })
	v.Flows, v.FlowsMin, v.FlowsMax, v.Links = nil, nil, nil, nil
	v.Extra, v.ExtraMin, v.ExtraMax = nil, nil, nil
	if len(v.Runs) == 0 {
		return
	}
	v.Lateness = aggregateLateness(v.Runs)
	var extras []map[string]float64
	for _, r := range v.Runs {
		extras = append(extras, r.Extra)
	}
	for i := range v.Runs[0].Flows {
		mean, lo, hi := aggregateFlows(nth(v.Runs, i, func(r RunResult) []sim.FlowResult { return r.Flows }))
		v.Flows = append(v.Flows, mean)
		v.FlowsMin = append(v.FlowsMin, lo)
		v.FlowsMax = append(v.FlowsMax, hi)
	}
	for i := range v.Runs[0].Links {
		mean, _, _ := aggregate(nth(v.Runs, i, func(r RunResult) []sim.LinkResult { return r.Links }))
		v.Links = append(v.Links, mean)
	}
	if extras[0] != nil {
		v.Extra, v.ExtraMin, v.ExtraMax = map[string]float64{}, map[string]float64{}, map[string]float64{}
		for k := range extras[0] {
			var sum float64
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, e := range extras {
				x := e[k]
				sum += x
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
			v.Extra[k] = round(sum/float64(len(extras)), 4)
			v.ExtraMin[k], v.ExtraMax[k] = lo, hi
		}
	}
}

// nth collects element i of a slice of every run (of the runs that have
// one): flow i, or link direction i, of each run.
func nth[T any](runs []RunResult, i int, of func(RunResult) []T) []T {
	var out []T
	for _, r := range runs {
		if xs := of(r); i < len(xs) {
			out = append(out, xs[i])
		}
	}
	return out
}

func round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

// aggregateFlows returns the field-wise mean, min and max of runs of one
// flow (see aggregate); maps of counters are averaged key by key.
func aggregateFlows(runs []sim.FlowResult) (mean, lo, hi sim.FlowResult) {
	mean, lo, hi = aggregate(runs)
	n := float64(len(runs))
	mean.Decreases, lo.Decreases, hi.Decreases = map[string]int64{}, map[string]int64{}, map[string]int64{}
	for k := range runs[0].Decreases {
		var sum int64
		mn, mx := runs[0].Decreases[k], runs[0].Decreases[k]
		for _, r := range runs {
			x := r.Decreases[k]
			sum += x
			mn, mx = min(mn, x), max(mx, x)
		}
		mean.Decreases[k] = int64(math.Round(float64(sum) / n))
		lo.Decreases[k], hi.Decreases[k] = mn, mx
	}
	return mean, lo, hi
}

// aggregate returns the field-wise mean, min and max of runs of a result
// struct (a flow's, a link's). Strings and maps come from the first run;
// a boolean's mean and min are true only if every run's is, its max if
// any run's is.
func aggregate[T any](runs []T) (mean, lo, hi T) {
	mean, lo, hi = runs[0], runs[0], runs[0]
	mv, lv, hv := reflect.ValueOf(&mean).Elem(), reflect.ValueOf(&lo).Elem(), reflect.ValueOf(&hi).Elem()
	n := float64(len(runs))
	for f := 0; f < mv.NumField(); f++ {
		switch mv.Field(f).Kind() {
		case reflect.Float64, reflect.Uint64, reflect.Int64, reflect.Int:
			var sum float64
			min, max := math.Inf(1), math.Inf(-1)
			for _, r := range runs {
				x := num(reflect.ValueOf(r).Field(f))
				sum += x
				min, max = math.Min(min, x), math.Max(max, x)
			}
			setNum(mv.Field(f), sum/n)
			setNum(lv.Field(f), min)
			setNum(hv.Field(f), max)
		case reflect.Bool:
			all, any := true, false
			for _, r := range runs {
				b := reflect.ValueOf(r).Field(f).Bool()
				all, any = all && b, any || b
			}
			mv.Field(f).SetBool(all)
			lv.Field(f).SetBool(all)
			hv.Field(f).SetBool(any)
		}
	}
	return mean, lo, hi
}

func num(v reflect.Value) float64 {
	switch v.Kind() {
	case reflect.Float64:
		return v.Float()
	case reflect.Uint64:
		return float64(v.Uint())
	default:
		return float64(v.Int())
	}
}

// setNum stores x; integer counters keep their type, so their means are
// rounded to the nearest integer (float fields carry exact means).
func setNum(v reflect.Value, x float64) {
	switch v.Kind() {
	case reflect.Float64:
		v.SetFloat(round(x, 6))
	case reflect.Uint64:
		v.SetUint(uint64(math.Round(x)))
	default:
		v.SetInt(int64(math.Round(x)))
	}
}

// FlowField returns a numeric (or boolean, as 0/1) FlowResult field by
// its JSON name.
func FlowField(f sim.FlowResult, key string) (float64, bool) {
	v := reflect.ValueOf(f)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
		if name != key {
			continue
		}
		switch v.Field(i).Kind() {
		case reflect.Float64, reflect.Uint64, reflect.Int64, reflect.Int:
			return num(v.Field(i)), true
		case reflect.Bool:
			if v.Field(i).Bool() {
				return 1, true
			}
			return 0, true
		}
	}
	return 0, false
}

// Merge combines partial reports of one experiment into the report one
// machine would have produced (everything but timing). The parts are
// either the shards of one split (--shard: the same --runs and --seed,
// every shard once) or runs made apart, each with its own --variant and
// --seed: some variants in one part and the rest in another, or a
// variant's first runs in one and its next seeds in another. Either way
// every (variant, seed) pair comes once, and every variant ends with the
// same number of runs, of consecutive seeds. A live report (Live) is
// merged by the same rules: the parts have one or none, all run by the
// same forwarder and consumer program. The merged variants are in the
// order they first appear; OrderLike puts them in the experiment's.
func Merge(parts []*Report) (*Report, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no reports")
	}
	first := parts[0]
	out := &Report{Experiment: first.Experiment, Source: first.Source, Seed: first.Seed, Title: first.Title,
		Mode: first.Mode, Forwarder: first.Forwarder, ConsumerProgram: first.ConsumerProgram}
	byName := map[string]*VariantResult{}
	var order []string
	seen := map[int]bool{}
	var lives []*Report
	for _, p := range parts {
		if p.Experiment != first.Experiment || p.Source != first.Source {
			return nil, fmt.Errorf("merge: a report of %s and one of %s", first.Experiment, p.Experiment)
		}
		if (p.Shard.Count > 1) != (first.Shard.Count > 1) || p.Shard.Count > 1 && p.Shard.Count != first.Shard.Count {
			return nil, fmt.Errorf("merge: shard %d/%d and shard %d/%d come from different splits",
				first.Shard.Index, first.Shard.Count, p.Shard.Index, p.Shard.Count)
		}
		if first.Shard.Count > 1 {
			if p.Runs != first.Runs || p.BaseSeed != first.BaseSeed {
				return nil, fmt.Errorf("merge: shard %d/%d (runs %d, seed %d) does not match shard %d/%d (runs %d, seed %d)",
					p.Shard.Index, p.Shard.Count, p.Runs, p.BaseSeed, first.Shard.Index, first.Shard.Count, first.Runs, first.BaseSeed)
			}
			if seen[p.Shard.Index] {
				return nil, fmt.Errorf("merge: shard %d/%d given twice", p.Shard.Index, p.Shard.Count)
			}
			seen[p.Shard.Index] = true
		}
		if p.Mode != first.Mode || p.Forwarder != first.Forwarder || p.ConsumerProgram != first.ConsumerProgram {
			return nil, fmt.Errorf("merge: runs of %s and of %s", p.runBy(), first.runBy())
		}
		if (p.Live == nil) != (first.Live == nil) {
			return nil, fmt.Errorf("merge: some reports have live runs and some do not")
		}
		if p.Live != nil {
			lives = append(lives, p.Live)
		}
		for _, v := range p.Variants {
			vr, ok := byName[v.Name]
			if !ok {
				vr = &VariantResult{Name: v.Name, Description: v.Description, SeedFigures: v.SeedFigures, NotRun: v.NotRun}
				byName[v.Name] = vr
				order = append(order, v.Name)
			}
			if (vr.NotRun != "") != (v.NotRun != "") {
				return nil, fmt.Errorf("merge: variant %s ran in one report and not in another (%s)", v.Name, vr.NotRun+v.NotRun)
			}
			for _, r := range v.Runs {
				if slices.ContainsFunc(vr.Runs, func(o RunResult) bool { return o.Seed == r.Seed }) {
					return nil, fmt.Errorf("merge: variant %s: the run with seed %d is in two reports", v.Name, r.Seed)
				}
				vr.Runs = append(vr.Runs, r)
			}
		}
		out.Timing.Events += p.Timing.Events
		out.Timing.WallS += p.Timing.WallS
	}
	if first.Shard.Count > 1 && len(seen) != first.Shard.Count {
		return nil, fmt.Errorf("merge: have %d of %d shards", len(seen), first.Shard.Count)
	}
	if err := out.setRuns(byName, order, first); err != nil {
		return nil, err
	}
	if out.Timing.WallS > 0 {
		out.Timing.EventsPerS = float64(out.Timing.Events) / out.Timing.WallS
	}
	if len(lives) > 0 {
		live, err := Merge(lives)
		if err != nil {
			return nil, fmt.Errorf("live runs: %w", err)
		}
		out.Live = live
	}
	return out, nil
}

// setRuns finishes Merge's variants, in order, and sets out's Runs and
// BaseSeed: a split's, or (for runs made apart) the count and the least
// seed the variants share, which must then be consecutive.
func (out *Report) setRuns(byName map[string]*VariantResult, order []string, first *Report) error {
	out.Runs, out.BaseSeed = first.Runs, first.BaseSeed
	if first.Shard.Count <= 1 {
		out.Runs, out.BaseSeed = 0, math.MaxUint64
		for _, name := range order {
			if vr := byName[name]; vr.NotRun == "" {
				out.Runs = max(out.Runs, len(vr.Runs))
				for _, r := range vr.Runs {
					out.BaseSeed = min(out.BaseSeed, r.Seed)
				}
			}
		}
		if out.Runs == 0 {
			out.BaseSeed = first.BaseSeed
		}
	}
	for _, name := range order {
		vr := byName[name]
		if vr.NotRun == "" {
			if len(vr.Runs) != out.Runs {
				return fmt.Errorf("merge: variant %s has %d of %d runs", name, len(vr.Runs), out.Runs)
			}
			vr.finish() // sorts the runs by seed
			for i, r := range vr.Runs {
				if r.Seed != out.BaseSeed+uint64(i) {
					return fmt.Errorf("merge: variant %s has runs with seeds %s, want %d..%d", name, seedList(vr.Runs), out.BaseSeed, out.BaseSeed+uint64(out.Runs)-1)
				}
			}
		}
		out.Variants = append(out.Variants, *vr)
	}
	return nil
}

// seedList is runs' seeds, comma-separated.
func seedList(runs []RunResult) string {
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = fmt.Sprint(r.Seed)
	}
	return strings.Join(s, ",")
}

// runBy says who ran a report's runs, for Merge's errors.
func (r *Report) runBy() string {
	switch {
	case r.Mode != LiveMode:
		return "the simulator"
	case r.ConsumerProgram != "":
		return fmt.Sprintf("the emulator (forwarder %q, consumer %s)", r.Forwarder, r.ConsumerProgram)
	default:
		return fmt.Sprintf("the emulator (forwarder %q)", r.Forwarder)
	}
}

// OrderLike puts the report's variants, and its live report's, in e's
// order (Merge keeps the order they first appear in its parts).
func (r *Report) OrderLike(e *Experiment) {
	rank := map[string]int{}
	for i, v := range e.Variants {
		rank[v.Name] = i
	}
	for rep := r; rep != nil; rep = rep.Live {
		slices.SortStableFunc(rep.Variants, func(a, b VariantResult) int { return rank[a.Name] - rank[b.Name] })
	}
}

// WriteJSON writes the report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// PrintTable writes the experiment's table: one row per variant and flow,
// each column as "ours (min-max)" with the paper's figure beside it, cells
// outside the paper's range marked, then the findings and the fidelity line.
func (r *Report) PrintTable(w io.Writer, e *Experiment) {
	paper := ""
	if e.Seed != "" {
		paper = " (paper " + e.Seed + ")"
	}
	fmt.Fprintf(w, "%s — %s%s, %d run(s) per variant, seeds %d..%d\n\n", e.Name, e.Title, paper, r.Runs, r.BaseSeed, r.BaseSeed+uint64(r.Runs)-1)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, row := range r.rows(e, func(v VariantResult) string { return v.Name }) {
		fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
	}
	tw.Flush()
	r.writeLiveNotes(w)
	r.writeFidelity(w, e, false)
	if e.Description != "" {
		fmt.Fprintf(w, "\n%s\n", e.Description)
	}
}

// ShowsPaper reports whether the tables give the paper's figures beside
// ours: for an experiment that reproduces a paper, or that has figures.
func (r *Report) ShowsPaper() bool {
	if r.Seed != "" {
		return true
	}
	for _, v := range r.Variants {
		if len(v.SeedFigures) > 0 {
			return true
		}
	}
	return false
}

// rows returns the table's header and its rows, one per variant and flow:
// the variant (as name formats it), the flow, then each column's cell and,
// when ShowsPaper, the paper's figure.
func (r *Report) rows(e *Experiment, name func(VariantResult) string) [][]string {
	paper := r.ShowsPaper()
	hdr := []string{"variant", "flow"}
	for _, c := range e.Columns {
		hdr = append(hdr, c.Header)
		if r.Live != nil {
			hdr = append(hdr, "live")
		}
		if paper {
			hdr = append(hdr, "paper")
		}
	}
	if r.Live != nil {
		hdr = append(hdr, "live lateness")
	}
	out := [][]string{hdr}
	for _, v := range r.Variants {
		for i, f := range v.Flows {
			row := []string{name(v), f.ID}
			for _, c := range e.Columns {
				row = append(row, v.MarkedCell(c, i, r.Runs))
				if r.Live != nil {
					row = append(row, r.LiveCell(v, c, i))
				}
				if paper {
					row = append(row, v.SeedFigure(c.Key, i))
				}
			}
			if r.Live != nil {
				row = append(row, r.LiveLateness(v))
			}
			out = append(out, row)
		}
	}
	return out
}

// Cell formats our figure for column c of flow: the mean over runs, then
// "(min–max)" when the runs differ at the column's precision.
func (v *VariantResult) Cell(c Column, flow, runs int) string {
	format := c.Fmt()
	if x, ok := v.Extra[c.Key]; ok {
		return withRange(format, x, v.ExtraMin[c.Key], v.ExtraMax[c.Key], runs)
	}
	x, ok := FlowField(v.Flows[flow], c.Key)
	if !ok {
		return "-"
	}
	lo, _ := FlowField(v.FlowsMin[flow], c.Key)
	hi, _ := FlowField(v.FlowsMax[flow], c.Key)
	return withRange(format, x, lo, hi, runs)
}

// withRange formats a mean, followed by its range over runs when the
// range shows at the column's precision.
func withRange(format string, mean, lo, hi float64, runs int) string {
	s := fmt.Sprintf(format, mean)
	if runs > 1 {
		if l, h := fmt.Sprintf(format, lo), fmt.Sprintf(format, hi); l != h {
			s += " (" + l + "–" + h + ")"
		}
	}
	return s
}

// SeedFigure is the paper's figure for column key of flow, or "-".
func (v *VariantResult) SeedFigure(key string, flow int) string {
	figs := v.SeedFigures[key]
	if flow < len(figs) && figs[flow] != "" {
		return figs[flow]
	}
	return "-"
}

// ExperimentNames lists the catalog's names.
func ExperimentNames() []string {
	var out []string
	for _, e := range Catalog() {
		out = append(out, e.Name)
	}
	sort.Strings(out)
	return out
}
