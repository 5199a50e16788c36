package report

import (
	"reflect"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func series(ys ...float64) plotter.XYs {
	pts := make(plotter.XYs, len(ys))
	for i, y := range ys {
		pts[i] = plotter.XY{X: float64(i), Y: y}
	}
	return pts
}

func TestDownsample(t *testing.T) {
	tests := []struct {
		name string
		in   plotter.XYs
		max  int
		want plotter.XYs
	}{
		{"short series unchanged", series(1, 2, 3), 5, series(1, 2, 3)},
		{"exactly max unchanged", series(5, 4, 3, 2), 4, series(5, 4, 3, 2)},
		{
			// 8 inner points, 2 buckets of 4: [9 1 5 5] keeps 9 then 1,
			// [2 2 8 3] keeps the first 2 then 8.
			"min and max per bucket in order",
			series(0, 9, 1, 5, 5, 2, 2, 8, 3, 7), 6,
			plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 9}, {X: 2, Y: 1}, {X: 5, Y: 2}, {X: 7, Y: 8}, {X: 9, Y: 7}},
		},
		{
			"flat bucket keeps one point",
			series(1, 4, 4, 4, 4, 4, 4, 4, 0, 2), 6,
			plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 4}, {X: 5, Y: 4}, {X: 8, Y: 0}, {X: 9, Y: 2}},
		},
		{
			"tiny max is raised to 4",
			series(3, 1, 2, 9, 0, 5), 1,
			plotter.XYs{{X: 0, Y: 3}, {X: 3, Y: 9}, {X: 4, Y: 0}, {X: 5, Y: 5}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := downsample(tt.in, tt.max)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("downsample = %v\nwant         %v", got, tt.want)
			}
		})
	}
}

// TestDownsampleLarge checks the bound, the kept extremes and the order on
// a long sawtooth, as a 100 MB transfer's window trace looks.
func TestDownsampleLarge(t *testing.T) {
	const n = 1_000_003
	pts := make(plotter.XYs, n)
	for i := range pts {
		pts[i] = plotter.XY{X: float64(i) / 1000, Y: float64(i % 997)}
	}
	pts[500_000].Y = -50 // one deep dip must survive
	got := downsample(pts, DefaultMaxPoints)
	if len(got) > DefaultMaxPoints {
		t.Fatalf("%d points, want at most %d", len(got), DefaultMaxPoints)
	}
	if got[0] != pts[0] || got[len(got)-1] != pts[n-1] {
		t.Errorf("first/last = %v/%v, want %v/%v", got[0], got[len(got)-1], pts[0], pts[n-1])
	}
	minY, maxY := 0.0, 0.0
	for i, p := range got {
		if i > 0 && p.X <= got[i-1].X {
			t.Fatalf("point %d at x=%v is not after x=%v", i, p.X, got[i-1].X)
		}
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	if minY != -50 || maxY != 996 {
		t.Errorf("kept y range [%v, %v], want [-50, 996]", minY, maxY)
	}
	if again := downsample(pts, DefaultMaxPoints); !reflect.DeepEqual(again, got) {
		t.Error("downsample is not deterministic")
	}
}

func BenchmarkDownsample(b *testing.B) {
	pts := make(plotter.XYs, 1_000_000)
	for i := range pts {
		pts[i] = plotter.XY{X: float64(i), Y: float64(i % 997)}
	}
	b.ResetTimer()
	for b.Loop() {
		downsample(pts, DefaultMaxPoints)
	}
}
