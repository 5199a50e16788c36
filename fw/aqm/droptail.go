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

// Pass hands it, arriving at the empty queue at time now, straight out
// (aqm.Passer): a drop-tail queue neither drops nor marks at dequeue.
func (q *DropTail) Pass(it Item, _ time.Duration) bool {
	ok := q.pass(&it)
	if ok {
		q.stats.Dequeued++
	}
	return ok
}

var _ Passer = (*DropTail)(nil)
