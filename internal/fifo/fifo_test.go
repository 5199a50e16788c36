package fifo

import "testing"

func TestOrderAcrossGrowth(t *testing.T) {
	var q Queue[int]
	next, want := 0, 0
	// Interleave pushes and pops so that the ring wraps before it grows.
	for round := 0; round < 50; round++ {
		for i := 0; i < round+3; i++ {
			q.Push(next)
			next++
			if got := q.PeekLast(); got != next-1 {
				t.Fatalf("PeekLast %d, want %d", got, next-1)
			}
		}
		for i := 0; i < round+1; i++ {
			if got := q.Pop(); got != want {
				t.Fatalf("popped %d, want %d", got, want)
			}
			want++
		}
	}
	if q.Len() != next-want {
		t.Fatalf("len %d, want %d", q.Len(), next-want)
	}
	for q.Len() > 0 {
		if got := q.Peek(); got != want {
			t.Fatalf("peek %d, want %d", got, want)
		}
		if got := q.Pop(); got != want {
			t.Fatalf("popped %d, want %d", got, want)
		}
		want++
	}
}

func TestPopClearsSlot(t *testing.T) {
	var q Queue[*int]
	x := 1
	q.Push(&x)
	q.Pop()
	for _, p := range q.buf {
		if p != nil {
			t.Fatal("popped slot still holds its pointer")
		}
	}
}

func TestSteadyStateAllocatesNothing(t *testing.T) {
	var q Queue[int]
	for i := 0; i < 64; i++ {
		q.Push(i)
	}
	if n := testing.AllocsPerRun(1000, func() { q.Push(q.Pop()) }); n != 0 {
		t.Errorf("%v allocations per push+pop, want 0", n)
	}
}
