// Package timerheap is the timer queue both runtimes share: a 4-ary
// min-heap of one-shot events ordered by due time, then by the order they
// were pushed, so events due at the same instant run first-in first-out.
// The simulator runs it in virtual time, the live runtime's event loop in
// real time. It is not safe for concurrent use.
//
// An event is a Timer, which its owner may stop and push again (the handle
// a scheduler's After returns, a reusable deadline timer); a bare callback
// (PushFunc); or the next event of a Lane, a series of events of one
// callback at times that never decrease (a link's arrivals): the heap
// holds only a lane's earliest event, so a busy lane costs one sift per
// event, not two, in a smaller heap, and no allocation. The heap stores
// each event's key (due time, push order) inline beside one pointer, so
// sifting compares without following pointers.
package timerheap

import (
	"slices"
	"time"
)

// Timer is one pending callback with a handle. Its zero value is
// unqueued; a Timer may be pushed again once it has run or been stopped.
type Timer struct {
	At time.Duration // when it is due
	Fn func()        // what it runs

	index int   // position in the heap + 1; 0 when not queued
	heap  *Heap // the heap it was last pushed on
	lane  *Lane // the lane whose earliest event this is, if any
	bare  bool  // a PushFunc event's Timer, recycled once popped
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

// entry is one queued event: its key (due time, push order) and what it
// runs.
type entry struct {
	at  time.Duration
	seq uint64
	t   *Timer
}

func (a *entry) less(b *entry) bool {
	return a.at < b.at || a.at == b.at && a.seq < b.seq
}

// Heap is the timer queue. The zero value is empty.
//
// A heap that never held a Timer with a handle (only bare callbacks and
// lanes, which nobody can stop: the simulator's per-packet events) keeps
// its few events, while they are few, in an array sorted from the latest
// to the earliest instead: taking the earliest is taking the last, and a
// new event moves only the events due before it, a handful of moves where
// a heap sifts through its levels with four comparisons on each. Past
// sortedMax events it becomes a heap, and it goes back below sortedMin.
type Heap struct {
	items []entry // the heap's events, when it is one (heap)
	// back[lo:lo+n] are the sorted events, when the heap is not one (n
	// is 0 when it is): a new event goes in by moving the fewer of those
	// due before it and those due after it, towards the free slots on
	// that side. An array of a fixed size, indexed in place: no slice to
	// re-slice and store (with its write barrier) at each event, and no
	// bounds checks.
	back  [sortedBack]entry
	lo, n int
	seq   uint64
	free  []*Timer // bare callbacks' Timers, to reuse
	// indexed: a Timer with a handle was pushed (Push, PushSeq), so every
	// Timer's index is kept, and the items are always a heap.
	indexed bool
	// heap: items are a 4-ary heap; otherwise (never when indexed) the
	// events are back's, sorted latest first, and no Timer's index is
	// kept.
	heap bool
}

// The sizes at which an unindexed heap turns from a sorted array into a
// heap, and back; the sorted events' array (a power of two, at least
// twice sortedMax: an index masked with sortedBack-1 is in bounds).
const (
	sortedMax  = 24
	sortedMin  = 8
	sortedBack = 64
)

// Len is the number of pending events (a lane counts once).
func (h *Heap) Len() int {
	if h.heap {
		return len(h.items)
	}
	return h.n
}

// Reserve takes the next position in the push order without queueing
// anything: an event pushed later with this number sorts as if it had
// been pushed now. A scheduler that keeps some events outside the heap
// (events due at once, deadlines in a FIFO), or several
// heaps, orders them all with it.
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
	if !h.indexed {
		h.toHeap()
		h.indexed = true
		for i, e := range h.items {
			e.t.index = i + 1
		}
	}
	t.heap = h
	h.push(entry{t.At, seq, t})
}

// PushFunc queues the bare callback fn for time at. Its Timer is the
// heap's own, recycled once it has run: a steady stream of them allocates
// nothing.
func (h *Heap) PushFunc(at time.Duration, fn func()) {
	h.PushFuncSeq(at, h.Reserve(), fn)
}

// PushFuncSeq queues the bare callback fn for time at in the push-order
// place seq, taken earlier with Reserve.
func (h *Heap) PushFuncSeq(at time.Duration, seq uint64, fn func()) {
	var t *Timer
	if n := len(h.free); n > 0 {
		t = h.free[n-1]
		h.free = h.free[:n-1]
	} else {
		t = &Timer{bare: true}
	}
	t.At, t.Fn, t.heap = at, fn, h
	h.push(entry{at, seq, t})
}

func (h *Heap) push(e entry) {
	if !h.heap {
		if h.n < sortedMax {
			h.insertSorted(e)
			return
		}
		h.toHeap()
	}
	h.items = append(h.items, e)
	h.up(len(h.items)-1, e)
}

