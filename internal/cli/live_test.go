package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// syncBuffer is a bytes.Buffer safe for a command writing in one goroutine
// while the test reads in another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// cliResult is what one ndncc command did.
type cliResult struct {
	code           int
	stdout, stderr string
	err            error
}

// runCLI runs ndncc in-process with args and returns its exit status.
func runCLI(ctx context.Context, stdin []byte, args ...string) cliResult {
	var stdout, stderr syncBuffer
	return runCLIWith(ctx, stdin, &stdout, &stderr, args...)
}

func runCLIWith(ctx context.Context, stdin []byte, stdout, stderr *syncBuffer, args ...string) cliResult {
	root := newRoot()
	root.SetArgs(args)
	root.SetIn(bytes.NewReader(stdin))
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	code := 0
	if err != nil {
		code = exitFailure
		var ee *exitError
		if errors.As(err, &ee) {
			code = ee.code
		}
	}
	return cliResult{code: code, stdout: stdout.String(), stderr: stderr.String(), err: err}
}

func randomContent(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed+1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// served is a running `ndncc serve`.
type served struct {
	stderr *syncBuffer
	cancel context.CancelFunc
	done   chan cliResult
	// mayFail lets the command end with an error (the test kills its
	// forwarder).
	mayFail bool
}

// startServe runs `ndncc serve` until the test ends and waits until it
// serves.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	s := &served{stderr: &stderr, cancel: cancel, done: make(chan cliResult, 1)}
	go func() { s.done <- runCLIWith(ctx, nil, &stdout, &stderr, append([]string{"serve"}, args...)...) }()
	t.Cleanup(func() {
		cancel()
		if r := <-s.done; r.code != 0 && !s.mayFail {
			t.Errorf("serve exited %d: %v\n%s", r.code, r.err, r.stderr)
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "Serving ") {
		select {
		case r := <-s.done:
			t.Fatalf("serve exited %d: %v\n%s", r.code, r.err, r.stderr)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve not ready: %s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return s
}

// startNdndPut runs `ndnd put prefix` with content on stdin and env
// (which names the forwarder) until the test ends, and waits until it has
// registered its prefix.
func startNdndPut(t *testing.T, env []string, prefix string, content []byte) {
	t.Helper()
	put := exec.Command(ndndtest.Binary(t), "put", prefix)
	put.Env = env
	put.Stdin = bytes.NewReader(content)
	var putLog syncBuffer
	put.Stdout, put.Stderr = &putLog, &putLog
	if err := put.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { put.Process.Kill(); put.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(putLog.String(), "Registered route") {
		if time.Now().After(deadline) {
			t.Fatalf("ndnd put did not register: %s", putLog.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFetchFromNdndPut fetches an object that `ndnd put` publishes.
func TestFetchFromNdndPut(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := randomContent(5<<20+17, 1)
	startNdndPut(t, fw.Env(), "/interop/put", content)

	dir := t.TempDir()
	out := filepath.Join(dir, "object.bin")
	cwnd, rtt := filepath.Join(dir, "cwnd.log"), filepath.Join(dir, "rtt.log")
	r := runCLI(context.Background(), nil, "fetch", "/interop/put", "--transport", fw.Unix(),
		"-o", out, "--log-cwnd", cwnd, "--log-rtt", rtt)
	if r.code != 0 {
		t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("fetched %d bytes (%v), want the %d put", len(got), err, len(content))
	}
	if !strings.Contains(r.stderr, "All segments have been received.") || !strings.Contains(r.stderr, "Segments received: 656\n") ||
		!strings.Contains(r.stderr, "Pipeline: "+defaultPipeline+"\n") {
		t.Errorf("summary:\n%s", r.stderr)
	}
	for path, header := range map[string]string{cwnd: "time\tcwndsize\n", rtt: "segment\trtt\trttvar\tsrtt\trto\n"} {
		b, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(string(b), header) || strings.Count(string(b), "\n") < 3 {
			t.Errorf("%s: %v\n%.200s", filepath.Base(path), err, b)
		}
	}
	checkCwndLogSeconds(t, cwnd)
	// ndnget's conventions: an ndn: URI, -N typed, --init-ssthresh inf.
	again := filepath.Join(dir, "again.bin")
	r = runCLI(context.Background(), nil, "fetch", "ndn:/interop/put", "-N", "typed", "-p", "aimd", "--init-ssthresh", "inf",
		"--transport", fw.Unix(), "-o", again)
	if got, err := os.ReadFile(again); r.code != 0 || err != nil || !bytes.Equal(got, content) {
		t.Errorf("fetch ndn:/interop/put -N typed --init-ssthresh inf: exit %d (%v), %d bytes", r.code, r.err, len(got))
	}
	os.Remove(again)
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("%d files in the output directory, want 3 (no temporary file left)", len(entries))
	}
}

// checkCwndLogSeconds checks that --log-cwnd's time column is in seconds
// with a fraction, as ndnget writes it: every row's time is a number, they
// never decrease, some have a fraction, and the transfer (well under a
// minute here) ends below 60.
func checkCwndLogSeconds(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
	fractional, last := false, 0.0
	for _, row := range rows {
		f := strings.Split(row, "\t")
		sec, err := strconv.ParseFloat(f[0], 64)
		if len(f) != 2 || err != nil || sec < last || sec > 60 {
			t.Fatalf("%s: row %q: want seconds since the start, a window", filepath.Base(path), row)
		}
		fractional = fractional || strings.Contains(f[0], ".")
		last = sec
	}
	if !fractional || len(rows) < 2 {
		t.Errorf("%s: %d rows, no time with a fraction of a second", filepath.Base(path), len(rows))
	}
}

// TestServeToNdndCat serves a file that `ndnd cat` fetches.
func TestServeToNdndCat(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := randomContent(5<<20+3, 2)
	file := filepath.Join(t.TempDir(), "served.bin")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	startServe(t, "/interop/serve", file, "--transport", fw.Unix())
	cat := exec.Command(ndndtest.Binary(t), "cat", "/interop/serve")
	cat.Env = fw.Env()
	var stderr bytes.Buffer
	cat.Stderr = &stderr
	got, err := cat.Output()
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("ndnd cat got %d bytes (%v), want %d:\n%s", len(got), err, len(content), stderr.String())
	}
}

// TestFetchVerboseCountsMarks runs `fetch -v` with a large initial
// window: the forwarder marks, and every decrease is reported.
func TestFetchVerboseCountsMarks(t *testing.T) {
	realtimetest.Require(t)
	fw := ndndtest.Start(t, ndndtest.Options{})
	file := filepath.Join(t.TempDir(), "served.bin")
	if err := os.WriteFile(file, randomContent(20<<20, 3), 0o644); err != nil {
		t.Fatal(err)
	}
	startServe(t, "/cli/marks", file, "--transport", fw.Unix())
	r := runCLI(context.Background(), nil, "fetch", "/cli/marks", "--transport", fw.Unix(), "-v",
		"-p", "aimd", "--init-cwnd", "100", "-o", filepath.Join(t.TempDir(), "out"))
	if r.code != 0 {
		t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	var marks, decreases int
	for _, line := range strings.Split(r.stderr, "\n") {
		if _, err := fmt.Sscanf(line, "Congestion marks: %d (caused %d window decreases)", &marks, &decreases); err == nil {
			break
		}
	}
	if marks == 0 || decreases == 0 || strings.Count(r.stderr, "] congestion mark (total") != marks {
		t.Fatalf("marks %d, decreases %d:\n%s", marks, decreases, r.stderr)
	}
	if !strings.Contains(r.stderr, "Forwarder: "+fw.Unix()+" (from --transport)") {
		t.Errorf("verbose output does not name the transport:\n%s", r.stderr)
	}
}

// TestFetchExitCodes checks the documented exit status of each failure.
func TestFetchExitCodes(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	fast := []string{"--transport", fw.Unix(), "-l", "150", "-r", "1", "--initial-rto", "150", "--min-rto", "100"}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"no name", []string{"fetch"}, exitUsage},
		{"unknown flag", []string{"fetch", "/a", "--no-such-flag"}, exitUsage},
		{"unknown pipeline", []string{"fetch", "/a", "-p", "reno"}, exitUsage},
		{"window size without fixed", []string{"fetch", "/a", "-s", "8"}, exitUsage},
		{"parameter of another pipeline", []string{"fetch", "/a", "-p", "aimd", "--cubic-beta", "0.5"}, exitUsage},
		{"bad value", []string{"fetch", "/a", "--rto-k", "many"}, exitUsage},
		{"window overflow", []string{"fetch", "/a", "-p", "aimd", "--init-cwnd", "1e19"}, exitUsage},
		{"fixed window overflow", []string{"fetch", "/a", "-p", "fixed", "-s", "99999999999"}, exitUsage},
		{"negative timeout", []string{"fetch", "/a", "--timeout", "-1s"}, exitUsage},
		{"bad transport", []string{"fetch", "/a", "--transport", "ws://x"}, exitUsage},
		{"no forwarder", []string{"fetch", "/a", "--transport", "unix://" + filepath.Join(t.TempDir(), "none.sock")}, exitNoForward},
		// Refused before any packet is sent (it used to fail at the
		// rename, after the whole download).
		{"output is a directory", append([]string{"fetch", "/nobody/here", "-o", t.TempDir()}, fast...), exitFailure},
		{"not found", append([]string{"fetch", "/nobody/here"}, fast...), exitNotFound},
		{"timed out", append([]string{"fetch", "/nobody/here/v=1"}, fast...), exitTimedOut},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(context.Background(), nil, tc.args...)
			if r.code != tc.want {
				t.Fatalf("exit %d (%v), want %d", r.code, r.err, tc.want)
			}
		})
	}
}

func TestExitCodeOf(t *testing.T) {
	tests := []struct {
		err  error
		want int
	}{
		{fmt.Errorf("x: %w", live.ErrIntegrity), exitIntegrity},
		{fmt.Errorf("x: %w: %w", live.ErrNotFound, live.ErrNoReply), exitNotFound},
		{fmt.Errorf("x: %w", live.ErrTimedOut), exitTimedOut},
		{fmt.Errorf("x: %w", live.ErrFaceDown), exitNoForward},
		{errors.New("disk full"), exitFailure},
	}
	for _, tc := range tests {
		if got := exitCodeOf(tc.err); got != tc.want {
			t.Errorf("exitCodeOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// TestFetchForwarderKilledLeavesNoFile kills the forwarder during a fetch
// to a file for good: once its reconnection budget is spent, the fetch
// fails with a clear message and no file is left.
func TestFetchForwarderKilledLeavesNoFile(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	file := filepath.Join(t.TempDir(), "served.bin")
	if err := os.WriteFile(file, randomContent(60<<20, 4), 0o644); err != nil {
		t.Fatal(err)
	}
	startServe(t, "/cli/killed", file, "--transport", fw.Unix()).mayFail = true
	dir := t.TempDir()
	out := filepath.Join(dir, "object.bin")
	done := make(chan cliResult, 1)
	go func() {
		done <- runCLI(context.Background(), nil, "fetch", "/cli/killed", "--transport", fw.Unix(),
			"-p", "fixed", "-s", "2", "-o", out, "--reconnect", "1s")
	}()
	time.Sleep(300 * time.Millisecond)
	fw.Kill()
	killed := time.Now()
	var r cliResult
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("fetch still running 30 s after the forwarder was killed")
	}
	if r.code == 0 {
		t.Skip("the fetch completed before the forwarder was killed")
	}
	t.Logf("exit %d after %v: %v", r.code, time.Since(killed), r.err)
	if r.code != exitNoForward || !strings.Contains(r.err.Error(), "connection to the forwarder lost (no new connection within 1s") {
		t.Errorf("exit %d (%v), want %d with a clear message", r.code, r.err, exitNoForward)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left in the output directory: %v", entries)
	}
}

// TestSignedServeAndPinnedCertificate serves with a key made by `ndnd sec
// keygen`: fetch verifies it through the certificate the server serves,
// and fails with the integrity exit status when another key is pinned.
func TestSignedServeAndPinnedCertificate(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	dir := t.TempDir()
	keygen := exec.Command(ndndtest.Binary(t), "sec", "keygen", "/cli/signed", "ed25519")
	key, err := keygen.Output()
	if err != nil {
		t.Fatalf("ndnd sec keygen: %v", err)
	}
	keyFile := filepath.Join(dir, "key.pem")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "served.bin")
	content := randomContent(200_000, 5)
	if err := os.WriteFile(file, content, 0o644); err != nil {
		t.Fatal(err)
	}
	s := startServe(t, "/cli/signed", file, "--transport", fw.Unix(), "--key", keyFile, "-v")
	if !strings.Contains(s.stderr.String(), "Signing with ed25519, certificate /cli/signed/KEY/") {
		t.Errorf("serve does not sign with the key:\n%s", s.stderr.String())
	}

	out := filepath.Join(dir, "out.bin")
	r := runCLI(context.Background(), nil, "fetch", "/cli/signed", "--transport", fw.Unix(), "-o", out, "-q")
	if got, _ := os.ReadFile(out); r.code != 0 || !bytes.Equal(got, content) {
		t.Fatalf("fetch exited %d (%v), %d bytes", r.code, r.err, len(got))
	}

	other, err := live.LoadSigning(live.SignEd25519, "", mustParse(t, "/someone/else"))
	if err != nil {
		t.Fatal(err)
	}
	certFile := filepath.Join(dir, "other.cert")
	if err := os.WriteFile(certFile, other.Cert.Wire, 0o644); err != nil {
		t.Fatal(err)
	}
	r = runCLI(context.Background(), nil, "fetch", "/cli/signed", "--transport", fw.Unix(), "-o", filepath.Join(dir, "bad.bin"), "--cert", certFile)
	if r.code != exitIntegrity {
		t.Fatalf("fetch with another key pinned exited %d (%v), want %d", r.code, r.err, exitIntegrity)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.bin")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rejected object was written: %v", err)
	}
}

func mustParse(t *testing.T, s string) enc.Name {
	t.Helper()
	n, err := enc.NameFromStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
