package emu

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/sim"
)

// The summaries the tools print (ndn-tools 24.07's ndncatchunks with the
// fixed and an adaptive pipeline, ndnd v1.5.3's cat), as they print them.
const (
	catchunksFixed = `

All segments have been received.
Time elapsed: 23.8712 seconds
Segments received: 10240
Transferred size: 10485.8 kB
Goodput: 3.514190 Mbit/s
`
	catchunksAIMD = `

All segments have been received.
Time elapsed: 24.9 seconds
Segments received: 10240
Transferred size: 10485.8 kB
Goodput: 3.368845 Mbit/s
Congestion marks: 12 (caused 3 window decreases)
Timeouts: 14 (caused 9 window decreases)
Retransmitted segments: 14 (0.136452%), skipped: 0
RTT min/avg/max = 66.918/92.377/452.093 ms
`
	ndndCat = `Object fetched /example/file/v=1700000000000000
Content: 1048576 bytes
Time taken: 5.493979168s
Throughput: 1.526873 Mbit/s
`
)

// TestParseSummary reads each tool's summary into a flow's fields, and
// leaves what it does not print absent.
func TestParseSummary(t *testing.T) {
	for _, tc := range []struct {
		name, out  string
		complete   bool
		time, kbps float64
		segments   uint64
		timeouts   int64 // -1: absent
		retx       int64
		marks      int64
		rttAvg     float64 // -1: absent
	}{
		{"ndncatchunks fixed", catchunksFixed, true, 23.8712, 3514.19, 10240, -1, -1, -1, -1},
		{"ndncatchunks aimd", catchunksAIMD, true, 24.9, 3368.845, 10240, 14, 14, 12, 92.377},
		{"ndnd cat", ndndCat, true, 5.493979, 1526.873, 0, -1, -1, -1, -1},
		{"nothing", "ERROR: fetching failed\n", false, -1, -1, 0, -1, -1, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := parseSummary(tc.out)
			fr, absent := s.row(sim.FlowResult{ID: "c"})
			isAbsent := func(k string) bool {
				for _, a := range absent {
					if a == k {
						return true
					}
				}
				return false
			}
			if fr.Complete != tc.complete {
				t.Errorf("complete %v, want %v", fr.Complete, tc.complete)
			}
			checkF := func(key string, got, want float64) {
				if want < 0 {
					if !isAbsent(key) {
						t.Errorf("%s = %v, want absent", key, got)
					}
					return
				}
				if isAbsent(key) || got != want {
					t.Errorf("%s = %v (absent %v), want %v", key, got, isAbsent(key), want)
				}
			}
			checkU := func(key string, got uint64, want int64) {
				if want < 0 {
					if !isAbsent(key) {
						t.Errorf("%s = %v, want absent", key, got)
					}
					return
				}
				if isAbsent(key) || got != uint64(want) {
					t.Errorf("%s = %v (absent %v), want %v", key, got, isAbsent(key), want)
				}
			}
			checkF("download_time_s", fr.DownloadTimeS, tc.time)
			checkF("goodput_kbps", fr.GoodputKbps, tc.kbps)
			if tc.segments > 0 {
				checkU("segments", fr.Segments, int64(tc.segments))
			} else {
				checkU("segments", fr.Segments, -1)
			}
			checkU("timeouts", fr.Timeouts, tc.timeouts)
			checkU("retransmissions", fr.Retransmissions, tc.retx)
			checkU("marks", fr.Marks, tc.marks)
			checkF("rtt_avg_ms", fr.RTTAvgMs, tc.rttAvg)
			if !isAbsent("interests") || !isAbsent("throughput_kbps") {
				t.Errorf("interests and throughput are never printed; absent: %v", absent)
			}
		})
	}
}

