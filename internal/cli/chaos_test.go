package cli

// The fault-injection suite: ndncc fetch and serve against a real
// forwarder while the test kills, pauses or restarts a process, or drops,
// reorders and tampers with packets on the path (faultproxy_test.go). Each
// test asserts the exit status, how long recovery or giving up took, and
// the state of the output file. Bounds are generous (a loaded 2-core CI
// machine is slow), and each test is bounded in time: it fails rather
// than hangs.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/ndn"
)

// runMainEnv makes the test binary run ndncc's Main instead of the tests,
// so that a test can run ndncc as a process of its own (to kill or stop it).
const runMainEnv = "NDNCC_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		Main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testForwarder is what the fault tests need of a forwarder. ndnd's
// (live/ndndtest) is the one today; another binary plugs in by
// implementing these three methods in startForwarder.
type testForwarder interface {
	// Unix is the transport URI of the forwarder's Unix socket.
	Unix() string
	// Kill stops it abruptly (SIGKILL).
	Kill()
	// Restart starts it again after Kill, on the same socket.
	Restart(t testing.TB)
}

func startForwarder(t *testing.T) testForwarder { return ndndtest.Start(t, ndndtest.Options{}) }

// shortTempDir is a temporary directory with a short path (Unix socket
// paths are limited to 108 bytes).
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "ndncc-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// proc is ndncc running as a process of its own.
type proc struct {
	cmd    *exec.Cmd
	stderr syncBuffer
	done   chan struct{}
}

// startProc runs ndncc with args until the test ends (then it is killed by
// its PID).
func startProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(os.Args[0], args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), runMainEnv+"=1")
	p.cmd.Stderr = &p.stderr
	// A child it leaves behind holding its standard error must not hang
	// the test's cleanup: Wait gives up on the copy after this long.
	p.cmd.WaitDelay = 20 * time.Second // (past the 10 s the tests wait for it)
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

// startServeProc runs `ndncc serve` as a process and waits until it serves.
func startServeProc(t *testing.T, args ...string) *proc {
	t.Helper()
	p := startProc(t, append([]string{"serve"}, args...)...)
	waitFor(t, 20*time.Second, "serve to start", func() bool { return strings.Contains(p.stderr.String(), "Serving ") })
	return p
}

// waitFor polls cond every 5 ms until it holds, or fails the test after
// limit.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// fetchTo runs `ndncc fetch ... -o out` in the background.
func fetchTo(args ...string) chan cliResult {
	done := make(chan cliResult, 1)
	go func() { done <- runCLI(context.Background(), nil, append([]string{"fetch"}, args...)...) }()
	return done
}

// awaitFetch waits up to limit for a fetch to end.
func awaitFetch(t *testing.T, done chan cliResult, limit time.Duration) (cliResult, time.Time) {
	t.Helper()
	select {
	case r := <-done:
		return r, time.Now()
	case <-time.After(limit):
		t.Fatalf("fetch still running after %v", limit)
	}
	return cliResult{}, time.Time{}
}

// partialBytes returns the size of the fetch's temporary output file in
// dir (0 while there is none).
func partialBytes(dir string) int64 {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			if info, err := e.Info(); err == nil {
				return info.Size()
			}
		}
	}
	return 0
}

// checkOutput requires dir to hold exactly the file want (nil: nothing,
// not even a temporary file) with want's bytes.
func checkOutput(t *testing.T, dir string, want []byte) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if want == nil {
		if len(names) != 0 {
			t.Errorf("output directory holds %v, want nothing", names)
		}
		return
	}
	if len(names) != 1 || names[0] != "out.bin" {
		t.Fatalf("output directory holds %v, want only out.bin", names)
	}
	got, err := os.ReadFile(filepath.Join(dir, "out.bin"))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("out.bin has %d bytes (%v), not the %d served", len(got), err, len(want))
	}
}

