package emu

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/scenario"
)

// kernelTOML is seed002-marking's UDP case made small: consumer1 --
// router1 -- producer1 over 20 Mbit/s links of 1 ms with a 200 KB byte
// limit per direction, every queue threshold-mark (30,000 bytes of the
// sender's socket, released NFD's spaced marks), and bigFlowTOML's flow
// of 5 MB. Run on external forwarders, both links are kernel links.
const kernelTOML = `
profile = "seed000"
duration = "60s"
[topology]
nodes = ["consumer1", "router1", "producer1"]
links = [
  { a = "consumer1", b = "router1", delay = "1ms", bw = 20, max-queue-size = 10000, max-queue-bytes = 200000 },
  { a = "router1", b = "producer1", delay = "1ms", bw = 20, max-queue-size = 10000, max-queue-bytes = 200000 },
]

[routers]
queue = "threshold-mark"
queue-params = { threshold-bytes = "30000" }
`

// kernelScenario is kernelTOML with the keys given set.
func kernelScenario(t *testing.T, sets ...string) *scenario.Scenario {
	t.Helper()
	return parseFlowScenario(t, kernelTOML, 5000000, "kernel.toml", sets...)
}

// TestIsKernelLink checks which links run in the kernel: a threshold-mark
// link whose two ends are external forwarders, and no other.
func TestIsKernelLink(t *testing.T) {
	for _, tc := range []struct {
		name  string
		kinds map[string]string
		sets  []string
		want  [2]bool // consumer1-router1, router1-producer1
	}{
		{"every node nfd", map[string]string{"consumer1": "nfd", "router1": "nfd", "producer1": "nfd"}, nil, [2]bool{true, true}},
		{"ndnd and nfd", map[string]string{"consumer1": "ndnd", "router1": "nfd", "producer1": "nfd"}, nil, [2]bool{true, true}},
		{"one end ndncc", map[string]string{"consumer1": "ndncc", "router1": "nfd", "producer1": "nfd"}, nil, [2]bool{false, true}},
		{"drop-tail", map[string]string{"consumer1": "nfd", "router1": "nfd", "producer1": "nfd"}, []string{"links.router1-producer1.queue=droptail"}, [2]bool{true, false}},
		{"one direction drop-tail", map[string]string{"consumer1": "nfd", "router1": "nfd", "producer1": "nfd"}, []string{"links.producer1->router1.queue=droptail"}, [2]bool{true, false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := kernelScenario(t, tc.sets...)
			for i, l := range sc.Topology.Links {
				if got := isKernelLink(sc, func(n string) string { return tc.kinds[n] }, l); got != tc.want[i] {
					t.Errorf("link %s: kernel %v, want %v", l, got, tc.want[i])
				}
			}
		})
	}
}

