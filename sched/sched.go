// Package sched defines the clock and timer interface that every piece of
// protocol logic in ndncc runs on.
//
// The protocol core (cc, consumer, producer, fw) never reads the wall clock
// and never starts goroutines: it asks a Scheduler for the current time and
// for callbacks. The simulator (package sim) implements Scheduler in virtual
// time; the live runtime (package live) implements it in real time with a
// single event-loop goroutine. This package must not import either.
package sched

import "time"

// Scheduler is a clock plus one-shot timers. All callbacks run on the
// scheduler's single logical thread, never concurrently with each other.
type Scheduler interface {
	// Now returns the time elapsed since the scheduler started.
	Now() time.Duration
	// After runs fn once, d after Now. A negative d is treated as zero.
	After(d time.Duration, fn func()) Timer
}

// AtScheduler is a Scheduler that can also run a callback at an absolute
// time without handing out a Timer, so that it may recycle the timer once
// the callback has run: a per-packet path (a link's transmitter and
// propagation) then schedules without allocating. Code that needs it
// checks for it and falls back on After.
type AtScheduler interface {
	Scheduler
	// At runs fn once at time t (at once if t is not after Now). It
	// cannot be cancelled.
	At(t time.Duration, fn func())
}

// Timer is a pending callback.
type Timer interface {
	// Stop cancels the callback. It reports whether the call stopped it
	// (false if it already ran or was already stopped).
	Stop() bool
}
