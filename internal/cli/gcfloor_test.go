package cli

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/spf13/cobra"
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

// running reports whether f still acts.
func (f *gcFloor) running() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return !f.stopped
}

// needDefaults skips a test when the environment sets the collector up.
func needDefaults(t *testing.T) {
	t.Helper()
	if gcPercent() != 100 {
		t.Skip("GOGC set: the floor stays off")
	}
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
}

// TestGCFloorRaisesAndRestores starts a floor: the percent is raised while
// it runs (the test's live heap is a few MB at most), a second floor beside
// it stays off, and stop puts 100 back at once.
func TestGCFloorRaisesAndRestores(t *testing.T) {
	needDefaults(t)
	f := startGCFloor()
	defer f.stop()
	if !f.running() {
		t.Fatal("no floor at the collector's defaults")
	}
	if p := gcPercent(); p <= 100 {
		t.Errorf("percent %d while running, want more than 100", p)
	}
	runtime.GC() // the floor adjusts after collections, on another goroutine
	runtime.GC()
	if again := startGCFloor(); again.running() {
		again.stop()
		t.Error("a second floor started beside the first")
	}
	f.stop()
	if p := gcPercent(); p != 100 {
		t.Errorf("percent %d after stop, want 100", p)
	}
	if f.running() {
		t.Error("floor still running after stop")
	}
}

// TestGCFloorLeavesOthersSettings checks that a percent or memory limit set by
// the program keeps the floor off, and that a percent the program sets while
// a floor runs is left alone.
func TestGCFloorLeavesOthersSettings(t *testing.T) {
	needDefaults(t)
	defer debug.SetGCPercent(100)
	debug.SetGCPercent(150)
	if f := startGCFloor(); f.running() {
		f.stop()
		t.Fatal("floor started over the program's percent")
	}
	debug.SetGCPercent(100)
	debug.SetMemoryLimit(1 << 30) // as ndncc experiment scale does
	if f := startGCFloor(); f.running() {
		f.stop()
		t.Fatal("floor started under the program's memory limit")
	}
	debug.SetMemoryLimit(math.MaxInt64)
	f := startGCFloor()
	if !f.running() {
		t.Fatal("no floor at the collector's defaults")
	}
	debug.SetGCPercent(300)
	for deadline := time.Now().Add(5 * time.Second); f.running(); {
		if time.Now().After(deadline) {
			t.Fatal("floor still running after the program changed the percent")
		}
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	f.stop()
	if p := gcPercent(); p != 300 {
		t.Errorf("percent %d, want the program's 300", p)
	}
}

// TestWithGCFloor runs a command under --gc-floor: on by default, off with
// --gc-floor=false or GOGC in the environment, and the percent back to 100
// when the command returns.
func TestWithGCFloor(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		gogc string
		want bool // the floor runs during the command
	}{
		{"default", nil, "", true},
		{"flag off", []string{"--gc-floor=false"}, "", false},
		{"GOGC set", nil, "100", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needDefaults(t)
			t.Setenv("GOGC", tc.gogc)
			var during int
			cmd := withGCFloor(&cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error {
				during = gcPercent()
				return nil
			}})
			cmd.SetArgs(tc.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			if got := during > 100; got != tc.want {
				t.Errorf("percent %d during the command, want a floor: %v", during, tc.want)
			}
			if p := gcPercent(); p != 100 {
				t.Errorf("percent %d after the command, want 100", p)
			}
		})
	}
}
