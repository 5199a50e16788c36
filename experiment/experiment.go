// Package experiment is ndncc's catalog of named experiments: each is a set
// of variants (a scenario plus overrides) that are simulated several times
// with distinct random seeds, aggregated (mean, min, max) and printed as
// the paper printed it, with the paper's own figures beside ours. (The
// papers are the seed documents of the project; Experiment.Seed and
// Variant.SeedFigures name the paper, never a random seed.)
//
// It builds on package sim and must not be imported by the protocol core.
package experiment

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// Experiment is one named entry of the catalog.
type Experiment struct {
	Name  string
	Seed  string // the paper it reproduces, e.g. "000"
	Title string
	// Description says what is run and what to look for.
	Description string
	Variants    []Variant
	// Columns of the printed table, in order.
	Columns []Column
	// Runs is the default number of runs per variant.
	Runs int
	// Profile, if set, is the parameter profile (package consumer) of the
	// consumers of every variant whose scenario names none: the paper's
	// settings where they differ from the defaults, which are ndnget's.
	Profile string
	// Notes explain where our figures and the paper's differ, and why
	// (docs/reproduction.md).
	Notes string
	// Source is the experiment file it was read from (LoadFile, LoadFS);
	// "" for an experiment built in Go.
	Source string
	// Findings are the paper's qualitative claims, each checked against
	// our runs (for a paper that reports findings, not numbers).
	Findings []Finding
	// Inputs are the experiment's inputs, each with its source: a line of
	// the paper, the reference stack, or a stated choice (ndncc experiment
	// NAME --explain, and docs/reproduction.md).
	Inputs []Input
	// NoProcessingTime runs the forwarders without per-packet processing
	// time (sim.Options.ProcessingJitter off), for a paper whose evaluation
	// ran in a simulator (ndnSIM) whose forwarders take none. With it on,
	// each forwarder is a single server of 0-200 µs per packet, about
	// 10,000 packets/s: a router carrying 60 Mbit/s of Data and their
	// Interests is then loaded over 90%.
	NoProcessingTime bool
}

// Variant is one configuration of an experiment.
type Variant struct {
	Name        string
	Description string
	// Scenario builds the variant's scenario.
	Scenario func() (*scenario.Scenario, error)
	// Extra computes variant-level metrics from a finished run (for
	// example a split ratio); they are averaged over runs. net is nil for
	// a live run (RunLive), which has no simulated network.
	Extra func(net *sim.Network, r *sim.Result) map[string]float64
	// SeedFigures are the paper's numbers for this variant, by
	// column key and flow index ("" when the paper gives none).
	SeedFigures map[string][]string
}

// Column is one column of an experiment's table.
type Column struct {
	Key    string // FlowResult JSON field or an Extra key
	Header string
	Format string // fmt verb for our value, e.g. "%.1f"
}

// Fmt is the column's fmt verb, "%.2f" when it names none.
func (c Column) Fmt() string {
	if c.Format == "" {
		return "%.2f"
	}
	return c.Format
}

// catalogFiles are the catalog's experiments written as experiment files
// (examples/experiments): those a file states more simply than Go.
var catalogFiles = []string{
	"experiments/seed000-linear-marks.toml",
	"experiments/seed002-marking.toml",
	"experiments/seed003-aimd.toml",
	"experiments/seed003-fixed.toml",
	"experiments/seed004-caching.toml",
	"experiments/seed004-wireless.toml",
}

