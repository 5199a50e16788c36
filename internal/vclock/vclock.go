// Package vclock is the virtual-time event scheduler: the simulator's clock
// and the one the core's unit tests drive by hand. Events due at the same
// time run in the order they were scheduled, so a run is deterministic. It
// implements sched.Scheduler and must not import the protocol core.
package vclock

import (
	"time"

	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/internal/timerheap"
	"github.com/ndncc/ndncc/sched"
)

// Scheduler is a virtual-time event scheduler. It implements
// sched.AtScheduler, sched.TimerScheduler and sched.LaneScheduler. The
// zero value is ready at time zero.
//
// Every event takes a place in one push order when it is scheduled, and
// events run by time, then by that order: exactly as from a single heap.
// They are kept in three places, by what is cheapest for each kind:
//   - timers with a handle (After, NewTimer: deadlines such as a PIT
//     entry's expiry, mostly far ahead and often cancelled) in one heap;
//   - per-packet events (At, lanes) in another, which stays small, so
//     taking its earliest event is cheap;
//   - At events for the current time (a face handing a packet over in
//     zero time, the most common event) in a FIFO beside the heaps: they
//     cost no sifting at all.
type Scheduler struct {
	now    time.Duration
	seq    uint64                 // the next place in the push order
	cur    uint64                 // the place of the running (or last run) event
	events timerheap.Heap         // At events and lanes
	timers timerheap.Heap         // After and NewTimer timers
	ready  fifo.Queue[readyEvent] // At events due now, in push order
	fired  uint64
	// laneList are the lanes (NewLane), for Pending.
	laneList []*timerheap.Lane
}

// readyEvent is an At event due at the current time.
type readyEvent struct {
	seq uint64
	fn  func()
}

var (
	_ sched.AtScheduler    = (*Scheduler)(nil)
	_ sched.TimerScheduler = (*Scheduler)(nil)
	_ sched.LaneScheduler  = (*Scheduler)(nil)
	_ sched.OrderedLane    = (*Lane)(nil)
)

// Now returns the current virtual time.
func (s *Scheduler) Now() time.Duration { return s.now }

// Events returns the number of events run so far.
func (s *Scheduler) Events() uint64 { return s.fired }

// Pending returns the number of queued events.
func (s *Scheduler) Pending() int {
	return s.events.Len() + s.timers.Len() + s.ready.Len() + s.laneBacklog()
}

// laneBacklog counts the lanes' events that wait behind their earliest.
func (s *Scheduler) laneBacklog() int {
	n := 0
	for _, l := range s.laneList {
		n += max(l.Len()-1, 0)
	}
	return n
}

func (s *Scheduler) reserve() uint64 {
	q := s.seq
	s.seq++
	return q
}

// After implements sched.Scheduler.
func (s *Scheduler) After(d time.Duration, fn func()) sched.Timer {
	t := &timerheap.Timer{At: s.now + max(d, 0), Fn: fn}
	s.timers.PushSeq(t, s.reserve())
	return t
}

// At schedules fn at absolute time t (now, if t is earlier) without a
// handle, so that nothing is allocated: it is the simulator's per-packet
// path. It implements sched.AtScheduler.
func (s *Scheduler) At(t time.Duration, fn func()) {
	if t <= s.now {
		s.ready.Push(readyEvent{seq: s.reserve(), fn: fn})
		return
	}
	s.events.PushFuncSeq(t, s.reserve(), fn)
}

// Timer is a reusable timer of a Scheduler (NewTimer).
type Timer struct {
	timerheap.Timer
	s *Scheduler
}

// NewTimer returns an idle reusable timer that runs fn. It implements
// sched.TimerScheduler.
func (s *Scheduler) NewTimer(fn func()) sched.ReusableTimer {
	return &Timer{Timer: timerheap.Timer{Fn: fn}, s: s}
}

// Reset arms t for time at (now, if at is earlier), replacing a pending
// run. It implements sched.ReusableTimer.
func (t *Timer) Reset(at time.Duration) {
	t.Stop()
	t.At = max(at, t.s.now)
	t.s.timers.PushSeq(&t.Timer, t.s.reserve())
}

// Lane is a lane of a Scheduler (NewLane).
type Lane struct {
	l *timerheap.Lane
	s *Scheduler
}

// NewLane returns an empty lane whose events run fn. It implements
// sched.LaneScheduler.
func (s *Scheduler) NewLane(fn func()) sched.Lane {
	l := &Lane{l: s.events.NewLane(fn), s: s}
	s.laneList = append(s.laneList, l.l)
	return l
}

// At runs the lane's callback at time t (now, if t is earlier). It
// implements sched.Lane.
func (l *Lane) At(t time.Duration) {
	l.l.PushSeq(max(t, l.s.now), l.s.reserve())
}

// Reserve takes the place in the run order of an event scheduled now. It
// implements sched.OrderedLane.
func (l *Lane) Reserve() uint64 { return l.s.reserve() }

// AtSeq runs the lane's callback at time t (now, if t is earlier) in the
// place seq of the run order. It implements sched.OrderedLane.
func (l *Lane) AtSeq(t time.Duration, seq uint64) {
	l.l.PushSeq(max(t, l.s.now), seq)
}

// Passed reports whether an event for time t in place seq would have run
// by now. It implements sched.OrderedLane.
func (l *Lane) Passed(t time.Duration, seq uint64) bool {
	return t < l.s.now || t == l.s.now && seq < l.s.cur
}

// Step runs the earliest event. It reports false when no event is queued.
func (s *Scheduler) Step() bool {
	h := &s.events
	at, seq, ok := h.Peek()
	if tat, tseq, tok := s.timers.Peek(); tok && (!ok || tat < at || tat == at && tseq < seq) {
		h, at, seq, ok = &s.timers, tat, tseq, true
	}
	if s.ready.Len() > 0 {
		// Nothing queued is earlier than now; an event of the heaps due
		// now goes first only if it was scheduled before.
		if r := s.ready.Peek(); !ok || at > s.now || seq > r.seq {
			s.ready.Pop()
			s.fired++
			s.cur = r.seq
			r.fn()
			return true
		}
	}
	if !ok {
		return false
	}
	fn, at, seq := h.Pop()
	s.now, s.cur = at, seq
	s.fired++
	fn()
	return true
}

// next returns the time of the earliest queued event.
func (s *Scheduler) next() (time.Duration, bool) {
	if s.ready.Len() > 0 {
		return s.now, true
	}
	at, _, ok := s.events.Peek()
	if tat, _, tok := s.timers.Peek(); tok && (!ok || tat < at) {
		return tat, true
	}
	return at, ok
}

// RunUntil runs events until none is left, stop returns true, or the next
// event lies after limit. Time then stands at the last event run.
func (s *Scheduler) RunUntil(limit time.Duration, stop func() bool) {
	for {
		if at, ok := s.next(); !ok || at > limit {
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
