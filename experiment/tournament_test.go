package experiment

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/cc"
)

func TestTournamentSmall(t *testing.T) {
	rep, err := Tournament(TournamentOptions{Arenas: []string{"seed000-linear", "flows-2"}, Pipelines: []string{"aimd", "paced-delay"}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Arenas) != 2 || len(rep.Cells) != 2 || len(rep.Cells[0]) != 2 {
		t.Fatalf("report shape: %d arenas, cells %v", len(rep.Arenas), rep.Cells)
	}
	for i, a := range rep.Arenas {
		for j, p := range rep.Pipelines {
			c := rep.Cells[i][j]
			t.Logf("%s %s: %+v", a.Name, p, c)
			if !c.Complete || c.TimeS <= 0 || c.OverLimit < 0.95 || c.QueueMs < 0 {
				t.Errorf("%s %s: %+v", a.Name, p, c)
			}
			if got := c.TimeS / a.LimitS; got != c.OverLimit {
				t.Errorf("%s %s: over limit %v, want time/limit %v", a.Name, p, c.OverLimit, got)
			}
		}
	}
	// aimd fills the 32-packet buffer of the linear topology; paced-delay
	// keeps a segment or two queued.
	if a, p := rep.Cells[0][0], rep.Cells[0][1]; a.QueueMs < 4*p.QueueMs || a.Retransmissions == 0 || p.Retransmissions != 0 {
		t.Errorf("linear: aimd queue %.1f ms retx %d, paced-delay %.1f ms retx %d", a.QueueMs, a.Retransmissions, p.QueueMs, p.Retransmissions)
	}
	if j := rep.Cells[1][1].Jain; j <= 0 || j > 1 {
		t.Errorf("flows-2 Jain %v", j)
	}
	if j := rep.Cells[0][0].Jain; j != 0 {
		t.Errorf("linear (one flow) Jain %v, want 0 (none)", j)
	}
	vs := rep.Verdicts("paced-delay")
	if len(vs) != 2 || !vs[0].QueueOK || vs[0].LowestQueue != "paced-delay" {
		t.Errorf("verdicts %+v", vs)
	}
	var md bytes.Buffer
	rep.Markdown(&md, "paced-delay")
	for _, want := range []string{"| seed000-linear |", "### Completion time over the limit", "### paced-delay"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestTournamentErrors(t *testing.T) {
	if _, err := Tournament(TournamentOptions{Arenas: []string{"nowhere"}}); err == nil || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("unknown arena: %v", err)
	}
	if _, err := Tournament(TournamentOptions{Arenas: []string{"seed000-linear"}, Pipelines: []string{"nope"}}); !errors.Is(err, cc.ErrUnknownPipeline) {
		t.Errorf("unknown pipeline: %v", err)
	}
	if n := len(Arenas()); n < 20 {
		t.Errorf("%d arenas", n)
	}
}

func TestQueueDelays(t *testing.T) {
	row := []TournamentCell{
		{RTTMinMs: map[string]float64{"a": 60, "b": 100}, RTTAvgMs: map[string]float64{"a": 70, "b": 120}},
		{RTTMinMs: map[string]float64{"a": 50, "b": 110}, RTTAvgMs: map[string]float64{"a": 55, "b": 110}},
	}
	queueDelays(row)
	// Least RTTs: a 50, b 100. Cell 0: (20+20)/2; cell 1: (5+10)/2.
	if row[0].QueueMs != 20 || row[1].QueueMs != 7.5 {
		t.Errorf("queue delays %v %v, want 20 7.5", row[0].QueueMs, row[1].QueueMs)
	}
}
