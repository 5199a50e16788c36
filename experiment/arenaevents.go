package experiment

import (
	"time"

	"github.com/ndncc/ndncc/scenario"
)

// ratePhase is a bottleneck rate (bit/s) from a time on.
type ratePhase struct {
	from time.Duration
	rate float64
}

// phasedWireTime is the time size bytes of 1024-byte segments take on the
// wire through a link whose rate follows phases (the first from 0).
func phasedWireTime(size int64, phases []ratePhase) time.Duration {
	bits := float64((size+1023)/1024) * dataWireBytes * 8
	for i, p := range phases {
		end := time.Duration(-1)
		if i+1 < len(phases) {
			end = phases[i+1].from
		}
		if end < 0 || bits <= p.rate*(end-p.from).Seconds() {
			return p.from + time.Duration(bits/p.rate*float64(time.Second))
		}
		bits -= p.rate * (end - p.from).Seconds()
	}
	return 0
}

// rateEvent is an [[event]] that sets link l's rate to bit/s at at.
func rateEvent(at time.Duration, l string, rate float64) scenario.Event {
	return scenario.Event{At: at, Link: l, Bandwidth: &rate}
}

// rateChangeArena: one flow over a bottleneck whose rate halves
// mid-transfer and later doubles back, as examples/cbr-rate-change.toml's
// events do to a constant-rate consumer: 10 Mbit/s, RTT 50 ms, a buffer
// of 1 BDP at the first rate, 10 MiB; 5 Mbit/s from 3 s, 10 Mbit/s again
// from 8 s. A window sized to the old rate fills the buffer when the rate
// halves (its queue doubles, and a delay-based window must shed it), and
// must grow back when the rate returns (a delay-based window sees only
// the queue empty, a loss-based one nothing at all).
func rateChangeArena() arena {
	const (
		name = "rate-halves-doubles"
		size = 10 * MiB
		rtt  = 50 * time.Millisecond
	)
	phases := []ratePhase{{0, 10e6}, {3 * time.Second, 5e6}, {8 * time.Second, 10e6}}
	return arena{
		name: name,
		doc:  "one flow, 10 Mbit/s, RTT 50 ms, buffer 1 BDP, 10 MiB; the bottleneck's rate halves at 3 s and doubles back at 8 s (examples/cbr-rate-change.toml's events)",
		build: func(p string) (*scenario.Scenario, error) {
			sc, err := star(name, 10, rtt/2-2*time.Millisecond, bdpPackets(1, 10e6, rtt), 0, p,
				[]starFlow{{id: "1", access: time.Millisecond, size: size}}, nil)
			if err != nil {
				return nil, err
			}
			for _, ph := range phases[1:] {
				sc.Events = append(sc.Events, rateEvent(ph.from, "r1-r2", ph.rate))
			}
			return sc, nil
		},
		limit: phasedWireTime(size, phases) + rtt,
	}
}

// pathSwitchArena: the path to the object switches mid-transfer to a
// farther source, as when the nearer of two producers disappears
// (examples/node-failure.toml's router fails) and routing moves the
// prefix's route to the other. ndncc has no routing protocol to withdraw
// the route, and a forwarder that kept sending to the failed node would
// make the arena one of its strategy's recovery, so the switch is the
// path's: consumer1 reaches r1 over 100 Mbit/s and 1 ms, r1 the producer
// over 10 Mbit/s and 10 ms (RTT 22 ms) until 3 s and 50 ms from then on
// (RTT 102 ms), with a buffer of 1 BDP at the mean of the two RTTs (as the
// flows arenas size theirs). A window sized to the near path (19 Data of
// BDP) must grow to the far one's 88 without taking the longer RTT for a
// queue.
func pathSwitchArena() arena {
	const (
		name = "path-switch-near-to-far"
		size = 10 * MiB
	)
	return arena{
		name: name,
		doc:  "10 MiB over 10 Mbit/s from a source at 22 ms RTT until 3 s, then from one at 102 ms (the near one gone: the path's delay steps up, examples/node-failure.toml's failure), buffer 1 BDP at 62 ms",
		build: func(p string) (*scenario.Scenario, error) {
			sc := newScenario(name, graph(
				link("consumer1", "r1", 100, time.Millisecond, 200, 0),
				link("r1", "producer1", 10, 10*time.Millisecond, bdpPackets(1, 10e6, 62*time.Millisecond), 0),
			), 1200*time.Second)
			addFlows(sc, flowSpec{id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/arena/object", size: size, pipeline: p})
			far := 50 * time.Millisecond
			sc.Events = append(sc.Events, scenario.Event{At: 3 * time.Second, Link: "r1-producer1", Delay: &far})
			return sc, nil
		},
		// The bottleneck's rate, and the far path's round trip.
		limit: wireTime(size, 10e6) + 102*time.Millisecond,
	}
}
