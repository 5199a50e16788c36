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
	addFunc := func(at time.Duration, name string) {
		h.PushFunc(at, func() { got = append(got, name) })
	}
	add(30, "c")
	add(10, "a1")
	b := add(20, "b")
	addFunc(10, "a2")
	late := h.Reserve() // a place in the order between a2 and a3
	add(10, "a3")
	h.PushFuncSeq(10, late, func() { got = append(got, "reserved") })
	addFunc(5, "first")
	if !b.Stop() || b.Stop() {
		t.Fatal("Stop: want true once, then false")
	}
	if b.Pending() {
		t.Fatal("stopped timer still pending")
	}
	for h.Len() > 0 {
		fn, _, _ := h.Pop()
		fn()
	}
	if want := []string{"first", "a1", "a2", "reserved", "a3", "c"}; !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
	if fn, _, _ := h.Pop(); fn != nil {
		t.Error("Pop of an empty heap returned a callback")
	}
}

// Timers and bare callbacks, pushed, stopped and pushed again at random,
// come out in (time, push order) and a popped or stopped Timer is no
// longer pending.
func TestRandomRemovalsKeepOrder(t *testing.T) {
	type key struct {
		at  time.Duration
		seq uint64
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var h Heap
	var timers []*Timer
	want := map[key]bool{}
	for i := 0; i < 3000; i++ {
		at := time.Duration(rng.IntN(500))
		switch rng.IntN(4) {
		case 0:
			h.PushFunc(at, func() {})
		case 1:
			if len(timers) > 0 { // stop one, maybe push it again
				tm := timers[rng.IntN(len(timers))]
				if tm.Stop() && rng.IntN(2) == 0 {
					tm.At = at
					h.Push(tm)
				}
				continue
			}
			fallthrough
		default:
			tm := &Timer{At: at, Fn: func() {}}
			h.Push(tm)
			timers = append(timers, tm)
		}
	}
	for _, e := range h.items {
		want[key{e.at, e.seq}] = true
	}
	pending := 0
	for _, tm := range timers {
		if tm.Pending() {
			pending++
		}
	}
	if h.Len() != len(want) {
		t.Fatalf("len %d, %d distinct keys", h.Len(), len(want))
	}
	var last key
	for i := 0; h.Len() > 0; i++ {
		fn, at, seq := h.Pop()
		k := key{at, seq}
		if fn == nil || !want[k] {
			t.Fatalf("popped unknown event (%v,%d)", at, seq)
		}
		if i > 0 && (at < last.at || at == last.at && seq < last.seq) {
			t.Fatalf("popped (%v,%d) after (%v,%d)", at, seq, last.at, last.seq)
		}
		last = k
	}
	for _, tm := range timers {
		if tm.Pending() {
			t.Fatal("timer still pending after the heap emptied")
		}
	}
	if pending == 0 {
		t.Fatal("no timer was pending: the test did not exercise Timers")
	}
}

// Lanes, bare callbacks and Timers in one heap, filled and drained at
// random through small and large sizes, pop in (time, push order); every
// event pushed runs once, and a Timer stopped among them never runs.
func TestLanesCallbacksAndTimersKeepOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Heap
	pushed, ran := 0, 0
	lanes := make([]*Lane, 5)
	laneLast := make([]time.Duration, len(lanes))
	for i := range lanes {
		lanes[i] = h.NewLane(func() { ran++ })
	}
	var now, lastAt time.Duration
	var lastSeq uint64
	pop := func() {
		fn, at, seq := h.Pop()
		if at < lastAt || at == lastAt && seq <= lastSeq && (lastAt != 0 || lastSeq != 0) {
			t.Fatalf("popped (%v,%d) after (%v,%d)", at, seq, lastAt, lastSeq)
		}
		lastAt, lastSeq, now = at, seq, at
		fn()
	}
	var stopped []*Timer
	for round := range 6 {
		target := []int{3, 60, 10, 200, 1, 30}[round]
		for h.Len() < target {
			at := now + time.Duration(rng.IntN(1000))
			switch i := rng.IntN(len(lanes) + 3); {
			case i < len(lanes):
				at = max(at, laneLast[i])
				laneLast[i] = at
				lanes[i].Push(at)
				pushed++
			case i == len(lanes):
				tm := &Timer{At: at, Fn: func() { t.Fatal("a stopped timer ran") }}
				h.Push(tm)
				stopped = append(stopped, tm)
			default:
				h.PushFunc(at, func() { ran++ })
				pushed++
			}
		}
		for _, tm := range stopped {
			if !tm.Stop() || tm.Pending() {
				t.Fatal("a pending timer did not stop")
			}
		}
		stopped = stopped[:0]
		for h.Len() > target/4 {
			pop()
		}
	}
	for h.Len() > 0 {
		pop()
	}
	for _, l := range lanes {
		for l.Len() > 0 {
			pop()
		}
	}
	if ran != pushed || ran < 300 {
		t.Fatalf("%d callbacks ran, %d pushed", ran, pushed)
	}
}

// BenchmarkEvent is one event of a steady simulation: a bare callback
// popped and another pushed, in a heap holding about a hundred events
// (the linear scenario's size). It allocates nothing.
func BenchmarkEvent(b *testing.B) {
	var h Heap
	rng := rand.New(rand.NewPCG(1, 2))
	var now time.Duration
	var fn func()
	fn = func() { h.PushFunc(now+time.Duration(rng.IntN(100_000)), fn) }
	for range 100 {
		fn()
	}
	b.ReportAllocs()
	for b.Loop() {
		f, at, _ := h.Pop()
		now = at
		f()
	}
}

// BenchmarkTimerReset moves a reusable Timer among a hundred others, as
// a PIT entry's expiry does.
func BenchmarkTimerReset(b *testing.B) {
	var h Heap
	for i := range 100 {
		h.PushFunc(time.Duration(i)*time.Millisecond, func() {})
	}
	tm := &Timer{Fn: func() {}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tm.Stop()
		tm.At = time.Duration(i%100) * time.Millisecond
		h.Push(tm)
		i++
	}
}
