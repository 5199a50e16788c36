package sim

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestFloorPercent(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int
	}{
		{0, 800},              // nothing known: the runtime's minimum goal made heapFloor
		{1 << 20, 800},        // 32 MB would take 3100: capped, the goal is heapFloor
		{4 << 20, 700},        // 4 MB x 8 = 32 MB
		{8 << 20, 300},        // 8 MB x 4
		{10 << 20, 220},       // 10 MB x 3.2
		{16 << 20, 100},       // twice the live heap is heapFloor: the default
		{100 << 20, 100},      // a large network collects as at the default
		{(16 << 20) - 1, 100}, // rounds down to the default, never below it
	} {
		if got := floorPercent(tc.live); got != tc.want {
			t.Errorf("floorPercent(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// gcPercent returns the collector's percent in effect.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// awaitPercent collects until the percent is want (a gcFloor changes it on
// the runtime's cleanup goroutine, after a collection).
func awaitPercent(t *testing.T, want int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); gcPercent() != want; {
		if time.Now().After(deadline) {
			t.Fatalf("percent %d, want %d", gcPercent(), want)
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
}

// needDefaults skips a test when the environment sets the collector up.
func needDefaults(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: gcFloor stays off")
	}
}

// TestGCFloorRaisesAndRestores runs a small scenario: the percent is raised
// while it runs (the test's live heap is a few MB at most) and back to 100
// after the collection that follows it.
func TestGCFloorRaisesAndRestores(t *testing.T) {
	needDefaults(t)
	awaitPercent(t, 100) // an earlier test's floor
	f := startGCFloor()
	if f == nil {
		t.Fatal("no floor at the collector's defaults")
	}
	if p := gcPercent(); p <= 100 || p != f.percent {
		t.Errorf("percent %d while running (floor set %d), want more than 100", p, f.percent)
	}
	if again := startGCFloor(); again != nil {
		again.stop()
		t.Error("a second floor started beside the first")
	}
	f.stop()
	if p := gcPercent(); p == 100 {
		t.Error("percent restored at once, want at the next collection")
	}
	awaitPercent(t, 100)
	if !f.stopped {
		t.Error("floor still waiting for collections")
	}
}

// TestGCFloorLeavesOthersSettings checks that a percent or memory limit set by
// the program, or GOGC in the environment, keeps the floor off, and that a
// percent the program sets while a floor runs is left alone.
func TestGCFloorLeavesOthersSettings(t *testing.T) {
	needDefaults(t)
	awaitPercent(t, 100)
	defer debug.SetGCPercent(100)
	debug.SetGCPercent(150)
	if f := startGCFloor(); f != nil {
		f.stop()
		t.Fatal("floor started over the program's percent")
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 30) // as ndncc experiment scale does
	if f := startGCFloor(); f != nil {
		f.stop()
		t.Fatal("floor started under the program's memory limit")
	}
	debug.SetMemoryLimit(math.MaxInt64)
	f := startGCFloor()
	if f == nil {
		t.Fatal("no floor at the collector's defaults")
	}
	debug.SetGCPercent(300)
	for deadline := time.Now().Add(5 * time.Second); ; {
		runtime.GC()
		time.Sleep(time.Millisecond)
		f.mu.Lock()
		stopped := f.stopped
		f.mu.Unlock()
		if stopped {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("floor still running after the program changed the percent")
		}
	}
	f.stop()
	runtime.GC()
	if p := gcPercent(); p != 300 {
		t.Errorf("percent %d, want the program's 300", p)
	}
	t.Setenv("GOGC", "100")
	if f := startGCFloor(); f != nil {
		f.stop()
		t.Error("floor started with GOGC set")
	}
}
