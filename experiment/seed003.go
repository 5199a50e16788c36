package experiment

import "fmt"

// seed003Fixed is seed 003's fixed-window table: windows 50, 100 and 200
// on the linear topology, whose 32-packet bottleneck queue and ~28-packet
// BDP make window 50 safe and windows 100 and 200 overflow.
func seed003Fixed() *Experiment {
	e := &Experiment{
		Name:  "seed003-fixed",
		Seed:  "003",
		Title: "fixed congestion windows 50, 100, 200 on the linear topology (10 MiB)",
		Description: `Linear topology (seed 000/003): consumer1-router1 10 Mbit/s 10 ms, router1-router2 5 Mbit/s 10 ms
with a 32-packet queue, router2-producer1 10 Mbit/s 10 ms. The bottleneck's bandwidth-delay product
is about 28 Data packets, so a window of 50 keeps at most ~22 packets queued while 100 and 200
overflow the queue; the seed's loss rate is retransmissions / Data received.`,
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "throughput_kbps", Header: "actual (kbps)", Format: "%.0f"},
			{Key: "effective_throughput_kbps", Header: "effective (kbps)", Format: "%.0f"},
			{Key: "loss_rate_pct", Header: "loss rate %", Format: "%.2f"},
			{Key: "timeout_pct", Header: "timeout %", Format: "%.2f"},
		},
		Runs: 1,
	}
	seed := map[int]map[string][]string{
		50:  {"download_time_s": {"23.8–24.1"}, "throughput_kbps": {"4932–4987"}, "effective_throughput_kbps": {"4932–4987"}, "loss_rate_pct": {"0.2"}},
		100: {"download_time_s": {"24.6–26.8"}, "throughput_kbps": {"4426–4819"}, "effective_throughput_kbps": {"4426–4819"}, "loss_rate_pct": {"5.6–5.7"}},
		200: {"download_time_s": {"24.7–26.3"}, "throughput_kbps": {"4514–4812"}, "effective_throughput_kbps": {"4514–4812"}, "loss_rate_pct": {"17.1–17.6"}},
	}
	for _, w := range []int{50, 100, 200} {
		name := fmt.Sprintf("fixed-%d", w)
		e.Variants = append(e.Variants, Variant{
			Name:        name,
			Description: fmt.Sprintf("fixed window of %d Interests", w),
			Scenario:    linear("seed003-"+name, "fixed", map[string]string{"window": fmt.Sprint(w), "min-rto": "1s", "retries": "-1"}),
			SeedFigures: seed[w],
		})
	}
	return e
}
