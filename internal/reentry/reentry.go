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
	run  func(T)
	busy bool
	q    fifo.Queue[T]
}

// Init makes run the handler of every work item.
func (g *Guard[T]) Init(run func(T)) { g.run = run }

// Do runs w at once if the guard is idle, then every item queued
// meanwhile; if the guard is busy (w comes from inside the running work,
// or while held), w waits for its turn.
func (g *Guard[T]) Do(w T) {
	if g.busy {
		g.q.Push(w)
		return
	}
	g.busy = true
	g.run(w)
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
func (g *Guard[T]) Release() {
	if g.q.Len() > 0 {
		g.drain()
	}
	g.busy = false
}

// drain runs the queued items, including those they queue.
func (g *Guard[T]) drain() {
	for g.q.Len() > 0 {
		// read in place, dropped after: what run queues meanwhile goes
		// behind it
		g.run(*g.q.Front())
		g.q.Drop()
	}
}

// Busy reports whether work is running or the guard is held.
func (g *Guard[T]) Busy() bool { return g.busy }
