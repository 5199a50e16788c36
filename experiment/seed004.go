package experiment

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

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

// pconConsumer is PCON's consumer: AIMD with conservative adaptation
// reacting to marks (backing off by 0.85 on a mark), Nacks and timeouts.
func pconConsumer(extra ...string) map[string]string {
	return withParams(markAIMD(), extra...)
}

// Seed004 wireless scenario: a lossy access link in front of a 10 Mbit/s
// bottleneck that CoDel marks.
const (
	Seed004WirelessLoss = 0.01
	Seed004FileSize     = 20 * MiB
)

func wireless(name string, detection bool) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc := scenario.Default()
		sc.Name, sc.File = name, "experiment:"+name
		sc.Duration = 600 * time.Second
		sc.Topology = graph(
			link("consumer1", "ap", 20, 2*time.Millisecond, 100, Seed004WirelessLoss),
			link("ap", "producer1", 10, 10*time.Millisecond, 100, 0),
		)
		sc.LinkQueues = []scenario.LinkQueue{
			{From: "ap", To: "producer1", Both: true, Queue: "codel-mark"},
		}
		params := pconConsumer()
		if detection {
			sc.LinkQueues = append(sc.LinkQueues, scenario.LinkQueue{From: "consumer1", To: "ap", Both: true, LossDetection: true})
			params["link-loss-nacks"] = "true"
		}
		sc.Producers = []scenario.Producer{scenario.NewProducer("producer1", "/example/file", Seed004FileSize)}
		c := scenario.NewConsumer("consumer1", "/example/file", "aimd")
		c.ID, c.Params = "c1", params
		sc.Consumers = []scenario.Consumer{c}
		return sc, nil
	}
}

// seed004Wireless is PCON's local link-loss detection: with it, losses on
// a wireless hop come back as unmarked Nacks within a link round trip and
// the consumer retransmits without cutting its window; without it each
// loss costs an RTO and a window decrease.
func seed004Wireless() *Experiment {
	return &Experiment{
		Name:  "seed004-wireless",
		Seed:  "004",
		Title: "PCON local link-loss detection on a lossy access link (20 MiB)",
		Description: fmt.Sprintf(`consumer1 --(20 Mbit/s, 2 ms, %.0f%% random loss each way)-- ap --(10 Mbit/s, 10 ms, CoDel marking)-- producer1.
The consumer is PCON's: AIMD reacting to marks (x0.85), Nacks and timeouts, at most once per RTT.
link-loss-nack runs the NDNLPv2-style sequence/ack shim on the lossy link, so a lost Interest or
Data becomes an unmarked Congestion Nack the consumer answers with a retransmission only;
plain has no shim, so every loss is found by the consumer's RTO and cuts its window.`, Seed004WirelessLoss*100),
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.1f"},
			{Key: "goodput_kbps", Header: "goodput (kbps)", Format: "%.0f"},
			{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
			{Key: "nacks", Header: "nacks", Format: "%.0f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "loss_events", Header: "decreases", Format: "%.0f"},
		},
		Runs: 1,
		Variants: []Variant{
			{Name: "link-loss-nack", Description: "link-loss shim on the lossy link; unmarked Nacks retransmit without a decrease",
				Scenario: wireless("link-loss-nack", true)},
			{Name: "plain", Description: "no shim: losses are found by timeout",
				Scenario: wireless("plain", false)},
		},
	}
}
