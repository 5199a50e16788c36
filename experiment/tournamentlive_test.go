package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// simRunner runs a live cell in the simulator (with the arenas' random
// seed and processing time on) and refuses scenarios with TCP flows, as a
// runner that cannot run an arena does.
func simRunner(calls *int) Runner {
	return func(sc *scenario.Scenario, seed uint64, _ string) (LiveRun, error) {
		*calls++
		if len(sc.TCP) > 0 {
			return LiveRun{}, fmt.Errorf("%w: TCP flows", ErrNotRunnable)
		}
		net, err := sim.Build(sc, sim.Options{Seed: seed})
		if err != nil {
			return LiveRun{}, err
		}
		return LiveRun{Result: net.Run()}, nil
	}
}

// TestTournamentLive runs two arenas "live" with a runner that simulates:
// every cell of the runnable arena is measured as the tournament measures
// it (the same times as the simulated tournament, whose arena runs with
// the same seed and processing time), the TCP arena is not run and says
// why, and the markdown puts both side by side; the report survives its
// JSON.
func TestTournamentLive(t *testing.T) {
	opt := TournamentOptions{Arenas: []string{"rtt-10ms", "vs-tcp-cubic"}, Pipelines: []string{"aimd", "paced-delay"}}
	var calls int
	live, err := TournamentLive(opt, simRunner(&calls))
	if err != nil {
		t.Fatal(err)
	}
	if calls != 4 {
		t.Errorf("%d runs, want 4 (one per cell, one at a time)", calls)
	}
	simRep, err := Tournament(opt)
	if err != nil {
		t.Fatal(err)
	}
	for j, p := range opt.Pipelines {
		l, s := live.Cells[0][j], simRep.Cells[0][j]
		if l.NotRun != "" || l.TimeS != s.TimeS || l.QueueMs != s.QueueMs || l.Retransmissions != s.Retransmissions {
			t.Errorf("rtt-10ms %s: live %+v, simulated %+v", p, l, s)
		}
		if c := live.Cells[1][j]; c.NotRun == "" || !strings.Contains(c.NotRun, "TCP flows") || c.Complete {
			t.Errorf("vs-tcp-cubic %s: %+v, want not run", p, c)
		}
	}
	var js bytes.Buffer
	if err := json.NewEncoder(&js).Encode(live); err != nil {
		t.Fatal(err)
	}
	back, err := DecodeTournament(&js)
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	simRep.MarkdownLive(&md, back)
	for _, want := range []string{
		"### Completion time over the limit, simulated / live\n\n| arena | aimd | paced-delay |",
		fmt.Sprintf("| rtt-10ms | %s / %s | %s / %s |", overText(simRep.Cells[0][0]), overText(live.Cells[0][0]), overText(simRep.Cells[0][1]), overText(live.Cells[0][1])),
		fmt.Sprintf("| vs-tcp-cubic | %s / – |", overText(simRep.Cells[1][0])),
		"Not run live:\n\n- vs-tcp-cubic: cannot run live: TCP flows",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	// Only the arenas and pipelines the live run has.
	md.Reset()
	live.Pipelines, live.Arenas, live.Cells = live.Pipelines[1:], live.Arenas[:1], [][]TournamentCell{live.Cells[0][1:]}
	simRep.MarkdownLive(&md, live)
	if strings.Contains(md.String(), "aimd") || strings.Contains(md.String(), "vs-tcp-cubic") || !strings.Contains(md.String(), "| rtt-10ms | ") {
		t.Errorf("markdown of a live run of paced-delay in rtt-10ms:\n%s", md.String())
	}
	if _, err := DecodeTournament(strings.NewReader(`{"arenas":[{"name":"a"}],"pipelines":["x"],"cells":[]}`)); err == nil {
		t.Error("a report with fewer rows than arenas decoded")
	}
}

// TestMergeTournaments merges a live run of two pipelines with a later run
// of one of them again: the later cells replace the earlier ones, the
// other pipeline's stay, the queueing delays are taken again over the
// merged cells (as a run of the merged cells together would), a cell the
// later run could not run keeps the earlier one, and a report without
// RTTs, or an arena of another limit, is refused.
func TestMergeTournaments(t *testing.T) {
	cell := func(minA, avgA float64) TournamentCell {
		return TournamentCell{Complete: true, TimeS: 1, RTTMinMs: map[string]float64{"a": minA}, RTTAvgMs: map[string]float64{"a": avgA}}
	}
	arenas := []TournamentArena{{Name: "x", LimitS: 10}, {Name: "y", LimitS: 5}}
	first := &TournamentReport{Arenas: arenas, Pipelines: []string{"p", "q"}, Cells: [][]TournamentCell{
		{cell(50, 60), cell(52, 70)},
		{cell(20, 25), cell(21, 30)},
	}}
	queueDelays(first.Cells[0])
	queueDelays(first.Cells[1])
	again := &TournamentReport{Arenas: arenas, Pipelines: []string{"q"}, Cells: [][]TournamentCell{
		{cell(40, 45)},
		{{NotRun: "cannot run live: no"}},
	}}
	m, err := MergeTournaments(first, again)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Pipelines) != 2 || m.Pipelines[0] != "p" || m.Pipelines[1] != "q" || len(m.Arenas) != 2 {
		t.Fatalf("merged %v %v, want arenas x, y and pipelines p, q", m.Arenas, m.Pipelines)
	}
	// Arena x: q's new least RTT (40) is the baseline for both.
	for j, want := range []float64{60 - 40, 45 - 40} {
		if got := m.Cells[0][j].QueueMs; got != want {
			t.Errorf("x/%s: queueing %v ms, want %v", m.Pipelines[j], got, want)
		}
	}
	// Arena y: the later run did not run q, so the first run's cell stays.
	if c := m.Cells[1][1]; c.NotRun != "" || c.RTTAvgMs["a"] != 30 || c.QueueMs != 30-20 {
		t.Errorf("y/q: %+v, want the first run's cell, queueing 10 ms", c)
	}
	old := &TournamentReport{Arenas: arenas[:1], Pipelines: []string{"q"}, Cells: [][]TournamentCell{{{Complete: true, TimeS: 1, QueueMs: 3}}}}
	if _, err := MergeTournaments(first, old); err == nil || !strings.Contains(err.Error(), "has no RTTs") {
		t.Errorf("merging a report without RTTs: %v, want an error", err)
	}
	other := &TournamentReport{Arenas: []TournamentArena{{Name: "x", LimitS: 11}}, Pipelines: []string{"q"}, Cells: [][]TournamentCell{{cell(40, 45)}}}
	if _, err := MergeTournaments(first, other); err == nil || !strings.Contains(err.Error(), "not the same arena") {
		t.Errorf("merging an arena of another limit: %v, want an error", err)
	}
	if one, err := MergeTournaments(first); err != nil || one != first {
		t.Errorf("one report: %p, %v; want it as is", one, err)
	}
}
