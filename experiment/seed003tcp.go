package experiment

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// The bottleneck of paper 000's linear and dumbbell topologies.
const (
	bottleneckA = "router1"
	bottleneckB = "router2"
)

// tcpTransfer builds a scenario on an example topology with the given NDN
// flows (see transfer) and TCP flows.
func tcpTransfer(name, topoFile string, tcp []scenario.TCPFlow, ndn ...flowSpec) func() (*scenario.Scenario, error) {
	return func() (*scenario.Scenario, error) {
		sc, err := transfer(name, topoFile, 600*time.Second, ndn...)
		if err != nil {
			return nil, err
		}
		sc.TCP = append([]scenario.TCPFlow(nil), tcp...)
		return sc, nil
	}
}

// tcpFlow is a 10 MiB TCP transfer.
func tcpFlow(id, from, to, algorithm string) scenario.TCPFlow {
	f := scenario.NewTCPFlow(from, to, 10*MiB)
	f.ID, f.Algorithm = id, algorithm
	return f
}

// bottleneckCapacity is the bandwidth of router1--router2 in bit/s.
func bottleneckCapacity(net *sim.Network) (float64, error) {
	l, ok := net.Scenario.Topology.Link(bottleneckA, bottleneckB)
	if !ok || l.Bandwidth <= 0 {
		return 0, fmt.Errorf("no limited %s--%s link", bottleneckA, bottleneckB)
	}
	return l.Bandwidth, nil
}

// bottleneckShare is the fraction of the bottleneck a lone flow used: its
// throughput (wire bytes, headers included) over the link's capacity.
func bottleneckShare(net *sim.Network, r *sim.Result) map[string]float64 {
	c, err := bottleneckCapacity(net)
	if err != nil || len(r.Flows) != 1 {
		return map[string]float64{"bottleneck_share": 0}
	}
	return map[string]float64{"bottleneck_share": r.Flows[0].ThroughputKbps * 1000 / c}
}

// competingShares is, for each flow, the share of the bottleneck it had
// while all flows were active: the wire bytes (headers included) it
// received from time zero until the first flow ended, over capacity ×
// that time. Keys are "ID_share"; "overlap_s" is that time.
func competingShares(net *sim.Network, _ *sim.Result) map[string]float64 {
	out := map[string]float64{}
	c, err := bottleneckCapacity(net)
	first, ok := net.FirstCompletion()
	if err != nil || !ok || first.At <= 0 {
		return out
	}
	out["overlap_s"] = first.At.Seconds()
	for id, b := range first.WireBytes {
		out[id+"_share"] = float64(b) * 8 / (c * first.At.Seconds())
	}
	return out
}

