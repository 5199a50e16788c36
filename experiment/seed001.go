package experiment

import (
	"fmt"
	"maps"
	"math"
	"time"

	"github.com/ndncc/ndncc/scenario"
)

// Paper 001's testbed was two VMs joined by a UDP tunnel whose RTT netem
// set to 50, 100 or 200 ms; the paper does not give the tunnel's rate. We
// model it as one link of Seed001Bandwidth with netem's default queue of
// 1000 packets, the propagation delay in each direction being half the RTT.
const (
	Seed001Bandwidth = 20e6 // bit/s
	Seed001Queue     = 1000 // packets (netem's default limit)
	Seed001FileSize  = 100 * 1000 * 1000
)

// seed001RTO is ndncatchunks' estimator, which paper 001's pipelines ran
// with: RTTVAR multiplier 8 (RFC 6298's 4 is the papers 000/003 value),
// 200 ms floor, 60 s ceiling.
func seed001RTO() map[string]string {
	return map[string]string{"rto-k": "8", "min-rto": "200ms", "max-rto": "60s"}
}

// seed001Window is the initial window and threshold of paper 001's AIMD
// and CUBIC runs: paper 001 states none, and these (papers 000 and 003's)
// are what the runs were first made with; CUBIC ran with RFC 9438's fast
// convergence; neither ran HyStart (ndncatchunks has none).
func seed001Window(pipeline string) map[string]string {
	p := map[string]string{"init-cwnd": "1", "init-ssthresh": "200", "hystart": "false"}
	if pipeline == "cubic" {
		p["fast-conv"] = "true"
	}
	return p
}

// Seed001Link is a link model of paper 001's testbed: the bottleneck's
// rate and its buffer at a given round-trip time.
type Seed001Link struct {
	Rate  float64 // bit/s
	Queue func(rtt time.Duration) int
}

// seed001Catalog is the catalog's link model: Seed001Bandwidth and netem's
// 1000 packets at every RTT.
func seed001Catalog() Seed001Link {
	return Seed001Link{Rate: Seed001Bandwidth, Queue: func(time.Duration) int { return Seed001Queue }}
}

// dataWireBytes is a 1024-byte segment's Data on the wire (paper 003's
// measurement, which the simulator's encodings reproduce).
const dataWireBytes = 1449

// Seed001BDPLink is a bottleneck of rate bit/s whose buffer holds bdp
// times the path's bandwidth-delay product in Data packets (at least 2).
func Seed001BDPLink(rate, bdp float64) Seed001Link {
	return Seed001Link{Rate: rate, Queue: func(rtt time.Duration) int {
		return max(2, int(math.Round(bdp*rate*rtt.Seconds()/(8*dataWireBytes))))
	}}
}

// twoNode builds consumer1 -- producer1 with the given round-trip time
// over link model l.
func twoNode(name string, l Seed001Link, rtt time.Duration, pipeline string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc := newScenario(name, graph(link("consumer1", "producer1", l.Rate/1e6, rtt/2, l.Queue(rtt), 0)), 1200*time.Second)
		p := seed001RTO()
		maps.Copy(p, params)
		addFlows(sc, flowSpec{id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/example/big",
			size: Seed001FileSize, pipeline: pipeline, params: p})
		return sc, nil
	}
}

// seed001Vegas is paper 001's evaluation: 100 MB transfers at 50, 100 and
// 200 ms RTT with Vegas for the paper's alpha/beta pairs, NDN-Vegas,
// AIMD and CUBIC; completion time, retransmitted Interests, goodput.
func seed001Vegas() *Experiment {
	return seed001VegasOn(seed001Catalog())
}

