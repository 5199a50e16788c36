package sim

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ndncc/ndncc/scenario"
)

// manyFlows returns a scenario on seed 000's linear topology with n AIMD
// consumers on consumer1, each fetching one of objects objects of size
// bytes (consumer i fetches object i mod objects, all served by
// producer1 behind one announced prefix) and starting i*spacing after the
// first.
func manyFlows(t testing.TB, n, objects int, size string, spacing time.Duration) *scenario.Scenario {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"many\"\nduration = \"300s\"\n[topology]\nfile = \"../examples/linear.conf\"\n")
	for i := range objects {
		fmt.Fprintf(&b, "[[producer]]\nnode = \"producer1\"\nprefix = \"/many/f%d\"\nannounce = \"/many\"\nfile-size = %q\nsignature = \"digest\"\n", i, size)
	}
	for i := range n {
		fmt.Fprintf(&b, "[[consumer]]\nid = \"c%d\"\nnode = \"consumer1\"\nprefix = \"/many/f%d\"\npipeline = \"aimd\"\nstart = \"%v\"\n",
			i, i%objects, time.Duration(i)*spacing)
	}
	sc, err := scenario.Parse([]byte(b.String()), "many.toml")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// manyN is the number of consumers of the many-flow tests: 1,000, or
// NDNCC_MANY_FLOWS (10,000 is the measure docs/security.md quotes).
func manyN(t testing.TB) int {
	n := 1000
	if s := os.Getenv("NDNCC_MANY_FLOWS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("NDNCC_MANY_FLOWS=%q: want a positive count", s)
		}
		n = v
	}
	return n
}

// TestManyConsumersOfOneName: n consumers on one node fetch the same
// object: one PIT entry per segment with n in-records at consumer1's
// forwarder. Every consumer completes, and the simulator keeps its pace:
// with in-records found in constant time, each Interest costs the same
// however many downstreams share its entry.
func TestManyConsumersOfOneName(t *testing.T) {
	if testing.Short() {
		t.Skip("many flows; -short")
	}
	n := manyN(t)
	net, err := Build(manyFlows(t, n, 1, "10KB", 0), Options{})
	if err != nil {
		t.Fatal(err)
	}
	start, cpu0 := time.Now(), cpuTime()
	r := net.Run()
	wall, cpu := time.Since(start), cpuTime()-cpu0
	incomplete := 0
	for _, f := range r.Flows {
		if !f.Complete {
			incomplete++
		}
	}
	ev := net.Sched.Events()
	t.Logf("%d consumers of one name: %d events in %v (%v of CPU), %.0f events/s (%.0f per CPU second), %v simulated, %d incomplete",
		n, ev, wall.Round(time.Millisecond), cpu.Round(time.Millisecond), float64(ev)/wall.Seconds(), float64(ev)/cpu.Seconds(), net.Sched.Now(), incomplete)
	if incomplete > 0 {
		t.Errorf("%d of %d consumers did not complete", incomplete, n)
	}
}

// TestManyFlowsOverload is the overload scenario: n AIMD flows of 10
// segments (1,000; 10,000 with NDNCC_MANY_FLOWS=10000), fetching 100
// objects (n/100 consumers of each name), starting 2 ms apart, from one
// consumer node over the 5 Mbit/s bottleneck: every flow completes.
//
// It checks the consumer's Interest lifetime: a flow whose RTO has backed
// off past the 4 s InterestLifetime must still hear the Data that answers
// its segment's shared PIT entry. With a fixed 4 s lifetime, 3 of 10,000
// flows ended with 9 of 10 segments ("30 s without Data"): their
// in-records had expired when the shared entry was answered.
func TestManyFlowsOverload(t *testing.T) {
	if testing.Short() {
		t.Skip("many flows; -short")
	}
	n := manyN(t)
	net, err := Build(manyFlows(t, n, 100, "10240", 2*time.Millisecond), Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := net.Run()
	wall := time.Since(start)
	var incomplete []string
	for _, f := range r.Flows {
		if !f.Complete {
			incomplete = append(incomplete, fmt.Sprintf("%s (%s, %d segments)", f.ID, f.Error, f.Segments))
		}
	}
	ev := net.Sched.Events()
	t.Logf("%d flows: %d events in %v, %.0f events/s, %v simulated, %d incomplete",
		n, ev, wall.Round(time.Millisecond), float64(ev)/wall.Seconds(), net.Sched.Now(), len(incomplete))
	if len(incomplete) > 0 {
		t.Errorf("%d of %d flows did not complete: %v", len(incomplete), n, incomplete[:min(len(incomplete), 5)])
	}
}

// cpuTime returns the CPU time the process has used (user and system):
// on a shared machine, events per CPU second say more than per wall
// second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