// seed003TCP is paper 003's "FTP based on TCP/IP" row and a TCP-friendliness
// check of paper 000's Design #3.
func seed003TCP() *Experiment {
	design3 := seed000Designs("16")[3]
	seedFTP := map[string][]string{"download_time_s": {"17.58–17.59"}, "goodput_kbps": {"4653.6–4656.8"}}
	// The paper's one FTP row is compared with our CUBIC flow, Linux's
	// default TCP; the Reno row shows it in parentheses, not counted twice.
	seedFTPShown := map[string][]string{"download_time_s": {"(17.58–17.59)"}, "goodput_kbps": {"(4653.6–4656.8)"}}
	e := &Experiment{
		Name:  "seed003-tcp",
		Seed:  "003",
		Title: "TCP baseline: FTP over TCP on the linear topology, and an NDN flow against TCP on the dumbbell",
		Description: `A simulated TCP (NewReno fast retransmit and recovery, RFC 6298 RTO with Karn's rule and backoff,
one ACK per segment, no SACK; MSS 1448 plus 68 bytes of IP/TCP/link headers) shares the links and
drop-tail queues with NDN. tcp-reno-linear and tcp-cubic-linear: one 10 MiB transfer
producer1->consumer1 on the linear topology (5 Mbit/s bottleneck, 32-packet queue); "share alone"
is its throughput (wire bytes with headers) over 5 Mbit/s. A loss-free transfer would reach
5000 x 1448/1516 = 4776 kbit/s of goodput, 17.57 s. dumbbell-ndn-vs-tcp(-cubic): on the dumbbell,
consumer1<-producer1 is an NDN flow with paper 000's Design #3 (AIMD, one loss event per RTT, one
RTT sample per RTT, min RTO 200 ms) and producer2->consumer2 a TCP flow, 10 MiB each from time 0,
through the same router2->router1 queue. "NDN share" and "TCP share" are each flow's wire bytes
received until the first of the two finished, over capacity x that time ("both active"). Look
for: TCP alone fills >= 90% of the bottleneck; against Design #3 each flow gets 35-65%. The NDN
flow gets the larger wire share but about the same goodput, because an NDN Data carries
425 bytes of headers per 1024 of payload where a TCP segment carries 68 per 1448. TCP loses
more per loss episode: NewReno without SACK repairs one hole per RTT, so a queue overflow that
drops several of its segments ends in an RTO (window 1) and go-back-N resends segments the
receiver already has (duplicates), where NDN re-expresses each lost Interest on its own.
dumbbell-tcp-vs-tcp is the control: a second Reno flow (tcp1, producer1->consumer1) in the NDN
flow's place. Two identical TCP flows do not split 50/50 either (drop-tail phase effects), so
compare the NDN/TCP split with that spread rather than with an even split.`,
		Columns: []Column{
			{Key: "download_time_s", Header: "time (s)", Format: "%.2f"},
			{Key: "goodput_kbps", Header: "goodput (kbps)", Format: "%.0f"},
			{Key: "throughput_kbps", Header: "throughput (kbps)", Format: "%.0f"},
			{Key: "retransmissions", Header: "retx", Format: "%.0f"},
			{Key: "timeouts", Header: "timeouts", Format: "%.0f"},
			{Key: "bottleneck_share", Header: "share alone", Format: "%.3f"},
			{Key: "ndn_share", Header: "NDN share", Format: "%.3f"},
			{Key: "tcp_share", Header: "TCP share", Format: "%.3f"},
			{Key: "tcp1_share", Header: "TCP-1 share", Format: "%.3f"},
			{Key: "overlap_s", Header: "both active (s)", Format: "%.1f"},
		},
		Runs:    1,
		Profile: "seed000", // the NDN flow is paper 000's Design #3
		Notes: `The paper's row is Linux's own TCP of 2015 (CUBIC by default, with SACK, HyStart and an initial
window of 10): 17.58 s is the ideal transfer time, which needs a start without loss. Ours starts
with a window of 1 and an initial ssthresh of 200 (the papers' NDN parameters), overshoots the
32-packet queue in slow start and, without SACK, needs a second or so (and a few RTOs) to repair
the burst: 18.9 s for Reno, 19.3 s for CUBIC; in congestion avoidance both keep the link full.
The paper's 4654 kbit/s is shown beside our goodput: 10 MiB in 17.58 s is 4772 kbit/s of payload
and about 5000 kbit/s on the wire, so the paper's figure is probably payload counted in kilobits
of 1024 bits (4660). TCP frames take no forwarding time in the model (NDN packets take 0-200 us
of jitter), so a TCP flow alone gives the same figures for every random seed.`,
	}
	e.Inputs = concat(linearInputs(), dumbbellInputs()[:3], objectInputs(), nfdModelInputs(), []Input{
		in("FTP transfer", "10 MiB over TCP, producer1 -> consumer1, linear topology", "seed 003, lines 107 and 170-177: `FTP based on TCP/IP`"),
		in("TCP model", "NewReno or CUBIC, RFC 6298 RTO, no SACK, MSS 1448, 68 bytes of headers", "chosen, because the simulator's TCP is this; the paper's was Linux's own (CUBIC by default, with SACK): the FTP row is compared with CUBIC and shown beside Reno"),
		in("TCP initial window, ssthresh", "1, 200", "chosen, because these are the papers' NDN parameters; Linux starts at 10"),
		in("NDN flow on the dumbbell", "paper 000's Design #3", "chosen, because the check is of the papers' own design against TCP; not a seed table"),
	}, seed000ProfileInputs())
	for _, alg := range scenario.TCPAlgorithms() {
		name := "tcp-" + alg + "-linear"
		e.Variants = append(e.Variants, Variant{
			Name:        name,
			Description: fmt.Sprintf("one %s flow, 10 MiB, producer1 -> consumer1, linear topology", alg),
			Scenario:    tcpTransfer("seed003-"+name, "linear.conf", []scenario.TCPFlow{tcpFlow("tcp", "producer1", "consumer1", alg)}),
			Extra:       bottleneckShare,
			SeedFigures: seedFTP,
		})
		if alg == scenario.TCPReno {
			e.Variants[len(e.Variants)-1].SeedFigures = seedFTPShown
		}
	}
	for _, alg := range scenario.TCPAlgorithms() {
		name := "dumbbell-ndn-vs-tcp"
		if alg != scenario.TCPReno {
			name += "-" + alg
		}
		ndn := flowSpec{id: "ndn", consumer: "consumer1", producer: "producer1", prefix: "/example/file1",
			size: 10 * MiB, pipeline: design3.pipeline, params: design3.params}
		e.Variants = append(e.Variants, Variant{
			Name:        name,
			Description: fmt.Sprintf("NDN Design #3 consumer1<-producer1 against TCP %s producer2->consumer2, 10 MiB each", alg),
			Scenario:    tcpTransfer("seed003-"+name, "dumbbell.conf", []scenario.TCPFlow{tcpFlow("tcp", "producer2", "consumer2", alg)}, ndn),
			Extra:       competingShares,
		})
	}
	e.Variants = append(e.Variants, Variant{
		Name:        "dumbbell-tcp-vs-tcp",
		Description: "control: TCP Reno producer1->consumer1 (tcp1) against TCP Reno producer2->consumer2, 10 MiB each",
		Scenario: tcpTransfer("seed003-dumbbell-tcp-vs-tcp", "dumbbell.conf", []scenario.TCPFlow{
			tcpFlow("tcp1", "producer1", "consumer1", scenario.TCPReno),
			tcpFlow("tcp", "producer2", "consumer2", scenario.TCPReno),
		}),
		Extra: competingShares,
	})
	return e
}
