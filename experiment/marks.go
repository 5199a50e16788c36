package experiment

import "github.com/ndncc/ndncc/scenario"

// withBottleneckBuffer sets the router1-router2 buffer (both directions).
func withBottleneckBuffer(build func() (*scenario.Scenario, error), packets int) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc, err := build()
		if err != nil {
			return nil, err
		}
		for i, l := range sc.Topology.Links {
			if l.Connects("router1", "router2") {
				sc.Topology.Links[i].QueuePackets = packets
			}
		}
		return sc, nil
	}
}

// withBottleneckQueue sets the queue discipline of both directions of
// router1-router2 (PCON monitors both directions).
func withBottleneckQueue(build func() (*scenario.Scenario, error), queue string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc, err := build()
		if err != nil {
			return nil, err
		}
		for _, dir := range [][2]string{{"router1", "router2"}, {"router2", "router1"}} {
			sc.LinkQueues = append(sc.LinkQueues, scenario.LinkQueue{From: dir[0], To: dir[1], Queue: queue, QueueParams: params})
		}
		return sc, nil
	}
}

// markAIMD is AIMD with a milder backoff on marks (RFC 8511's idea).
func markAIMD() map[string]string { return map[string]string{"aimd-mark-beta": "0.85"} }

// seed000LinearMarks runs seed 000's linear topology with CoDel marking
// at the bottleneck and AIMD reacting to the marks, beside drop-tail AIMD.
func seed000LinearMarks() *Experiment {
	e := &Experiment{
		Name:  "seed000-linear-marks",
		Seed:  "004",
		Title: "linear topology: drop-tail AIMD vs AIMD reacting to CoDel marks (10 MiB)",
		Description: `The bottleneck router1-router2 (5 Mbit/s, 32-packet queue) runs CoDel in mark mode (target 5 ms,
interval 100 ms) in both directions; marks travel to the consumer on the Data, and the
consumer's AIMD decreases once per RTT on a mark. The baseline is the same AIMD over the
drop-tail queue, which it must overflow to learn of congestion.

With CoDel the buffer no longer sets the delay (CoDel keeps the standing queue near 5 ms), so
aimd-codel-mark gets a 128-packet buffer: with seed 000's 32 packets, slow start overflows it
before CoDel's first 100 ms interval ends (aimd-codel-mark-q32 shows those timeouts). A mark is
an early signal, so the consumer backs off by 0.85 on a mark (in the spirit of RFC 8511, which
suggests 0.8 for ECN marks) and by 0.5 on a loss; aimd-codel-mark-beta05 shows the throughput lost
when marks are treated as losses. Measured on seed 1: mark beta 0.8 gives 4843 kbit/s, 0.85 gives
4923 kbit/s, 0.9 gives 4934 kbit/s with a 3 ms higher mean RTT.`,
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "throughput_kbps", Header: "throughput (kbps)", Format: "%.0f"},
			{Key: "rtt_avg_ms", Header: "mean RTT (ms)", Format: "%.1f"},
			{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "marks", Header: "marks", Format: "%.0f"},
		},
		Runs:    1,
		Profile: "seed000", // the paper's consumer, as in seed000-linear
		Notes:   `This combines seed 000's topology with seeds 002/004's marking; no seed table exists for it.`,
	}
	e.Variants = []Variant{
		{Name: "aimd-droptail", Description: "AIMD over drop-tail queues",
			Scenario: linear("aimd-droptail", "aimd", nil)},
		{Name: "aimd-codel-mark", Description: "AIMD (mark beta 0.85) reacting to CoDel marks, 128-packet bottleneck buffer",
			Scenario: withBottleneckBuffer(withBottleneckQueue(linear("aimd-codel-mark", "aimd", markAIMD()), "codel-mark", nil), 128)},
		{Name: "aimd-codel-mark-beta05", Description: "as aimd-codel-mark, but halving on marks too",
			Scenario: withBottleneckBuffer(withBottleneckQueue(linear("aimd-codel-mark-beta05", "aimd", nil), "codel-mark", nil), 128)},
		{Name: "aimd-codel-mark-q32", Description: "as aimd-codel-mark, with seed 000's 32-packet buffer",
			Scenario: withBottleneckQueue(linear("aimd-codel-mark-q32", "aimd", markAIMD()), "codel-mark", nil)},
	}
	return e
}
