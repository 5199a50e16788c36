// Package vclock is the virtual-time event scheduler: the simulator's clock
// and the one the core's unit tests drive by hand. Events due at the same
// time run in the order they were scheduled, so a run is deterministic. It
// implements sched.Scheduler and must not import the protocol core.
package vclock

import (
	"time"

	"github.com/ndncc/ndncc/internal/timerheap"
	"github.com/ndncc/ndncc/sched"
)

// Scheduler is a virtual-time event scheduler. It implements
// sched.AtScheduler. The zero value is ready at time zero.
type Scheduler struct {
	now   time.Duration
	heap  timerheap.Heap
	free  []*timerheap.Timer
	fired uint64
}

var _ sched.AtScheduler = (*Scheduler)(nil)

// Now returns the current virtual time.
func (s *Scheduler) Now() time.Duration { return s.now }

// Events returns the number of events run so far.
func (s *Scheduler) Events() uint64 { return s.fired }

// Pending returns the number of queued events.
func (s *Scheduler) Pending() int { return s.heap.Len() }

// After implements sched.Scheduler.
func (s *Scheduler) After(d time.Duration, fn func()) sched.Timer {
	if d < 0 {
		d = 0
	}
	t := &timerheap.Timer{At: s.now + d, Fn: fn, Owned: true}
	s.heap.Push(t)
	return t
}

// At schedules fn at absolute time t (now, if t is earlier) with a
// recycled timer; the caller gets no handle, so the timer can be reused
// once it has fired. It is the simulator's per-packet path: it allocates
// only while the free list grows. It implements sched.AtScheduler.
func (s *Scheduler) At(t time.Duration, fn func()) {
	t = max(t, s.now)
	var tm *timerheap.Timer
	if n := len(s.free); n > 0 {
		tm = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		tm = &timerheap.Timer{}
	}
	tm.At, tm.Fn = t, fn
	s.heap.Push(tm)
}

// Step runs the earliest event. It reports false when no event is queued.
func (s *Scheduler) Step() bool {
	tm := s.heap.Pop()
	if tm == nil {
		return false
	}
	s.now = tm.At
	fn := tm.Fn
	tm.Fn = nil
	if !tm.Owned {
		s.free = append(s.free, tm)
	}
	s.fired++
	fn()
	return true
}

// RunUntil runs events until none is left, stop returns true, or the next
// event lies after limit. Time then stands at the last event run.
func (s *Scheduler) RunUntil(limit time.Duration, stop func() bool) {
	for {
		next := s.heap.Peek()
		if next == nil || next.At > limit {
			return
		}
		s.Step()
		if stop != nil && stop() {
			return
		}
	}
}

// AdvanceTo runs every event due up to time t, then sets the clock to t
// (never back).
func (s *Scheduler) AdvanceTo(t time.Duration) {
	s.RunUntil(t, nil)
	s.now = max(s.now, t)
}
