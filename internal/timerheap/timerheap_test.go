package timerheap

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// Timers come out of a Heap by time, then push order (a place taken
// with Reserve counts as pushed then); a stopped one does not.
func TestHeapOrderByTimeThenPush(t *testing.T) {
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
	late := h.Reserve() // a place in the order between a2 and a3
	add(10, "a3")
	h.PushSeq(&Timer{At: 10, Fn: func() { got = append(got, "reserved") }}, late)
	add(5, "first")
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

// Bare callbacks and a lane's events come out of a Queue by time, then
// push order.
func TestQueueOrderByTimeThenPush(t *testing.T) {
	var q Queue
	var got []string
	add := func(at time.Duration, name string) {
		q.PushFunc(at, func() { got = append(got, name) })
	}
	lane := q.NewLane(func() { got = append(got, "lane") })
	add(30, "c")
	add(10, "a1")
	lane.At(10)
	late := q.Reserve() // a place in the order between the lane's and a3
	add(10, "a3")
	q.PushFuncSeq(10, late, func() { got = append(got, "reserved") })
	lane.At(20)
	add(5, "first")
	if lane.Len() != 2 || q.Len() != 6 {
		t.Fatalf("lane holds %d events, the queue %d: want 2 and 6 (the lane's earliest)", lane.Len(), q.Len())
	}
	for q.Len() > 0 {
		fn, _, _ := q.Pop()
		fn()
	}
	if want := []string{"first", "a1", "lane", "reserved", "a3", "lane", "c"}; !slices.Equal(got, want) {
		t.Errorf("ran %v, want %v", got, want)
	}
	if fn, _, _ := q.Pop(); fn != nil {
		t.Error("Pop of an empty queue returned a callback")
	}
}

// Timers pushed, stopped and pushed again at random come out in (time,
// push order), and a popped or stopped Timer is no longer pending.
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
		case 0: // a Timer nobody keeps
			h.Push(&Timer{At: at, Fn: func() {}})
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

// A Queue keeps its events sorted while they are few and as a heap while
// they are many: filled and drained at random through both sizes, in both
// forms, it pops them in (time, push order), each lane's in its order,
// and drained it is sorted again.
func TestSortedAndHeapFormsKeepOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var h Queue
	var ran []int
	lanes := make([]*Lane, 5)
	laneLast := make([]time.Duration, len(lanes))
	for i := range lanes {
		lanes[i] = h.NewLane(func() { ran = append(ran, -1-i) })
	}
	var now, lastAt time.Duration
	var lastSeq uint64
	sizes := map[bool]int{} // largest size seen in either form
	pop := func() {
		fn, at, seq := h.Pop()
		if at < lastAt || at == lastAt && seq <= lastSeq && (lastAt != 0 || lastSeq != 0) {
			t.Fatalf("popped (%v,%d) after (%v,%d)", at, seq, lastAt, lastSeq)
		}
		lastAt, lastSeq, now = at, seq, at
		fn()
	}
	for round := range 6 {
		target := []int{3, 60, 10, 200, 1, 30}[round]
		for h.Len() < target {
			at := now + time.Duration(rng.IntN(1000))
			if i := rng.IntN(len(lanes) + 2); i < len(lanes) {
				at = max(at, laneLast[i])
				laneLast[i] = at
				lanes[i].At(at)
			} else {
				h.PushFunc(at, func() { ran = append(ran, 1) })
			}
			sizes[h.heap] = max(sizes[h.heap], h.Len())
		}
		for h.Len() > target/4 {
			pop()
			sizes[h.heap] = max(sizes[h.heap], h.Len())
		}
	}
	if sizes[false] < sortedMax-1 || sizes[true] < 100 {
		t.Fatalf("largest sizes %v: both forms were not exercised", sizes)
	}
	for h.Len() > 0 {
		pop()
	}
	if h.heap || len(ran) == 0 {
		t.Fatalf("heap form %v once drained, %d callbacks run", h.heap, len(ran))
	}
}

// PopBefore pops the earliest event only if it runs before the bound
// (time, push order) and is due by the limit, and then sets the clock to
// its time; otherwise it leaves the queue as it was. Both forms: a few
// events (sorted) and many (heap).
func TestPopBefore(t *testing.T) {
	for _, n := range []int{3, sortedMax + 10} {
		var q Queue
		ran := -1
		for i := range n {
			at := time.Duration(10 * (i + 1))
			q.PushFunc(at, func() { ran = i })
		}
		// the earliest is (10, push order 0)
		cases := []struct {
			name    string
			at      time.Duration
			seq     uint64
			limit   time.Duration
			popped  bool
			wantNow time.Duration
		}{
			{"bound earlier", 5, 0, 100, false, 0},
			{"bound at the same time, earlier push", 10, 0, 100, false, 0},
			{"limit before it", 20, 0, 9, false, 0},
			{"bound at the same time, later push", 10, 1, 10, true, 10},
		}
		for _, c := range cases {
			before := q.Len()
			fn := q.PopBefore(c.at, c.seq, c.limit)
			if (fn != nil) != c.popped {
				t.Fatalf("%d events, %s: popped %v, want %v", n, c.name, fn != nil, c.popped)
			}
			if !c.popped {
				if q.Len() != before || q.Now() != 0 {
					t.Fatalf("%d events, %s: length %d (was %d), clock %v: the queue changed", n, c.name, q.Len(), before, q.Now())
				}
				continue
			}
			fn()
			if ran != 0 || q.Len() != before-1 || q.Now() != c.wantNow {
				t.Fatalf("%d events, %s: ran %d, length %d (was %d), clock %v; want event 0, one fewer, clock %v",
					n, c.name, ran, q.Len(), before, q.Now(), c.wantNow)
			}
		}
		if at, _, ok := q.Peek(); !ok || at != 20 {
			t.Fatalf("%d events: next event at %v (%v), want 20", n, at, ok)
		}
	}
	var empty Queue
	if empty.PopBefore(100, 100, 100) != nil {
		t.Fatal("PopBefore of an empty queue returned a callback")
	}
}

// BenchmarkEvent is one event of a steady simulation: a bare callback
// popped and another pushed, in a queue holding about a hundred events
// (the linear scenario's size). It allocates nothing.
func BenchmarkEvent(b *testing.B) {
	var h Queue
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
		h.Push(&Timer{At: time.Duration(i) * time.Millisecond, Fn: func() {}})
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
