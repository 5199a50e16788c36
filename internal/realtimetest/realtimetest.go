// Package realtimetest gates the tests that depend on real time: tests that
// assert rates, ratios or timing measured on the wall clock (emulated links,
// live transfers against a deadline, emulator runs compared with the
// simulator, processes started and timed), and those whose outcome rides
// on a foreign tool's fixed retry budget over emulated links (ndnd cat
// gives a segment three retries). Such tests fail when the machine
// is loaded, so `go test ./...` skips them; they run when the environment
// sets NDNCC_REALTIME=1, one package at a time (.ci/run's real-time step):
//
//	NDNCC_REALTIME=1 go test -p 1 ./live/... ./emu ./internal/cli
//
// It is a test helper: only _test.go files may import it.
package realtimetest

import (
	"os"
	"testing"
	"time"
)

// Env names the environment variable that turns the real-time tests on.
const Env = "NDNCC_REALTIME"

// Enabled reports whether the real-time tests run (Env is "1").
func Enabled() bool { return os.Getenv(Env) == "1" }

// Require skips t unless the real-time tests run, saying why.
func Require(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("real-time test (wall-clock rates or timing): set %s=1 to run it", Env)
	}
}

// Starved is the lateness of an emulated link's timer (link.Lateness.Max)
// above which a run counts as starved of CPU: a wake this late stalls the
// link for several RTTs' worth of packets, so rates, ratios and RTTs
// measured over it describe the machine, not the protocol. A real-time test
// holds such a run to its functional checks only and logs the rest, rather
// than loosening its bounds for every run.
const Starved = 50 * time.Millisecond
