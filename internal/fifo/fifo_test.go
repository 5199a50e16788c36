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

// Values filled in place (PushZero), read in place (Front) and dropped
// from either end keep the order Push and Pop give, across wraps and
// growth, and every dropped slot is cleared.
func TestInPlaceAccessMatchesPushPop(t *testing.T) {
	var q Queue[*int]
	var model []int
	vals := make([]int, 1000)
	for i := range vals {
		vals[i] = i
	}
	for i := range vals {
		*q.PushZero() = &vals[i]
		model = append(model, i)
		switch {
		case i%7 == 3: // taken back, as a lost frame is
			q.DropLast()
			model = model[:len(model)-1]
		case i%3 == 0:
			if got := *q.Front(); *got != model[0] {
				t.Fatalf("front %d, want %d", *got, model[0])
			}
			q.Drop()
			model = model[1:]
		}
		if q.Len() != len(model) {
			t.Fatalf("len %d, want %d", q.Len(), len(model))
		}
		for k, want := range model {
			if got := *q.At(k); *got != want {
				t.Fatalf("At(%d) = %d, want %d", k, *got, want)
			}
		}
	}
	for _, want := range model {
		if got := q.Pop(); *got != want {
			t.Fatalf("popped %d, want %d", *got, want)
		}
	}
	for _, p := range q.buf {
		if p != nil {
			t.Fatal("a dropped slot still holds its pointer")
		}
	}
}
