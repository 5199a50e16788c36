package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/sim"
)

// writeFile writes a test input file.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeRunTraces writes the traces of a small synthetic two-flow run in
// the format of sim.Network.WriteTraces: flow c1 runs AIMD with a loss,
// c2 a fixed window; the bottleneck r1-r2 queues up to 8 packets with
// 3 drops, the access link c1-r1 never holds more than one packet.
func writeRunTraces(t *testing.T, dir string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("time_s,cwnd,ssthresh\n")
	for i := 0; i <= 20; i++ {
		cwnd, ss := float64(i+1), 200.0
		if i > 10 {
			cwnd, ss = float64(i-5), 5
		}
		fmt.Fprintf(&b, "%.6f,%.4f,%.4f\n", float64(i)*0.1, cwnd, ss)
	}
	writeFile(t, dir, "cwnd-c1.csv", b.String())
	writeFile(t, dir, "cwnd-c2.csv", "time_s,cwnd,ssthresh\n0.000000,8.0000,8.0000\n")
	for _, id := range []string{"c1", "c2"} {
		b.Reset()
		b.WriteString("time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms\n")
		for seg := 0; seg < 40; seg++ {
			rtt := 70 + float64(seg%10)*3
			if seg == 17 {
				rtt = 0 // retransmitted: ambiguous
			}
			fmt.Fprintf(&b, "%.6f,%d,%.3f,%.3f,%.3f,%.3f\n", 0.07+float64(seg)*0.05, seg, rtt, 80.0, 5.0, 200.0)
		}
		writeFile(t, dir, "rtt-"+id+".csv", b.String())
		b.Reset()
		b.WriteString("time_s,goodput_kbps\n")
		for i := 0; i < 21; i++ {
			fmt.Fprintf(&b, "%.3f,%.3f\n", float64(i)*0.1, 1000+float64(i%4)*80)
		}
		writeFile(t, dir, "rate-"+id+".csv", b.String())
	}
	b.Reset()
	b.WriteString("time_s,packets,bytes,drops,marks\n")
	for i := 0; i <= 200; i++ {
		pk := i % 9
		drops := i / 70
		fmt.Fprintf(&b, "%.3f,%d,%d,%d,%d\n", float64(i)*0.01, pk, pk*1449, drops, 0)
	}
	writeFile(t, dir, "queue-r1-r2.csv", b.String())
	writeFile(t, dir, "queue-c1-r1.csv", "time_s,packets,bytes,drops,marks\n0.000,0,0,0,0\n0.010,1,1449,0,0\n0.020,0,0,0,0\n")
}

// testExperiment and testReport are a small synthetic experiment of two
// variants, two flows in the second, three runs, with a variant-level
// metric (fairness) and a yes/no column (complete).
func testExperiment() *experiment.Experiment {
	return &experiment.Experiment{
		Name: "test-exp", Seed: "000", Title: "a test experiment",
		Description: "Two variants & one <tricky> description.",
		Columns: []experiment.Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "complete", Header: "complete", Format: "%.0f"},
			{Key: "fairness", Header: "Jain fairness", Format: "%.3f"},
			{Key: "no_such_key", Header: "absent"},
		},
	}
}

func testReport() *experiment.Report {
	flow := func(id string, t float64, retx uint64) sim.FlowResult {
		return sim.FlowResult{ID: id, DownloadTimeS: t, Retransmissions: retx, Complete: true}
	}
	runs := func(seeds ...uint64) []experiment.RunResult {
		var out []experiment.RunResult
		for _, s := range seeds {
			out = append(out, experiment.RunResult{Seed: s})
		}
		return out
	}
	return &experiment.Report{
		Experiment: "test-exp", Seed: "000", Title: "a test experiment", Runs: 3, BaseSeed: 7,
		Variants: []experiment.VariantResult{
			{
				Name: "fixed", Description: "fixed window 32",
				Flows:       []sim.FlowResult{flow("c1", 23.8, 0)},
				FlowsMin:    []sim.FlowResult{flow("c1", 23.8, 0)},
				FlowsMax:    []sim.FlowResult{flow("c1", 23.8, 0)},
				Runs:        runs(7, 8, 9),
				SeedFigures: map[string][]string{"download_time_s": {"23.8–23.9"}},
			},
			{
				Name: "aimd", Description: "AIMD, one loss event per RTT",
				Flows:       []sim.FlowResult{flow("c1", 24.74, 30), flow("c2", 25.1, 12)},
				FlowsMin:    []sim.FlowResult{flow("c1", 24.5, 20), flow("c2", 25.1, 12)},
				FlowsMax:    []sim.FlowResult{flow("c1", 25.0, 41), flow("c2", 25.1, 12)},
				Runs:        runs(7, 8, 9),
				Extra:       map[string]float64{"fairness": 0.9987},
				ExtraMin:    map[string]float64{"fairness": 0.998},
				ExtraMax:    map[string]float64{"fairness": 0.9995},
				SeedFigures: map[string][]string{"download_time_s": {"24.5–25.0", ""}, "retransmissions": {"", "250"}},
			},
		},
	}
}
