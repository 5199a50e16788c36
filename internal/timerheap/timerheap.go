// Package timerheap is the timer queues both runtimes share, each ordered
// by due time, then by the order events were pushed, so events due at the
// same instant run first-in first-out. The simulator runs them in virtual
// time, the live runtime's event loop in real time. They are not safe for
// concurrent use.
//
// Heap holds Timers, which their owners may stop and push again (the
// handle a scheduler's After returns, a reusable deadline timer): a 4-ary
// min-heap that keeps every Timer's position. Queue holds events nobody
// stops, the simulator's per-packet ones: bare callbacks (PushFunc) and
// the next event of each Lane, a series of events of one callback at times
// that never decrease (a link's arrivals). It holds only a lane's
// earliest event, so a busy lane costs one insertion per event, not two,
// in a smaller queue, and no allocation. Both store each event's key (due
// time, push order) inline beside one pointer, so ordering compares
// without following pointers.
package timerheap

import (
	"math"
	"slices"
	"time"
)

// Timer is one pending callback with a handle. Its zero value is
// unqueued; a Timer may be pushed again once it has run or been stopped.
type Timer struct {
	At time.Duration // when it is due
	Fn func()        // what it runs

	index int   // position in its heap + 1; 0 when not in one
	heap  *Heap // the Heap it was last pushed on (nil in a Queue)
	lane  *Lane // the lane whose earliest event this is, if any
	bare  bool  // a PushFunc event's Timer, recycled once popped
}

