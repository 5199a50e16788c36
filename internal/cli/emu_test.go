package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// emuDoc is the part of `emu --json`'s document the tests read.
type emuDoc struct {
	Mode  string `json:"mode"`
	Flows []struct {
		ID       string `json:"id"`
		Complete bool   `json:"complete"`
		Bytes    uint64 `json:"bytes"`
		Error    string `json:"error"`
	} `json:"flows"`
	Links []struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"links"`
	Exec []struct {
		Node     string `json:"node"`
		ExitCode int    `json:"exit_code"`
		Error    string `json:"error"`
	} `json:"exec"`
}

// TestEmuJSONAndReport runs `ndncc emu` on linear-fixed32 with a 256 KiB
// file: the JSON document is the simulator's with "mode": "live", the
// flow completes with every byte, and --out writes result.json (the same
// document), the traces and index.html.
func TestEmuJSONAndReport(t *testing.T) {
	realtimetest.Require(t)
	out := t.TempDir()
	r := runCLI(context.Background(), nil, "emu", linearExample, "--json", "--out", out, "--set", "producer[0].file-size=262144")
	if r.code != 0 {
		t.Fatalf("emu exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	var doc emuDoc
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("stdout is not one JSON document: %v\n%s", err, r.stdout)
	}
	if doc.Mode != "live" || len(doc.Flows) != 1 || !doc.Flows[0].Complete || doc.Flows[0].Bytes != 262144 || doc.Flows[0].Error != "" {
		t.Fatalf("document: %+v; want mode live and consumer1 complete with 262144 bytes", doc)
	}
	if len(doc.Links) != 6 {
		t.Errorf("%d link directions, want linear's 6", len(doc.Links))
	}
	for _, f := range []string{"result.json", "index.html", "rtt-consumer1.csv", "topology.svg"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("--out: %v", err)
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "result.json"))
	if err != nil || !strings.Contains(string(b), `"mode": "live"`) {
		t.Errorf("result.json: %v, want the live document:\n%.300s", err, b)
	}
}

// TestEmuUsageErrors: a bad --exec, a program for a missing node and a
// scenario the emulator cannot run exit 2 before anything starts.
func TestEmuUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--exec", "consumer1"}, "want NODE=COMMAND"},
		{[]string{"--exec", "nowhere=true"}, "no such node"},
		{[]string{"--set", "producer[0].signature=hmac"}, "not emulated"},
		{[]string{"--forwarder", "yanfd"}, "want one of ndncc, nfd, ndnd"},
		{[]string{"--forwarder", "nfd", "--nfd", "/nonexistent/nfd"}, "no nfd program"},
		{[]string{"--forwarder", "ndnd", "--ndnd", "/bin/true", "--set", "routers.strategy=pcon"}, `has no strategy "pcon"`},
	}
	for _, tt := range tests {
		r := runCLI(context.Background(), nil, append([]string{"emu", linearExample}, tt.args...)...)
		if r.code != 2 || !strings.Contains(r.stderr+fmt.Sprint(r.err), tt.want) {
			t.Errorf("%v: exit %d, %v; want 2 and %q", tt.args, r.code, r.err, tt.want)
		}
	}
}

// TestEmuHoldAttachesForeignClients runs `emu --hold` with a program in
// place of consumer1: once it prints the nodes' sockets, `ndnd cat`
// attached to consumer1's socket from outside fetches the object through
// the emulated network; Ctrl-C (the context ending) ends the run with
// status 0 and removes the sockets.
func TestEmuHoldAttachesForeignClients(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan cliResult, 1)
	go func() {
		done <- runCLIWith(ctx, nil, &stdout, &stderr, "emu", linearExample, "--hold", "--exec", "consumer1=true",
			"--set", "producer[0].file-size=65536", "--set", "producer[0].signature=digest")
	}()
	var sock string
	for deadline := time.Now().Add(60 * time.Second); sock == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		for _, line := range strings.Split(stderr.String(), "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "consumer1" && strings.HasPrefix(f[1], "unix://") {
				sock = f[1]
			}
		}
	}
	if sock == "" {
		cancel()
		t.Fatalf("no socket for consumer1 printed:\n%s", stderr.String())
	}
	cat := exec.Command(ndndtest.Binary(t), "cat", "/example/file")
	cat.Env = append(os.Environ(), "NDN_CLIENT_TRANSPORT="+sock)
	var catErr bytes.Buffer
	cat.Stderr = &catErr
	got, err := cat.Output()
	if err != nil || len(got) != 65536 {
		t.Errorf("ndnd cat through %s: %d bytes, %v\n%s", sock, len(got), err, catErr.String())
	}
	time.Sleep(200 * time.Millisecond)
	select {
	case r := <-done:
		t.Fatalf("emu --hold ended before Ctrl-C: %d %v", r.code, r.err)
	default:
	}
	cancel()
	r := <-done
	if r.code != 0 {
		t.Fatalf("emu --hold after Ctrl-C: exit %d, %v\n%s", r.code, r.err, stderr.String())
	}
	if _, err := os.Stat(strings.TrimPrefix(sock, "unix://")); !os.IsNotExist(err) {
		t.Errorf("socket %s left behind: %v", sock, err)
	}
}

// TestEmuExecRows runs a program in place of the consumer: the text
// output has the program's row (node, how it ended, time, command), no
// flows table and no simulator event rate, and the routes installed.
func TestEmuExecRows(t *testing.T) {
	realtimetest.Require(t)
	r := runCLI(context.Background(), nil, "emu", linearExample, "--set", "producer[0].file-size=65536", "--exec", "consumer1=sleep 1")
	if r.code != 0 {
		t.Fatalf("emu exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	if !regexp.MustCompile(`(?m)^consumer1 +exit status 0 +1\.\d\d +sleep 1$`).MatchString(r.stdout) {
		t.Errorf("no row for the program:\n%s", r.stdout)
	}
	for _, absent := range []string{"events/s", "x real time", "RTT min/avg/max"} {
		if strings.Contains(r.stdout, absent) {
			t.Errorf("output has %q with nothing simulated and no flow:\n%s", absent, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "router1    /example/file  router2 (20 ms)") {
		t.Errorf("output lacks router1's route:\n%s", r.stdout)
	}
}

// TestSizeValue: --presign-budget takes a size with a unit and refuses
// what is not a size above 0.
func TestSizeValue(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		err  bool
	}{{"1GiB", 1 << 30, false}, {"512 MB", 512e6, false}, {"2048", 2048, false}, {"0", 0, true}, {"-1GiB", 0, true}, {"lots", 0, true}} {
		var v sizeValue
		err := v.Set(c.in)
		if (err != nil) != c.err || v.n != c.want {
			t.Errorf("Set(%q): %d, error %v; want %d, error %v", c.in, v.n, err, c.want, c.err)
		}
	}
}
