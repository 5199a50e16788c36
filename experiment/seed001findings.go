package experiment

import (
	"fmt"
	"math"
	"strings"
)

// seed001RTTs are the round-trip times of seed 001's scenarios, in ms.
var seed001RTTs = []int{50, 100, 200}

// seed001Pairs are the Vegas alpha/beta pairs the seed ran at each RTT.
var seed001Pairs = map[int][][2]int{
	50:  {{5, 10}, {10, 20}, {20, 30}},
	100: {{5, 10}, {10, 20}},
	200: {{5, 10}, {10, 20}, {20, 30}},
}

// flowMean is our mean of a FlowResult field for the first flow of
// variant name; NaN if the report lacks it.
func flowMean(r *Report, name, key string) float64 {
	for _, v := range r.Variants {
		if v.Name == name && len(v.Flows) > 0 {
			if x, ok := FlowField(v.Flows[0], key); ok {
				return x
			}
		}
	}
	return math.NaN()
}

func vegasName(a, b, ms int) string { return fmt.Sprintf("vegas-a%d-b%d-rtt%dms", a, b, ms) }

// bestVegas is the Vegas variant (of the seed's pairs) with the shortest
// completion time at RTT ms.
func bestVegas(r *Report, ms int) (string, float64) {
	best, bt := "", math.Inf(1)
	for _, ab := range seed001Pairs[ms] {
		n := vegasName(ab[0], ab[1], ms)
		if t := flowMean(r, n, "download_time_s"); t < bt {
			best, bt = n, t
		}
	}
	return best, bt
}

// seed001Findings are the seven findings of seed 001's Discussion, each
// checked against our runs.
func seed001Findings() []Finding {
	t := func(r *Report, n string) float64 { return flowMean(r, n, "download_time_s") }
	retx := func(r *Report, n string) float64 { return flowMean(r, n, "retransmissions") }
	return []Finding{
		{Claim: "Vegas with suitable alpha/beta completes faster than AIMD and CUBIC at every RTT",
			Check: func(r *Report) (bool, string) {
				ok := true
				var figs []string
				for _, ms := range seed001RTTs {
					n, bt := bestVegas(r, ms)
					a, c := t(r, fmt.Sprintf("aimd-rtt%dms", ms)), t(r, fmt.Sprintf("cubic-rtt%dms", ms))
					ok = ok && bt < a && bt < c
					figs = append(figs, fmt.Sprintf("%d ms: %s %.1f s, AIMD %.1f, CUBIC %.1f", ms, strings.TrimSuffix(n, fmt.Sprintf("-rtt%dms", ms)), bt, a, c))
				}
				return ok, strings.Join(figs, "; ")
			}},
		{Claim: "Vegas with suitable alpha/beta retransmits fewer Interests than AIMD and CUBIC at every RTT",
			Check: func(r *Report) (bool, string) {
				ok := true
				var figs []string
				for _, ms := range seed001RTTs {
					n, _ := bestVegas(r, ms)
					v, a, c := retx(r, n), retx(r, fmt.Sprintf("aimd-rtt%dms", ms)), retx(r, fmt.Sprintf("cubic-rtt%dms", ms))
					ok = ok && v < a && v < c
					figs = append(figs, fmt.Sprintf("%d ms: %.0f vs AIMD %.0f, CUBIC %.0f", ms, v, a, c))
				}
				return ok, strings.Join(figs, "; ")
			}},
		{Claim: "AIMD favours short RTTs: almost as fast as the best Vegas at 50 ms (within 10%), the slowest pipeline at 200 ms",
			Check: func(r *Report) (bool, string) {
				_, v50 := bestVegas(r, 50)
				a50 := t(r, "aimd-rtt50ms")
				a200 := t(r, "aimd-rtt200ms")
				slowest := true
				for _, v := range r.Variants {
					if strings.HasSuffix(v.Name, "-rtt200ms") && v.Name != "aimd-rtt200ms" && t(r, v.Name) > a200 {
						slowest = false
					}
				}
				return a50 <= 1.1*v50 && slowest, fmt.Sprintf("50 ms: AIMD %.1f s vs best Vegas %.1f s; 200 ms: AIMD %.1f s, slowest: %v", a50, v50, a200, slowest)
			}},
		{Claim: "CUBIC is the slowest at 50 and 100 ms and faster than AIMD only at 200 ms",
			Check: func(r *Report) (bool, string) {
				ok := true
				var figs []string
				for _, ms := range seed001RTTs {
					c, a := t(r, fmt.Sprintf("cubic-rtt%dms", ms)), t(r, fmt.Sprintf("aimd-rtt%dms", ms))
					_, v := bestVegas(r, ms)
					if ms == 200 {
						ok = ok && c < a
					} else {
						ok = ok && c > a && c > v
					}
					figs = append(figs, fmt.Sprintf("%d ms: CUBIC %.1f s, AIMD %.1f, best Vegas %.1f", ms, c, a, v))
				}
				return ok, strings.Join(figs, "; ")
			}},
		{Claim: "alpha 5 / beta 10 underuses the 50 ms path (goodput below 90% of alpha 20 / beta 30's)",
			Check: func(r *Report) (bool, string) {
				g1, g3 := flowMean(r, vegasName(5, 10, 50), "goodput_kbps"), flowMean(r, vegasName(20, 30, 50), "goodput_kbps")
				return g1 < 0.9*g3, fmt.Sprintf("%.0f vs %.0f kbit/s (%.0f%%)", g1, g3, 100*g1/g3)
			}},
		{Claim: "larger alpha/beta is more aggressive: at every RTT a larger pair completes at least 2% sooner or retransmits more",
			Check: func(r *Report) (bool, string) {
				ok := true
				var figs []string
				for _, ms := range seed001RTTs {
					ps := seed001Pairs[ms]
					lo, hi := vegasName(ps[0][0], ps[0][1], ms), vegasName(ps[len(ps)-1][0], ps[len(ps)-1][1], ms)
					tl, th, rl, rh := t(r, lo), t(r, hi), retx(r, lo), retx(r, hi)
					ok = ok && (th < 0.98*tl || rh > rl)
					figs = append(figs, fmt.Sprintf("%d ms: a%d/b%d %.1f s %.0f retx, a%d/b%d %.1f s %.0f retx", ms,
						ps[0][0], ps[0][1], tl, rl, ps[len(ps)-1][0], ps[len(ps)-1][1], th, rh))
				}
				return ok, strings.Join(figs, "; ")
			}},
		{Claim: "good alpha/beta scale inversely with the RTT: 20/30 best at 50 ms, 10/20 at 100 ms, 5/10 (fewest retransmissions, time within 10%) at 200 ms",
			Check: func(r *Report) (bool, string) {
				b50, _ := bestVegas(r, 50)
				b100, _ := bestVegas(r, 100)
				_, bt200 := bestVegas(r, 200)
				n200 := vegasName(5, 10, 200)
				fewest := true
				for _, ab := range seed001Pairs[200] {
					if retx(r, vegasName(ab[0], ab[1], 200)) < retx(r, n200) {
						fewest = false
					}
				}
				ok := b50 == vegasName(20, 30, 50) && b100 == vegasName(10, 20, 100) && fewest && t(r, n200) <= 1.1*bt200
				return ok, fmt.Sprintf("fastest at 50 ms: %s, at 100 ms: %s; at 200 ms a5/b10 %.1f s (best %.1f), fewest retx: %v", b50, b100, t(r, n200), bt200, fewest)
			}},
	}
}