// TestKernelMarkingFor checks that a kernel link's face gets the
// scenario's threshold and interval (NFD's defaults where it sets none).
func TestKernelMarkingFor(t *testing.T) {
	for _, tc := range []struct {
		name string
		sets []string
		want kernelMarking
	}{
		{"threshold given", nil, kernelMarking{threshold: 30000, interval: 100 * time.Millisecond}},
		{"interval given", []string{"routers.queue-params.interval=50ms"}, kernelMarking{threshold: 30000, interval: 50 * time.Millisecond}},
		{"spaced said", []string{"routers.queue-params.marking=spaced"}, kernelMarking{threshold: 30000, interval: 100 * time.Millisecond}},
		{"defaults", nil, kernelMarking{threshold: 65536, interval: 100 * time.Millisecond}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := kernelScenario(t, tc.sets...)
			if tc.name == "defaults" {
				sc.Routers.QueueParams = nil
			}
			got, err := kernelMarkingFor(sc, "producer1", "router1", "nfd")
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("marking %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestCheckKernelRefuses checks that what a kernel link's forwarders or
// the kernel's FIFO cannot honour is refused, naming the key: every-packet
// marking (seed002-marking's hackathon rule), any marking rule on ndnd
// (whose own is neither), a backlog in packets, a
// socket threshold, link-loss detection, a link without a byte limit or
// with a packet limit that could bind first, and threshold-mark on a link
// with one external end.
func TestCheckKernelRefuses(t *testing.T) {
	bin := fakeBinary(t)
	for _, tc := range []struct {
		name string
		opt  Options
		sets []string
		want string
	}{
		{"every-packet marking, nfd", Options{Forwarder: "nfd", NFD: bin}, []string{"routers.queue-params.marking=every"}, `marking = "every": nfd has no every-packet marking`},
		{"every-packet marking, ndnd", Options{Forwarder: "ndnd", NDND: bin}, []string{"routers.queue-params.marking=every"}, `marking = "every": ndnd marks by its own rule`},
		{"spaced marking, ndnd", Options{Forwarder: "ndnd", NDND: bin}, []string{"routers.queue-params.marking=spaced"}, `marking = "spaced": ndnd marks by its own rule`},
		{"packet threshold", Options{Forwarder: "nfd", NFD: bin}, []string{"routers.queue-params.threshold-packets=10"}, "threshold-packets = 10: nfd measures its socket's send queue in bytes only"},
		{"socket threshold", Options{Forwarder: "nfd", NFD: bin}, []string{"routers.queue-params.threshold-packets=10", "routers.queue-params.socket-threshold-bytes=50000"}, "socket-threshold-bytes = 50000"},
		{"loss detection", Options{Forwarder: "nfd", NFD: bin}, []string{"links.router1-producer1.loss-detection=true"}, "loss-detection"},
		{"no byte limit", Options{Forwarder: "nfd", NFD: bin}, []string{"links.router1-producer1.max-queue-bytes=0"}, "give the link max-queue-bytes"},
		{"packet limit binds first", Options{Forwarder: "nfd", NFD: bin}, []string{"links.router1-producer1.max-queue-size=100"}, "max-queue-size 100 could bind before max-queue-bytes 200000"},
		{"one end ndncc", Options{NFD: bin}, []string{"routers.node.router1.forwarder=nfd"}, "only when both its ends are external forwarders"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(kernelScenario(t, tc.sets...), tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// kernelSupport skips the test where kernel links cannot run (no root,
// no network namespaces, no iproute2).
func kernelSupport(t *testing.T) {
	t.Helper()
	if err := tunnelSupport(); err != nil {
		t.Skipf("kernel links cannot run here: %v", err)
	}
}

// TestKernelLinkNDND runs kernelTOML on ndnd nodes: both links are kernel
// links, so the kernel shapes them and producer1's ndnd marks by its
// socket's backlog. The flow completes, no faster than the link's rate
// (every fragment is classified: an unshaped one would let loopback carry
// the Data many times faster); the Data directions' FIFOs carried the
// file in fragments (a 4.4 KB segment takes four on the 1500-byte
// loopback) and the namespace's UDP counters counted the datagrams;
// producer1 marked (the relay counted the marks on producer1->router1)
// and the consumer received marks; no process or socket is left.
func TestKernelLinkNDND(t *testing.T) {
	kernelSupport(t)
	sc := kernelScenario(t)
	before := netFDs(t)
	res := runExternal(t, sc, scenario.ForwarderNDND, len(sc.Topology.Nodes), 2*time.Minute)
	f := res.Flows[0]
	t.Logf("ndnd over kernel links: %.3f s, goodput %.0f kbit/s, RTT %.1f/%.1f/%.1f ms, %d marks, %d timeouts",
		f.DownloadTimeS, f.GoodputKbps, f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs, f.Marks, f.Timeouts)
	if !f.Complete || f.Bytes != 5000000 {
		t.Fatalf("flow: complete %v, %d bytes; want the 5000000 bytes", f.Complete, f.Bytes)
	}
	if f.GoodputKbps > 20000 {
		t.Errorf("goodput %.0f kbit/s over 20 Mbit/s links: the kernel did not shape them", f.GoodputKbps)
	}
	if f.Marks == 0 {
		t.Error("the consumer received no marks: producer1's socket never held 30,000 bytes")
	}
	if len(res.KernelQueues) != 4 {
		t.Fatalf("kernel queues %+v, want the two links' four directions", res.KernelQueues)
	}
	for _, q := range res.KernelQueues {
		t.Logf("FIFO %s->%s: %d fragments, %d bytes, %d dropped", q.From, q.To, q.Fragments, q.Bytes, q.DroppedFragments)
		// 1136 full segments of four fragments, the last (1600 bytes) in two.
		if q.From == "producer1" && (q.Bytes < 5000000 || q.Fragments < 4*1136+2) {
			t.Errorf("FIFO %s->%s: %d fragments, %d bytes; want the 1137 segments' bytes, a full one in four fragments", q.From, q.To, q.Fragments, q.Bytes)
		}
	}
	if u := res.KernelUDP; u == nil || u.OutDatagrams < 2*1137 {
		t.Errorf("namespace's UDP counters %+v, want the Data sent twice (producer1, router1) and more", u)
	} else {
		t.Logf("namespace's UDP: %+v", *u)
	}
	for _, l := range res.Links {
		if l.From == "producer1" && l.Marks == 0 {
			t.Errorf("%s->%s carried no marked packet", l.From, l.To)
		}
		if l.Utilization > 1.01 {
			t.Errorf("%s->%s: utilisation %.3f, above the link's rate", l.From, l.To, l.Utilization)
		}
	}
	assertNetClean(t, before)
}

// TestKernelLinkNDNDRate checks that kernelTOML on ndnd nodes fetches at
// about the link's rate: at least 80% of it in goodput (4.4 KB segments
// in 4.9 KB of fragments and the consumer's window make the rest). Real
// time: NDNCC_REALTIME=1 runs it, on an idle machine.
func TestKernelLinkNDNDRate(t *testing.T) {
	realtimetest.Require(t)
	kernelSupport(t)
	sc := kernelScenario(t)
	res := runExternalWith(t, sc, Options{Forwarder: scenario.ForwarderNDND, NDND: ndndtest.Binary(t)}, len(sc.Topology.Nodes), 2*time.Minute)
	f := res.Flows[0]
	t.Logf("goodput %.0f kbit/s over 20 Mbit/s", f.GoodputKbps)
	if !f.Complete || f.GoodputKbps < 16000 || f.GoodputKbps > 20000 {
		t.Errorf("complete %v, goodput %.0f kbit/s; want complete, 16000 to 20000", f.Complete, f.GoodputKbps)
	}
}

// TestKernelLinkNFD runs kernelTOML on NFD nodes (skipped without NFD):
// NFD 24.07 marks by its own rule, its UDP face's congestion marking at
// the scenario's threshold given through faces/create, as the marks on
// producer1->router1 and at the consumer show; the flow completes no
// faster than the link's rate.
func TestKernelLinkNFD(t *testing.T) {
	bin := nfdBinary(t)
	kernelSupport(t)
	sc := kernelScenario(t)
	res := runExternalWith(t, sc, Options{Forwarder: scenario.ForwarderNFD, NFD: bin}, len(sc.Topology.Nodes), 2*time.Minute)
	f := res.Flows[0]
	t.Logf("NFD over kernel links: %.3f s, goodput %.0f kbit/s, RTT %.1f/%.1f/%.1f ms, %d marks, %d timeouts",
		f.DownloadTimeS, f.GoodputKbps, f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs, f.Marks, f.Timeouts)
	if !f.Complete || f.GoodputKbps > 20000 {
		t.Fatalf("complete %v, goodput %.0f kbit/s; want complete, at most the links' 20 Mbit/s", f.Complete, f.GoodputKbps)
	}
	if f.Marks == 0 {
		t.Error("the consumer received no marks from NFD")
	}
	for _, l := range res.Links {
		if l.From == "producer1" && l.Marks == 0 {
			t.Errorf("%s->%s carried no marked packet", l.From, l.To)
		}
	}
}

// TestKernelLinkBesideARelay runs kernelTOML with consumer1 on ndncc's
// forwarder and a drop-tail link to router1: that link stays a relay's
// (ndncc's link model), its socket for router1 in the namespace where
// router1's ndnd runs and its socket for consumer1 in the process's, and
// only router1--producer1 is a kernel link. The fetch completes, with
// producer1's marks.
func TestKernelLinkBesideARelay(t *testing.T) {
	kernelSupport(t)
	sc := kernelScenario(t, "routers.node.consumer1.forwarder=ndncc", "links.consumer1-router1.queue=droptail")
	res := runExternal(t, sc, scenario.ForwarderNDND, 2, 2*time.Minute)
	f := res.Flows[0]
	if !f.Complete || f.Bytes != 5000000 || f.Marks == 0 {
		t.Fatalf("flow: complete %v, %d bytes, %d marks; want the 5000000 bytes, marked", f.Complete, f.Bytes, f.Marks)
	}
	var dirs []string
	for _, q := range res.KernelQueues {
		dirs = append(dirs, q.From+"->"+q.To)
	}
	if want := []string{"router1->producer1", "producer1->router1"}; !slices.Equal(dirs, want) {
		t.Errorf("kernel queues %v, want %v", dirs, want)
	}
}
