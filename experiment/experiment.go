// Package experiment is ndncc's catalog of named experiments: each is a set
// of variants (a scenario plus overrides) that are simulated several times
// with distinct seeds, aggregated (mean, min, max) and printed as the seed
// document printed it, with the seed's own figures beside ours.
//
// It builds on package sim and must not be imported by the protocol core.
package experiment

import (
	"fmt"
	"sort"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// Experiment is one named entry of the catalog.
type Experiment struct {
	Name  string
	Seed  string // the seed document it reproduces, e.g. "000"
	Title string
	// Description says what is run and what to look for.
	Description string
	Variants    []Variant
	// Columns of the printed table, in order.
	Columns []Column
	// Runs is the default number of runs per variant.
	Runs int
}

// Variant is one configuration of an experiment.
type Variant struct {
	Name        string
	Description string
	// Scenario builds the variant's scenario.
	Scenario func() (*scenario.Scenario, error)
	// Extra computes variant-level metrics from a finished run (for
	// example a split ratio); they are averaged over runs.
	Extra func(net *sim.Network, r *sim.Result) map[string]float64
	// SeedFigures are the seed document's numbers for this variant, by
	// column key and flow index ("" when the seed gives none).
	SeedFigures map[string][]string
}

// Column is one column of an experiment's table.
type Column struct {
	Key    string // FlowResult JSON field or an Extra key
	Header string
	Format string // fmt verb for our value, e.g. "%.1f"
}

// Catalog returns every built-in experiment, sorted by name.
func Catalog() []*Experiment {
	all := []*Experiment{
		seed003Fixed(),
		seed000Linear(),
		seed000Dumbbell(),
		seed003AIMD(),
		seed001Vegas(),
		pipelines(),
		seed000LinearMarks(),
		seed002Marking(),
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Lookup finds an experiment by name.
func Lookup(name string) (*Experiment, error) {
	var names []string
	for _, e := range Catalog() {
		if e.Name == name {
			return e, nil
		}
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("no experiment %q; available: %v", name, names)
}

// Options control a run of an experiment.
type Options struct {
	Runs     int    // runs per variant (0: the experiment's default)
	BaseSeed uint64 // seed of the first run; run i uses BaseSeed+i (default 1)
	Variants []string
	// OnRun, if set, is called after each run finishes.
	OnRun func(variant string, run int)
}

// Run simulates every variant the requested number of times.
func (e *Experiment) Run(opt Options) (*Report, error) {
	runs := opt.Runs
	if runs <= 0 {
		runs = e.Runs
	}
	if runs <= 0 {
		runs = 1
	}
	base := opt.BaseSeed
	if base == 0 {
		base = 1
	}
	start := time.Now()
	rep := &Report{Experiment: e.Name, Seed: e.Seed, Title: e.Title, Runs: runs, BaseSeed: base}
	for _, v := range e.Variants {
		if len(opt.Variants) > 0 && !contains(opt.Variants, v.Name) {
			continue
		}
		vr := VariantResult{Name: v.Name, Description: v.Description, SeedFigures: v.SeedFigures}
		for i := 0; i < runs; i++ {
			sc, err := v.Scenario()
			if err != nil {
				return nil, fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
			}
			net, err := sim.Build(sc, sim.Options{Seed: base + uint64(i)})
			if err != nil {
				return nil, fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
			}
			res := net.Run()
			res.Seed = base + uint64(i)
			var extra map[string]float64
			if v.Extra != nil {
				extra = v.Extra(net, res)
			}
			vr.add(res, extra)
			rep.Timing.Events += res.Timing.Events
			if opt.OnRun != nil {
				opt.OnRun(v.Name, i)
			}
		}
		vr.finish()
		rep.Variants = append(rep.Variants, vr)
	}
	rep.Timing.WallS = time.Since(start).Seconds()
	if rep.Timing.WallS > 0 {
		rep.Timing.EventsPerS = float64(rep.Timing.Events) / rep.Timing.WallS
	}
	return rep, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
