package cli

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// TestEveryParameterHasAFetchFlag checks that every pipeline parameter of
// the simulator can be given to fetch.
func TestEveryParameterHasAFetchFlag(t *testing.T) {
	fs := pflag.NewFlagSet("fetch", pflag.ContinueOnError)
	binds := addParamFlags(fs)
	reach := map[string]bool{"window": true} // -s/--pipeline-size
	for _, b := range binds {
		reach[b.param] = true
	}
	for _, d := range consumer.ParamDocs() {
		if !reach[d.Name] {
			t.Errorf("pipeline parameter %s has no fetch flag", d.Name)
		}
	}
	for _, p := range cc.Pipelines() {
		for _, d := range cc.Describe(p) {
			if !reach[d.Name] {
				t.Errorf("%s parameter %s has no fetch flag", p, d.Name)
			}
		}
	}
}

// simOptions builds a one-consumer scenario of pipeline with the given
// profile and parameters (TOML), runs it through the simulator's Build
// and returns the options the simulator gave the pipeline.
func simOptions(t *testing.T, pipeline, profile, params string) consumer.Options {
	t.Helper()
	doc := fmt.Sprintf(`[topology]
nodes = ["c", "p"]
links = [{ a = "c", b = "p", delay = "1ms", bw = 10 }]
[[producer]]
node = "p"
prefix = "/x"
file-size = 1000
[[consumer]]
node = "c"
prefix = "/x"
pipeline = %q
profile = %q
params = { %s }
`, pipeline, profile, params)
	sc, err := scenario.Parse([]byte(doc), "compare.toml")
	if err != nil {
		t.Fatal(err)
	}
	net, err := sim.Build(sc, sim.Options{})
	if err != nil {
		t.Fatalf("sim: %s %s %s: %v", pipeline, profile, params, err)
	}
	return net.Flows[0].Options
}

// fetchOptions parses fetch's command line as runFetch does and returns
// the pipeline's options.
func fetchOptions(t *testing.T, args ...string) consumer.Options {
	t.Helper()
	cmd, ff := fetchCommand()
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	opts, err := ff.options(cmd.Flags())
	if err != nil {
		t.Fatalf("fetch %v: %v", args, err)
	}
	return opts
}

// sameOptions reports whether two pipelines' options, and the algorithms
// they build, are equal.
func sameOptions(t *testing.T, a, b consumer.Options) bool {
	t.Helper()
	algA, errA := cc.NewAlgorithm(a.Pipeline, a.AlgParams)
	algB, errB := cc.NewAlgorithm(b.Pipeline, b.AlgParams)
	if errA != nil || errB != nil {
		t.Fatalf("algorithms: %v, %v", errA, errB)
	}
	return reflect.DeepEqual(a, b) && reflect.DeepEqual(algA, algB)
}

// TestSimAndFetchGiveThePipelineTheSameOptions is issue 14's check of "one
// set of defaults": every pipeline, with no profile and with each profile,
// parsed by the simulator from a scenario and by fetch from its command
// line, gets the same options and the same window algorithm; so do
// explicit parameters.
func TestSimAndFetchGiveThePipelineTheSameOptions(t *testing.T) {
	for _, profile := range append([]string{""}, consumer.ProfileNames()...) {
		for _, p := range cc.Pipelines() {
			s := simOptions(t, p, profile, "")
			f := fetchOptions(t, "-p", p, "--profile", profile)
			if !sameOptions(t, s, f) {
				t.Errorf("pipeline %s, profile %q: sim %+v\nfetch %+v", p, profile, s, f)
			}
		}
	}
	s := simOptions(t, "cubic", "seed000", `init-cwnd = 4, max-rto = "5s", fast-conv = true, lifetime = "2s"`)
	f := fetchOptions(t, "-p", "cubic", "--profile", "seed000", "--init-cwnd", "4", "--max-rto", "5000", "--fast-conv", "-l", "2000")
	if !sameOptions(t, s, f) {
		t.Errorf("explicit parameters: sim %+v\nfetch %+v", s, f)
	}
	if s.RTT.K != 4 || s.RTT.MaxRTO.Seconds() != 5 || s.AlgParams["init-cwnd"] != "4" {
		t.Errorf("explicit parameters over the seed000 profile: %+v", s)
	}
	// The defaults are ndnget's but for the pipeline, which the
	// tournament chose; --profile ndnget selects ndnget's, cubic, unless
	// -p names one.
	d := fetchOptions(t)
	if d.Pipeline != "paced-delay" || d.RTT.K != 8 || d.RTT.MaxRTO.Seconds() != 60 || d.MaxRetries != 15 || d.Lifetime.Seconds() != 4 {
		t.Errorf("fetch's defaults %+v are not ndnget's with paced-delay", d)
	}
	if n := fetchOptions(t, "--profile", "ndnget"); n.Pipeline != "cubic" || !sameOptions(t, n, simOptions(t, "cubic", "ndnget", "")) {
		t.Errorf("--profile ndnget: %+v, want ndnget's cubic", n)
	}
	if n := fetchOptions(t, "--profile", "ndnget", "-p", "aimd"); n.Pipeline != "aimd" {
		t.Errorf("--profile ndnget -p aimd: pipeline %s", n.Pipeline)
	}
}

