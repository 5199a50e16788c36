package vclock

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ndncc/ndncc/sched"
)

// BenchmarkEvent is one event of a steady simulation on the Scheduler:
// eight lanes (a topology's links and processors), each event scheduling
// the next one of its lane a random time later. It allocates nothing.
func BenchmarkEvent(b *testing.B) {
	var s Scheduler
	rng := rand.New(rand.NewPCG(1, 2))
	lanes := make([]sched.Lane, 8)
	last := make([]time.Duration, 8)
	for i := range lanes {
		lanes[i] = s.NewLane(func() {
			last[i] = max(last[i], s.Now()) + time.Duration(rng.IntN(100_000))
			lanes[i].At(last[i])
		})
		lanes[i].At(0)
	}
	b.ReportAllocs()
	for b.Loop() {
		s.Step()
	}
}