// Stop removes the timer from its heap. It reports whether the timer was
// still pending. It implements sched.Timer.
func (t *Timer) Stop() bool {
	if t.index == 0 {
		return false
	}
	t.heap.items.remove(t.index - 1)
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

// before reports whether a is due before the key (at, seq): less, for a
// caller that keeps the other entry in registers (less takes its
// address).
func (a *entry) before(at time.Duration, seq uint64) bool {
	return a.at < at || a.at == at && a.seq < seq
}

// Heap is the queue of Timers with handles: a 4-ary min-heap in which
// every Timer knows its position, so that it can be stopped. The zero
// value is empty.
type Heap struct {
	items heap4
	seq   uint64
}

// Len is the number of pending Timers.
func (h *Heap) Len() int { return len(h.items) }

// Reserve takes the next position in the push order without queueing
// anything: a Timer pushed later with this number sorts as if it had been
// pushed now. A scheduler that keeps some events elsewhere (events due at
// once, deadlines in a FIFO, a Queue) orders them all with it.
func (h *Heap) Reserve() uint64 {
	s := h.seq
	h.seq++
	return s
}

// Push queues t for t.At; Timers due at the same time keep their push
// order. t must not be queued already.
func (h *Heap) Push(t *Timer) {
	h.PushSeq(t, h.Reserve())
}

// PushSeq is Push with a place in the push order taken earlier with
// Reserve (or from a counter shared by several queues).
func (h *Heap) PushSeq(t *Timer, seq uint64) {
	t.heap = h
	h.items.push(entry{t.At, seq, t})
}

// Peek returns the due time and push order of the earliest Timer; ok is
// false when the heap is empty.
func (h *Heap) Peek() (at time.Duration, seq uint64, ok bool) {
	if len(h.items) == 0 {
		return 0, 0, false
	}
	return h.items[0].at, h.items[0].seq, true
}

// Pop removes the earliest Timer and returns its callback, due time and
// push order; fn is nil when the heap is empty. The Timer is no longer
// pending and may be pushed again.
func (h *Heap) Pop() (fn func(), at time.Duration, seq uint64) {
	at, seq, ok := h.Peek()
	if !ok {
		return nil, 0, 0
	}
	return h.PopFn(), at, seq
}

// PopFn is Pop for a caller that knows the earliest Timer's key (Peek):
// it returns only the callback.
func (h *Heap) PopFn() func() {
	if len(h.items) == 0 {
		return nil
	}
	t := h.items[0].t
	h.items.remove(0)
	return t.Fn
}

// Queue is the queue of events nobody stops: bare callbacks (PushFunc)
// and lanes (NewLane), the simulator's per-packet events. The zero value
// is empty.
//
// While they are few, it keeps its events in an array sorted from the
// latest to the earliest: taking the earliest is taking the last, and a
// new event moves only the events due before it, a handful of moves where
// a heap sifts through its levels with four comparisons on each. Past
// sortedMax events it keeps them in a 4-ary heap, and it goes back below
// sortedMin.
type Queue struct {
	items heap4 // the events, when in the heap form (heap)
	// back[lo:lo+n] are the sorted events, when not in the heap form (n
	// is 0 when in it): a new event goes in by moving the fewer of those
	// due before it and those due after it, towards the free slots on
	// that side. An array of a fixed size, indexed in place: no slice to
	// re-slice and store (with its write barrier) at each event, and no
	// bounds checks.
	back  [sortedBack]entry
	lo, n int
	seq   uint64
	// now is the queue's clock (SetNow, PopBefore): a Lane's event for an
	// earlier time is queued for now.
	now  time.Duration
	free []*Timer // bare callbacks' Timers, to reuse
	heap bool     // the events are items, a heap; otherwise back's
}

// The sizes at which a Queue turns from a sorted array into a heap, and
// back; the sorted events' array (a power of two, at least twice
// sortedMax: an index masked with sortedBack-1 is in bounds).
const (
	sortedMax  = 24
	sortedMin  = 8
	sortedBack = 64
)

// Len is the number of pending events (a lane counts once).
func (q *Queue) Len() int {
	if q.heap {
		return len(q.items)
	}
	return q.n
}

// Now is the queue's clock: the time SetNow or PopBefore set last, 0 at
// first.
func (q *Queue) Now() time.Duration { return q.now }

// SetNow sets the queue's clock. Its owner (a scheduler) keeps it at the
// current time, so that a Lane takes its time and its place in the push
// order from the queue alone (Lane.At).
func (q *Queue) SetNow(t time.Duration) { q.now = t }

// Reserve takes the next position in the push order without queueing
// anything, as Heap.Reserve does.
func (q *Queue) Reserve() uint64 {
	s := q.seq
	q.seq++
	return s
}

// PushFunc queues the bare callback fn for time at. Its Timer is the
// queue's own, recycled once it has run: a steady stream of them
// allocates nothing.
func (q *Queue) PushFunc(at time.Duration, fn func()) {
	q.PushFuncSeq(at, q.Reserve(), fn)
}

// PushFuncSeq queues the bare callback fn for time at in the push-order
// place seq, taken earlier with Reserve.
func (q *Queue) PushFuncSeq(at time.Duration, seq uint64, fn func()) {
	var t *Timer
	if n := len(q.free); n > 0 {
		t = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		t = &Timer{bare: true}
	}
	t.At, t.Fn = at, fn
	q.push(entry{at, seq, t})
}

func (q *Queue) push(e entry) {
	if !q.heap {
		if q.n < sortedMax {
			q.insertSorted(e)
			return
		}
		q.toHeap()
	}
	q.items.push(e)
}

// insertSorted puts e in its place among the sorted events. If it is due
// after the middle one, the events due after it (fewer than half) move one
// slot towards the start of back; otherwise those due before it move one
// towards the end.
func (q *Queue) insertSorted(e entry) {
	const m = sortedBack - 1
	b, lo, n := &q.back, q.lo, q.n
	if n > 0 && b[(lo+(n-1)/2)&m].before(e.at, e.seq) {
		if lo == 0 {
			q.relayout()
			lo = q.lo
		}
		lo--
		i := lo
		for !b[(i+1)&m].before(e.at, e.seq) { // stops by lo+(n-1)/2+1 at the latest
			b[i&m] = b[(i+1)&m]
			i++
		}
		b[i&m] = e
		q.lo, q.n = lo, n+1
		return
	}
	if lo+n == sortedBack {
		q.relayout()
		lo = q.lo
	}
	j := lo + n
	for j > lo && b[(j-1)&m].before(e.at, e.seq) {
		b[j&m] = b[(j-1)&m]
		j--
	}
	b[j&m] = e
	q.n = n + 1
}

// relayout moves the sorted events to the middle of back, so that there
// are free slots on both sides. The slots outside the window keep their
// pointers: lanes' nodes and bare Timers, which the lanes and the free
// list keep anyway.
//
// The events move by a loop, not by copy, which calls the runtime: with a
// call in it, insertSorted (which relayout is inlined into) saved its
// arguments on the stack at every insertion. The loop runs in the
// direction that reads each slot before it is overwritten.
func (q *Queue) relayout() {
	const m = sortedBack - 1
	lo, old := (sortedBack-q.n)/2, q.lo
	i, end, step := 0, q.n, 1
	if lo > old {
		i, end, step = q.n-1, -1, -1
	}
	for ; i != end; i += step {
		q.back[(lo+i)&m] = q.back[(old+i)&m]
	}
	q.lo = lo
}

// toHeap turns the sorted events (latest first) into a heap: reversed,
// they are in order, which is a heap.
func (q *Queue) toHeap() {
	q.items = q.items[:0]
	if q.n > 0 {
		q.items = append(q.items, q.back[q.lo:q.lo+q.n]...)
	}
	slices.Reverse(q.items)
	for i, e := range q.items {
		e.t.index = i + 1
	}
	q.n = 0
	q.heap = true
}

// toSorted turns the heap back into sorted events.
func (q *Queue) toSorted() {
	n := len(q.items)
	q.lo, q.n = (sortedBack-n)/2, n
	items := q.back[q.lo : q.lo+n]
	copy(items, q.items)
	for i := 1; i < n; i++ {
		e := items[i]
		j := i
		for j > 0 && items[j-1].less(&e) {
			items[j] = items[j-1]
			j--
		}
		items[j] = e
	}
	clear(q.items)
	q.items = q.items[:0]
	q.heap = false
}

// Peek returns the due time and push order of the earliest event; ok is
// false when the queue is empty.
func (q *Queue) Peek() (at time.Duration, seq uint64, ok bool) {
	if q.n > 0 { // sorted (n is 0 in the heap form)
		e := &q.back[(q.lo+q.n-1)&(sortedBack-1)]
		return e.at, e.seq, true
	}
	if q.heap && len(q.items) > 0 {
		return q.items[0].at, q.items[0].seq, true
	}
	return 0, 0, false
}

// Pop removes the earliest event and returns its callback, due time and
// push order; fn is nil when the queue is empty.
func (q *Queue) Pop() (fn func(), at time.Duration, seq uint64) {
	at, seq, ok := q.Peek()
	if !ok {
		return nil, 0, 0
	}
	return q.PopFn(), at, seq
}

// PopBefore removes the earliest event if it runs before the key (at,
// seq) and is due by limit, sets the queue's clock to its time, and
// returns its callback. Otherwise it returns nil and changes nothing. It
// is a scheduler's common step in one call: Peek, PopFn and SetNow
// together, reading the earliest event once.
func (q *Queue) PopBefore(at time.Duration, seq uint64, limit time.Duration) func() {
	n := q.n
	if n == 0 { // empty, or a heap (n is 0 in the heap form)
		if q.heap && len(q.items) > 0 {
			if e := &q.items[0]; e.before(at, seq) && e.at <= limit {
				q.now = e.at
				return q.popHeap(len(q.items))
			}
		}
		return nil
	}
	e := &q.back[(q.lo+n-1)&(sortedBack-1)]
	if !e.before(at, seq) || e.at > limit {
		return nil
	}
	q.now = e.at
	// The slot keeps its pointer: a lane's node or a bare Timer, which
	// the lane or the free list keeps anyway.
	t := e.t
	q.n = n - 1
	if l := t.lane; l != nil {
		if l.n > 0 { // the lane's next event takes its place
			k := l.next()
			q.insertSorted(entry{k.at, k.seq, t})
			return t.Fn
		}
		l.queued = false
	}
	return q.done(t)
}

// PopFn is Pop for a caller that knows the earliest event's key (Peek):
// it returns only the callback. It leaves the queue's clock as it was.
func (q *Queue) PopFn() func() {
	now := q.now
	fn := q.PopBefore(math.MaxInt64, math.MaxUint64, math.MaxInt64) // (no event has the last place in the push order)
	q.now = now
	return fn
}

// popHeap is PopFn of the n items of the heap form.
func (q *Queue) popHeap(n int) func() {
	e := q.items[0]
	if l := e.t.lane; l != nil {
		if l.n > 0 { // the lane's next event takes its place
			k := l.next()
			q.items.down(0, entry{k.at, k.seq, e.t})
			return e.t.Fn
		}
		l.queued = false
	}
	q.items.remove(0)
	if n <= sortedMin {
		q.toSorted()
	}
	return q.done(e.t)
}

// done returns the callback of t, which has left the queue, and recycles
// t if it is a bare callback's.
func (q *Queue) done(t *Timer) func() {
	fn := t.Fn
	if t.bare {
		t.Fn = nil
		q.free = append(q.free, t)
	}
	return fn
}

// Lane is a series of events that all run one callback, at times that
// never decrease, queued in a Queue. The queue holds only the lane's
// earliest event; the rest wait in the lane's FIFO with the keys they were
// given when pushed, so the order of a run is the order they would have
// had as separate events. The zero value is unusable: see NewLane.
type Lane struct {
	q    *Queue
	node Timer // the lane's entry in the queue, its earliest event's
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

// NewLane returns an empty lane of q whose events run fn.
func (q *Queue) NewLane(fn func()) *Lane {
	l := &Lane{q: q}
	l.node = Timer{Fn: fn, lane: l}
	return l
}

// Len is the number of the lane's pending events.
func (l *Lane) Len() int {
	if !l.queued {
		return 0
	}
	return 1 + l.n
}

// At queues the lane's callback for time at (the queue's Now, if at is
// earlier), taking the next place in the queue's push order: a
// scheduler's lane (sched.Lane) is the Lane itself, with no call of its
// own between the caller and the queue. An event due before the lane's
// latest pending one is queued as a bare callback instead, so the order
// stays right.
func (l *Lane) At(at time.Duration) {
	q := l.q
	k := laneKey{max(at, q.now), q.seq}
	q.seq++
	switch {
	case !l.queued: // the lane's earliest event: into the queue
		l.queued, l.last = true, k
		if !q.heap && q.n < sortedMax {
			q.insertSorted(entry{k.at, k.seq, &l.node}) // push, without the call
		} else {
			q.push(entry{k.at, k.seq, &l.node})
		}
	case !before(k, l.last) && l.n < len(l.keys): // behind it, in the ring
		l.keys[(l.head+l.n)&(len(l.keys)-1)] = k
		l.n++
		l.last = k
	default:
		l.pushSlow(k)
	}
}

// pushSlow is At of a lane with pending events when k is earlier
// than the latest of them or the ring is full.
func (l *Lane) pushSlow(k laneKey) {
	switch {
	case before(k, l.last):
		l.q.PushFuncSeq(k.at, k.seq, l.node.Fn)
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

// heap4 is a 4-ary min-heap of events that keeps every event's Timer
// told of its position (Timer.index), so that a Timer can leave it from
// anywhere. Being 4-ary, it is shallower than a binary heap, so a push or
// pop touches fewer cache lines; the children of i are 4i+1 .. 4i+4.
type heap4 []entry

const arity = 4

// push adds e.
func (h *heap4) push(e entry) {
	*h = append(*h, e)
	h.up(len(*h)-1, e)
}

// remove takes out the event at position i.
func (h *heap4) remove(i int) {
	items := *h
	items[i].t.index = 0
	n := len(items) - 1
	last := items[n]
	items[n] = entry{}
	*h = items[:n]
	if i == n {
		return
	}
	if i > 0 && last.less(&items[(i-1)/arity]) {
		h.up(i, last)
	} else {
		h.down(i, last)
	}
}

// up moves e from the hole at j towards the root, moving parents down
// into the hole rather than swapping.
func (h *heap4) up(j int, e entry) {
	items := *h
	for j > 0 {
		i := (j - 1) / arity
		if !e.less(&items[i]) {
			break
		}
		items[j] = items[i]
		items[j].t.index = j + 1
		j = i
	}
	items[j] = e
	e.t.index = j + 1
}

// down moves e from the hole at i towards the leaves.
func (h *heap4) down(i int, e entry) {
	items := *h
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
		items[i] = items[m]
		items[i].t.index = i + 1
		i = m
	}
	items[i] = e
	e.t.index = i + 1
}
