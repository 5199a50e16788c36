package experiment

import (
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// TournamentPipeline is the pipeline the tournament is judged for: the
// report lists where it neither wins nor ties.
const TournamentPipeline = "paced-delay"

// Tie margins of the tournament: a completion time within 2%
// of the best ties it; a queueing delay within 10% of the lowest (or
// within QueueTieMs of it) is as low. The lowest queueing delay is taken
// over the pipelines that used the link: those within QueueFieldTime of
// the fastest completion (a window too small to fill the link queues
// nothing, which is no merit).
const (
	TimeTie        = 0.02
	QueueTie       = 0.10
	QueueTieMs     = 0.5
	QueueFieldTime = 0.10
)

// TournamentOptions select what the tournament runs.
type TournamentOptions struct {
	// Arenas and Pipelines, by name; empty means all.
	Arenas, Pipelines []string
	// Workers run simulations in parallel (at least 1).
	Workers int
	// OnRun, if set, is called after each simulation (from any worker).
	OnRun func(arena, pipeline string)
}

// TournamentCell is one pipeline's result in one arena.
type TournamentCell struct {
	Complete bool `json:"complete"`
	// TimeS is when the last measured flow ended (its start plus its
	// download time), or the run's end if one did not complete.
	TimeS float64 `json:"time_s"`
	// OverLimit is TimeS over the arena's limit.
	OverLimit float64 `json:"over_limit"`
	// QueueMs is the mean over the measured flows of their mean RTT minus
	// the least RTT any pipeline saw on that flow's path.
	QueueMs         float64 `json:"queue_ms"`
	Retransmissions uint64  `json:"retransmissions"`
	Timeouts        uint64  `json:"timeouts"`
	Marks           uint64  `json:"marks"`
	// Jain is Jain's index of the arena's flows (0 where it has one).
	Jain float64 `json:"jain"`
	// Error is the first incomplete flow's error, if it reported one
	// (a live run's fetch that failed rather than ran out of time).
	Error string `json:"error,omitempty"`
	// NotRun, in a live report, says why the cell was not run (the
	// emulator cannot run the arena); "" for a cell that ran.
	NotRun string `json:"not_run,omitempty"`
	// RTTMinMs and RTTAvgMs are each measured flow's least and mean RTT,
	// by flow ID: what QueueMs is computed from, kept so that live
	// reports of the same arena run at different times can be merged
	// (MergeTournaments) and their queueing delays taken again.
	RTTMinMs map[string]float64 `json:"rtt_min_ms,omitempty"`
	RTTAvgMs map[string]float64 `json:"rtt_avg_ms,omitempty"`
}

// TournamentArena describes one arena of a report.
type TournamentArena struct {
	Name   string  `json:"name"`
	Doc    string  `json:"doc"`
	LimitS float64 `json:"limit_s"`
	// NoProcessing says the forwarders took no processing time.
	NoProcessing bool `json:"no_processing,omitempty"`
}

// TournamentReport is the tournament's outcome: Cells[a][p] is pipeline
// p in arena a.
type TournamentReport struct {
	Arenas    []TournamentArena  `json:"arenas"`
	Pipelines []string           `json:"pipelines"`
	Cells     [][]TournamentCell `json:"cells"`
}

// Arenas lists the tournament's arena names in order.
func Arenas() []string {
	var out []string
	for _, a := range arenas() {
		out = append(out, a.name)
	}
	return out
}

// Tournament runs every selected pipeline in every selected arena once
// (random seed 1).
func Tournament(opt TournamentOptions) (*TournamentReport, error) {
	as, ps, err := tournamentSelection(opt)
	if err != nil {
		return nil, err
	}
	rep := &TournamentReport{Pipelines: ps, Cells: make([][]TournamentCell, len(as))}
	type job struct{ a, p int }
	jobs := make(chan job)
	errs := make([]error, len(as)*len(ps))
	var wg sync.WaitGroup
	for range max(opt.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				c, err := runCell(as[j.a], ps[j.p])
				rep.Cells[j.a][j.p] = c
				errs[j.a*len(ps)+j.p] = err
				if opt.OnRun != nil {
					opt.OnRun(as[j.a].name, ps[j.p])
				}
			}
		}()
	}
	for i, a := range as {
		rep.Arenas = append(rep.Arenas, TournamentArena{Name: a.name, Doc: a.doc, LimitS: a.limit.Seconds(), NoProcessing: a.noProcessing})
		rep.Cells[i] = make([]TournamentCell, len(ps))
	}
	for i := range as {
		for j := range ps {
			jobs <- job{i, j}
		}
	}
	close(jobs)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	for i := range rep.Cells {
		queueDelays(rep.Cells[i])
	}
	return rep, nil
}

