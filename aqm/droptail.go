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

// Pass implements Queue: a drop-tail queue neither drops nor marks at
// dequeue, so the packet goes on without entering the buffer.
func (q *DropTail) Pass(it *Item, now time.Duration) (admitted, ok bool) {
	if !q.pass(it) {
		return false, false
	}
	it.Enqueued = now
	q.stats.Dequeued++
	return true, true
}
