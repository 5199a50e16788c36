package experiment

import (
	"bytes"
	"fmt"
	"maps"
	"time"

	"github.com/ndncc/ndncc/examples"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// MiB is 2^20 bytes.
const MiB = 1 << 20

// exampleTopology loads one of the embedded Mini-NDN topologies.
func exampleTopology(file string) (*topology.Topology, error) {
	data, err := examples.FS.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("example topology: %w", err)
	}
	return topology.ParseMiniNDN(bytes.NewReader(data), "examples/"+file)
}

// flowSpec is one consumer fetching an object from a producer.
type flowSpec struct {
	id, consumer, producer, prefix string
	start                          time.Duration
	size                           int64
	segment                        int // payload per Data; 0: scenario.DefaultSegmentSize
	pipeline                       string
	params                         map[string]string
}

// newScenario returns a scenario with the defaults, named name, over topo,
// simulated for at most limit.
func newScenario(name string, topo *topology.Topology, limit time.Duration) *scenario.Scenario {
	sc := scenario.Default()
	sc.Name, sc.File = name, "experiment:"+name
	sc.Topology, sc.Duration = topo, limit
	return sc
}

// addFlows adds each flow's consumer, and a producer for its prefix
// unless one already serves it (several consumers may fetch one object).
func addFlows(sc *scenario.Scenario, flows ...flowSpec) {
	for _, f := range flows {
		if len(sc.ProducersFor(f.prefix)) == 0 {
			p := scenario.NewProducer(f.producer, f.prefix, f.size)
			if f.segment > 0 {
				p.SegmentSize = f.segment
			}
			sc.Producers = append(sc.Producers, p)
		}
		c := scenario.NewConsumer(f.consumer, f.prefix, f.pipeline)
		c.ID, c.Start = f.id, f.start
		maps.Copy(c.Params, f.params)
		sc.Consumers = append(sc.Consumers, c)
	}
}

// transfer builds a scenario on an example topology in which each flow
// fetches its own file.
func transfer(name, topoFile string, limit time.Duration, flows ...flowSpec) (*scenario.Scenario, error) {
	topo, err := exampleTopology(topoFile)
	if err != nil {
		return nil, err
	}
	sc := newScenario(name, topo, limit)
	addFlows(sc, flows...)
	return sc, nil
}

// link returns a topology link with the given rate (Mbit/s), delay,
// queue (packets) and loss (0..1).
func link(a, b string, mbps float64, delay time.Duration, queue int, loss float64) topology.Link {
	l := topology.NewLink(a, b)
	l.Bandwidth, l.Delay, l.QueuePackets, l.Loss = mbps*1e6, delay, queue, loss
	return l
}

// graph builds a topology from links, declaring their nodes in order.
func graph(links ...topology.Link) *topology.Topology {
	t := &topology.Topology{Links: links}
	seen := map[string]bool{}
	for _, l := range links {
		for _, n := range []string{l.A, l.B} {
			if !seen[n] {
				seen[n] = true
				t.Nodes = append(t.Nodes, topology.Node{Name: n})
			}
		}
	}
	return t
}

// linear is paper 000's linear topology with one 10 MiB transfer.
func linear(name, pipeline string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		return transfer(name, "linear.conf", 600*time.Second, flowSpec{
			id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/example/file",
			size: 10 * MiB, pipeline: pipeline, params: params,
		})
	}
}

// dumbbell is paper 000's dumbbell: consumer1<-producer1 and
// consumer2<-producer2 share the router1-router2 bottleneck.
func dumbbell(name, pipeline string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		return transfer(name, "dumbbell.conf", 600*time.Second,
			flowSpec{id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/example/file1",
				size: 10 * MiB, pipeline: pipeline, params: params},
			flowSpec{id: "c2", consumer: "consumer2", producer: "producer2", prefix: "/example/file2",
				size: 10 * MiB, pipeline: pipeline, params: params},
		)
	}
}

// withParams returns base's parameters with the key-value pairs kv set.
func withParams(base map[string]string, kv ...string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// markAIMD is AIMD with a milder backoff on marks (RFC 8511's idea), and
// without HyStart, which PCON's consumer did not have.
func markAIMD() map[string]string {
	return map[string]string{"aimd-mark-beta": "0.85", "hystart": "false"}
}