// tournamentSelection is the arenas and pipelines opt selects.
func tournamentSelection(opt TournamentOptions) ([]arena, []string, error) {
	as, err := selectArenas(opt.Arenas)
	if err != nil {
		return nil, nil, err
	}
	ps := opt.Pipelines
	if len(ps) == 0 {
		ps = cc.Pipelines()
	}
	for _, p := range ps {
		if !slices.Contains(cc.Pipelines(), p) {
			return nil, nil, fmt.Errorf("tournament: pipeline %q: %w", p, cc.ErrUnknownPipeline)
		}
	}
	return as, ps, nil
}

func selectArenas(names []string) ([]arena, error) {
	all := arenas()
	if len(names) == 0 {
		return all, nil
	}
	var out []arena
	for _, n := range names {
		i := slices.IndexFunc(all, func(a arena) bool { return a.name == n })
		if i < 0 {
			return nil, fmt.Errorf("tournament: no arena %q (arenas: %v)", n, Arenas())
		}
		out = append(out, all[i])
	}
	return out, nil
}

// runCell runs pipeline in arena a and measures it.
func runCell(a arena, pipeline string) (TournamentCell, error) {
	net, res, err := runArena(a, pipeline)
	if err != nil {
		return TournamentCell{}, fmt.Errorf("tournament: arena %s, pipeline %s: %w", a.name, pipeline, err)
	}
	c := measureCell(a, pipeline, net.Scenario, res)
	if a.jain != nil {
		c.Jain = a.jain(net, res)
	}
	return c, nil
}

// measureCell is pipeline's cell in arena a from the result of a run of
// sc (Jain's index aside: it needs the simulated network).
func measureCell(a arena, pipeline string, sc *scenario.Scenario, res *sim.Result) TournamentCell {
	starts := map[string]time.Duration{}
	for _, c := range sc.Consumers {
		starts[c.ID] = c.Start
	}
	c := TournamentCell{Complete: true, RTTMinMs: map[string]float64{}, RTTAvgMs: map[string]float64{}}
	for _, f := range res.Flows {
		if a.exclude[f.ID] || f.Pipeline != pipeline {
			continue
		}
		end := starts[f.ID].Seconds() + f.DownloadTimeS
		if !f.Complete {
			c.Complete = false
			end = res.SimTimeS
			if f.Error != "" && c.Error == "" {
				c.Error = f.ID + ": " + f.Error
			}
		}
		c.TimeS = max(c.TimeS, end)
		c.Retransmissions += f.Retransmissions
		c.Timeouts += f.Timeouts
		c.Marks += f.Marks
		c.RTTMinMs[f.ID], c.RTTAvgMs[f.ID] = f.RTTMinMs, f.RTTAvgMs
	}
	c.OverLimit = c.TimeS / a.limit.Seconds()
	return c
}

// queueDelays sets each cell's QueueMs: the mean over its flows of the
// flow's mean RTT minus the least RTT of that flow in any cell.
func queueDelays(row []TournamentCell) {
	least := map[string]float64{}
	for _, c := range row {
		for id, m := range c.RTTMinMs {
			if l, ok := least[id]; !ok || (m > 0 && m < l) {
				least[id] = m
			}
		}
	}
	for i := range row {
		var sum float64
		var n int
		for _, id := range slices.Sorted(maps.Keys(row[i].RTTAvgMs)) {
			if row[i].RTTAvgMs[id] > 0 {
				sum += row[i].RTTAvgMs[id] - least[id]
				n++
			}
		}
		if n > 0 {
			row[i].QueueMs = sum / float64(n)
		}
	}
}

