// Package timerheap is the timer queue both runtimes share: a 4-ary
// min-heap of one-shot events ordered by due time, then by the order they
// were pushed, so events due at the same instant run first-in first-out.
// The simulator runs it in virtual time, the live runtime's event loop in
// real time. It is not safe for concurrent use.
//
// An event is a Timer, which its owner may stop and push again (the handle
// a scheduler's After returns, a reusable deadline timer); a bare callback
// without a handle (PushFunc), which costs no allocation; or the next
// event of a Lane, a series of events of one callback at times that never
// decrease (a link's arrivals): the heap holds only a lane's earliest
// event, so a busy lane costs one sift per event, not two, in a smaller
// heap. The heap stores each event's key (due time, push order) inline,
// so sifting compares without following pointers.
package timerheap

import (
	"time"

	"github.com/ndncc/ndncc/internal/fifo"
)

// Timer is one pending callback with a handle. Its zero value is
// unqueued; a Timer may be pushed again once it has run or been stopped.
type Timer struct {
	At time.Duration // when it is due
	Fn func()        // what it runs

	index int // position in the heap + 1; 0 when not queued
	heap  *Heap
}

// Stop removes the timer from its heap. It reports whether the timer was
// still pending. It implements sched.Timer.
func (t *Timer) Stop() bool {
	if t.index == 0 {
		return false
	}
	t.heap.remove(t.index - 1)
	return true
}

// Pending reports whether the timer is queued.
func (t *Timer) Pending() bool { return t.index != 0 }

// key orders the events: due time, then push order.
type key struct {
	at  time.Duration
	seq uint64
}

func (a key) less(b key) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// event is what a queued event runs: its Timer, its Lane or its bare
// callback.
type event struct {
	t    *Timer // nil but for a Timer
	lane *Lane  // nil but for a lane's earliest event
	fn   func() // the bare callback (t and lane nil)
}

// Heap is the timer queue. The zero value is empty. Keys and events are
// kept in two parallel arrays: sifting compares within the keys, 16
// pointer-free bytes each (a node's four children share a cache line),
// and moves an event only where its key moves.
type Heap struct {
	keys   []key
	events []event
	seq    uint64
}

// Len is the number of pending events.
func (h *Heap) Len() int { return len(h.keys) }

// Reserve takes the next position in the push order without queueing
// anything: an event pushed later with PushFuncSeq and this number sorts
// as if it had been pushed now. A scheduler that keeps some events
// outside the heap (events due at once, events it may never need to run)
// orders them against the heap's with it.
func (h *Heap) Reserve() uint64 {
	s := h.seq
	h.seq++
	return s
}

// Push queues t for t.At; events due at the same time keep their push
// order. t must not be queued already.
func (h *Heap) Push(t *Timer) {
	h.PushSeq(t, h.Reserve())
}

// PushSeq is Push with a place in the push order taken earlier with
// Reserve (or from a counter shared by several heaps).
func (h *Heap) PushSeq(t *Timer, seq uint64) {
	t.heap = h
	h.push(key{t.At, seq}, event{t: t})
}

// PushFunc queues the bare callback fn for time at.
func (h *Heap) PushFunc(at time.Duration, fn func()) {
	h.PushFuncSeq(at, h.Reserve(), fn)
}

// PushFuncSeq queues the bare callback fn for time at in the push-order
// place seq, taken earlier with Reserve.
func (h *Heap) PushFuncSeq(at time.Duration, seq uint64, fn func()) {
	h.push(key{at, seq}, event{fn: fn})
}

func (h *Heap) push(k key, e event) {
	h.keys = append(h.keys, k)
	h.events = append(h.events, e)
	h.up(len(h.keys)-1, k, e)
}

// Peek returns the due time and push order of the earliest event; ok is
// false when the heap is empty.
func (h *Heap) Peek() (at time.Duration, seq uint64, ok bool) {
	if len(h.keys) == 0 {
		return 0, 0, false
	}
	return h.keys[0].at, h.keys[0].seq, true
}

