package timerheap

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestOrderByTimeThenPush(t *testing.T) {
	var h Heap
	var got []string
	add := func(at time.Duration, name string) *Timer {
		tm := &Timer{At: at, Fn: func() { got = append(got, name) }}
		h.Push(tm)
		return tm
	}
	add(30, "c")
	add(10, "a1")
	b := add(20, "b")
	add(10, "a2")
	add(10, "a3")
	if !b.Stop() || b.Stop() {
		t.Fatal("Stop: want true once, then false")
	}
	for h.Len() > 0 {
		h.Pop().Fn()
	}
	if want := []string{"a1", "a2", "a3", "c"}; !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
}

func TestRandomRemovalsKeepOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Heap
	var all []*Timer
	for i := 0; i < 2000; i++ {
		tm := &Timer{At: time.Duration(rng.IntN(500))}
		h.Push(tm)
		all = append(all, tm)
	}
	stopped := 0
	for _, tm := range all {
		if rng.IntN(3) == 0 && tm.Stop() {
			stopped++
		}
	}
	if h.Len() != len(all)-stopped {
		t.Fatalf("len %d, want %d", h.Len(), len(all)-stopped)
	}
	var last *Timer
	for h.Len() > 0 {
		tm := h.Pop()
		if last != nil && (tm.At < last.At || tm.At == last.At && tm.seq < last.seq) {
			t.Fatalf("popped (%v,%d) after (%v,%d)", tm.At, tm.seq, last.At, last.seq)
		}
		if tm.Pending() {
			t.Fatal("popped timer still pending")
		}
		last = tm
	}
}
