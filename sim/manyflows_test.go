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
// consumers on consumer1, each fetching size bytes: all the same object
// (one producer: n consumers of one name) when shared, else one object
// each (n producers on producer1 behind one announced prefix).
func manyFlows(t testing.TB, n int, size string, shared bool) *scenario.Scenario {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"many\"\nduration = \"120s\"\n[topology]\nfile = \"../examples/linear.conf\"\n")
	if shared {
		fmt.Fprintf(&b, "[[producer]]\nnode = \"producer1\"\nprefix = \"/many/object\"\nfile-size = %q\nsignature = \"digest\"\n", size)
	}
	for i := range n {
		prefix := "/many/object"
		if !shared {
			prefix = fmt.Sprintf("/many/f%d", i)
			fmt.Fprintf(&b, "[[producer]]\nnode = \"producer1\"\nprefix = %q\nannounce = \"/many\"\nfile-size = %q\nsignature = \"digest\"\n", prefix, size)
		}
		fmt.Fprintf(&b, "[[consumer]]\nid = \"c%d\"\nnode = \"consumer1\"\nprefix = %q\npipeline = \"aimd\"\n", i, prefix)
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
	net, err := Build(manyFlows(t, n, "10KB", true), Options{})
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

// TestManyFlowsOverload: n AIMD flows of 10 KB each, one object each,
// from one consumer node over the 5 Mbit/s bottleneck: every flow should
// complete. It runs only with NDNCC_MANY_FLOWS set, as it does not pass
// yet: at 1,000 flows 37 give up after 30 s without Data (0 segments).
// Traced, their Interests and Data are forwarded as they should be and
// lost in the drop-tail queues: Interests on router1->router2, Data on
// router2->router1, which the producer's 10 Mbit/s link keeps full at
// twice the bottleneck's rate. The flows that never got a sample back off
// in lockstep from their common start (retransmissions at 1, 2, 4, 8 and
// 16 s: 1,340 at once at 16 s), so their retransmissions meet in bursts
// the queues drop, and the next would come after the 30 s give-up budget.
// Spreading the starts over 3 s leaves 1 of 1,000. The forwarder is not
// at fault; the consumer's backoff is.
func TestManyFlowsOverload(t *testing.T) {
	if testing.Short() || os.Getenv("NDNCC_MANY_FLOWS") == "" {
		t.Skip("set NDNCC_MANY_FLOWS: fails today (see the comment)")
	}
	n := manyN(t)
	net, err := Build(manyFlows(t, n, "10KB", false), Options{})
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