// Catalog returns every built-in experiment, sorted by name: those built
// in Go and those read from the embedded catalog files.
func Catalog() []*Experiment {
	all := []*Experiment{
		seed000Linear(),
		seed000Dumbbell(),
		seed001Vegas(),
		pipelines(),
		seed003TCP(),
		seed004Multipath(),
		seed004ICP(),
		seed004Overlay(),
	}
	for _, f := range catalogFiles {
		e, err := LoadFS(examples.FS, f)
		if err != nil {
			// The files are embedded: a test loads every one.
			panic(fmt.Sprintf("experiment catalog: %v", err))
		}
		e.Source = "examples/" + f
		e.Inputs = withProfileInputs(e.Profile, e.Inputs)
		all = append(all, e)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	return all
}

// Variant returns the variant called name.
func (e *Experiment) Variant(name string) (Variant, bool) {
	for _, v := range e.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
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
	// Jobs is how many runs are simulated at once (default: the number
	// of CPUs). Results do not depend on it.
	Jobs int
	// Shard, if Shard.Count > 1, runs only this shard's deterministic
	// share of the (variant, run) pairs.
	Shard Shard
	// TraceDir, if set, makes the first run of every variant (seed
	// BaseSeed) record its time series and write them as CSV to
	// TraceDir/VARIANT; tracing does not change the results.
	TraceDir string
	// OnRun, if set, is called after each run finishes (from any
	// goroutine, one call at a time).
	OnRun func(RunDone)

	// live, if set, runs every run instead of the simulator, one at a
	// time (RunLive).
	live Runner
}

// RunDone describes a finished run, for Options.OnRun.
type RunDone struct {
	Variant string
	Run     int  // from 0
	Live    bool // run in the emulator, not simulated
	// Wall is the run's wall-clock time.
	Wall time.Duration
}

// Shard selects part of an experiment: the (variant, run) pairs whose
// index modulo Count equals Index.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ErrUnknownVariant reports a variant name the experiment does not have.
var ErrUnknownVariant = errors.New("no variant")

// PlannedRuns is the number of runs Run will simulate with opt.
func (e *Experiment) PlannedRuns(opt Options) int {
	runs := opt.Runs
	if runs <= 0 {
		runs = max(e.Runs, 1)
	}
	n := 0
	for _, v := range e.Variants {
		if len(opt.Variants) == 0 || slices.Contains(opt.Variants, v.Name) {
			n += runs
		}
	}
	if k, i := opt.Shard.Count, opt.Shard.Index; k > 1 {
		return (n - i + k - 1) / k // pairs p < n with p mod k == i
	}
	return n
}

// job is one (variant, run) pair.
type job struct {
	v    int
	run  int
	res  *sim.Result
	ext  map[string]float64
	err  error
	seed uint64
	late *Lateness // a live run's
	// notPrinted and programs are a live run's (LiveRun).
	notPrinted     [][]string
	programs       []FlowProgram
	signedOnDemand uint64
}

// Run simulates every variant the requested number of times, Jobs runs
// at a time, and aggregates them in a fixed order so that the report does
// not depend on Jobs.
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
	jobsN := opt.Jobs
	if jobsN <= 0 {
		jobsN = runtime.NumCPU()
	}
	if opt.live != nil {
		jobsN = 1 // real time: runs must not compete for the CPU
	}
	for _, name := range opt.Variants {
		if !slices.ContainsFunc(e.Variants, func(v Variant) bool { return v.Name == name }) {
			var have []string
			for _, v := range e.Variants {
				have = append(have, v.Name)
			}
			return nil, fmt.Errorf("experiment %s: %w %q (have %s)", e.Name, ErrUnknownVariant, name, strings.Join(have, ", "))
		}
	}
	var variants []Variant
	for _, v := range e.Variants {
		if len(opt.Variants) == 0 || slices.Contains(opt.Variants, v.Name) {
			variants = append(variants, v)
		}
	}
	if len(variants) == 0 {
		return nil, fmt.Errorf("experiment %s: %w: none matches %v", e.Name, ErrUnknownVariant, opt.Variants)
	}
	start := time.Now()
	var jobs []*job
	for vi := range variants {
		for i := 0; i < runs; i++ {
			idx := vi*runs + i
			if opt.Shard.Count > 1 && idx%opt.Shard.Count != opt.Shard.Index {
				continue
			}
			jobs = append(jobs, &job{v: vi, run: i, seed: base + uint64(i)})
		}
	}
	var (
		mu   sync.Mutex
		next int
		wg   sync.WaitGroup
	)
	for w := 0; w < min(jobsN, len(jobs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(jobs) {
					mu.Unlock()
					return
				}
				j := jobs[next]
				next++
				mu.Unlock()
				began := time.Now()
				if opt.live != nil {
					e.runLive(variants[j.v], j, opt.TraceDir, opt.live)
				} else {
					e.runOne(variants[j.v], j, opt.TraceDir)
				}
				if opt.OnRun != nil {
					mu.Lock()
					opt.OnRun(RunDone{Variant: variants[j.v].Name, Run: j.run, Live: opt.live != nil, Wall: time.Since(began)})
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	rep := &Report{Experiment: e.Name, Source: e.Source, Seed: e.Seed, Title: e.Title, Runs: runs, BaseSeed: base, Shard: opt.Shard}
	byVariant := make([]*VariantResult, len(variants))
	for _, j := range jobs {
		v := variants[j.v]
		if byVariant[j.v] == nil {
			byVariant[j.v] = &VariantResult{Name: v.Name, Description: v.Description, SeedFigures: v.SeedFigures}
		}
		if errors.Is(j.err, ErrNotRunnable) {
			byVariant[j.v].NotRun = strings.ReplaceAll(j.err.Error(), "\n", "; ")
			continue
		}
		if j.err != nil {
			return nil, j.err
		}
		byVariant[j.v].add(j.res, j.ext, j.late)
		last := &byVariant[j.v].Runs[len(byVariant[j.v].Runs)-1]
		last.NotPrinted, last.Programs, last.SignedOnDemand = j.notPrinted, j.programs, j.signedOnDemand
		rep.Timing.Events += j.res.Timing.Events
	}
	for _, vr := range byVariant {
		if vr != nil {
			vr.finish()
			rep.Variants = append(rep.Variants, *vr)
		}
	}
	rep.Timing.WallS = time.Since(start).Seconds()
	if rep.Timing.WallS > 0 {
		rep.Timing.EventsPerS = float64(rep.Timing.Events) / rep.Timing.WallS
	}
	return rep, nil
}

// Scenario builds variant v's scenario, with the experiment's profile.
func (e *Experiment) Scenario(v Variant) (*scenario.Scenario, error) {
	sc, err := v.Scenario()
	if err != nil {
		return nil, err
	}
	if e.Profile != "" && sc.Profile == "" {
		sc.Profile = e.Profile
	}
	return sc, nil
}

// SimOptions are the simulator's options for a run of e with random seed
// seed, tracing if trace.
func (e *Experiment) SimOptions(seed uint64, trace bool) sim.Options {
	opt := sim.Options{Seed: seed, Trace: trace}
	if e.NoProcessingTime {
		opt.ProcessingJitter = -1
	}
	return opt
}

func (e *Experiment) runOne(v Variant, j *job, traceDir string) {
	sc, err := e.Scenario(v)
	if err != nil {
		j.err = fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
		return
	}
	trace := traceDir != "" && j.run == 0
	net, err := sim.Build(sc, e.SimOptions(j.seed, trace))
	if err != nil {
		j.err = fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
		return
	}
	j.res = net.Run()
	if trace {
		if err := net.WriteTraces(filepath.Join(traceDir, v.Name)); err != nil {
			j.err = fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
			return
		}
	}
	j.res.Seed = j.seed
	if v.Extra != nil {
		j.ext = v.Extra(net, j.res)
	}
}

// runLive runs one run with the live runner; the variant's Extra sees no
// simulated network (nil).
func (e *Experiment) runLive(v Variant, j *job, traceDir string, live Runner) {
	sc, err := e.Scenario(v)
	if err != nil {
		j.err = fmt.Errorf("experiment %s variant %s: %w", e.Name, v.Name, err)
		return
	}
	dir := ""
	if traceDir != "" && j.run == 0 {
		dir = filepath.Join(traceDir, v.Name)
	}
	lr, err := live(sc, j.seed, dir)
	if errors.Is(err, ErrNotRunnable) {
		j.err = err // the reason, shown beside the table
		return
	}
	if err != nil {
		j.err = fmt.Errorf("experiment %s variant %s live: %w", e.Name, v.Name, err)
		return
	}
	j.res, j.late, j.notPrinted, j.programs, j.signedOnDemand = lr.Result, lr.Lateness, lr.NotPrinted, lr.Programs, lr.SignedOnDemand
	j.res.Seed = j.seed
	if v.Extra != nil {
		j.ext = v.Extra(nil, j.res)
	}
}
