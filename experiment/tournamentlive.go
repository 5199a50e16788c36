package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// TournamentLive runs the tournament's cells with run (the emulator, in
// real time) one after another, never in parallel: the same arenas and
// pipelines as Tournament, random seed 1, each once. A cell whose arena
// run cannot run (ErrNotRunnable) is left with its NotRun reason and
// counts in no comparison; opt.Workers is ignored. Jain's index needs the
// simulated network and stays 0. The queueing delay of a live cell is
// taken against the least RTT any live cell of its arena saw.
func TournamentLive(opt TournamentOptions, run Runner) (*TournamentReport, error) {
	if run == nil {
		return nil, errors.New("tournament: a live run needs a runner")
	}
	as, ps, err := tournamentSelection(opt)
	if err != nil {
		return nil, err
	}
	rep := &TournamentReport{Pipelines: ps, Cells: make([][]TournamentCell, len(as))}
	for i, a := range as {
		rep.Arenas = append(rep.Arenas, TournamentArena{Name: a.name, Doc: a.doc, LimitS: a.limit.Seconds(), NoProcessing: a.noProcessing})
		rep.Cells[i] = make([]TournamentCell, len(ps))
		for j, p := range ps {
			sc, err := arenaScenario(a, p, tournamentParams(p))
			if err != nil {
				return nil, fmt.Errorf("tournament: arena %s, pipeline %s: %w", a.name, p, err)
			}
			lr, err := run(sc, 1, "")
			switch {
			case errors.Is(err, ErrNotRunnable):
				rep.Cells[i][j] = TournamentCell{NotRun: err.Error()}
			case err != nil:
				return nil, fmt.Errorf("tournament: arena %s, pipeline %s, live: %w", a.name, p, err)
			default:
				rep.Cells[i][j] = measureCell(a, p, sc, lr.Result)
			}
			if opt.OnRun != nil {
				opt.OnRun(a.name, p)
			}
		}
		queueDelays(rep.Cells[i])
	}
	return rep, nil
}

// DecodeTournament reads a tournament report written as JSON (`ndncc
// experiment tournament --json`, or the live report --live --out writes).
func DecodeTournament(rd io.Reader) (*TournamentReport, error) {
	var r TournamentReport
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("tournament report: %w", err)
	}
	if len(r.Cells) != len(r.Arenas) {
		return nil, fmt.Errorf("tournament report: %d rows of cells for %d arenas", len(r.Cells), len(r.Arenas))
	}
	for i, row := range r.Cells {
		if len(row) != len(r.Pipelines) {
			return nil, fmt.Errorf("tournament report: arena %s has %d cells for %d pipelines", r.Arenas[i].Name, len(row), len(r.Pipelines))
		}
	}
	return &r, nil
}

// liveCell is live's cell for arena and pipeline, if live ran it.
func (r *TournamentReport) liveCell(arena, pipeline string) (TournamentCell, bool) {
	for i, a := range r.Arenas {
		if a.Name != arena {
			continue
		}
		for j, p := range r.Pipelines {
			if p == pipeline && r.Cells[i][j].NotRun == "" {
				return r.Cells[i][j], true
			}
		}
	}
	return TournamentCell{}, false
}

