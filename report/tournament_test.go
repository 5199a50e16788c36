package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ndncc/ndncc/experiment"
)

func TestTournamentHeatMaps(t *testing.T) {
	rep := &experiment.TournamentReport{
		Arenas:    []experiment.TournamentArena{{Name: "a1", LimitS: 10}, {Name: "a2", LimitS: 20}},
		Pipelines: []string{"p1", "p2", "p3"},
		Cells: [][]experiment.TournamentCell{
			{{Complete: true, TimeS: 10.5, OverLimit: 1.05, QueueMs: 3}, {Complete: true, TimeS: 30, OverLimit: 3, QueueMs: 80}, {Complete: false, TimeS: 100, OverLimit: 10}},
			{{Complete: true, TimeS: 21, OverLimit: 1.05, QueueMs: 1, Jain: 0.99}, {Complete: true, TimeS: 22, OverLimit: 1.1, QueueMs: 2, Jain: 0.5}, {Complete: true, TimeS: 40, OverLimit: 2, QueueMs: 0, Jain: 1}},
		},
	}
	dir := t.TempDir()
	files, err := TournamentHeatMaps(filepath.Join(dir, "t"), rep)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 {
		t.Fatalf("files %v", files)
	}
	for _, f := range files {
		if st, err := os.Stat(f); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v %v", f, st, err)
		}
	}
	page := TournamentPage(rep, "p1", files)
	if len(page.Tables) != 5 || len(page.Tables[1].Rows) != 2 || page.Tables[1].Rows[0][3] != "inc." {
		t.Errorf("tables %+v", page.Tables)
	}
	if err := WriteHTML(dir, page); err != nil {
		t.Fatal(err)
	}
	if _, err := TournamentHeatMaps(filepath.Join(dir, "x"), &experiment.TournamentReport{}); err == nil {
		t.Error("empty report: no error")
	}
}