// TestResultJSONNulls checks that a program flow's absent fields are null
// in the document, in the schema's order, and other flows' are not.
func TestResultJSONNulls(t *testing.T) {
	fr, absent := parseSummary(catchunksFixed).row(sim.FlowResult{ID: "prog"})
	res := Result{Mode: Mode, Result: &sim.Result{Flows: []sim.FlowResult{fr, {ID: "ours"}}}, absent: [][]string{absent, nil}}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Mode  string           `json:"mode"`
		Flows []map[string]any `json:"flows"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if doc.Mode != Mode || len(doc.Flows) != 2 {
		t.Fatalf("mode %q, %d flows: %s", doc.Mode, len(doc.Flows), b)
	}
	if v, ok := doc.Flows[0]["timeouts"]; !ok || v != nil {
		t.Errorf("program flow's timeouts = %v (present %v), want null", v, ok)
	}
	if v := doc.Flows[0]["segments"]; v != float64(10240) {
		t.Errorf("program flow's segments = %v, want 10240", v)
	}
	if v := doc.Flows[1]["timeouts"]; v != float64(0) {
		t.Errorf("our flow's timeouts = %v, want 0", v)
	}
	if i, j := strings.Index(string(b), `"id":"prog"`), strings.Index(string(b), `"rtt_max_ms":null`); i < 0 || j < i {
		t.Errorf("keys out of order or missing: %s", b)
	}
}

// TestShellQuote checks the command lines of program flows.
func TestShellQuote(t *testing.T) {
	for _, tc := range []struct {
		program string
		args    []string
		want    string
	}{
		{"ndncatchunks", []string{"-p", "fixed", "-s", "32", "/example/file"}, "ndncatchunks -p fixed -s 32 /example/file"},
		{"/opt/x y/ndnd", []string{"cat", "it's"}, `'/opt/x y/ndnd' cat 'it'\''s'`},
		{"a", []string{""}, "a ''"},
	} {
		if got := shellQuote(tc.program, tc.args); got != tc.want {
			t.Errorf("shellQuote(%q, %q) = %s, want %s", tc.program, tc.args, got, tc.want)
		}
	}
}

// TestIsFetchTool checks which --exec commands fill their consumer's row.
func TestIsFetchTool(t *testing.T) {
	for cmd, want := range map[string]bool{
		"ndncatchunks -p fixed /example/file": true,
		"/usr/bin/ndncatchunks /a":            true,
		"ndnd cat /example/file > f":          true,
		"ndnd put /x < f":                     false,
		"true":                                false,
		"":                                    false,
	} {
		if got := isFetchTool(cmd); got != want {
			t.Errorf("isFetchTool(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestProgramFlows runs a 1 MiB object served by `ndnd put` and fetched by
// `ndnd cat` as the scenario's producer and consumer programs, over ndnd
// forwarders: the consumer's row is cat's summary (complete, its bytes and
// time) with what cat does not print absent, and the bytes it wrote are
// the producer's.
func TestProgramFlows(t *testing.T) {
	// ndnd cat gives a segment three retries and then exits: on a loaded
	// machine (a `go test ./...` compiling beside it, once) the emulated
	// links run late and it runs out of them ("retries exhausted").
	realtimetest.Require(t)
	bin := ndndtest.Binary(t)
	sc := linear(t, "producer[0].file-size=1048576", "producer[0].signature=digest")
	sc.Producers[0].Program, sc.Producers[0].Args = bin, []string{"put", "/example/file"}
	sc.Consumers[0].Program, sc.Consumers[0].Args = bin, []string{"cat", "/example/file"}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Run(ctx, sc, Options{Forwarder: "ndnd", NDND: bin})
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Flows[0]
	if !fr.Complete || fr.Bytes != 1048576 || fr.DownloadTimeS <= 0 || fr.Pipeline != "ndnd" || fr.Error != "" {
		t.Fatalf("flow %+v; want ndnd cat's complete 1 MiB", fr)
	}
	if len(res.absent) != 1 || !strings.Contains(strings.Join(res.absent[0], " "), "timeouts") {
		t.Errorf("absent %v; want timeouts among them", res.absent)
	}
	if len(res.Exec) != 2 {
		t.Errorf("exec %+v; want the producer's and the consumer's programs", res.Exec)
	}
}
