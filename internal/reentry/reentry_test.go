package reentry

import (
	"slices"
	"testing"
)

// recorder is an object whose handler calls back into its own guard: item
// n > 0 hands in the items calls[n] from inside its handling.
type recorder struct {
	g     Guard[int]
	calls map[int][]int
	ran   []int
	depth int
}

func newRecorder(calls map[int][]int) *recorder {
	r := &recorder{calls: calls}
	r.g.Init(r.run)
	return r
}

func (r *recorder) run(p *int) {
	n := *p
	r.depth++
	if r.depth > 1 {
		panic("handler re-entered")
	}
	r.ran = append(r.ran, n)
	for _, m := range r.calls[n] {
		r.g.Do(m)
	}
	r.depth--
}

func TestGuardRunsReentrantWorkInOrderAfterwards(t *testing.T) {
	for _, tc := range []struct {
		name  string
		calls map[int][]int
		want  []int
	}{
		{"no re-entry", nil, []int{1}},
		{"two handed in", map[int][]int{1: {2, 3}}, []int{1, 2, 3}},
		{"handed in by queued work", map[int][]int{1: {2, 3}, 2: {4}, 4: {5}}, []int{1, 2, 3, 4, 5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(tc.calls)
			r.g.Do(1)
			if !slices.Equal(r.ran, tc.want) {
				t.Errorf("ran %v, want %v", r.ran, tc.want)
			}
			if r.g.Busy() {
				t.Error("busy after Do returned")
			}
			r.ran = nil
			r.g.Do(1) // and again, from idle
			if !slices.Equal(r.ran, tc.want) {
				t.Errorf("second run %v, want %v", r.ran, tc.want)
			}
		})
	}
}

// While the guard is held, items handed to Do or queued with Later (and
// filled in place) wait; Release runs them in the order they came, and
// those they hand in after them.
func TestGuardHold(t *testing.T) {
	later := func(r *recorder, n int) { *r.g.Later() = n }
	do := func(r *recorder, n int) { r.g.Do(n) }
	for _, tc := range []struct {
		name  string
		queue []func(*recorder, int)
		want  []int
	}{
		{"Do", []func(*recorder, int){do, do}, []int{1, 2, 3}},
		{"Later between Do", []func(*recorder, int){do, later, do}, []int{1, 2, 3, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRecorder(map[int][]int{2: {3}})
			if !r.g.Hold() {
				t.Fatal("Hold on an idle guard failed")
			}
			if r.g.Hold() {
				t.Fatal("a second Hold succeeded")
			}
			for i, q := range tc.queue {
				q(r, i+1)
			}
			if len(r.ran) != 0 {
				t.Fatalf("ran %v while held", r.ran)
			}
			r.g.Release()
			if !slices.Equal(r.ran, tc.want) {
				t.Errorf("ran %v after Release, want %v", r.ran, tc.want)
			}
			if r.g.Busy() {
				t.Error("busy after Release")
			}
		})
	}
}

// TestGuardItemStaysWhileQueueGrows hands in, from inside the handling of
// an item, more items than the queue has room for: the handler still
// reads its own item, where it waited, after the queue has moved.
func TestGuardItemStaysWhileQueueGrows(t *testing.T) {
	var g Guard[[2]int]
	var ran [][2]int
	g.Init(func(w *[2]int) {
		if w[0] == 0 {
			for i := 1; i <= 100; i++ {
				g.Do([2]int{i, -i})
			}
		}
		ran = append(ran, *w)
	})
	g.Do([2]int{0, 7})
	if len(ran) != 101 || ran[0] != [2]int{0, 7} {
		t.Fatalf("ran %d items, first %v; want 101, first [0 7]", len(ran), ran[0])
	}
	for i, w := range ran[1:] {
		if w != [2]int{i + 1, -(i + 1)} {
			t.Fatalf("item %d is %v", i+1, w)
		}
	}
}
