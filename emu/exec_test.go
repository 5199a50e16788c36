package emu

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/scenario"
)

// quote makes s one word for /bin/sh.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestExecNdndCatGetsTheFile runs `ndnd cat /example/file` on consumer1
// (a foreign client on the node's socket, through NDN_CLIENT_TRANSPORT)
// in place of the scenario's consumer: it gets the producer's bytes,
// exits 0, and the run reports it by node.
func TestExecNdndCatGetsTheFile(t *testing.T) {
	// ndnd cat gives a segment three retries and then exits: on a loaded
	// machine the emulated links run late and it can run out of them.
	realtimetest.Require(t)
	const size = 256 << 10
	sc := linear(t, "producer[0].file-size="+strconv.Itoa(size))
	out := filepath.Join(t.TempDir(), "got")
	var stderr bytes.Buffer
	cmd := fmt.Sprintf("%s cat /example/file > %s", quote(ndndtest.Binary(t)), quote(out))
	res, err := Run(context.Background(), sc, Options{Exec: []Exec{{Node: "consumer1", Command: cmd}}, Stderr: &stderr})
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if len(res.Flows) != 0 || len(res.Exec) != 1 || res.Exec[0].Node != "consumer1" || res.Exec[0].ExitCode != 0 || res.Exec[0].Error != "" {
		t.Fatalf("flows %v, programs %+v; want no flow (the program replaces consumer1) and one program exiting 0", res.Flows, res.Exec)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, size)
	Content(sc.Seed, "/example/file", size).ReadAt(want, 0)
	if !bytes.Equal(got, want) {
		t.Fatalf("ndnd cat got %d bytes, not the %d served\n%s", len(got), size, stderr.String())
	}
}

// TestExecFailureIsReportedByNode: a program's non-zero exit status is in
// the result and the error, by node; the consumer elsewhere still runs.
func TestExecFailureIsReportedByNode(t *testing.T) {
	sc := linear(t, "producer[0].file-size=65536")
	res, err := Run(context.Background(), sc, Options{Exec: []Exec{{Node: "router1", Command: "exit 3"}}})
	if err == nil || !strings.Contains(err.Error(), `node router1: "exit 3" exited with status 3`) {
		t.Fatalf("error %v, want router1's status 3", err)
	}
	if res == nil || len(res.Exec) != 1 || res.Exec[0].ExitCode != 3 || len(res.Flows) != 1 || !res.Flows[0].Complete {
		t.Fatalf("result %+v; want the program's status 3 and consumer1 complete", res)
	}
}

// TestNothingLeftBehind: a run whose program starts a child that would
// outlive it, cut short by the scenario's time limit, and such a run
// interrupted (its context cancelled, as Ctrl-C does) both end at once
// and leave no process, socket or temporary file; over TCP tunnels too,
// which leave no socket, network namespace or thread in one either.
func TestNothingLeftBehind(t *testing.T) {
	realtimetest.Require(t)
	for _, tt := range []struct {
		name      string
		sets      []string
		interrupt bool
		tunnel    bool
	}{
		{"time limit", []string{`duration="2s"`}, false, false},
		{"interrupted", nil, true, false},
		{"tcp tunnel time limit", []string{`duration="2s"`}, false, true},
		{"tcp tunnel interrupted", nil, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			pidFile := filepath.Join(t.TempDir(), "pid")
			// The full 10 MiB (20 MB over the 20 Mbit/s tunnel), unsigned (nothing
			// to presign): far from done after 2 s.
			sc, node := func() (*scenario.Scenario, string) {
				if tt.tunnel {
					return tunnelScenario(t, append(tt.sets, "producer[0].file-size=20000000")...), "producer1"
				}
				return linear(t, append(tt.sets, "producer[0].signature=digest")...), "router2"
			}()
			fds := netFDs(t)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var started time.Time
			opt := Options{Exec: []Exec{{Node: node, Command: fmt.Sprintf("sleep 600 & echo $! > %s; wait", quote(pidFile))}}}
			opt.OnReady = func([]Node) {
				started = time.Now()
				if tt.interrupt {
					time.AfterFunc(2*time.Second, cancel)
				}
			}
			res, _ := Run(ctx, sc, opt)
			if took := time.Since(started); took > 10*time.Second {
				t.Errorf("run ended %v after it started, want about 2 s", took)
			}
			if res == nil || len(res.Flows) != 1 || res.Flows[0].Complete || len(res.Exec) != 1 || res.Exec[0].Error == "" {
				t.Fatalf("result %+v; want consumer1 incomplete and the program stopped", res)
			}
			want := "time limit reached"
			if tt.interrupt {
				want = "interrupted"
			}
			if res.Flows[0].Error != want {
				t.Errorf("consumer1's error %q, want %q", res.Flows[0].Error, want)
			}
			b, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatal(err)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatal(err)
			}
			if alive(pid) {
				t.Errorf("the program's child %d still runs", pid)
			}
			if kids := children(t); len(kids) > 0 {
				t.Errorf("child processes left: %v", kids)
			}
			assertEmpty(t, tmp)
			assertNetClean(t, fds)
		})
	}
}

// alive reports whether process pid runs (a zombie, dead but not yet
// reaped by its new parent, does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(rest, "Z")
}

// children lists the live child processes of this test process.
func children(t *testing.T) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc")
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		_, rest, _ := strings.Cut(string(b), ") ")
		f := strings.Fields(rest)
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) && alive(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// TestNodeFailureEndsTheRun: when a node's forwarder stops mid-run, the
// run ends at once with an error naming the node and why, and leaves no
// process, socket or temporary file.
func TestNodeFailureEndsTheRun(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	pidFile := filepath.Join(t.TempDir(), "pid")
	sc := linear(t, "producer[0].signature=digest")
	opt := Options{Exec: []Exec{{Node: "router1", Command: fmt.Sprintf("sleep 600 & echo $! > %s; wait", quote(pidFile))}}}
	var failedAt time.Time
	opt.started = func(nodes []*node) {
		time.AfterFunc(time.Second, func() {
			for _, nd := range nodes {
				if nd.name == "router2" {
					failedAt = time.Now()
					loop := nd.fwd.Loop()
					loop.Post(func() { loop.Stop(errors.New("injected failure")) })
				}
			}
		})
	}
	res, err := Run(context.Background(), sc, opt)
	if took := time.Since(failedAt); took > 10*time.Second {
		t.Errorf("run ended %v after the node failed", took)
	}
	if err == nil || !strings.Contains(err.Error(), "node router2: forwarder stopped") || !strings.Contains(err.Error(), "injected failure") {
		t.Fatalf("error %v, want router2's failure", err)
	}
	if res == nil || len(res.Flows) != 1 || res.Flows[0].Complete {
		t.Fatalf("result %+v, want consumer1 cut short", res)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid == 0 || alive(pid) {
		t.Errorf("the program's child %d still runs", pid)
	}
	if kids := children(t); len(kids) > 0 {
		t.Errorf("child processes left: %v", kids)
	}
	assertEmpty(t, tmp)
}
