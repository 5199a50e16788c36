package cli

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"github.com/spf13/cobra"
)

// A simulation allocates its packets fast and keeps few of them: the
// simulator's benchmark run (sim's BenchmarkLinear10MiB) allocates about
// 4.7 MB and its live heap stays under 1 MB, so at the runtime's defaults
// (GOGC=100: a heap goal of twice the live heap, and at least 4 MB) the
// collector would run every 3 MB or so, about 5% of the run's instructions
// and more of its time. The commands that simulate (sim, experiment,
// reproduce, seed001-sweep, tournament) therefore keep the heap goal at
// least heapFloor while they run (--gc-floor). The policy is the program's:
// the sim package never changes a process-wide setting.

// heapFloor is the smallest heap goal, in bytes, that a gcFloor lets the
// collector have.
const heapFloor = 32 << 20

// runtimeHeapMin is the runtime's smallest heap goal at GOGC=100 (its
// heapminimum, which scales with the percent).
const runtimeHeapMin = 4 << 20

// maxFloorPercent is the percent at which the runtime's own smallest goal
// is heapFloor: the most a gcFloor sets.
const maxFloorPercent = 100 * heapFloor / runtimeHeapMin

// gcFloorFlag is the flag that turns the floor off.
const gcFloorFlag = "gc-floor"

// gcFloorUsage is the flag's help.
const gcFloorUsage = "keep the Go garbage collector's heap goal at least 32 MB while the command runs (docs/experiments.md); off when GOGC or GOMEMLIMIT is set"

// withGCFloor gives cmd the --gc-floor flag (default on) and runs its RunE
// with a gcFloor, stopped when RunE returns or panics.
func withGCFloor(cmd *cobra.Command) *cobra.Command {
	on := cmd.Flags().Bool(gcFloorFlag, true, gcFloorUsage)
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if *on && os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
			defer startGCFloor().stop()
		}
		return run(cmd, args)
	}
	return cmd
}

// gcFloor raises the garbage collector's percent (debug.SetGCPercent) so
// that the heap goal, live heap times (1 + percent/100), is heapFloor while
// the live heap is small, and the runtime's default (GOGC=100, twice the
// live heap) once the live heap is heapFloor/2 or more: a large network
// collects as it would without it. It sets the percent anew after every
// collection, from the live heap that collection found.
//
// It acts only when the collector runs with its defaults: not when the
// program has set a percent other than 100 or a memory limit (ndncc
// experiment scale sets one). It stops for good when anyone else changes
// the percent. stop puts the percent back to 100 if the floor's is still in
// effect.
type gcFloor struct {
	mu      sync.Mutex
	stopped bool              // the floor no longer acts
	percent int               // the percent last set
	samples [3]metrics.Sample // gogc, live heap, memory limit
}

// gcSentinel is allocated for each collection a gcFloor waits for: its
// cleanup runs once a collection has found it unreachable.
type gcSentinel struct{ _ *byte }

// startGCFloor returns a running gcFloor, or a stopped one when the
// collector's settings are not its defaults.
func startGCFloor() *gcFloor {
	f := &gcFloor{}
	f.samples[0].Name = "/gc/gogc:percent"
	f.samples[1].Name = "/gc/heap/live:bytes"
	f.samples[2].Name = "/gc/gomemlimit:bytes"
	f.mu.Lock()
	defer f.mu.Unlock()
	metrics.Read(f.samples[:])
	if f.samples[0].Value.Uint64() != 100 || f.samples[2].Value.Uint64() != math.MaxInt64 {
		f.stopped = true
		return f
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

// adjust sets the percent for the live heap the last collection found and
// waits for the next collection, unless someone else changed the percent
// since f set it. f.mu is held.
func (f *gcFloor) adjust() {
	if f.stopped {
		return
	}
	metrics.Read(f.samples[:2])
	if int(f.samples[0].Value.Uint64()) != f.percent {
		f.stopped = true // someone else's now
		return
	}
	if p := floorPercent(f.samples[1].Value.Uint64()); p != f.percent {
		if cur := debug.SetGCPercent(p); cur != f.percent {
			debug.SetGCPercent(cur) // changed meanwhile: leave it
			f.stopped = true
			return
		}
		f.percent = p
	}
	runtime.AddCleanup(&gcSentinel{}, (*gcFloor).collected, f)
}

// collected runs after a collection (on the runtime's cleanup goroutine).
func (f *gcFloor) collected() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.adjust()
}

// stop ends f: the percent goes back to 100 if f set the one in effect.
func (f *gcFloor) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopped {
		return
	}
	f.stopped = true
	if cur := debug.SetGCPercent(100); cur != f.percent {
		debug.SetGCPercent(cur) // someone else's: leave it
	}
}
