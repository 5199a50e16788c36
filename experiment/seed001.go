package experiment

import (
	"fmt"
	"maps"
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
// convergence.
func seed001Window(pipeline string) map[string]string {
	p := map[string]string{"init-cwnd": "1", "init-ssthresh": "200"}
	if pipeline == "cubic" {
		p["fast-conv"] = "true"
	}
	return p
}

// twoNode builds consumer1 -- producer1 with the given round-trip time.
func twoNode(name string, rtt time.Duration, pipeline string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc := newScenario(name, graph(link("consumer1", "producer1", Seed001Bandwidth/1e6, rtt/2, Seed001Queue, 0)), 1200*time.Second)
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
	e := &Experiment{
		Name:  "seed001-vegas",
		Seed:  "001",
		Title: "TCP Vegas and NDN-Vegas vs AIMD and CUBIC, 100 MB at 50/100/200 ms RTT",
		Description: fmt.Sprintf(`One link consumer1--producer1 of %.0f Mbit/s with a %d-packet queue (netem's default) and the
given RTT; 100 MB (10^8 bytes) in 1024-byte segments. Vegas variants are named by alpha/beta
(segments of queue the flow aims for); NDN-Vegas adds gamma (infinite here, as in the paper) and
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
		Runs: 1,
		Notes: `Paper 001 reports plots, not tables, and does not give the tunnel's rate: we use 20 Mbit/s
with netem's 1000-packet queue. Its qualitative findings hold:
- Vegas with a suitable alpha/beta has no timeouts and keeps the RTT near the base RTT, where
  AIMD and CUBIC fill the queue.
- AIMD degrades as the RTT grows.

Where we differ:
- Alpha 5 / beta 10 does not underuse the 50 ms path here, because 20 Mbit/s x 50 ms is a
  small window.
- At 200 ms RTT, Vegas leaves slow start early and grows by one segment per RTT towards a
  345-packet window, which takes over a minute: 129 s against AIMD's 84 s.
- All pipelines run with ndncatchunks' RTO settings (RTTVAR multiplier 8, 200 ms floor),
  which paper 001 used. With RFC 6298's multiplier of 4, the RTO sits just above a 200 ms
  RTT; spurious timeouts then cost AIMD 343 s.`,
	}
	pairs := map[int][][2]int{
		50:  {{5, 10}, {10, 20}, {20, 30}},
		100: {{5, 10}, {10, 20}},
		200: {{5, 10}, {10, 20}, {20, 30}},
	}
	for _, ms := range []int{50, 100, 200} {
		rtt := time.Duration(ms) * time.Millisecond
		for _, ab := range pairs[ms] {
			p := map[string]string{"vegas-alpha": fmt.Sprint(ab[0]), "vegas-beta": fmt.Sprint(ab[1])}
			name := fmt.Sprintf("vegas-a%d-b%d-rtt%dms", ab[0], ab[1], ms)
			e.Variants = append(e.Variants, Variant{Name: name,
				Description: fmt.Sprintf("Vegas alpha=%d beta=%d, RTT %d ms", ab[0], ab[1], ms),
				Scenario:    twoNode(name, rtt, "vegas", p)})
		}
		name := fmt.Sprintf("ndn-vegas-a10-b20-rtt%dms", ms)
		e.Variants = append(e.Variants,
			Variant{Name: name, Description: fmt.Sprintf("NDN-Vegas alpha=10 beta=20 gamma=inf, RTT %d ms", ms),
				Scenario: twoNode(name, rtt, "ndn-vegas", map[string]string{"vegas-alpha": "10", "vegas-beta": "20"})},
			Variant{Name: fmt.Sprintf("aimd-rtt%dms", ms), Description: fmt.Sprintf("AIMD (conservative), RTT %d ms", ms),
				Scenario: twoNode(fmt.Sprintf("aimd-rtt%dms", ms), rtt, "aimd", seed001Window("aimd"))},
			Variant{Name: fmt.Sprintf("cubic-rtt%dms", ms), Description: fmt.Sprintf("CUBIC, RTT %d ms", ms),
				Scenario: twoNode(fmt.Sprintf("cubic-rtt%dms", ms), rtt, "cubic", seed001Window("cubic"))},
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
