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

// Timer is a pending callback.
type Timer interface {
	// Stop cancels the callback. It reports whether the call stopped it
	// (false if it already ran or was already stopped).
	Stop() bool
}