// insertSorted puts e in its place among the sorted events. If it is due
// after the middle one, the events due after it (fewer than half) move one
// slot towards the start of back; otherwise those due before it move one
// towards the end.
func (h *Heap) insertSorted(e entry) {
	const m = sortedBack - 1
	b, lo, n := &h.back, h.lo, h.n
	if n > 0 && b[(lo+(n-1)/2)&m].less(&e) {
		if lo == 0 {
			h.relayout()
			lo = h.lo
		}
		lo--
		i := lo
		for !b[(i+1)&m].less(&e) { // stops by lo+(n-1)/2+1 at the latest
			b[i&m] = b[(i+1)&m]
			i++
		}
		b[i&m] = e
		h.lo, h.n = lo, n+1
		return
	}
	if lo+n == sortedBack {
		h.relayout()
		lo = h.lo
	}
	j := lo + n
	for j > lo && b[(j-1)&m].less(&e) {
		b[j&m] = b[(j-1)&m]
		j--
	}
	b[j&m] = e
	h.n = n + 1
}

// relayout moves the sorted events to the middle of back, so that there
// are free slots on both sides. The slots outside the window keep their
// pointers: lanes' nodes and bare Timers, which the lanes and the free
// list keep anyway.
func (h *Heap) relayout() {
	lo := (sortedBack - h.n) / 2
	copy(h.back[lo:lo+h.n], h.back[h.lo:h.lo+h.n])
	h.lo = lo
}

// toHeap turns the sorted events (latest first) into a heap: reversed,
// they are in order, which is a heap.
func (h *Heap) toHeap() {
	if h.heap {
		return
	}
	h.items = h.items[:0]
	if h.n > 0 {
		h.items = append(h.items, h.back[h.lo:h.lo+h.n]...)
	}
	slices.Reverse(h.items)
	h.n = 0
	h.heap = true
}

// toSorted turns the heap of an unindexed Heap back into sorted events.
func (h *Heap) toSorted() {
	n := len(h.items)
	h.lo, h.n = (sortedBack-n)/2, n
	items := h.back[h.lo : h.lo+n]
	copy(items, h.items)
	for i := 1; i < n; i++ {
		e := items[i]
		j := i
		for j > 0 && items[j-1].less(&e) {
			items[j] = items[j-1]
			j--
		}
		items[j] = e
	}
	clear(h.items)
	h.items = h.items[:0]
	h.heap = false
}

// Peek returns the due time and push order of the earliest event; ok is
// false when the heap is empty.
func (h *Heap) Peek() (at time.Duration, seq uint64, ok bool) {
	if h.n > 0 { // sorted (n is 0 in the heap form)
		e := &h.back[(h.lo+h.n-1)&(sortedBack-1)]
		return e.at, e.seq, true
	}
	if h.heap && len(h.items) > 0 {
		return h.items[0].at, h.items[0].seq, true
	}
	return 0, 0, false
}

// Pop removes the earliest event and returns its callback, due time and
// push order; fn is nil when the heap is empty. A Timer popped this way is
// no longer pending and may be pushed again.
func (h *Heap) Pop() (fn func(), at time.Duration, seq uint64) {
	at, seq, ok := h.Peek()
	if !ok {
		return nil, 0, 0
	}
	return h.PopFn(), at, seq
}

// PopFn is Pop for a caller that knows the earliest event's key (Peek):
// it returns only the callback. A sorted heap's event (the common case)
// costs one call.
func (h *Heap) PopFn() func() {
	n := h.n
	if n == 0 { // empty, or a heap (n is 0 in the heap form)
		if h.heap && len(h.items) > 0 {
			return h.popHeap(len(h.items))
		}
		return nil
	}
	// The slot keeps its pointer: a lane's node or a bare Timer, which
	// the lane or the free list keeps anyway.
	t := h.back[(h.lo+n-1)&(sortedBack-1)].t
	h.n = n - 1
	if l := t.lane; l != nil {
		if l.n > 0 { // the lane's next event takes its place
			k := l.next()
			h.insertSorted(entry{k.at, k.seq, t})
			return t.Fn
		}
		l.queued = false
	}
	return h.done(t)
}

// popHeap is PopFn of the n items of a heap.
func (h *Heap) popHeap(n int) func() {
	e := h.items[0]
	if l := e.t.lane; l != nil {
		if l.n > 0 { // the lane's next event takes its place
			k := l.next()
			h.down(0, entry{k.at, k.seq, e.t})
			return e.t.Fn
		}
		l.queued = false
	}
	h.remove(0)
	if !h.indexed && n <= sortedMin {
		h.toSorted()
	}
	return h.done(e.t)
}

// done returns the callback of t, which has left the heap, and recycles
// t if it is a bare callback's.
func (h *Heap) done(t *Timer) func() {
	fn := t.Fn
	if t.bare {
		t.Fn = nil
		h.free = append(h.free, t)
	}
	return fn
}

