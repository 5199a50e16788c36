package experiment

import (
	"testing"
	"time"
)

// A small scale run: every flow completes, most run at once, and the
// costs are measured; with one fixed window, an object 16 times larger
// costs each flow about the same memory, far below the object's size.
func TestScaleSmall(t *testing.T) {
	opt := ScaleOptions{Routers: []int{30}, Flows: []int{20, 60}, FileSize: 64 << 10, FileSizes: []int64{64 << 10, 1 << 20}, StartWithin: 20 * time.Millisecond, Seed: 2}
	var started []ScalePoint
	opt.OnPoint = func(p ScalePoint) { started = append(started, p) }
	rep, err := Scale(opt)
	if err != nil {
		t.Fatal(err)
	}
	if want := opt.Points(); len(rep.Points) != 4 || len(started) != 4 || started[3] != want[3] {
		t.Fatalf("%d points (%v), want %v", len(rep.Points), started, want)
	}
	for _, p := range rep.Points {
		t.Logf("%+v", p)
		switch {
		case p.Complete != p.Flows:
			t.Errorf("%d of %d flows complete", p.Complete, p.Flows)
		case p.PeakConcurrent < p.Flows/2:
			t.Errorf("at most %d of %d flows ran at once", p.PeakConcurrent, p.Flows)
		case p.Nodes != 30 || p.Servers < 1 || p.Events == 0 || p.WallS <= 0 || p.EventsPerS <= 0 || p.SimTimeS <= 0:
			t.Errorf("costs not measured: %+v", p)
		case p.NetworkBytes == 0 || p.BytesPerNode <= 0 || p.PeakTotalBytes < p.PeakLiveBytes:
			t.Errorf("memory not measured: %+v", p)
		}
	}
	small, big := rep.Points[2], rep.Points[3]
	if big.FileSize != 16*small.FileSize || big.Flows != small.Flows || big.Window != 32 || small.Pipeline != "fixed" {
		t.Fatalf("object points %+v, %+v", small.ScalePoint, big.ScalePoint)
	}
	// The same window, an object 16 times larger: the memory per flow
	// (measured at garbage collections, so coarsely) stays within the
	// window's, far below the object's.
	if big.BytesPerFlow > 2*small.BytesPerFlow+50e3 || big.BytesPerFlow > float64(big.FileSize)/8 {
		t.Errorf("%.0f bytes per flow with 1 MiB objects, %.0f with 64 KiB: memory follows the object", big.BytesPerFlow, small.BytesPerFlow)
	}
}