// TestParamsShowsOneDefaultPerPipeline checks that `ndncc params` gives
// each parameter of each pipeline exactly one default, and lists every
// profile.
func TestParamsShowsOneDefaultPerPipeline(t *testing.T) {
	var b strings.Builder
	writeParams(&b)
	doc := b.String()
	for _, p := range cc.Pipelines() {
		i := strings.Index(doc, "## Pipeline `"+p+"`")
		if i < 0 {
			t.Fatalf("no section for %s", p)
		}
		section := doc[i:]
		if j := strings.Index(section[3:], "\n## "); j >= 0 {
			section = section[:j+3]
		}
		for _, d := range cc.Describe(p) {
			row := "| `" + d.Name + "` | `" + d.Default + "` |"
			if strings.Count(section, "| `"+d.Name+"` |") != 1 || !strings.Contains(section, row) {
				t.Errorf("%s: want one row %q", p, row)
			}
		}
	}
	for _, pr := range consumer.Profiles() {
		if !strings.Contains(doc, "## Profile `"+pr.Name+"`") {
			t.Errorf("params lacks profile %s", pr.Name)
		}
	}
}

func TestProgressText(t *testing.T) {
	// The first tick after 8 KB in 2 ms: 32 Mbit/s, in the summary's unit.
	if got := progressText(8000, 2*time.Millisecond); got != "fetching 0.0 MB, 32.0 Mbit/s" {
		t.Errorf("progressText = %q", got)
	}
	if got := progressText(20e6, 2*time.Second); got != "fetching 20.0 MB, 80.0 Mbit/s" {
		t.Errorf("progressText = %q", got)
	}
}

func TestParseNameArg(t *testing.T) {
	for in, want := range map[string]string{"/a/b": "/a/b", "ndn:/a/b": "/a/b", "ndn:///a/b": "/a/b", "ndn://host/a": "/a"} {
		n, err := parseNameArg(in)
		if err != nil || n.String() != want {
			t.Errorf("parseNameArg(%q) = %v, %v; want %s", in, n, err, want)
		}
	}
	for _, bad := range []string{"a/b", "ndn:", "/", "ndn:a"} {
		if _, err := parseNameArg(bad); err == nil {
			t.Errorf("parseNameArg(%q) accepted", bad)
		}
	}
	for v, ok := range map[string]bool{"typed": true, "t": true, "2": true, "": true, "marker": false, "m": false, "x": false} {
		if err := checkNaming(v); (err == nil) != ok {
			t.Errorf("checkNaming(%q) = %v", v, err)
		}
	}
}

func TestVersionFlag(t *testing.T) {
	for _, args := range [][]string{{"fetch", "-V"}, {"serve", "-V"}, {"sim", "--version"}, {"-V"}} {
		out, err := run(t, args...)
		if err != nil || !strings.HasPrefix(out, "ndncc ") || strings.Count(out, "\n") != 1 {
			t.Errorf("%v: %q, %v; want one line \"ndncc VERSION\"", args, out, err)
		}
	}
}

// TestDurationFlagsTakeMilliseconds: every duration parameter's flag takes
// a bare number as milliseconds, as ndnget does, and a Go duration too
// (rto-var-floor was once left out of a hand-kept list and refused "150";
// paced-delay's delay-floor and min-rtt-window, the algorithm's own, took
// only a Go duration and their help said "name").
func TestDurationFlagsTakeMilliseconds(t *testing.T) {
	names := durationParams()
	for _, want := range []string{"lifetime", "min-rto", "rto-var-floor", "timeout", "delay-floor", "min-rtt-window"} {
		if !slices.Contains(names, want) {
			t.Errorf("durationParams() lacks %q: %v", want, names)
		}
	}
	for _, name := range names {
		b := paramFlag{flag: name, param: name}
		for _, tc := range []struct{ in, want string }{{"150", "150ms"}, {"2s", "2s"}} {
			got, err := b.value(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("--%s %s: got %q, %v; want %q", name, tc.in, got, err, tc.want)
			}
		}
	}
	o := fetchOptions(t, "--delay-floor", "2", "--min-rtt-window", "500us")
	if o.AlgParams["delay-floor"] != "2ms" || o.AlgParams["min-rtt-window"] != "500µs" {
		t.Errorf("--delay-floor 2 --min-rtt-window 500us: %v", o.AlgParams)
	}
	cmd, _ := fetchCommand()
	for _, name := range []string{"delay-floor", "min-rtt-window"} {
		if f := cmd.Flags().Lookup(name); f == nil || f.Value.Type() != "ms" {
			t.Errorf("--%s: %+v, want a flag that takes ms", name, f)
		}
	}
}
