package emu

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/scenario"
)

// tunnelTOML is seed002-marking's TCP case made small, without its flow
// (bigFlowTOML: 3 MB in 4400-byte segments, aimd reacting to marks):
// consumer1 and producer1 joined by a TCP tunnel of 20 Mbit/s with a
// 200 KB send buffer at each end. Only
// the socket can make marks: the send queue's packet threshold is out of
// reach, and the queue marks while more than 50 KB wait in the socket
// unsent.
const tunnelTOML = `
profile = "seed000"
duration = "60s"
[topology]
nodes = ["consumer1", "producer1"]
links = [{ a = "consumer1", b = "producer1", delay = "1ms", bw = 20, max-queue-size = 1000 }]

[routers]
queue = "threshold-mark"
queue-params = { threshold-packets = "1000000", socket-threshold-bytes = "50000" }

[[links]]
between = ["consumer1", "producer1"]
tunnel = "tcp"
tcp-send-buffer = 200000
`

// tunnelScenario is tunnelTOML with the keys given set; it skips the test
// where TCP tunnels cannot run live (no root, no network namespaces, no
// iproute2).
func tunnelScenario(t *testing.T, sets ...string) *scenario.Scenario {
	t.Helper()
	if err := tunnelSupport(); err != nil {
		t.Skipf("TCP tunnels cannot run live here: %v", err)
	}
	return parseFlowScenario(t, tunnelTOML, 3000000, "tunnel.toml", sets...)
}

// bigFlowTOML is the flow of tunnelTOML and kernelTOML: producer1 serves
// /example/big (FILE-SIZE bytes in 4400-byte segments, digest-signed) and
// consumer1 fetches it with aimd.
const bigFlowTOML = `
[[producer]]
node = "producer1"
prefix = "/example/big"
file-size = %d
segment-size = 4400
signature = "digest"

[[consumer]]
id = "c1"
node = "consumer1"
prefix = "/example/big"
pipeline = "aimd"
`

// parseFlowScenario parses network (a scenario without flows) with
// bigFlowTOML's flow of size bytes, as file, and sets the keys given.
func parseFlowScenario(t *testing.T, network string, size int, file string, sets ...string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse([]byte(network+fmt.Sprintf(bigFlowTOML, size)), file)
	if err != nil {
		t.Fatal(err)
	}
	return withSets(t, sc, sets...)
}

// TestTCPTunnelLive runs a TCP tunnel over real kernel TCP: the flow gets
// every byte, no faster than the link's rate (the kernel's qdisc beneath
// TCP is the bottleneck, not loopback), and the producer's face marks,
// which only the socket's unsent bytes can make it do here. The link
// directions are the kernel's counters. Nothing is left behind.
func TestTCPTunnelLive(t *testing.T) {
	realtimetest.Require(t)
	sc := tunnelScenario(t)
	dir := t.TempDir()
	before := netFDs(t)
	res, err := Run(context.Background(), sc, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	checkTunnelRun(t, res, "the socket's send queue never held more than 50 KB unsent")
	// Each direction's lateness is its delay line's (1 ms).
	if len(res.Lateness) != 2 || res.Lateness[1].From != "producer1" || res.Lateness[1].Wakes == 0 {
		t.Errorf("lateness %+v, want the two directions' delay lines", res.Lateness)
	}
	assertEmpty(t, dir)
	assertNetClean(t, before)
}

// netFDs lists this process's open sockets and namespace descriptors
// (what a run's TCP tunnels open).
func netFDs(t *testing.T) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []string
	for _, fd := range fds {
		l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && (strings.HasPrefix(l, "socket:") || strings.HasPrefix(l, "net:")) {
			out = append(out, fd.Name()+" "+l)
		}
	}
	slices.Sort(out)
	return out
}

// strayThreads lists this process's threads in another network namespace
// than the process's.
func strayThreads(t *testing.T) []string {
	t.Helper()
	home, err := os.Readlink("/proc/self/ns/net")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	tasks, _ := os.ReadDir("/proc/self/task")
	for _, task := range tasks {
		if ns, err := os.Readlink(filepath.Join("/proc/self/task", task.Name(), "ns/net")); err == nil && ns != home {
			out = append(out, task.Name()+" in "+ns)
		}
	}
	return out
}

