// Package timerheap is the timer queue both runtimes share: a 4-ary
// min-heap of one-shot timers ordered by due time, then by the order they
// were pushed, so timers due at the same instant run first-in first-out.
// The simulator runs it in virtual time, the live runtime's event loop in
// real time. It is not safe for concurrent use.
package timerheap

import "time"

// Timer is one pending callback. Its zero value is unqueued.
type Timer struct {
	At time.Duration // when it is due
	Fn func()        // what it runs
	// Owned marks a timer handed out to a caller (as a sched.Timer); the
	// owner of the heap may recycle the others once they have run.
	Owned bool

	seq   uint64
	index int // position in the heap; -1 when not queued
	heap  *Heap
}

// Stop removes the timer from its heap. It reports whether the timer was
// still pending. It implements sched.Timer.
func (t *Timer) Stop() bool {
	if t.heap == nil || t.index < 0 {
		return false
	}
	t.heap.remove(t.index)
	t.Fn = nil
	return true
}

// Pending reports whether the timer is queued.
func (t *Timer) Pending() bool { return t.heap != nil && t.index >= 0 }

// Heap is the timer queue.
type Heap struct {
	items []*Timer
	seq   uint64
}

// Len is the number of pending timers.
func (h *Heap) Len() int { return len(h.items) }

// Push queues t; timers due at the same time keep their push order.
func (h *Heap) Push(t *Timer) {
	t.seq = h.seq
	h.seq++
	t.heap = h
	t.index = len(h.items)
	h.items = append(h.items, t)
	h.up(t.index)
}

// Peek returns the earliest timer without removing it, or nil.
func (h *Heap) Peek() *Timer {
	if len(h.items) == 0 {
		return nil
	}
	return h.items[0]
}

// Pop removes and returns the earliest timer, or nil.
func (h *Heap) Pop() *Timer {
	if len(h.items) == 0 {
		return nil
	}
	return h.remove(0)
}

func (h *Heap) less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.At != b.At {
		return a.At < b.At
	}
	return a.seq < b.seq
}

func (h *Heap) swap(i, j int) {
	h.items[i], h.items[j] = h.items[j], h.items[i]
	h.items[i].index = i
	h.items[j].index = j
}

func (h *Heap) remove(i int) *Timer {
	n := len(h.items) - 1
	t := h.items[i]
	if i != n {
		h.swap(i, n)
	}
	h.items[n] = nil
	h.items = h.items[:n]
	if i != n && !h.down(i) {
		h.up(i)
	}
	t.index = -1
	return t
}

// The heap is 4-ary: shallower than a binary heap, so a push or pop
// touches fewer cache lines; children of i are 4i+1 .. 4i+4.
const arity = 4

func (h *Heap) up(j int) {
	for j > 0 {
		i := (j - 1) / arity
		if !h.less(j, i) {
			return
		}
		h.swap(i, j)
		j = i
	}
}

// down sifts position i0 down and reports whether it moved.
func (h *Heap) down(i0 int) bool {
	i, n := i0, len(h.items)
	for {
		l := arity*i + 1
		if l >= n {
			break
		}
		j := l
		for c := l + 1; c < l+arity && c < n; c++ {
			if h.less(c, j) {
				j = c
			}
		}
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}