// servedFile writes n random bytes to a file and returns its path and
// contents.
func servedFile(t *testing.T, n int, seed uint64) (string, []byte) {
	t.Helper()
	content := randomContent(n, seed)
	path := filepath.Join(t.TempDir(), "served.bin")
	if err := os.WriteFile(path, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, content
}

// TestFaultForwarderRestart kills the forwarder during a 50 MB fetch and
// starts it again 2 s later on the same socket: serve and fetch reconnect
// (serve registers its route again, fetch re-expresses what was pending)
// and the file arrives byte-identical.
func TestFaultForwarderRestart(t *testing.T) {
	realtimetest.Require(t)
	t.Parallel()
	fw := startForwarder(t)
	file, content := servedFile(t, 50<<20, 11)
	startServe(t, "/fault/restart", file, "--transport", fw.Unix(), "--size", "2000")
	dir := t.TempDir()
	done := fetchTo("/fault/restart", "--transport", fw.Unix(), "-p", "fixed", "-s", "4", "-o", filepath.Join(dir, "out.bin"))
	waitFor(t, time.Minute, "the first 5 MB", func() bool { return partialBytes(dir) >= 5<<20 })
	fw.Kill()
	killedAt := partialBytes(dir)
	time.Sleep(2 * time.Second)
	fw.Restart(t)
	restarted := time.Now()
	r, end := awaitFetch(t, done, 3*time.Minute)
	if r.code != 0 {
		t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
	}
	t.Logf("killed at %d bytes; done %v after the restart", killedAt, end.Sub(restarted))
	if killedAt >= int64(len(content)) {
		t.Fatalf("the fetch had ended before the forwarder was killed")
	}
	checkOutput(t, dir, content)
}

// TestFaultProducerKilled kills the producer's process mid-fetch: the
// fetch fails as timed out (exit 4) well within a minute, with the default
// options, and leaves no file.
func TestFaultProducerKilled(t *testing.T) {
	realtimetest.Require(t)
	t.Parallel()
	fw := startForwarder(t)
	file, _ := servedFile(t, 20<<20, 12)
	srv := startServeProc(t, "/fault/killed", file, "--transport", fw.Unix(), "--size", "1000")
	dir := t.TempDir()
	done := fetchTo("/fault/killed", "--transport", fw.Unix(), "-o", filepath.Join(dir, "out.bin"))
	waitFor(t, time.Minute, "the first MB", func() bool { return partialBytes(dir) >= 1<<20 })
	if err := srv.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	r, end := awaitFetch(t, done, 2*time.Minute)
	took := end.Sub(killed)
	t.Logf("exit %d %v after the kill: %v", r.code, took, r.err)
	if r.code != exitTimedOut || took > time.Minute {
		t.Errorf("exit %d after %v, want %d within 60 s", r.code, took, exitTimedOut)
	}
	checkOutput(t, dir, nil)
}

// TestFaultDeadProducer fetches from a producer that registered its
// prefix and never answers (no Data, no Nack): with the default options
// the fetch is reported within 60 s (the give-up budget is 30 s), both
// when version discovery gets no answer and when segments get none.
func TestFaultDeadProducer(t *testing.T) {
	realtimetest.Require(t)
	t.Parallel()
	fw := startForwarder(t)
	silentProducer(t, fw.Unix(), "/fault/dead")
	for _, tc := range []struct {
		name, fetch string
		want        int
	}{
		{"version discovery", "/fault/dead/object", exitNotFound},
		{"segments", "/fault/dead/object/v=1", exitTimedOut},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			start := time.Now()
			r, end := awaitFetch(t, fetchTo(tc.fetch, "--transport", fw.Unix(), "-o", filepath.Join(dir, "out.bin")), 2*time.Minute)
			took := end.Sub(start)
			t.Logf("exit %d after %v: %v", r.code, took, r.err)
			if r.code != tc.want || took > time.Minute {
				t.Errorf("exit %d after %v, want %d within 60 s", r.code, took, tc.want)
			}
			checkOutput(t, dir, nil)
		})
	}
}

// silentProducer registers prefix with the forwarder and answers nothing.
func silentProducer(t *testing.T, uri, prefix string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := live.Connect(ctx, uri, live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	name, err := ndn.ParseName(prefix)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan error, 1)
	conn.Loop.After(0, func() { conn.Endpoint.Register(live.Route{Prefix: name}, func(err error) { ready <- err }) })
	ended := make(chan struct{})
	go func() { conn.Loop.Run(ctx); close(ended) }()
	t.Cleanup(func() { cancel(); <-ended; conn.Close() })
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
}

