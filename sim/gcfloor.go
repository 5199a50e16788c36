package sim

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A simulation allocates its packets fast and keeps few of them: the
// benchmark's run (BenchmarkLinear10MiB) allocates about 4.7 MB and its live
// heap stays under 1 MB, so at the runtime's defaults (GOGC=100: a heap goal
// of twice the live heap, and at least 4 MB) the collector would run every
// 3 MB or so, about 5% of the run's instructions and more of its time. While
// a Network runs, a gcFloor keeps the heap goal at least heapFloor instead
// (see Network.Run).

// heapFloor is the smallest heap goal, in bytes, that a gcFloor lets the
// collector have.
const heapFloor = 32 << 20

// runtimeHeapMin is the runtime's smallest heap goal at GOGC=100 (its
// heapminimum, which scales with the percent).
const runtimeHeapMin = 4 << 20

// maxFloorPercent is the percent at which the runtime's own smallest goal
// is heapFloor: the most a gcFloor sets.
const maxFloorPercent = 100 * heapFloor / runtimeHeapMin

// gcFloor raises the garbage collector's percent (debug.SetGCPercent) while
// a simulation runs, so that the heap goal, live heap times (1 + percent/100),
// is heapFloor while the live heap is small, and the runtime's default
// (GOGC=100, twice the live heap) once the live heap is heapFloor/2 or
// more: a large network collects as it would without it. It sets the
// percent anew after every collection, from the live heap that collection
// found. The percent is the process's: other work in the program sees the
// same goal, so at most heapFloor of garbage more.
//
// It acts only when the collector runs with its defaults: not when GOGC or
// GOMEMLIMIT is set in the environment, nor when the program has set a
// percent other than 100 or a memory limit. It stops when anyone else
// changes the percent. When its simulation ends, it puts the percent back
// to 100 at the next collection rather than at once: at once would start a
// collection whenever the heap is past the default goal, one for every
// simulation of a program that runs many small ones. A simulation that
// starts meanwhile, or beside it, finds a percent other than 100 and runs
// with it, then with the default: of simulations running at once, or
// back to back, the first holds the floor until the collection after it
// ends.
type gcFloor struct {
	mu       sync.Mutex
	stopping bool // the simulation has ended: restore 100 at the next collection
	stopped  bool
	percent  int               // the percent last set
	samples  [3]metrics.Sample // gogc, live heap, memory limit
}

// gcSentinel is allocated for each collection a gcFloor waits for: its
// cleanup runs once a collection has found it unreachable.
type gcSentinel struct{ _ *byte }

// startGCFloor returns a running gcFloor, or nil when it must not act.
func startGCFloor() *gcFloor {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	f := &gcFloor{}
	f.samples[0].Name = "/gc/gogc:percent"
	f.samples[1].Name = "/gc/heap/live:bytes"
	f.samples[2].Name = "/gc/gomemlimit:bytes"
	metrics.Read(f.samples[:])
	if f.samples[0].Value.Uint64() != 100 || f.samples[2].Value.Uint64() != math.MaxInt64 {
		return nil
	}
	f.percent = 100
	f.adjust()
	return f
}

// floorPercent is the percent that gives a live heap of live bytes the goal
// max(heapFloor, 2*live).
func floorPercent(live uint64) int {
	if live == 0 {
		return maxFloorPercent
	}
	p := uint64(100)
	if live < heapFloor/2 {
		p = 100*heapFloor/live - 100
	}
	return int(min(p, maxFloorPercent))
}

// adjust sets the percent for the live heap the last collection found, or
// back to 100 once the simulation has ended, and waits for the next
// collection, unless someone else changed the percent since f set it. f.mu
// is held.
func (f *gcFloor) adjust() {
	if f.stopped {
		return
	}
	metrics.Read(f.samples[:2])
	if int(f.samples[0].Value.Uint64()) != f.percent {
		f.stopped = true // someone else's now
		return
	}
	p := floorPercent(f.samples[1].Value.Uint64())
	if f.stopping {
		p, f.stopped = 100, true
	}
	if p != f.percent {
		if cur := debug.SetGCPercent(p); cur != f.percent {
			debug.SetGCPercent(cur) // changed meanwhile: leave it
			f.stopped = true
			return
		}
		f.percent = p
	}
	if !f.stopped {
		runtime.AddCleanup(&gcSentinel{}, (*gcFloor).collected, f)
	}
}

// collected runs after a collection (on the runtime's cleanup goroutine).
func (f *gcFloor) collected() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.adjust()
}

// stop tells f that its simulation has ended: the percent goes back to 100
// at the next collection, if f set the one then in effect.
func (f *gcFloor) stop() {
	if f == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopping = true
	if f.percent == 100 {
		f.stopped = true
	}
}
