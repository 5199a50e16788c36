package experiment

import (
	"bytes"
	"fmt"
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

// flowSpec is one consumer/producer pair of a file-transfer scenario.
type flowSpec struct {
	id, consumer, producer, prefix string
	start                          time.Duration
	size                           int64
	pipeline                       string
	params                         map[string]string
}

// transfer builds a scenario in which each flow fetches its own file.
func transfer(name, topoFile string, limit time.Duration, flows ...flowSpec) (*scenario.Scenario, error) {
	topo, err := exampleTopology(topoFile)
	if err != nil {
		return nil, err
	}
	sc := scenario.Default()
	sc.Name = name
	sc.File = "experiment:" + name
	sc.Topology = topo
	sc.Duration = limit
	for _, f := range flows {
		sc.Producers = append(sc.Producers, scenario.Producer{
			Node: f.producer, Prefix: f.prefix, FileSize: f.size, SegmentSize: 1024, Signature: "rsa2048",
			Freshness: scenario.DefaultFreshness,
		})
		params := map[string]string{}
		for k, v := range f.params {
			params[k] = v
		}
		sc.Consumers = append(sc.Consumers, scenario.Consumer{
			ID: f.id, Node: f.consumer, Prefix: f.prefix, Start: f.start, Pipeline: f.pipeline, Params: params,
		})
	}
	return sc, nil
}

// linear is seed 000's linear topology with one 10 MiB transfer.
func linear(name, pipeline string, params map[string]string) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		return transfer(name, "linear.conf", 600*time.Second, flowSpec{
			id: "c1", consumer: "consumer1", producer: "producer1", prefix: "/example/file",
			size: 10 * MiB, pipeline: pipeline, params: params,
		})
	}
}

// dumbbell is seed 000's dumbbell: consumer1<-producer1 and
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
