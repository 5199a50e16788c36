// Package reentry is the re-entrancy guard of the protocol core. An object
// such as a forwarder is not re-entrant, but the calls it makes (a face's
// Send, a loss report) may call back into it synchronously. A Guard runs
// such work one item at a time: work handed in while the object is busy
// waits in a queue and runs, in the order it came, once the running work
// is done. Nothing is ever nested.
//
// It imports only internal/fifo and must not import the protocol core or
// a runtime.
package reentry

import "github.com/ndncc/ndncc/internal/fifo"

// Guard serialises work items of type T through one handler. The zero
// value is unusable: call Init first. It is used from one thread.
type Guard[T any] struct {
	run  func(*T)
	busy bool
	q    fifo.Queue[T]
}

// Init makes run the handler of every work item. run gets the item where
// it waits in the guard's queue, not a copy: it may read it during the
// call only (the item stays where it is while run queues more, even if
// the queue moves).
func (g *Guard[T]) Init(run func(*T)) { g.run = run }

// Do runs w at once if the guard is idle, then every item queued
// meanwhile; if the guard is busy (w comes from inside the running work,
// or while held), w waits for its turn.
func (g *Guard[T]) Do(w T) {
	if g.busy {
		g.q.Push(w)
		return
	}
	g.q.Push(w) // run where it waits, as a queued item is (the queue is empty)
	g.busy = true
	g.Release()
}

// Later queues a zero item behind the running work and returns where it
// waits, for the caller to fill in before the guard next runs an item;
// the guard must be busy (Hold failed, or from inside the running work).
// The item then runs in its turn, as one handed to Do would, without
// Do's copies of a large T.
func (g *Guard[T]) Later() *T {
	return g.q.PushZero()
}

// Hold makes the guard busy while the caller works on the object outside
// Do (a timer callback, say): items handed to Do meanwhile wait for
// Release. It reports false, and holds nothing, if the guard is busy
// already; the caller then must not Release.
func (g *Guard[T]) Hold() bool {
	if g.busy {
		return false
	}
	g.busy = true
	return true
}

// Release runs the items queued while the guard was busy, in order
// (including those they queue), then makes it idle.
// It is small enough to be inlined where it is called: an empty queue,
// the common case, costs no call.
func (g *Guard[T]) Release() {
	g.busy = g.q.Len() > 0 && g.drain()
}

// drain runs the queued items, including those they queue, and reports
// false: the guard is then idle.
func (g *Guard[T]) drain() bool {
	for g.q.Len() > 0 {
		// read in place, dropped after: what run queues meanwhile goes
		// behind it
		g.run(g.q.Front())
		g.q.Drop()
	}
	return false
}

// Busy reports whether work is running or the guard is held.
func (g *Guard[T]) Busy() bool { return g.busy }
