package experiment

import (
	"fmt"
	"math"
	"time"

	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// An arena is one scenario of the tournament, built for any
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
	// exclude names flows that are part of the setting, not measured
	// (a leader that fills a cache).
	exclude map[string]bool
	// jain, if set, is the arena's fairness index.
	jain func(*sim.Network, *sim.Result) float64
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
	links = append(links, link("r1", "r2", mbps, core, queue, loss/100))
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

// arenaRTTMix8 is the tournament's fairness arena: 8 flows with RTTs from 20 to
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
		jain:  overlapJainOf,
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
		jain:  overlapJainOf,
	}
}

// tournamentParams are the parameters a pipeline runs with in the
// tournament beyond its defaults: fixed's default window of 1 only
// measures the RTT, so it runs with paper 000's 32.
func tournamentParams(pipeline string) map[string]string {
	if pipeline == "fixed" {
		return map[string]string{"window": "32"}
	}
	return nil
}

// runArena runs an arena once with random seed 1 for pipeline.
func runArena(a arena, pipeline string) (*sim.Network, *sim.Result, error) {
	return runArenaWith(a, pipeline, tournamentParams(pipeline))
}

// runArenaWith runs an arena once with random seed 1 for pipeline, its
// measured consumers with params besides the arena's own.
func runArenaWith(a arena, pipeline string, params map[string]string) (*sim.Network, *sim.Result, error) {
	sc, err := arenaScenario(a, pipeline, params)
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

// arenaScenario is arena a's scenario with every NDN consumer on
// pipeline, its measured consumers with params besides the arena's own.
func arenaScenario(a arena, pipeline string, params map[string]string) (*scenario.Scenario, error) {
	sc, err := a.build(pipeline)
	if err != nil {
		return nil, err
	}
	for i := range sc.Consumers {
		c := &sc.Consumers[i]
		if c.Pipeline != pipeline || a.exclude[c.ID] {
			continue
		}
		for k, v := range params {
			if _, ok := c.Params[k]; !ok {
				if c.Params == nil {
					c.Params = map[string]string{}
				}
				c.Params[k] = v
			}
		}
	}
	return sc, nil
}

// bdpPackets is a buffer of bdp times rate*rtt in Data packets (at
// least 2).
func bdpPackets(bdp, rate float64, rtt time.Duration) int {
	return max(2, int(math.Round(bdp*rate*rtt.Seconds()/(8*dataWireBytes))))
}

// single is one flow of size over a bottleneck of rate bit/s, RTT rtt
// (its core carrying all but 2 ms of propagation each way... see star),
// a buffer of bdp bandwidth-delay products and random loss percent.
func single(name, doc string, rate float64, rtt time.Duration, bdp, loss float64, size int64) arena {
	core := rtt/2 - 2*time.Millisecond
	return arena{
		name: name, doc: doc,
		build: func(p string) (*scenario.Scenario, error) {
			return star(name, rate/1e6, core, bdpPackets(bdp, rate, rtt), loss, p,
				[]starFlow{{id: "1", access: time.Millisecond, size: size}}, nil)
		},
		limit:        wireTime(size, rate) + rtt,
		noProcessing: rate > 20e6,
	}
}

// flows is n flows with RTTs from lo to hi over 10 Mbit/s and a buffer
// of one BDP at the mean RTT, each fetching size.
func flows(name string, n int, lo, hi time.Duration, size int64) arena {
	const rate = 10e6
	core := 5 * time.Millisecond
	return arena{
		name: name,
		doc:  fmt.Sprintf("%d flows, RTTs %v-%v, 10 Mbit/s, buffer 1 BDP at the mean RTT, %s each", n, lo, hi, SizeText(size)),
		build: func(p string) (*scenario.Scenario, error) {
			return star(name, rate/1e6, core, bdpPackets(1, rate, (lo+hi)/2), 0, p, rttMix(n, lo, hi, core, size), nil)
		},
		limit: wireTime(int64(n)*size, rate) + hi,
		jain:  overlapJainOf,
	}
}

// arenas is the tournament: seed scenarios, then stress scenarios.
func arenas() []arena {
	a := []arena{
		{name: "seed000-linear", doc: "paper 000's linear topology, 5 Mbit/s, 32-packet drop-tail buffer, 10 MiB",
			build: func(p string) (*scenario.Scenario, error) { return linear("seed000-linear", p, nil)() },
			limit: wireTime(10*MiB, 5e6) + 65*time.Millisecond},
		{name: "seed000-dumbbell", doc: "paper 000's dumbbell, two flows of 10 MiB",
			build: func(p string) (*scenario.Scenario, error) { return dumbbell("seed000-dumbbell", p, nil)() },
			limit: wireTime(20*MiB, 5e6) + 65*time.Millisecond, jain: overlapJainOf},
		{name: "seed001-longpath", doc: "paper 001's 100 MB over 20 Mbit/s at 200 ms RTT, 1000-packet buffer (seed001-vegas)",
			build: func(p string) (*scenario.Scenario, error) {
				return twoNode("seed001-longpath", seed001Catalog(), 200*time.Millisecond, p, nil)()
			},
			limit: wireTime(Seed001FileSize, Seed001Bandwidth) + 200*time.Millisecond},
		{name: "seed001-rtt50", doc: "paper 001's link at 50 ms RTT, 20 MB",
			build: func(p string) (*scenario.Scenario, error) {
				sc, err := twoNode("seed001-rtt50", seed001Catalog(), 50*time.Millisecond, p, nil)()
				if err == nil {
					sc.Producers[0].FileSize = 20e6
				}
				return sc, err
			},
			limit: wireTime(20e6, Seed001Bandwidth) + 50*time.Millisecond},
		arenaVsReno(),
		{name: "seed004-multipath-pcon", doc: "examples/multipath-pcon.toml: PCON forwarding over 10 and 5 Mbit/s paths, CoDel marking, 20 MiB",
			build: fromExample("multipath-pcon.toml"), limit: wireTime(20*MiB, 15e6) + 30*time.Millisecond, noProcessing: true},
		{name: "seed004-caching", doc: "seed004-caching (pcon variant's network, CoDel marking): two consumers of one 10 MiB object behind a cache, the second 5 s later",
			build: cachingArena, limit: wireTime(10*MiB, 5e6) + 50*time.Millisecond, noProcessing: true},
		{name: "seed004-wireless", doc: "examples/wireless-linkloss.toml: 1% loss on the access link with link-loss Nacks, CoDel marking, 20 MiB",
			build: fromExample("wireless-linkloss.toml"), limit: wireTime(20*MiB, 10e6) + 24*time.Millisecond},
		single("rtt-10ms", "one flow, 10 Mbit/s, RTT 10 ms, buffer 1 BDP, 5 MiB", 10e6, 10*time.Millisecond, 1, 0, 5*MiB),
		single("rtt-400ms", "one flow, 10 Mbit/s, RTT 400 ms, buffer 1 BDP, 20 MiB", 10e6, 400*time.Millisecond, 1, 0, 20*MiB),
		single("bw-1mbit", "one flow, 1 Mbit/s, RTT 50 ms, buffer 1 BDP, 1 MiB", 1e6, 50*time.Millisecond, 1, 0, MiB),
		single("bw-100mbit", "one flow, 100 Mbit/s, RTT 20 ms, buffer 1 BDP, 20 MiB", 100e6, 20*time.Millisecond, 1, 0, 20*MiB),
		single("bw-1000mbit", "one flow, 1000 Mbit/s, RTT 20 ms, buffer 1 BDP, 100 MiB", 1000e6, 20*time.Millisecond, 1, 0, 100*MiB),
		single("buffer-0.1bdp", "one flow, 10 Mbit/s, RTT 50 ms, buffer 0.1 BDP, 5 MiB", 10e6, 50*time.Millisecond, 0.1, 0, 5*MiB),
		single("buffer-10bdp", "one flow, 10 Mbit/s, RTT 50 ms, buffer 10 BDP, 5 MiB", 10e6, 50*time.Millisecond, 10, 0, 5*MiB),
		single("loss-0.5pct", "one flow, 10 Mbit/s, RTT 50 ms, buffer 1 BDP, 0.5% random loss each way, 5 MiB", 10e6, 50*time.Millisecond, 1, 0.5, 5*MiB),
		single("loss-2pct", "one flow, 10 Mbit/s, RTT 50 ms, buffer 1 BDP, 2% random loss each way, 5 MiB", 10e6, 50*time.Millisecond, 1, 2, 5*MiB),
		single("loss-5pct", "one flow, 10 Mbit/s, RTT 50 ms, buffer 1 BDP, 5% random loss each way, 2 MiB", 10e6, 50*time.Millisecond, 1, 5, 2*MiB),
		single("loss-10pct", "one flow, 10 Mbit/s, RTT 50 ms, buffer 1 BDP, 10% random loss each way, 2 MiB", 10e6, 50*time.Millisecond, 1, 10, 2*MiB),
		nearFarArena(),
		pathSwitchArena(),
		cacheHitArena(),
		rateChangeArena(),
		flows("flows-2", 2, 20*time.Millisecond, 100*time.Millisecond, 4*MiB),
		flows("flows-4", 4, 20*time.Millisecond, 200*time.Millisecond, 2*MiB),
		arenaRTTMix8(),
		flows("flows-16", 16, 20*time.Millisecond, 200*time.Millisecond, MiB),
		lateStarterArena(),
		arenaVsCubic(),
	}
	return a
}

// arenaVsReno is seed003-tcp's dumbbell-ndn-vs-tcp: the pipeline against
// one TCP Reno flow.
func arenaVsReno() arena {
	a := arenaVsCubic()
	a.name = "seed003-vs-tcp-reno"
	a.doc = "seed003-tcp: one NDN flow against one TCP Reno flow on paper 000's dumbbell, 10 MiB each"
	a.build = func(p string) (*scenario.Scenario, error) {
		ndn := flowSpec{id: "ndn", consumer: "consumer1", producer: "producer1", prefix: "/example/file1", size: 10 * MiB, pipeline: p}
		return tcpTransfer("vs-tcp-reno", "dumbbell.conf", []scenario.TCPFlow{tcpFlow("tcp", "producer2", "consumer2", scenario.TCPReno)}, ndn)()
	}
	return a
}

// cachingArena is seed004-caching's network as its pcon variant sets it
// (CoDel marking), every consumer on pipeline p with its defaults.
func cachingArena(p string) (*scenario.Scenario, error) {
	e, err := LoadFS(examples.FS, "experiments/seed004-caching.toml")
	if err != nil {
		return nil, err
	}
	v, ok := e.Variant("pcon")
	if !ok {
		return nil, fmt.Errorf("seed004-caching has no variant pcon")
	}
	sc, err := v.Scenario()
	if err != nil {
		return nil, err
	}
	sc = withPipeline(sc, p, nil)
	for i := range sc.Consumers {
		sc.Consumers[i].Params = map[string]string{}
	}
	return sc, nil
}

// cacheHitArena shortens the measured flow's path mid-transfer:
// consumer1 fetches 10 MiB over its 2 Mbit/s access link (25 ms, buffer
// 17 Data: 1 BDP at 100 ms) through router1 from producer1 (25 ms
// further, 5 Mbit/s). From 3 s on a leader on router1 (fixed window 20,
// not measured) fetches the same object at up to 5 Mbit/s, overtakes
// consumer1, and router1's Content Store answers the rest of consumer1's
// Interests: its path's RTT halves (100 to 50 ms plus serialization)
// while its bottleneck, the access link, stays.
func cacheHitArena() arena {
	const name = "cache-hit-halves-rtt"
	return arena{
		name: name,
		doc:  "10 MiB over a 2 Mbit/s access link and a 100 ms path; a leader on the middle router (cache on) fetches the same object from 3 s on, overtakes it, and the path's RTT halves",
		build: func(p string) (*scenario.Scenario, error) {
			sc := newScenario(name, graph(
				link("consumer1", "router1", 2, 25*time.Millisecond, bdpPackets(1, 2e6, 100*time.Millisecond), 0),
				link("router1", "producer1", 5, 25*time.Millisecond, 100, 0),
			), 1200*time.Second)
			sc.Routers.CSCapacity = 65536
			addFlows(sc,
				flowSpec{id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/arena/object", size: 10 * MiB, pipeline: p},
				flowSpec{id: "leader", consumer: "router1", producer: "producer1", prefix: "/arena/object", start: 3 * time.Second,
					size: 10 * MiB, pipeline: "fixed", params: map[string]string{"window": "20"}})
			return sc, nil
		},
		limit:   wireTime(10*MiB, 2e6) + 100*time.Millisecond,
		exclude: map[string]bool{"leader": true},
	}
}

// nearFarArena is seed 001's case for NDN-Vegas' γ: one object served by
// two producers, one near and one far, and a router that sends Interests
// to both. consumer1 reaches r1 over 100 Mbit/s and 1 ms; from r1 a
// 10 Mbit/s link of 10 ms leads to the near producer (RTT 22 ms) and one
// of 50 ms to the far one (RTT 102 ms), each with a buffer of 1 BDP at its
// RTT. r1 runs cf (PCON's evaluation's baseline: a random choice weighted
// by the inverse of each face's pending Interests), so the Data of one
// window come back over both paths, out of order, at two RTTs.
func nearFarArena() arena {
	const (
		name = "near-far-sources"
		size = 10 * MiB
	)
	return arena{
		name: name,
		doc:  "one 10 MiB object from two producers, one at 22 ms RTT and one at 102 ms, each behind its own 10 Mbit/s link; r1 splits Interests between them (cf)",
		build: func(p string) (*scenario.Scenario, error) {
			sc := newScenario(name, graph(
				link("consumer1", "r1", 100, time.Millisecond, 200, 0),
				link("r1", "near", 10, 10*time.Millisecond, bdpPackets(1, 10e6, 22*time.Millisecond), 0),
				link("r1", "far", 10, 50*time.Millisecond, bdpPackets(1, 10e6, 102*time.Millisecond), 0),
			), 1200*time.Second)
			sc.NodeRouters = map[string]scenario.RouterSettings{"r1": {Strategy: fw.StrategyCF, Set: scenario.SetStrategy}}
			addFlows(sc, flowSpec{id: "c1", consumer: "consumer1", producer: "near", prefix: "/arena/object", size: size, pipeline: p})
			sc.Producers = append(sc.Producers, scenario.NewProducer("far", "/arena/object", size))
			return sc, nil
		},
		// Both paths' rates, and the far path's round trip.
		limit: wireTime(size, 20e6) + 102*time.Millisecond,
	}
}

// lateStarterArena: three flows of 4 MiB start together, a fourth of
// 2 MiB joins 5 s later; Jain's index over each flow's throughput over
// its own download time.
func lateStarterArena() arena {
	const name = "late-starter"
	fs := rttMix(4, 40*time.Millisecond, 100*time.Millisecond, 5*time.Millisecond, 4*MiB)
	fs[3].start, fs[3].size = 5*time.Second, 2*MiB
	return arena{
		name: name,
		doc:  "4 flows, RTTs 40-100 ms, 10 Mbit/s, buffer 1 BDP at 70 ms; three of 4 MiB at 0 s, one of 2 MiB at 5 s",
		build: func(p string) (*scenario.Scenario, error) {
			return star(name, 10, 5*time.Millisecond, bdpPackets(1, 10e6, 70*time.Millisecond), 0, p, fs, nil)
		},
		limit: wireTime(14*MiB, 10e6) + 100*time.Millisecond,
		jain:  throughputJain,
	}
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