// MarkdownLive writes the simulated report beside live, a run of the
// same tournament in real time, over the arenas and pipelines live has:
// per arena the live runs' completion time over the limit and queueing
// delay after the simulator's ("sim / live"), "–" where live did not run
// the cell, and the arenas live could not run with the reason.
func (r *TournamentReport) MarkdownLive(w io.Writer, live *TournamentReport) {
	var ps []string
	for _, p := range live.Pipelines {
		if slices.Contains(r.Pipelines, p) {
			ps = append(ps, p)
		}
	}
	head := "| arena | " + strings.Join(ps, " | ") + " |\n|---|" + strings.Repeat("---|", len(ps)) + "\n"
	table := func(title string, cell func(TournamentCell) string) {
		fmt.Fprintf(w, "\n### %s, simulated / live\n\n%s", title, head)
		for i, a := range r.Arenas {
			if !slices.ContainsFunc(live.Arenas, func(l TournamentArena) bool { return l.Name == a.Name }) {
				continue
			}
			var cells []string
			for _, p := range ps {
				l := "–"
				if c, ok := live.liveCell(a.Name, p); ok {
					l = cell(c)
				}
				cells = append(cells, cell(r.Cells[i][slices.Index(r.Pipelines, p)])+" / "+l)
			}
			fmt.Fprintf(w, "| %s | %s |\n", a.Name, strings.Join(cells, " | "))
		}
	}
	table("Completion time over the limit", overText)
	table("Mean queueing delay (ms)", func(c TournamentCell) string { return fmt.Sprintf("%.1f", c.QueueMs) })
	var notRun []string
	for i, a := range live.Arenas {
		for _, c := range live.Cells[i] {
			if c.NotRun != "" {
				notRun = append(notRun, fmt.Sprintf("- %s: %s", a.Name, c.NotRun))
				break
			}
		}
	}
	if len(notRun) > 0 {
		fmt.Fprintf(w, "\nNot run live:\n\n%s\n", strings.Join(notRun, "\n"))
	}
	var failed []string
	for i, a := range live.Arenas {
		for j, c := range live.Cells[i] {
			if c.NotRun == "" && c.Error != "" {
				failed = append(failed, fmt.Sprintf("- %s, %s: %s", a.Name, live.Pipelines[j], c.Error))
			}
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(w, "\nLive runs that failed:\n\n%s\n", strings.Join(failed, "\n"))
	}
}

// MergeTournaments merges tournament reports of the same arenas run at
// different times (stored live runs, one for some pipelines or arenas,
// another for others): every arena and pipeline of any report, in the
// order they first appear; a cell from a later report replaces an earlier
// one unless the later did not run it. The queueing delays are taken again
// over each merged arena's cells, which needs every cell that ran to carry
// its flows' RTTs (reports written before they were kept do not: merging
// such a report with another is an error). One report is returned as is.
func MergeTournaments(reps ...*TournamentReport) (*TournamentReport, error) {
	switch len(reps) {
	case 0:
		return nil, errors.New("tournament: nothing to merge")
	case 1:
		return reps[0], nil
	}
	out := &TournamentReport{}
	arena := map[string]int{}
	pipeline := map[string]int{}
	for _, r := range reps {
		for _, a := range r.Arenas {
			if _, ok := arena[a.Name]; !ok {
				arena[a.Name] = len(out.Arenas)
				out.Arenas = append(out.Arenas, a)
			}
		}
		for _, p := range r.Pipelines {
			if _, ok := pipeline[p]; !ok {
				pipeline[p] = len(out.Pipelines)
				out.Pipelines = append(out.Pipelines, p)
			}
		}
	}
	out.Cells = make([][]TournamentCell, len(out.Arenas))
	set := make([][]bool, len(out.Arenas))
	for i := range out.Cells {
		out.Cells[i] = make([]TournamentCell, len(out.Pipelines))
		set[i] = make([]bool, len(out.Pipelines))
	}
	for n, r := range reps {
		for i, a := range r.Arenas {
			ai := arena[a.Name]
			if out.Arenas[ai].LimitS != a.LimitS {
				return nil, fmt.Errorf("tournament: arena %s has a limit of %g s in report %d, %g s in an earlier one: not the same arena", a.Name, a.LimitS, n+1, out.Arenas[ai].LimitS)
			}
			for j, p := range r.Pipelines {
				c, pj := r.Cells[i][j], pipeline[p]
				if set[ai][pj] && c.NotRun != "" {
					continue
				}
				if c.NotRun == "" && c.RTTAvgMs == nil {
					return nil, fmt.Errorf("tournament: report %d's cell %s/%s has no RTTs (stored before they were kept): its queueing delay cannot be taken again beside another report's cells", n+1, a.Name, p)
				}
				out.Cells[ai][pj], set[ai][pj] = c, true
			}
		}
	}
	for i, row := range out.Cells {
		for j := range row {
			if !set[i][j] {
				row[j].NotRun = "no stored run of this cell"
			}
		}
		queueDelays(row)
	}
	return out, nil
}
