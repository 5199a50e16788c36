// Package fifo is the first-in first-out queue the runtimes and the
// pipeline share: a ring buffer that doubles when full, so a steady flow
// of pushes and pops allocates nothing. It is not safe for concurrent use.
package fifo

// Queue is a FIFO of T. The zero value is an empty queue.
type Queue[T any] struct {
	buf  []T // len is 0 or a power of two
	head int
	n    int
}

// Len is the number of queued values.
func (q *Queue[T]) Len() int { return q.n }

// Cap is the number of slots allocated: what the queue's memory is
// bounded by.
func (q *Queue[T]) Cap() int { return len(q.buf) }

// Push appends v.
func (q *Queue[T]) Push(v T) {
	if q.n == len(q.buf) {
		q.grow()
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = v
	q.n++
}

// Peek returns the oldest value; the queue must not be empty.
func (q *Queue[T]) Peek() T { return q.buf[q.head] }

// PeekLast returns the newest value; the queue must not be empty.
func (q *Queue[T]) PeekLast() T { return q.buf[(q.head+q.n-1)&(len(q.buf)-1)] }

// Pop removes and returns the oldest value; the queue must not be empty.
// The slot is cleared so that the queue keeps nothing alive.
func (q *Queue[T]) Pop() T {
	var zero T
	v := q.buf[q.head]
	q.buf[q.head] = zero
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return v
}

// PushZero appends a zero value and returns where it is, for the caller
// to fill in place: a large value is then not built elsewhere and copied
// in. The pointer is valid until the queue next changes.
func (q *Queue[T]) PushZero() *T {
	if q.n == len(q.buf) {
		q.grow()
	}
	p := &q.buf[(q.head+q.n)&(len(q.buf)-1)] // cleared when it was popped
	q.n++
	return p
}

// Front returns where the oldest value is, for the caller to read in
// place; the queue must not be empty. The pointer is valid until the
// queue next changes.
func (q *Queue[T]) Front() *T { return &q.buf[q.head] }

// At returns where the i-th oldest value is (0 is the oldest); i must be
// below Len. The pointer is valid until the queue next changes.
func (q *Queue[T]) At(i int) *T { return &q.buf[(q.head+i)&(len(q.buf)-1)] }

// Drop removes the oldest value, as Pop does, without returning it; the
// queue must not be empty.
func (q *Queue[T]) Drop() {
	var zero T
	q.buf[q.head] = zero
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
}

// DropLast removes the newest value; the queue must not be empty.
func (q *Queue[T]) DropLast() {
	var zero T
	q.n--
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = zero
}

// grow doubles the buffer of a full queue: its values, from head to the
// end of the buffer and then from its start, go in order to the start of
// the new one. Two copies, not a loop, keep it small enough for Push and
// PushZero to take it inline (and be inlined themselves where they are
// called).
func (q *Queue[T]) grow() {
	buf := make([]T, max(4, 2*len(q.buf)))
	copy(buf[copy(buf, q.buf[q.head:]):], q.buf[:q.head])
	q.buf, q.head = buf, 0
}