// ArenaVerdict is how one pipeline fared in one arena.
type ArenaVerdict struct {
	Arena string
	// TimeOK: it completed within TimeTie of the fastest pipeline.
	TimeOK bool
	// QueueOK: its queueing delay is within QueueTie (or QueueTieMs) of
	// the lowest of the pipelines that completed within QueueFieldTime
	// of the fastest.
	QueueOK bool
	// Best is the fastest pipeline and LowestQueue the one with the
	// lowest queueing delay.
	Best, LowestQueue string
	Cell, BestCell    TournamentCell
	LowestQueueMs     float64
}

// Score counts the verdicts won or tied on time (wins) and those with the
// lowest queueing delay or one within the tie (lows).
func Score(vs []ArenaVerdict) (wins, lows int) {
	for _, v := range vs {
		if v.TimeOK {
			wins++
		}
		if v.QueueOK {
			lows++
		}
	}
	return wins, lows
}

// Verdicts judges pipeline in every arena of the report.
func (r *TournamentReport) Verdicts(pipeline string) []ArenaVerdict {
	pi := slices.Index(r.Pipelines, pipeline)
	if pi < 0 {
		return nil
	}
	var out []ArenaVerdict
	for i, a := range r.Arenas {
		row := r.Cells[i]
		best, low := fastest(row), lowestQueue(row)
		v := ArenaVerdict{Arena: a.Name, Cell: row[pi]}
		if best >= 0 {
			v.Best, v.BestCell = r.Pipelines[best], row[best]
			v.LowestQueue, v.LowestQueueMs = r.Pipelines[low], row[low].QueueMs
			c := row[pi]
			v.TimeOK = c.Complete && c.TimeS <= row[best].TimeS*(1+TimeTie)
			v.QueueOK = c.Complete && (c.QueueMs <= row[low].QueueMs*(1+QueueTie) || c.QueueMs <= row[low].QueueMs+QueueTieMs)
		}
		out = append(out, v)
	}
	return out
}

// overlapJainOf is overlapJain's index alone.
func overlapJainOf(net *sim.Network, _ *sim.Result) float64 {
	j, _ := overlapJain(net)
	return j
}

// throughputJain is Jain's index over the measured flows' throughputs,
// each over its own download time (for flows that do not start
// together).
func throughputJain(_ *sim.Network, r *sim.Result) float64 {
	var xs []float64
	for _, f := range r.Flows {
		xs = append(xs, f.ThroughputKbps)
	}
	return Jain(xs)
}

// fromExample builds an arena from an example scenario: every consumer
// runs the pipeline, keeping only the pipeline-level parameters the
// example gives (those are the network's, such as link-loss Nacks; the
// algorithm's own are the example pipeline's).
func fromExample(file string) func(string) (*scenario.Scenario, error) {
	return func(p string) (*scenario.Scenario, error) {
		sc, err := scenario.LoadFS(examples.FS, file)
		if err != nil {
			return nil, err
		}
		return withPipeline(sc, p, nil), nil
	}
}

// withPipeline sets every consumer not in keep to pipeline p with only
// its pipeline-level parameters.
func withPipeline(sc *scenario.Scenario, p string, keep map[string]bool) *scenario.Scenario {
	level := map[string]bool{}
	for _, d := range consumer.ParamDocs() {
		level[d.Name] = true
	}
	for i := range sc.Consumers {
		c := &sc.Consumers[i]
		if keep[c.ID] {
			continue
		}
		c.Pipeline = p
		params := map[string]string{}
		for k, v := range c.Params {
			if level[k] {
				params[k] = v
			}
		}
		c.Params = params
		c.Profile = ""
	}
	sc.Profile = ""
	return sc
}

// fastest is the index of the fastest complete cell (-1: none).
func fastest(row []TournamentCell) int {
	best := -1
	for j, c := range row {
		if c.Complete && (best < 0 || c.TimeS < row[best].TimeS) {
			best = j
		}
	}
	return best
}

// lowestQueue is the index of the cell with the least queueing delay
// among those complete within QueueFieldTime of the fastest (-1: none).
func lowestQueue(row []TournamentCell) int {
	best := fastest(row)
	low := -1
	for j, c := range row {
		if best < 0 || !c.Complete || c.TimeS > row[best].TimeS*(1+QueueFieldTime) {
			continue
		}
		if low < 0 || c.QueueMs < row[low].QueueMs {
			low = j
		}
	}
	return low
}