// TestFaultProducerPaused stops the producer's process (SIGSTOP) for 1 s
// and for 10 s mid-fetch: the fetch waits it out (the RTO doubles at each
// unanswered round, the give-up budget is 30 s), resumes once the
// producer does, and the file arrives byte-identical.
func TestFaultProducerPaused(t *testing.T) {
	realtimetest.Require(t)
	t.Parallel()
	fw := startForwarder(t)
	file, content := servedFile(t, 8<<20, 13)
	for _, pause := range []time.Duration{time.Second, 10 * time.Second} {
		t.Run(pause.String(), func(t *testing.T) {
			prefix := "/fault/paused/" + pause.String()
			srv := startServeProc(t, prefix, file, "--transport", fw.Unix(), "--size", "1000")
			dir := t.TempDir()
			done := fetchTo(prefix, "--transport", fw.Unix(), "-o", filepath.Join(dir, "out.bin"))
			waitFor(t, time.Minute, "the first MB", func() bool { return partialBytes(dir) >= 1<<20 })
			if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
				t.Fatal(err)
			}
			time.Sleep(pause)
			if err := srv.cmd.Process.Signal(syscall.SIGCONT); err != nil {
				t.Fatal(err)
			}
			resumed := time.Now()
			r, end := awaitFetch(t, done, 3*time.Minute)
			took := end.Sub(resumed)
			t.Logf("exit %d, done %v after the producer resumed", r.code, took)
			if r.code != 0 {
				t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
			}
			// The RTO reached at most about twice the pause: the fetch
			// asks again within that, then needs the rest of the file.
			if limit := 2*pause + 30*time.Second; took > limit {
				t.Errorf("done %v after the producer resumed, want within %v", took, limit)
			}
			checkOutput(t, dir, content)
		})
	}
}

// TestFaultFetchStalled stops the fetch's own process (SIGSTOP) for 400 ms
// three times during a 60 MB fetch through ndnd fw, as a machine that
// deschedules it would: the Data of its Interests wait in its socket (and
// in the forwarder) meanwhile, and none may time out. Its event loop
// handles that input before its overdue timers (eventloop.Loop's catch-up) and
// counts the stall, which the pipeline leaves out of its Interests' waits,
// so the fetch ends without a timeout or retransmission, byte-identical.
func TestFaultFetchStalled(t *testing.T) {
	realtimetest.Require(t)
	t.Parallel()
	fw := startForwarder(t)
	const size = 60 << 20
	file, content := servedFile(t, size, 19)
	prefix := "/fault/fetch-stalled"
	startServeProc(t, prefix, file, "--transport", fw.Unix())
	dir := t.TempDir()
	fetch := startProc(t, "fetch", prefix, "--transport", fw.Unix(), "--init-ssthresh", "inf", "-v", "-o", filepath.Join(dir, "out.bin"))
	for i, at := range []int64{size * 15 / 100, size * 40 / 100, size * 65 / 100} {
		waitFor(t, time.Minute, fmt.Sprintf("%d bytes fetched", at), func() bool {
			select {
			case <-fetch.done:
				t.Fatalf("the fetch ended before stall %d of 3, at %d bytes: too fast to stall here\n%s", i+1, at, fetch.stderr.String())
			default:
			}
			return partialBytes(dir) >= at
		})
		if err := fetch.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
			t.Fatal(err)
		}
		time.Sleep(400 * time.Millisecond)
		if err := fetch.cmd.Process.Signal(syscall.SIGCONT); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-fetch.done:
	case <-time.After(2 * time.Minute):
		t.Fatalf("fetch still running 2 min after the last stall")
	}
	out := fetch.stderr.String()
	if code := fetch.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("fetch exited %d:\n%s", code, out)
	}
	checkOutput(t, dir, content)
	var timeouts, retx, catchUps int
	var stalled float64
	for _, l := range strings.Split(out, "\n") {
		fmt.Sscanf(l, "Timeouts: %d", &timeouts)
		fmt.Sscanf(l, "Retransmitted segments: %d", &retx)
		fmt.Sscanf(l, "Loop: %d batches of packets handled before due timers; %d catch-ups after stalls (%d gave up waiting); stalled %f s",
			new(int), &catchUps, new(int), &stalled)
	}
	summary := out[max(strings.Index(out, "All segments"), 0):]
	t.Logf("%s", summary)
	if timeouts != 0 || retx != 0 {
		t.Errorf("%d timeouts and %d retransmissions, want none", timeouts, retx)
	}
	if catchUps < 3 || stalled < 1 {
		t.Errorf("%d catch-ups after stalls, %.3f s stalled in all; want one per stall at least, and most of the 1.2 s", catchUps, stalled)
	}
}