// Pop removes the earliest event and returns its callback, due time and
// push order; fn is nil when the heap is empty. A Timer popped this way is
// no longer pending and may be pushed again.
func (h *Heap) Pop() (fn func(), at time.Duration, seq uint64) {
	if len(h.keys) == 0 {
		return nil, 0, 0
	}
	k, e := h.keys[0], h.events[0]
	switch {
	case e.t != nil:
		h.remove(0)
		return e.t.Fn, k.at, k.seq
	case e.lane != nil:
		l := e.lane
		l.q.Pop()
		if l.q.Len() > 0 { // the lane's next event takes its place
			h.down(0, l.q.Peek(), e)
		} else {
			h.remove(0)
		}
		return l.fn, k.at, k.seq
	}
	h.remove(0)
	return e.fn, k.at, k.seq
}

// Lane is a series of events that all run one callback, at times that
// never decrease, queued in a Heap. The heap holds only the lane's
// earliest event; the rest wait in the lane's FIFO with the keys they were
// given when pushed, so the order of a run is the order they would have
// had as bare callbacks. The zero value is unusable: see NewLane.
type Lane struct {
	h  *Heap
	fn func()
	q  fifo.Queue[key]
}

// NewLane returns an empty lane of h whose events run fn.
func (h *Heap) NewLane(fn func()) *Lane { return &Lane{h: h, fn: fn} }

// Len is the number of the lane's pending events.
func (l *Lane) Len() int { return l.q.Len() }

// Push queues the lane's callback for time at, taking the next place in
// the heap's push order. at must not be earlier than the lane's latest
// pending event; an earlier one is queued as a bare callback instead, so
// the order stays right.
func (l *Lane) Push(at time.Duration) {
	l.PushSeq(at, l.h.Reserve())
}

// PushSeq is Push with a place in the push order taken earlier with
// Reserve (and later than that of the lane's pending events).
func (l *Lane) PushSeq(at time.Duration, seq uint64) {
	k := key{at, seq}
	switch {
	case l.q.Len() == 0:
		l.q.Push(k)
		l.h.push(k, event{lane: l})
	case k.less(l.q.PeekLast()):
		l.h.push(k, event{fn: l.fn})
	default:
		l.q.Push(k)
	}
}

// remove takes out the event at position i.
func (h *Heap) remove(i int) {
	if t := h.events[i].t; t != nil {
		t.index = 0
	}
	n := len(h.keys) - 1
	k, e := h.keys[n], h.events[n]
	h.events[n] = event{}
	h.keys, h.events = h.keys[:n], h.events[:n]
	if i == n {
		return
	}
	if i > 0 && k.less(h.keys[(i-1)/arity]) {
		h.up(i, k, e)
	} else {
		h.down(i, k, e)
	}
}

// The heap is 4-ary: shallower than a binary heap, so a push or pop
// touches fewer cache lines; children of i are 4i+1 .. 4i+4.
const arity = 4

// place puts event (k, e) at position i and tells its Timer where it is.
func (h *Heap) place(i int, k key, e event) {
	h.keys[i], h.events[i] = k, e
	if e.t != nil {
		e.t.index = i + 1
	}
}

// up moves event (k, e) from the hole at j towards the root, moving
// parents down into the hole rather than swapping.
func (h *Heap) up(j int, k key, e event) {
	for j > 0 {
		i := (j - 1) / arity
		if !k.less(h.keys[i]) {
			break
		}
		h.place(j, h.keys[i], h.events[i])
		j = i
	}
	h.place(j, k, e)
}

// down moves event (k, e) from the hole at i towards the leaves.
func (h *Heap) down(i int, k key, e event) {
	keys := h.keys
	n := len(keys)
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		m, mk := c, keys[c]
		if c+arity <= n { // all four children (the common case), unrolled
			kids := keys[c : c+arity : c+arity]
			if kids[1].less(mk) {
				m, mk = c+1, kids[1]
			}
			if kids[2].less(mk) {
				m, mk = c+2, kids[2]
			}
			if kids[3].less(mk) {
				m, mk = c+3, kids[3]
			}
		} else {
			for j := c + 1; j < n; j++ {
				if keys[j].less(mk) {
					m, mk = j, keys[j]
				}
			}
		}
		if !mk.less(k) {
			break
		}
		h.place(i, mk, h.events[m])
		i = m
	}
	h.place(i, k, e)
}
