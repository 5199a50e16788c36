package cc

import "testing"

// TestBBRMaxFilter replays samples into a 10-tick window and checks the
// maximum and the three samples kept after each.
func TestBBRMaxFilter(t *testing.T) {
	var f maxFilter
	steps := []struct {
		name string
		v    float64
		t    uint64
		best float64
		kept [3]maxSample
	}{
		{"first sample", 5, 0, 5, [3]maxSample{{5, 0}, {5, 0}, {5, 0}}},
		// Second and third are the best's own until a quarter (2 ticks,
		// integer) and half of the window have passed.
		{"lower, early: kept as the best", 3, 1, 5, [3]maxSample{{5, 0}, {5, 0}, {5, 0}}},
		// A quarter of the window (2.5 ticks) passed with no second best
		// of its own: the sample becomes second and third.
		{"quarter window: second best", 2, 3, 5, [3]maxSample{{5, 0}, {2, 3}, {2, 3}}},
		{"above the second: second and third", 4, 4, 5, [3]maxSample{{5, 0}, {4, 4}, {4, 4}}},
		// Half the window: the third best takes a sample of its own.
		{"half window: third best", 1, 6, 5, [3]maxSample{{5, 0}, {4, 4}, {1, 6}}},
		// The best (tick 0) is older than the window at tick 11: 4 moves up.
		{"best expires", 2, 11, 4, [3]maxSample{{4, 4}, {2, 11}, {2, 11}}},
		{"new maximum resets", 9, 12, 9, [3]maxSample{{9, 12}, {9, 12}, {9, 12}}},
		{"nothing left in the window", 1, 30, 1, [3]maxSample{{1, 30}, {1, 30}, {1, 30}}},
	}
	for _, s := range steps {
		if got := f.update(s.v, s.t, 10); got != s.best || f.s != s.kept {
			t.Errorf("%s: best %v kept %v, want %v %v", s.name, got, f.s, s.best, s.kept)
		}
	}
}