// Lane is a series of events that all run one callback, at times that
// never decrease, queued in a Heap. The heap holds only the lane's
// earliest event; the rest wait in the lane's FIFO with the keys they were
// given when pushed, so the order of a run is the order they would have
// had as separate events. The zero value is unusable: see NewLane.
type Lane struct {
	node Timer // the lane's entry in the heap, its earliest event's
	// queued: the lane has pending events (its earliest in the heap);
	// last is the latest of them; keys[head:head+n] (a ring whose length
	// is 0 or a power of two) holds those after the earliest.
	queued  bool
	last    laneKey
	keys    []laneKey
	head, n int
}

type laneKey struct {
	at  time.Duration
	seq uint64
}

func before(a, b laneKey) bool { return a.at < b.at || a.at == b.at && a.seq < b.seq }

// NewLane returns an empty lane of h whose events run fn.
func (h *Heap) NewLane(fn func()) *Lane {
	l := &Lane{}
	l.node = Timer{Fn: fn, heap: h, lane: l}
	return l
}

// Len is the number of the lane's pending events.
func (l *Lane) Len() int {
	if !l.queued {
		return 0
	}
	return 1 + l.n
}

// Push queues the lane's callback for time at, taking the next place in
// the heap's push order. at must not be earlier than the lane's latest
// pending event; an earlier one is queued as a bare callback instead, so
// the order stays right.
func (l *Lane) Push(at time.Duration) {
	l.PushSeq(at, l.node.heap.Reserve())
}

// PushSeq is Push with a place in the push order taken earlier with
// Reserve (and later than that of the lane's pending events).
func (l *Lane) PushSeq(at time.Duration, seq uint64) {
	k := laneKey{at, seq}
	switch {
	case !l.queued: // the lane's earliest event: into the heap
		l.queued, l.last = true, k
		if h := l.node.heap; !h.heap && h.n < sortedMax {
			h.insertSorted(entry{k.at, k.seq, &l.node}) // push, without the call
		} else {
			h.push(entry{k.at, k.seq, &l.node})
		}
	case !before(k, l.last) && l.n < len(l.keys): // behind it, in the ring
		l.keys[(l.head+l.n)&(len(l.keys)-1)] = k
		l.n++
		l.last = k
	default:
		l.pushSlow(k)
	}
}

// pushSlow is PushSeq of a lane with pending events when k is earlier
// than the latest of them or the ring is full.
func (l *Lane) pushSlow(k laneKey) {
	switch {
	case before(k, l.last):
		l.node.heap.PushFuncSeq(k.at, k.seq, l.node.Fn)
	default:
		if l.n == len(l.keys) {
			keys := make([]laneKey, max(4, 2*len(l.keys)))
			for i := range l.n {
				keys[i] = l.keys[(l.head+i)&(len(l.keys)-1)]
			}
			l.keys, l.head = keys, 0
		}
		l.keys[(l.head+l.n)&(len(l.keys)-1)] = k
		l.n++
		l.last = k
	}
}

// next takes the lane's event after its earliest; it has one (n > 0).
func (l *Lane) next() laneKey {
	k := l.keys[l.head]
	l.head = (l.head + 1) & (len(l.keys) - 1)
	l.n--
	return k
}

// remove takes out the event at position i.
func (h *Heap) remove(i int) {
	h.items[i].t.index = 0
	n := len(h.items) - 1
	last := h.items[n]
	h.items[n] = entry{}
	h.items = h.items[:n]
	if i == n {
		return
	}
	if i > 0 && last.less(&h.items[(i-1)/arity]) {
		h.up(i, last)
	} else {
		h.down(i, last)
	}
}

// The heap is 4-ary: shallower than a binary heap, so a push or pop
// touches fewer cache lines; children of i are 4i+1 .. 4i+4.
const arity = 4

// place puts e at position i and tells its Timer where it is (if the
// heap keeps indexes).
func (h *Heap) place(i int, e entry) {
	h.items[i] = e
	if h.indexed {
		e.t.index = i + 1
	}
}

// up moves e from the hole at j towards the root, moving parents down
// into the hole rather than swapping.
func (h *Heap) up(j int, e entry) {
	for j > 0 {
		i := (j - 1) / arity
		if !e.less(&h.items[i]) {
			break
		}
		h.place(j, h.items[i])
		j = i
	}
	h.place(j, e)
}

// down moves e from the hole at i towards the leaves.
func (h *Heap) down(i int, e entry) {
	items := h.items
	n := len(items)
	for {
		c := arity*i + 1
		if c >= n {
			break
		}
		m := c
		if c+arity <= n { // all four children (the common case), unrolled
			kids := items[c : c+arity : c+arity]
			if kids[1].less(&kids[0]) {
				m = c + 1
			}
			if kids[2].less(&items[m]) {
				m = c + 2
			}
			if kids[3].less(&items[m]) {
				m = c + 3
			}
		} else {
			for j := c + 1; j < n; j++ {
				if items[j].less(&items[m]) {
					m = j
				}
			}
		}
		if !items[m].less(&e) {
			break
		}
		h.place(i, items[m])
		i = m
	}
	h.place(i, e)
}