// TestFaultLossAndReordering fetches through a proxy that drops 1% or 10%
// of the frames both ways and holds back another 10% of the Data by 5 ms,
// so that later ones overtake them: the file arrives byte-identical. At
// 10% the default pipeline's loss detection (RACK) retransmits within a
// round trip rather than at the RTO: the fetch takes well under a second
// on an idle machine, and must take under 10 s (a real-time test).
func TestFaultLossAndReordering(t *testing.T) {
	t.Parallel()
	fw := startForwarder(t)
	file, content := servedFile(t, 2<<20, 14)
	startServe(t, "/fault/lossy", file, "--transport", fw.Unix())
	for _, loss := range []float64{0.01, 0.10} {
		t.Run(fmt.Sprintf("%g%% loss", 100*loss), func(t *testing.T) {
			if loss > 0.01 {
				realtimetest.Require(t)
			}
			rng := &seededRand{x: 0x9e3779b97f4a7c15}
			var dropped, held atomic.Int64
			proxy := startFaultProxy(t, fw.Unix(), func(toClient bool, frame []byte) ([]byte, time.Duration) {
				switch x := rng.float(); {
				case x < loss:
					dropped.Add(1)
					return nil, 0
				case toClient && x < loss+0.10:
					held.Add(1)
					return frame, 5 * time.Millisecond
				}
				return frame, 0
			})
			dir := t.TempDir()
			start := time.Now()
			r, end := awaitFetch(t, fetchTo("/fault/lossy", "--transport", proxy.URI(), "-o", filepath.Join(dir, "out.bin")), 3*time.Minute)
			t.Logf("exit %d after %v; %d frames dropped, %d reordered", r.code, end.Sub(start), dropped.Load(), held.Load())
			if r.code != 0 {
				t.Fatalf("fetch exited %d: %v\n%s", r.code, r.err, r.stderr)
			}
			if dropped.Load() == 0 || held.Load() == 0 {
				t.Errorf("the proxy dropped %d and reordered %d frames; want both", dropped.Load(), held.Load())
			}
			if took := end.Sub(start); loss > 0.01 && took > 10*time.Second {
				t.Errorf("the fetch took %v at %g%% loss, want under 10 s: losses waited for the RTO", took, 100*loss)
			}
			checkOutput(t, dir, content)
		})
	}
}

// TestFaultSignatureDowngrade serves an Ed25519-signed object through a
// proxy that replaces segment 3 by a tampered copy with a valid
// DigestSha256: without --cert the fetch fails its integrity check (exit
// 5) and leaves no file.
func TestFaultSignatureDowngrade(t *testing.T) {
	t.Parallel()
	fw := startForwarder(t)
	file, _ := servedFile(t, 100_000, 15)
	startServe(t, "/fault/signed", file, "--transport", fw.Unix(), "--sign", "ed25519", "--size", "4000")
	var replaced atomic.Int64
	proxy := startFaultProxy(t, fw.Unix(), func(toClient bool, frame []byte) ([]byte, time.Duration) {
		if seg, ok := segmentOf(frame); toClient && ok && seg == 3 {
			replaced.Add(1)
			return redigest(frame), 0
		}
		return frame, 0
	})
	dir := t.TempDir()
	r, _ := awaitFetch(t, fetchTo("/fault/signed", "--transport", proxy.URI(), "-o", filepath.Join(dir, "out.bin")), time.Minute)
	if replaced.Load() == 0 {
		t.Fatal("the proxy saw no segment 3")
	}
	if r.code != exitIntegrity || !strings.Contains(r.err.Error(), "DigestSha256 only") {
		t.Errorf("exit %d (%v), want %d naming the downgrade", r.code, r.err, exitIntegrity)
	}
	checkOutput(t, dir, nil)
}
