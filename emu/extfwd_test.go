package emu

import (
	"cmp"
	"context"
	"github.com/ndncc/ndncc/internal/realtimetest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/scenario"
)

// TestForwarderOf checks which forwarder runs a node: its own
// [routers.node.NAME] forwarder, else Options.Forwarder, else [routers]
// forwarder, else ndncc's.
func TestForwarderOf(t *testing.T) {
	for _, tc := range []struct {
		name, opt string
		sets      []string
		node      string
		want      string
	}{
		{"default", "", nil, "router1", "ndncc"},
		{"scenario", "", []string{"routers.forwarder=ndnd"}, "router1", "ndnd"},
		{"option over scenario", "nfd", []string{"routers.forwarder=ndnd"}, "router1", "nfd"},
		{"node over option", "nfd", []string{"routers.node.router1.forwarder=ndncc"}, "router1", "ndncc"},
		{"other node", "nfd", []string{"routers.node.router1.forwarder=ndncc"}, "router2", "nfd"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := linear(t, tc.sets...)
			if got := forwarderOf(sc, Options{Forwarder: tc.opt}, tc.node); got != tc.want {
				t.Errorf("forwarderOf(%s) = %q, want %q", tc.node, got, tc.want)
			}
		})
	}
}

// TestCheckExternal checks that what an external forwarder cannot honour
// is refused, naming the key, before anything starts.
func TestCheckExternal(t *testing.T) {
	bin := fakeBinary(t)
	for _, tc := range []struct {
		name string
		opt  Options
		sets []string
		want string // "" for no error
	}{
		{"ndnd runs linear", Options{Forwarder: "ndnd", NDND: bin}, nil, ""},
		{"nfd runs linear", Options{Forwarder: "nfd", NFD: bin}, nil, ""},
		{"one node nfd", Options{NFD: bin}, []string{"routers.node.router1.forwarder=nfd"}, ""},
		{"unknown forwarder", Options{Forwarder: "yanfd"}, nil, `forwarder "yanfd": want one of ndncc, nfd, ndnd`},
		{"no program", Options{Forwarder: "nfd", NFD: "/nonexistent/nfd"}, nil, "no nfd program"},
		{"pcon", Options{Forwarder: "nfd", NFD: bin}, []string{"routers.strategy=pcon"}, `has no strategy "pcon"`},
		{"codel-mark", Options{Forwarder: "ndnd", NDND: bin}, []string{"routers.queue=codel-mark"}, `queue "codel-mark"`},
		{"mixed link keeps drop-tail", Options{NFD: bin}, []string{"routers.node.router2.forwarder=nfd", "links.router1->router2.queue=codel-drop"}, `link router1->router2: queue "codel-drop"`},
		{"loss detection", Options{Forwarder: "ndnd", NDND: bin}, []string{"links.router1-router2.loss-detection=true"}, "loss-detection"},
		{"tcp tunnel, one end ndncc", Options{NFD: bin}, []string{"routers.node.router2.forwarder=nfd", "links.router1-router2.tunnel=tcp"}, "a TCP tunnel joins two ndncc forwarders or two external ones (nfd, ndnd), not ndncc and nfd"},
		{"tcp tunnel, codel", Options{Forwarder: "nfd", NFD: bin}, []string{"links.router1-router2.tunnel=tcp", "links.router1-router2.queue=codel-mark"}, `link router1->router2: queue "codel-mark": a TCP tunnel between external forwarders`},
		{"tcp tunnel, every-packet marking", Options{Forwarder: "nfd", NFD: bin}, []string{"links.router1-router2.tunnel=tcp", "links.router1-router2.queue=threshold-mark", "links.router1-router2.queue-params.marking=every"}, `link router1->router2 (a TCP tunnel between external forwarders): queue-params marking = "every": nfd has no every-packet marking`},
		{"tcp tunnel, packet threshold", Options{Forwarder: "ndnd", NDND: bin}, []string{"links.router1-router2.tunnel=tcp", "links.router1-router2.queue=threshold-mark", "links.router1-router2.queue-params.threshold-packets=10"}, "threshold-packets = 10: ndnd measures its socket's send queue in bytes only"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(linear(t, tc.sets...), tc.opt)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Check: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// fakeBinary is an executable file that stands for a forwarder Check
// looks for.
func fakeBinary(t *testing.T) string {
	p := t.TempDir() + "/fw"
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExternalConfigs checks the configurations the external forwarders
// get: their socket, port, Content Store and strategy.
func TestExternalConfigs(t *testing.T) {
	rs := scenario.RouterSettings{Strategy: "multicast", CSCapacity: 0}
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"nfd", nfdConfig("/tmp/x/a.sock", 6400, rs), []string{"path /tmp/x/a.sock", "port 6400", "cs_max_packets 0", "/               /localhost/nfd/strategy/multicast", "mcast no", "certfile any"}},
		{"nfd cs", nfdConfig("/s", 1, scenario.RouterSettings{Strategy: "best-route", CSCapacity: 65536}), []string{"cs_max_packets 65536", "/localhost/nfd/strategy/best-route"}},
		{"ndnd", ndndConfig("/tmp/x/a.sock", 6400, rs), []string{"socket_path: /tmp/x/a.sock", "port_unicast: 6400", "threads: 1", "admit: false", "default_mtu: 8800"}},
		{"ndnd cs", ndndConfig("/s", 1, scenario.RouterSettings{CSCapacity: 100}), []string{"capacity: 100", "admit: true", "serve: true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range tc.want {
				if !strings.Contains(tc.text, w) {
					t.Errorf("config lacks %q:\n%s", w, tc.text)
				}
			}
		})
	}
}

// runExternal runs sc with forwarder (every node's unless the scenario
// says otherwise; "" keeps the scenario's) as `ndnd fw` processes and
// checks that there were want of them and that every one is gone when
// the run returns, and nothing is left in the run's directory.
func runExternal(t *testing.T, sc *scenario.Scenario, forwarder string, want int, timeout time.Duration) *Result {
	t.Helper()
	return runExternalWith(t, sc, Options{Forwarder: forwarder, NDND: ndndtest.Binary(t)}, want, timeout)
}

// runExternalWith is runExternal with the options given.
func runExternalWith(t *testing.T, sc *scenario.Scenario, opt Options, want int, timeout time.Duration) *Result {
	t.Helper()
	var pids []int
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	dir := t.TempDir()
	opt.Dir = dir
	opt.started = func(nodes []*node) {
		for _, nd := range nodes {
			if nd.ext != nil {
				pids = append(pids, nd.ext.cmd.Process.Pid)
			}
		}
	}
	res, err := Run(ctx, sc, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(pids) != want {
		t.Errorf("%d forwarder processes, want %d", len(pids), want)
	}
	for _, pid := range pids {
		if syscall.Kill(pid, 0) == nil {
			t.Errorf("forwarder process %d still runs after Run", pid)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		for _, e := range left {
			info, _ := e.Info()
			t.Errorf("the run left %s (%v, %d bytes) in its directory", e.Name(), info.Mode(), info.Size())
		}
	}
	return res
}

// TestExternalNDND runs linear-fixed32 with a 1 MiB file on `ndnd fw`
// processes: every node one, or router2 alone among ndncc's forwarders
// (two links relayed, one emulated in ndncc's faces), or with ndnd's
// multicast strategy (set through its management) and a Content Store
// (its configuration). The flow completes,
// every link direction has a row that carried packets, and no process is
// left.
func TestExternalNDND(t *testing.T) {
	for _, tc := range []struct {
		name, forwarder string
		sets            []string
		want            int
	}{
		{"every node", scenario.ForwarderNDND, nil, 4},
		{"router2 only", "", []string{"routers.node.router2.forwarder=ndnd"}, 1},
		{"multicast, a Content Store", scenario.ForwarderNDND, []string{"routers.strategy=multicast", "routers.cs-capacity=100"}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := linear(t, append([]string{"producer[0].file-size=1048576", "producer[0].signature=digest"}, tc.sets...)...)
			res := runExternal(t, sc, tc.forwarder, tc.want, 2*time.Minute)
			if len(res.Flows) != 1 || !res.Flows[0].Complete {
				t.Fatalf("flows %+v; want one complete", res.Flows)
			}
			if len(res.Links) != 2*len(sc.Topology.Links) {
				t.Errorf("%d link directions, want %d", len(res.Links), 2*len(sc.Topology.Links))
			}
			for _, l := range res.Links {
				if l.Packets == 0 {
					t.Errorf("link %s->%s carried nothing", l.From, l.To)
				}
			}
		})
	}
}

// TestExternalNDNDMatchesSimulator is the emulator's check against a
// forwarder not its own: examples/linear-fixed32.toml as it is, every node
// an `ndnd fw` process, completes with no timeout and within 10% of the
// simulator's download time. Real time: NDNCC_REALTIME=1 runs it, on an
// idle machine.
func TestExternalNDNDMatchesSimulator(t *testing.T) {
	realtimetest.Require(t)
	sc := linear(t)
	want := simulate(t, sc).Flows[0]
	res := runExternal(t, sc, scenario.ForwarderNDND, len(sc.Topology.Nodes), 4*time.Minute)
	got := res.Flows[0]
	if !got.Complete || got.Timeouts != 0 {
		t.Fatalf("complete %v, %d timeouts; want complete, 0", got.Complete, got.Timeouts)
	}
	ratio := got.DownloadTimeS / want.DownloadTimeS
	t.Logf("download time: ndnd live %.3f s, sim %.3f s (x%.3f); RTT avg %.1f vs %.1f ms", got.DownloadTimeS, want.DownloadTimeS, ratio, got.RTTAvgMs, want.RTTAvgMs)
	if ratio < 0.9 || ratio > 1.1 {
		t.Errorf("download time %.3f s is not within 10%% of the simulator's %.3f s", got.DownloadTimeS, want.DownloadTimeS)
	}
}

// nfdBinary is NFD's nfd for the tests that need the reference stack
// (scripts/build-reference.sh): $NDNCC_NFD, else nfd on $PATH; the test is
// skipped without one.
func nfdBinary(t *testing.T) string {
	t.Helper()
	bin := cmp.Or(os.Getenv("NDNCC_NFD"), "nfd")
	p, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("no NFD (%v): scripts/build-reference.sh builds it; set NDNCC_NFD or put nfd on $PATH", err)
	}
	return p
}

// TestExternalNFD runs linear-fixed32 with a 1 MiB file and every node an
// NFD process, with ndncc's consumer and producer, and, where ndn-tools is
// on $PATH too, with ndnputchunks and ndncatchunks (its fixed pipeline)
// in their place: the flow completes, and ndncatchunks' row has its
// segments and no timeouts (it prints none).
func TestExternalNFD(t *testing.T) {
	bin := nfdBinary(t)
	for _, tc := range []struct {
		name  string
		tools bool
	}{
		{"ndncc's consumer and producer", false},
		{"ndncatchunks and ndnputchunks", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := linear(t, "producer[0].file-size=1048576", "producer[0].signature=digest")
			if tc.tools {
				for _, tool := range []string{"ndncatchunks", "ndnputchunks"} {
					if _, err := exec.LookPath(tool); err != nil {
						t.Skipf("no %s on $PATH: %v", tool, err)
					}
				}
				sc.Producers[0].Program, sc.Producers[0].Args = "ndnputchunks", []string{"-s", "1024", "/example/file"}
				sc.Consumers[0].Program, sc.Consumers[0].Args = "ndncatchunks", []string{"-p", "fixed", "-s", "32", "/example/file"}
			}
			res := runExternalWith(t, sc, Options{Forwarder: scenario.ForwarderNFD, NFD: bin}, len(sc.Topology.Nodes), 3*time.Minute)
			fr := res.Flows[0]
			if !fr.Complete || fr.Error != "" {
				t.Fatalf("flow %+v; want complete", fr)
			}
			if tc.tools && (fr.Segments != 1024 || !slices.Contains(res.Absent(0), "timeouts")) {
				t.Errorf("ndncatchunks' row: %d segments, absent %v; want 1024, timeouts absent", fr.Segments, res.Absent(0))
			}
		})
	}
}