// assertNetClean fails unless the sockets and namespace descriptors open
// are those of before, and no thread is in another network namespace (a
// namespace's thread ends just after its goroutine: a second to go).
func assertNetClean(t *testing.T, before []string) {
	t.Helper()
	if after := netFDs(t); !slices.Equal(after, before) {
		t.Errorf("sockets and namespaces open before the run %v, after %v", before, after)
	}
	deadline := time.Now().Add(time.Second)
	for len(strayThreads(t)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if stray := strayThreads(t); len(stray) > 0 {
		t.Errorf("threads left in other network namespaces: %v", stray)
	}
}

// TestTunnelFailureEndsTheRun: when a tunnel's connection breaks mid-run
// (producer1 closes its end), the run ends at once with an error naming
// the node whose tunnel failed, and leaves nothing behind.
func TestTunnelFailureEndsTheRun(t *testing.T) {
	sc := tunnelScenario(t, "producer[0].file-size=20000000")
	dir := t.TempDir()
	before := netFDs(t)
	var brokeAt time.Time
	opt := Options{Dir: dir, started: func(nodes []*node) {
		time.AfterFunc(time.Second, func() {
			for _, nd := range nodes {
				if nd.name == "producer1" {
					brokeAt = time.Now()
					nd.fwd.Loop().Post(func() {
						for _, f := range nd.fwd.Faces() {
							if f.Config().Scheme == "tcp4" {
								f.Close()
							}
						}
					})
				}
			}
		})
	}}
	res, err := Run(context.Background(), sc, opt)
	if took := time.Since(brokeAt); took > 10*time.Second {
		t.Errorf("run ended %v after the tunnel broke", took)
	}
	if err == nil || !strings.Contains(err.Error(), "node consumer1: the TCP tunnel to producer1 failed") {
		t.Fatalf("error %v, want consumer1's tunnel failure", err)
	}
	if res == nil || len(res.Flows) != 1 || res.Flows[0].Complete {
		t.Fatalf("result %+v, want c1 cut short", res)
	}
	assertEmpty(t, dir)
	assertNetClean(t, before)
}

// TestTCPTunnelNDND runs tunnelTOML's tunnel between two `ndnd fw`
// processes: each dials the tunnel's proxy itself, the namespace's
// loopback shapes its own socket, and producer1's ndnd marks by its own
// rule while its socket holds more than 50,000 bytes. The flow gets every
// byte, no faster than the link's rate; producer1 marked; the kernel's
// FIFOs counted both directions; nothing is left behind.
func TestTCPTunnelNDND(t *testing.T) {
	realtimetest.Require(t)
	sc := tunnelScenario(t, "routers.queue-params.threshold-packets=0", "routers.queue-params.socket-threshold-bytes=0",
		"routers.queue-params.threshold-bytes=50000")
	before := netFDs(t)
	res := runExternal(t, sc, scenario.ForwarderNDND, len(sc.Topology.Nodes), 2*time.Minute)
	checkTunnelRun(t, res, "producer1's ndnd never saw more than 50,000 bytes in its socket")
	assertNetClean(t, before)
}

// checkTunnelRun checks a run of tunnelTOML's 3 MB flow: it got every
// byte, at most the link's rate (the NDN bytes leave room for TCP's
// headers below them: 19.1 Mbit/s on an idle machine) and, however loaded
// the machine, a quarter of it; the producer's end marked (noMarks says
// what no mark would mean); the link directions are the kernel's FIFOs:
// the Data's carried segments at up to the link's rate, the Interests'
// ACKs too.
func checkTunnelRun(t *testing.T, res *Result, noMarks string) {
	t.Helper()
	if len(res.Flows) != 1 {
		t.Fatalf("%d flows, want 1", len(res.Flows))
	}
	f := res.Flows[0]
	t.Logf("live: %.3f s, goodput %.0f kbit/s (wire %.0f), RTT %.1f/%.1f/%.1f ms, %d marks, %d timeouts, %d retransmissions",
		f.DownloadTimeS, f.GoodputKbps, f.EffectiveKbps, f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs, f.Marks, f.Timeouts, f.Retransmissions)
	if !f.Complete || f.Error != "" || f.Bytes != 3000000 {
		t.Fatalf("flow: complete %v, error %q, %d bytes; want the 3000000 bytes, checked", f.Complete, f.Error, f.Bytes)
	}
	if f.EffectiveKbps > 20000 || f.EffectiveKbps < 5000 {
		t.Errorf("NDN throughput %.0f kbit/s over a 20 Mbit/s tunnel; want 5000 to 20000", f.EffectiveKbps)
	}
	if f.Marks == 0 {
		t.Error("no marks: " + noMarks)
	}
	if len(res.Links) != 2 {
		t.Fatalf("links %+v, want the tunnel's two directions", res.Links)
	}
	for _, l := range res.Links {
		t.Logf("%s->%s: %d packets, %d bytes, %d drops, utilisation %.3f", l.From, l.To, l.Packets, l.Bytes, l.Drops, l.Utilization)
		if l.Packets == 0 || l.Utilization > 1.01 {
			t.Errorf("%s->%s: %d packets, utilisation %.3f; want packets, at most the link's rate", l.From, l.To, l.Packets, l.Utilization)
		}
	}
	if data := res.Links[1]; data.From != "producer1" || data.Bytes < 3000000 {
		t.Errorf("%s->%s carried %d bytes, want producer1's 3000000 and their headers", data.From, data.To, data.Bytes)
	}
}

// TestTCPTunnelNFD runs TestTCPTunnelNDND's tunnel between two NFD
// processes (skipped without NFD): NFD 24.07 marks by its stream
// transport's rule (its send queue and the socket's SIOCOUTQ against the
// threshold given through faces/create).
func TestTCPTunnelNFD(t *testing.T) {
	realtimetest.Require(t)
	bin := nfdBinary(t)
	sc := tunnelScenario(t, "routers.queue-params.threshold-packets=0", "routers.queue-params.socket-threshold-bytes=0",
		"routers.queue-params.threshold-bytes=50000")
	before := netFDs(t)
	res := runExternalWith(t, sc, Options{Forwarder: scenario.ForwarderNFD, NFD: bin}, len(sc.Topology.Nodes), 2*time.Minute)
	checkTunnelRun(t, res, "producer1's NFD never held more than 50,000 bytes in its send queue and socket")
	assertNetClean(t, before)
}
