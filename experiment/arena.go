package experiment

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// An arena is one scenario of the tournament (issue 15), built for any
// pipeline: every NDN flow of it runs that pipeline.
type arena struct {
	name, doc string
	// build returns the scenario with every NDN consumer on pipeline.
	build func(pipeline string) (*scenario.Scenario, error)
	// limit is the least time the scenario's transfers can take: the
	// bytes on the wire over the bottleneck's rate, plus one round trip.
	limit time.Duration
	// noProcessing runs the forwarders without per-packet processing
	// time (high-rate arenas, which the 10,000 packets/s of a node's
	// processing model would otherwise cap).
	noProcessing bool
}

// wireTime is the time size bytes of 1024-byte segments take on the wire
// at rate bit/s (1449 bytes per Data, dataWireBytes).
func wireTime(size int64, rate float64) time.Duration {
	segs := (size + 1023) / 1024
	return time.Duration(float64(segs) * dataWireBytes * 8 / rate * float64(time.Second))
}

// starFlow is one consumer of a star arena: its access link's one-way
// delay, its start time and its file size.
type starFlow struct {
	id     string
	access time.Duration
	start  time.Duration
	size   int64
}

// star builds consumers c_i -- r1 == r2 -- producers p_i, where r1 == r2
// is the bottleneck (mbps, one-way delay core, queue packets, random loss
// percent) and each consumer has its own access delay (and its producer
// sits 1 ms behind r2): RTT_i = 2 (access_i + core + 1 ms).
func star(name string, mbps float64, core time.Duration, queue int, loss float64, pipeline string, flows []starFlow, params map[string]string) (*scenario.Scenario, error) {
	var links []topology.Link
	links = append(links, link("r1", "r2", mbps, core, queue, loss))
	for _, f := range flows {
		links = append(links,
			link("c"+f.id, "r1", 10*mbps, f.access, 10*queue+100, 0),
			link("r2", "p"+f.id, 10*mbps, time.Millisecond, 10*queue+100, 0))
	}
	sc := newScenario(name, graph(links...), 1200*time.Second)
	for _, f := range flows {
		addFlows(sc, flowSpec{id: "f" + f.id, consumer: "c" + f.id, producer: "p" + f.id,
			prefix: "/arena/" + f.id, start: f.start, size: f.size, pipeline: pipeline, params: params})
	}
	return sc, nil
}

// rttMix returns n flows whose round-trip times spread evenly from lo to
// hi over a core of one-way delay core.
func rttMix(n int, lo, hi, core time.Duration, size int64) []starFlow {
	var fs []starFlow
	for i := range n {
		rtt := lo + time.Duration(i)*(hi-lo)/time.Duration(max(n-1, 1))
		fs = append(fs, starFlow{id: fmt.Sprint(i + 1), access: rtt/2 - core - time.Millisecond, size: size})
	}
	return fs
}

// arenaRTTMix8 is issue 15's fairness arena: 8 flows with RTTs from 20 to
// 200 ms share a 10 Mbit/s bottleneck whose buffer holds one BDP at the
// mean RTT (110 ms: 95 Data), 2 MiB each.
func arenaRTTMix8() arena {
	const size = 2 * MiB
	return arena{
		name: "flows-8-rtt-20-200ms",
		doc:  "8 flows, RTTs 20-200 ms, 10 Mbit/s, buffer 1 BDP at 110 ms, 2 MiB each",
		build: func(p string) (*scenario.Scenario, error) {
			return star("flows-8-rtt-20-200ms", 10, 5*time.Millisecond, 95, 0, p, rttMix(8, 20*time.Millisecond, 200*time.Millisecond, 5*time.Millisecond, size), nil)
		},
		limit: wireTime(8*size, 10e6) + 200*time.Millisecond,
	}
}

// arenaVsCubic is the NDN flow against one TCP CUBIC flow on paper 000's
// dumbbell, 10 MiB each (seed003-tcp's dumbbell-ndn-vs-tcp-cubic with the
// pipeline under test in Design #3's place).
func arenaVsCubic() arena {
	return arena{
		name: "vs-tcp-cubic",
		doc:  "one NDN flow against one TCP CUBIC flow on paper 000's dumbbell, 10 MiB each",
		build: func(p string) (*scenario.Scenario, error) {
			ndn := flowSpec{id: "ndn", consumer: "consumer1", producer: "producer1", prefix: "/example/file1", size: 10 * MiB, pipeline: p}
			return tcpTransfer("vs-tcp-cubic", "dumbbell.conf", []scenario.TCPFlow{tcpFlow("tcp", "producer2", "consumer2", scenario.TCPCubic)}, ndn)()
		},
		// Both transfers through 5 Mbit/s: the NDN Data and the TCP
		// segments (1448 bytes of payload in 1516 on the wire).
		limit: wireTime(10*MiB, 5e6) + time.Duration(float64((10*MiB+1447)/1448*1516*8)/5e6*float64(time.Second)) + 70*time.Millisecond,
	}
}

// runArena runs an arena once with random seed 1 for pipeline.
func runArena(a arena, pipeline string) (*sim.Network, *sim.Result, error) {
	sc, err := a.build(pipeline)
	if err != nil {
		return nil, nil, err
	}
	opt := sim.Options{Seed: 1}
	if a.noProcessing {
		opt.ProcessingJitter = -1
	}
	net, err := sim.Build(sc, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("arena %s: %w", a.name, err)
	}
	return net, net.Run(), nil
}

// overlapJain is Jain's index over what each flow (NDN and TCP) received
// on the wire until the first of them ended, and those amounts by flow.
func overlapJain(net *sim.Network) (float64, map[string]float64) {
	first, ok := net.FirstCompletion()
	if !ok {
		return 0, nil
	}
	shares := map[string]float64{}
	var xs []float64
	for id, b := range first.WireBytes {
		shares[id] = float64(b)
		xs = append(xs, float64(b))
	}
	return Jain(xs), shares
}
