package aqm

import "time"

// DropTail is a plain FIFO: packets beyond the limits are dropped on
// arrival, nothing is dropped or marked at dequeue.
type DropTail struct {
	fifo
}

// NewDropTail returns an empty DropTail queue with the given limits.
func NewDropTail(lim Limits) (*DropTail, error) {
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	return &DropTail{fifo{lim: lim}}, nil
}

// Enqueue adds it at time now; it reports false if a limit dropped it.
func (q *DropTail) Enqueue(it Item, now time.Duration) bool { return q.enqueue(it, now) }

// Dequeue removes and returns the head packet; ok is false when empty.
func (q *DropTail) Dequeue(now time.Duration) (it Item, ok bool) {
	it, ok = q.pop()
	if ok {
		q.stats.Dequeued++
	}
	return it, ok
}

// Pass hands it, arriving at the empty queue at time now, straight to an
// idle transmitter: it does what Enqueue(it, now) followed at once by
// Dequeue(now) would do, counts and drop included, without going through
// the buffer (a drop-tail queue neither drops nor marks at dequeue). It
// reports whether it goes on as it is, enqueued at now, or was dropped. A
// link model uses it for the frames that find the link idle, most frames
// on most links, and calls it on the concrete queue: it is not kept, so
// the caller's item stays where it is (through an interface it would be
// moved to the heap, an allocation per frame). The queue must be empty.
//
// Dequeue on an empty DropTail changes nothing (no state, no counter), so
// a link model may leave it out.
func (q *DropTail) Pass(it *Item, _ time.Duration) bool {
	ok := q.pass(it)
	if ok {
		q.stats.Dequeued++
	}
	return ok
}