// seed001VegasOn is seed001Vegas over link model l.
func seed001VegasOn(l Seed001Link) *Experiment {
	e := &Experiment{
		Name:  "seed001-vegas",
		Seed:  "001",
		Title: "TCP Vegas and NDN-Vegas vs AIMD and CUBIC, 100 MB at 50/100/200 ms RTT",
		Description: fmt.Sprintf(`One link consumer1--producer1 of %.0f Mbit/s with a %d-packet queue (netem's default) and the
given RTT; 100 MB (10^8 bytes) in 1024-byte segments. Vegas variants are named by alpha/beta
(the paper's diff, expected - actual, in segments per second); NDN-Vegas adds gamma (infinite here, as in the paper) and
postponed retransmission. The paper reports these runs as plots only (no table): its findings are
that Vegas with suitable alpha/beta completes fastest with the fewest retransmissions, that
alpha=5/beta=10 underuses a 50 ms path, and that AIMD degrades as the RTT grows.`, Seed001Bandwidth/1e6, Seed001Queue),
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "goodput_kbps", Header: "goodput (kbps)", Format: "%.0f"},
			{Key: "rtt_avg_ms", Header: "mean RTT (ms)", Format: "%.1f"},
			{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
		},
		Runs: 5, // Figure 1 of the paper summarises 5 runs (seed 001, line 145)
		Notes: `Paper 001 reports plots, not tables, and does not give the tunnel's rate: we use 20 Mbit/s
with netem's 1000-packet queue. The findings table above checks its seven findings against our
runs, with the figures that decide each.

Vegas compares alpha and beta with diff as paper 001 writes it, expected - actual, a rate in
segments per second (its code, imsure/ndn-vegas' vegasUpdate, computes the same), not Brakmo
and Peterson's diff in segments. The queue a flow aims for is then alpha to beta times baseRTT
in seconds: 5/10 keeps a quarter to half a packet queued at 50 ms, 20/30 one to one and a half,
and the same pairs keep four times as much at 200 ms. That is what makes alpha/beta matter, and
the paper's three findings about them follow from it: 5/10 underuses the 50 ms path, larger pairs
are more aggressive, and good pairs scale inversely with the RTT (at 50 and 100 ms; at 200 ms the
timeouts below make each run's time vary by a third, and over five runs 5/10 is not within 10% of
the fastest pair). With diff in segments (the model
before), any alpha of 1 or more kept the 20 Mbit/s link full and every pair finished at the same
time at each RTT.

Where the findings do not hold, the measured reasons: at 200 ms every Vegas variant leaves slow
start early (diff above one segment) and then grows by one segment per RTT towards a 345-packet
window, so AIMD, which keeps halving and growing, is faster; and at every RTT AIMD and CUBIC fill
the link's 1000-packet buffer, whose queueing does not slow a single transfer: with no competing
flow, a full link finishes no later than Vegas' nearly empty queue. CUBIC's retransmissions are
its overshoots of that buffer. The 200 ms runs also time out without loss: ndn-cxx's estimator
sets RTO = SRTT + 8 RTTVAR above a 200 ms floor, and with a steady 201 ms RTT the RTTVAR decays
until the RTO is barely above the RTT, so a few milliseconds of queueing fire a timeout (the
reference stack's estimator, which ndncatchunks uses, does the same).

The link model is a guess: the paper's VMs had no shaped link, and the bottleneck was their
virtual NICs, socket buffers and NFD. docs/seed001-sweep (scripts/seed001-sweep.sh) runs this
experiment at bottleneck rates of 10-200 Mbit/s and buffers of 0.1-10 bandwidth-delay products,
one run per point, and says which findings hold at each.`,
	}
	e.Findings = seed001Findings()
	e.Inputs = seed001Inputs()
	for _, ms := range seed001RTTs {
		rtt := time.Duration(ms) * time.Millisecond
		for _, ab := range seed001Pairs[ms] {
			p := map[string]string{"vegas-alpha": fmt.Sprint(ab[0]), "vegas-beta": fmt.Sprint(ab[1]), "vegas-diff-per-second": "true"}
			name := fmt.Sprintf("vegas-a%d-b%d-rtt%dms", ab[0], ab[1], ms)
			e.Variants = append(e.Variants, Variant{Name: name,
				Description: fmt.Sprintf("Vegas alpha=%d beta=%d, RTT %d ms", ab[0], ab[1], ms),
				Scenario:    twoNode(name, l, rtt, "vegas", p)})
		}
		name := fmt.Sprintf("ndn-vegas-a10-b20-rtt%dms", ms)
		e.Variants = append(e.Variants,
			Variant{Name: name, Description: fmt.Sprintf("NDN-Vegas alpha=10 beta=20 gamma=inf, RTT %d ms", ms),
				Scenario: twoNode(name, l, rtt, "ndn-vegas", map[string]string{"vegas-alpha": "10", "vegas-beta": "20", "vegas-diff-per-second": "true"})},
			Variant{Name: fmt.Sprintf("aimd-rtt%dms", ms), Description: fmt.Sprintf("AIMD (conservative), RTT %d ms", ms),
				Scenario: twoNode(fmt.Sprintf("aimd-rtt%dms", ms), l, rtt, "aimd", seed001Window("aimd"))},
			Variant{Name: fmt.Sprintf("cubic-rtt%dms", ms), Description: fmt.Sprintf("CUBIC, RTT %d ms", ms),
				Scenario: twoNode(fmt.Sprintf("cubic-rtt%dms", ms), l, rtt, "cubic", seed001Window("cubic"))},
		)
	}
	return e
}

// pipelines runs every pipeline on paper 000's linear and dumbbell
// topologies: a completeness check of the whole suite.
func pipelines() *Experiment {
	e := &Experiment{
		Name:  "pipelines",
		Seed:  "",
		Title: "every pipeline on the linear and dumbbell topologies (10 MiB per flow)",
		Description: `Each of fixed (window 32; 16 per flow on the dumbbell), aimd, cubic, bic, vegas (alpha 5, beta 10), ndn-vegas and raaqm fetches
10 MiB on paper 000's linear topology and, two flows at a time, on its dumbbell.`,
		Columns: []Column{
			{Key: "complete", Header: "complete", Format: "%.0f"},
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "throughput_kbps", Header: "throughput (kbps)", Format: "%.0f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "rtt_avg_ms", Header: "mean RTT (ms)", Format: "%.1f"},
		},
		Runs:  1,
		Notes: `Not a seed table: a completeness check of every pipeline.`,
	}
	params := map[string]map[string]string{
		"fixed": {"window": "32"}, "vegas": {"vegas-alpha": "5", "vegas-beta": "10"},
		"ndn-vegas": {"vegas-alpha": "5", "vegas-beta": "10"},
	}
	for _, topo := range []string{"linear", "dumbbell"} {
		for _, p := range []string{"fixed", "aimd", "cubic", "bic", "vegas", "ndn-vegas", "raaqm"} {
			name := topo + "-" + p
			build := linear(name, p, params[p])
			if topo == "dumbbell" {
				pp := params[p]
				if p == "fixed" {
					pp = map[string]string{"window": "16"} // paper 000's optimum for two flows
				}
				build = dumbbell(name, p, pp)
			}
			e.Variants = append(e.Variants, Variant{Name: name, Description: p + " on the " + topo + " topology", Scenario: build})
		}
	}
	return e
}
