package sim

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/scenario"
)

// chain is a consumer, a caching router r1, a router r2 and a producer p
// in a line, 10 Mbit/s links, the consumer's flow and the events given.
func chain(t *testing.T, consumer, events string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse([]byte(`
name = "chain"
duration = "30s"
[topology]
nodes = ["c", "r1", "r2", "p"]
links = [
  { a = "c", b = "r1", delay = "5ms", bw = 10 },
  { a = "r1", b = "r2", delay = "10ms", bw = 10 },
  { a = "r2", b = "p", delay = "5ms", bw = 10 },
]
[routers.node.r1]
cs-capacity = 50
[[producer]]
node = "p"
prefix = "/data"
file-size = "1MiB"
signature = "digest"
`+consumer+events), "chain.toml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

const zipfConsumer = `
[[consumer]]
id = "z"
node = "c"
prefix = "/data"
app = "zipf"
params = { rate = 100, contents = 200 }
`

func run(t *testing.T, sc *scenario.Scenario, opt Options) (*Network, *Result) {
	t.Helper()
	n, err := Build(sc, opt)
	if err != nil {
		t.Fatal(err)
	}
	return n, n.Run()
}

func linkOf(r *Result, from, to string) LinkResult {
	for _, l := range r.Links {
		if l.From == from && l.To == to {
			return l
		}
	}
	return LinkResult{}
}

// TestEvents runs a zipf consumer across events on the link r1-r2 (or the
// node r2) and checks what the links and the flow saw.
func TestEvents(t *testing.T) {
	for _, tc := range []struct {
		name, events string
		check        func(t *testing.T, n *Network, r *Result)
	}{
		{"none", "", func(t *testing.T, n *Network, r *Result) {
			if l := linkOf(r, "r1", "r2"); l.DownDrops != 0 || l.Drops != 0 {
				t.Errorf("r1->r2 dropped %d (%d while down) with no event", l.Drops, l.DownDrops)
			}
			if f := r.Flows[0]; f.Timeouts != 0 || f.Segments < 2900 {
				t.Errorf("%d timeouts, %d Data in 30 s at 100/s", f.Timeouts, f.Segments)
			}
		}},
		{"link down 10 s to 20 s", `
[[event]]
at = "10s"
link = "r2-r1"
down = true
[[event]]
at = "20s"
link = "r1-r2"
up = true
`, func(t *testing.T, n *Network, r *Result) {
			l := linkOf(r, "r1", "r2")
			// about 100 Interests a second reach r1, a share of them
			// answered from its cache: the rest are dropped into the
			// down link for 10 s
			if l.DownDrops < 300 || l.DownDrops > 1000 || l.Drops != l.DownDrops {
				t.Errorf("r1->r2: %d frames dropped while down (%d drops), want 300..1000", l.DownDrops, l.Drops)
			}
			f := r.Flows[0]
			if f.Timeouts == 0 || f.Segments < 2000 {
				t.Errorf("%d timeouts, %d Data: want timeouts during the outage, Data around it", f.Timeouts, f.Segments)
			}
			ch, _ := n.Nodes["r1"].Out("r2")
			if !ch.Up() {
				t.Errorf("r1->r2 still down after the up event")
			}
			if len(r.Caches) != 1 || r.Caches[0].Node != "r1" || r.Caches[0].Hits == 0 {
				t.Errorf("caches %+v: want r1's, with hits", r.Caches)
			}
		}},
		{"node down", `
[[event]]
at = "10s"
node = "r2"
down = true
`, func(t *testing.T, n *Network, r *Result) {
			for _, d := range [][2]string{{"r1", "r2"}, {"r2", "r1"}, {"r2", "p"}, {"p", "r2"}} {
				ch, _ := n.Nodes[d[0]].Out(d[1])
				if ch.Up() {
					t.Errorf("%s->%s is up after node r2 went down", d[0], d[1])
				}
			}
			if l := linkOf(r, "r1", "r2"); l.DownDrops < 1000 {
				t.Errorf("r1->r2: %d dropped while down, want over 1000 in 20 s", l.DownDrops)
			}
		}},
		{"rate and delay", `
[[event]]
at = "10s"
link = "r1-r2"
bw = "64kbps"
[[event]]
at = "10s"
link = "r1-r2"
delay = "50ms"
`, func(t *testing.T, n *Network, r *Result) {
			ch, _ := n.Nodes["r2"].Out("r1")
			if p := ch.Params(); p.Bandwidth != 64000 || p.Delay != 50*time.Millisecond {
				t.Errorf("r2->r1 at %v bit/s, %v delay after the events", p.Bandwidth, p.Delay)
			}
			// 100 Data of about 1.1 KB a second do not fit in 64 kbit/s:
			// the queue fills and drops
			if l := linkOf(r, "r2", "r1"); l.TailDrops == 0 || l.MaxQueue < 100 {
				t.Errorf("r2->r1: %d tail drops, max queue %d: want the slower link to queue and drop", l.TailDrops, l.MaxQueue)
			}
			if f := r.Flows[0]; f.RTTMaxMs < 120 {
				t.Errorf("RTT max %v ms: want at least the new 2×50 ms on r1-r2", f.RTTMaxMs)
			}
		}},
		{"loss", `
[[event]]
at = "0s"
link = "c-r1"
loss = 50
`, func(t *testing.T, n *Network, r *Result) {
			l := linkOf(r, "c", "r1")
			if ratio := float64(l.LossDrops) / float64(l.Packets); ratio < 0.45 || ratio > 0.55 {
				t.Errorf("c->r1 lost %d of %d, want about half", l.LossDrops, l.Packets)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, r := run(t, chain(t, zipfConsumer, tc.events), Options{})
			tc.check(t, n, r)
		})
	}
}

// counts returns r without what depends on where the clock stopped (an
// event of its own, such as a late one or a trace's sample, moves the end
// of a run cut short by its time limit to it): the counters only.
func counts(r *Result) *Result {
	c := *r
	c.Timing, c.SimTimeS = Timing{}, 0
	c.Flows = slices.Clone(r.Flows)
	for i := range c.Flows {
		f := &c.Flows[i]
		f.DownloadTimeS, f.GoodputKbps, f.ThroughputKbps, f.EffectiveKbps = 0, 0, 0, 0
	}
	c.Links = slices.Clone(r.Links)
	for i := range c.Links {
		c.Links[i].Utilization, c.Links[i].MeanQueue = 0, 0
	}
	return &c
}

// TestEventsChangeNothingBefore checks that a run with an event matches the
// run without it up to the event: a late event leaves every result alone.
func TestEventsChangeNothingBefore(t *testing.T) {
	_, without := run(t, chain(t, zipfConsumer, ""), Options{})
	_, late := run(t, chain(t, zipfConsumer, "[[event]]\nat = \"29.999999s\"\nlink = \"r1-r2\"\ndown = true\n"), Options{})
	if !reflect.DeepEqual(counts(without), counts(late)) {
		t.Errorf("an event at the very end changed the results:\n%+v\n%+v", without, late)
	}
}

func TestAppFlowsBesidePipelines(t *testing.T) {
	sc := chain(t, `
[[consumer]]
id = "fetch"
node = "c"
prefix = "/data"
pipeline = "fixed"
params = { window = 8 }
[[consumer]]
id = "cbr"
node = "c"
prefix = "/data"
app = "cbr"
params = { rate = 20, count = 100 }
[[consumer]]
id = "b"
node = "r2"
prefix = "/data"
app = "batches"
params = { batches = "1s 5 2s 5" }
`, "")
	_, r := run(t, sc, Options{})
	if len(r.Flows) != 3 || r.Flows[0].ID != "fetch" || r.Flows[1].ID != "cbr" || r.Flows[2].ID != "b" {
		t.Fatalf("flows %+v: want fetch, cbr, b in scenario order", r.Flows)
	}
	for _, f := range r.Flows {
		if !f.Complete || f.Error != "" {
			t.Errorf("flow %s: complete %v, error %q", f.ID, f.Complete, f.Error)
		}
	}
	if f := r.Flows[1]; f.Pipeline != "cbr" || f.Interests != 100 || f.Segments != 100 || f.DelayMeanMs < 40 || f.Bytes != 100*1024 {
		t.Errorf("cbr: %+v: want 100 Interests answered with 1024 bytes each, delays of at least the 40 ms round trip", f)
	}
	if f := r.Flows[2]; f.Interests != 10 || f.Segments != 10 || f.DelayMeanMs < 10 {
		t.Errorf("batches: %+v: want 10 Interests answered", f)
	}
}

// readTSV reads a tab-separated file: its header's fields and its rows'.
func readTSV(t *testing.T, path string) (string, [][]string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		t.Fatalf("%s is empty", path)
	}
	header := sc.Text()
	var rows [][]string
	for sc.Scan() {
		rows = append(rows, strings.Split(sc.Text(), "\t"))
	}
	return header, rows
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return x
}

// TestNDNSimTraces writes a run's traces in ndnSIM's formats, reads them
// back and checks their columns against the run's counters; the traces
// change no result.
func TestNDNSimTraces(t *testing.T) {
	sc := chain(t, zipfConsumer, "")
	_, plain := run(t, sc, Options{})
	n, r := run(t, sc, Options{NDNSimTrace: true})
	if !reflect.DeepEqual(counts(plain), counts(r)) {
		t.Fatalf("tracing changed the results")
	}
	dir := t.TempDir()
	if err := n.WriteNDNSimTraces(dir); err != nil {
		t.Fatal(err)
	}
	app := n.Apps[0].T.Stats()

	header, rows := readTSV(t, filepath.Join(dir, NDNSimRateFile))
	if header != "Time\tNode\tFaceId\tFaceDescr\tType\tPackets\tKilobytes\tPacketRaw\tKilobytesRaw" {
		t.Errorf("rate trace header %q", header)
	}
	var outInterests, inData float64
	var last float64
	for _, row := range rows {
		if len(row) != 9 {
			t.Fatalf("rate trace row %q has %d columns", row, len(row))
		}
		tm := num(t, row[0])
		last = max(last, tm)
		for _, c := range row[5:] {
			if num(t, c) < 0 {
				t.Fatalf("negative count in %q", row)
			}
		}
		if row[1] == "c" && row[3] == "netdev://r1" {
			switch row[4] {
			case "OutInterests":
				outInterests += num(t, row[7])
			case "InData":
				inData += num(t, row[7])
				if num(t, row[7]) > 0 && num(t, row[8]) < num(t, row[7])*1024/1024 {
					t.Errorf("%v Data in under their 1024-byte payloads: %q", row[7], row)
				}
			}
		}
	}
	if last != 29 && last != 30 {
		t.Errorf("last rate sample at %v s, want 29 or 30 (one a second)", last)
	}
	// the samples cover the run up to their last, the run's counters all
	// of it: at 100 Interests a second they differ by a second's at most
	if outInterests > float64(app.Interests) || outInterests < float64(app.Interests)-100 {
		t.Errorf("rate trace: c sent %v Interests to r1, the app %d", outInterests, app.Interests)
	}
	// each Interest draws at most one Data; a content asked twice may
	// come twice, and c's forwarder drops the second (its PIT entry is
	// gone): the app sees one
	if inData > outInterests || inData < float64(app.Data)-100 {
		t.Errorf("rate trace: c got %v Data from r1 for %v Interests, the app %d", inData, outInterests, app.Data)
	}

	header, rows = readTSV(t, filepath.Join(dir, NDNSimDelayFile))
	if header != "Time\tNode\tAppId\tSeqNo\tType\tDelayS\tDelayUS\tRetxCount\tHopCount" {
		t.Errorf("app delay trace header %q", header)
	}
	full := 0
	var lastDelay float64
	for i, row := range rows {
		if len(row) != 9 || row[1] != "c" || row[2] != "0" || row[8] != "-1" {
			t.Fatalf("app delay row %q", row)
		}
		want := "LastDelay"
		if i%2 == 1 {
			want = "FullDelay"
			full++
		}
		if row[4] != want {
			t.Fatalf("row %d type %q, want %s", i, row[4], want)
		}
		s, us := num(t, row[5]), num(t, row[6])
		if s*1e6-us > 1 || us-s*1e6 > 1 {
			t.Errorf("row %q: delay %v s and %v µs differ", row, s, us)
		}
		if seq := num(t, row[3]); seq < 1 || seq > 200 {
			t.Errorf("row %q: content %v outside 1..200", row, seq)
		}
		if want == "LastDelay" {
			lastDelay = s
			if row[7] != "1" {
				t.Errorf("row %q: a LastDelay row's RetxCount is 1", row)
			}
			continue
		}
		if lastDelay > s || rows[i-1][3] != row[3] || num(t, row[7]) < 1 {
			t.Errorf("rows %q, %q: want the same content, a full delay not below the last", rows[i-1], row)
		}
	}
	if uint64(full) != app.Data {
		t.Errorf("%d FullDelay rows, the app got %d Data", full, app.Data)
	}

	header, rows = readTSV(t, filepath.Join(dir, NDNSimCSFile))
	if header != "Time\tNode\tType\tPackets\t" {
		t.Errorf("cs trace header %q", header)
	}
	var hits float64
	for _, row := range rows {
		if len(row) != 4 || (row[2] != "CacheHits" && row[2] != "CacheMisses") {
			t.Fatalf("cs trace row %q", row)
		}
		if row[1] == "r1" && row[2] == "CacheHits" {
			hits += num(t, row[3])
		}
		if row[1] != "r1" && num(t, row[3]) != 0 {
			t.Errorf("row %q: a node without a Content Store hit or missed", row)
		}
	}
	if hits == 0 || hits > float64(r.Caches[0].Hits) {
		t.Errorf("cs trace: r1 hit %v times, the run's counters say %d", hits, r.Caches[0].Hits)
	}
}

// TestNodeFailureRetransmissionsTakeTheOtherPath runs
// examples/node-failure.toml with and without its events: without, r1
// sends nothing to b (the path via a is the best route); with a down from
// 5 s to 15 s, the retransmissions go to b and the fetch completes.
func TestNodeFailureRetransmissionsTakeTheOtherPath(t *testing.T) {
	sc, err := scenario.Load("../examples/node-failure.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, with := run(t, sc, Options{})
	calm := sc.Clone()
	calm.Events = nil
	_, without := run(t, calm, Options{})
	if l := linkOf(without, "r1", "b"); l.Interests != 0 {
		t.Errorf("without the failure r1 sent %d Interests to b, want none", l.Interests)
	}
	l := linkOf(with, "r1", "b")
	f := with.Flows[0]
	if !f.Complete || l.Interests == 0 || l.Interests > f.Retransmissions {
		t.Errorf("with the failure: complete %v, %d Interests to b, %d retransmissions: want the retransmissions (some of them) via b", f.Complete, l.Interests, f.Retransmissions)
	}
	if d := linkOf(with, "r1", "a").DownDrops; d == 0 {
		t.Errorf("r1->a dropped nothing while a was down")
	}
}
