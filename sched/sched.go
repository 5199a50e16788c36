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

// LaneScheduler is an AtScheduler that also keeps lanes (see Lane).
type LaneScheduler interface {
	AtScheduler
	// NewLane returns an empty lane whose events run fn.
	NewLane(fn func()) Lane
}

// Lane is a series of events that run one callback at times that never
// decrease: a link's arrivals, a processor's queue of packets. A
// LaneScheduler queues only a lane's earliest event, so a busy lane costs
// less than as many separate events; the order of a run is the same.
type Lane interface {
	// At runs the lane's callback once at time t (at once if t is not
	// after Now). t must not be earlier than the lane's previous At.
	At(t time.Duration)
}

// NewLane returns a lane of s for fn: s's own if s is a LaneScheduler,
// else one that schedules each event with At (an AtScheduler) or After.
func NewLane(s Scheduler, fn func()) Lane {
	switch x := s.(type) {
	case LaneScheduler:
		return x.NewLane(fn)
	case AtScheduler:
		return atLane{x, fn}
	}
	return afterLane{s, fn}
}

type atLane struct {
	s  AtScheduler
	fn func()
}

func (l atLane) At(t time.Duration) { l.s.At(t, l.fn) }

type afterLane struct {
	s  Scheduler
	fn func()
}

func (l afterLane) At(t time.Duration) { l.s.After(t-l.s.Now(), l.fn) }

// Timer is a pending callback.
type Timer interface {
	// Stop cancels the callback. It reports whether the call stopped it
	// (false if it already ran or was already stopped).
	Stop() bool
}

// TimerScheduler is a Scheduler that also makes reusable timers: one
// timer object armed again and again, so that a deadline that moves with
// every packet (a PIT entry's expiry, a retransmission timeout) costs no
// allocation. Code that wants it checks for it and falls back on After.
type TimerScheduler interface {
	Scheduler
	// NewTimer returns an idle timer that runs fn each time it fires.
	NewTimer(fn func()) ReusableTimer
}

// ReusableTimer is a Timer that can be armed again once it has fired or
// been stopped.
type ReusableTimer interface {
	Timer
	// Reset arms the timer for time t (at once if t is not after Now),
	// replacing a pending run. It queues as a new After would: after the
	// callbacks already due at t.
	Reset(t time.Duration)
}
