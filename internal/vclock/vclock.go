// Package vclock is the virtual-time event scheduler: the simulator's clock
// and the one the core's unit tests drive by hand. Events due at the same
// time run in the order they were scheduled, so a run is deterministic. It
// implements sched.Scheduler and must not import the protocol core.
package vclock

import (
	"math"
	"runtime"
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
//   - reusable timers (NewTimer: deadlines such as a PIT entry's expiry,
//     far ahead, mostly set in order and mostly stopped) in a FIFO, where
//     setting and stopping cost nothing (see Timer.Reset);
//   - timers with a handle (After, and reusable ones set out of order) in
//     one heap;
//   - per-packet events (At, lanes) in another, which stays small, so
//     taking its earliest event is cheap;
//   - At events for the current time (a face handing a packet over in
//     zero time, the most common event) in a FIFO beside the heaps: they
//     cost no sifting at all.
type Scheduler struct {
	// events holds the At events and the lanes, and keeps the current
	// time and the next place in the push order (its clock, SetNow, and
	// Reserve): a lane (timerheap.Lane) queues its events from them alone.
	events timerheap.Queue
	timers timerheap.Heap // After timers, NewTimer timers out of order
	// deadlines are NewTimer timers' runs in (time, place) order; stale
	// counts those among them that were stopped.
	deadlines fifo.Queue[deadline]
	stale     int
	ready     fifo.Queue[readyEvent] // At events due now, in push order
	fired     uint64
	// laneList are the lanes (NewLane), for Pending.
	laneList []*timerheap.Lane
	// later is a lower bound of the earliest run among the timers heap
	// and the deadline FIFO, which are rarely the next to run: while the
	// events heap's earliest is before it, run looks at neither. Pushes
	// lower it; stops and pops only raise the true earliest, so the bound
	// holds until stepAny finds it reached and recomputes it.
	later key
}

// key is a run's place in the order of a run: its time, then its place
// in the push order.
type key struct {
	at  time.Duration
	seq uint64
}

// never is later than any run.
var never = key{math.MaxInt64, math.MaxUint64}

// lower lowers s.later to k if k is earlier.
func (s *Scheduler) lower(at time.Duration, seq uint64) {
	if before(at, seq, s.later.at, s.later.seq) {
		s.later = key{at, seq}
	}
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
	_ sched.Lane           = (*timerheap.Lane)(nil)
)

// Now returns the current virtual time.
func (s *Scheduler) Now() time.Duration { return s.events.Now() }

// Events returns the number of events run so far.
func (s *Scheduler) Events() uint64 { return s.fired }

// Pending returns the number of queued events.
func (s *Scheduler) Pending() int {
	return s.events.Len() + s.timers.Len() + s.ready.Len() + s.laneBacklog() + s.deadlines.Len() - s.stale
}

// laneBacklog counts the lanes' events that wait behind their earliest.
func (s *Scheduler) laneBacklog() int {
	n := 0
	for _, l := range s.laneList {
		n += max(l.Len()-1, 0)
	}
	return n
}

// reserve takes the next place in the push order.
func (s *Scheduler) reserve() uint64 { return s.events.Reserve() }

// After implements sched.Scheduler.
func (s *Scheduler) After(d time.Duration, fn func()) sched.Timer {
	t := &timerheap.Timer{At: s.Now() + max(d, 0), Fn: fn}
	seq := s.reserve()
	s.timers.PushSeq(t, seq)
	s.lower(t.At, seq)
	return t
}

// At schedules fn at absolute time t (now, if t is earlier) without a
// handle, so that nothing is allocated: it is the simulator's per-packet
// path. It implements sched.AtScheduler.
func (s *Scheduler) At(t time.Duration, fn func()) {
	if t <= s.Now() {
		s.ready.Push(readyEvent{seq: s.reserve(), fn: fn})
		return
	}
	s.events.PushFuncSeq(t, s.reserve(), fn)
}

// Timer is a reusable timer of a Scheduler (NewTimer).
type Timer struct {
	timerheap.Timer // when in the timers heap
	s               *Scheduler
	queued          bool   // in the deadline FIFO, as the entry of place seq
	seq             uint64 // (an entry of another place is a stopped run's)
}

// deadline is a run of a reusable timer in the deadline FIFO.
type deadline struct {
	at  time.Duration
	seq uint64
	t   *Timer
}

// live reports whether d is still its timer's pending run.
func (d deadline) live() bool { return d.t.queued && d.t.seq == d.seq }

// NewTimer returns an idle reusable timer that runs fn. It implements
// sched.TimerScheduler.
func (s *Scheduler) NewTimer(fn func()) sched.ReusableTimer {
	return &Timer{Timer: timerheap.Timer{Fn: fn}, s: s}
}

// Reset arms t for time at (now, if at is earlier), replacing a pending
// run. It implements sched.ReusableTimer.
//
// Most deadlines are set a fixed time ahead (every PIT entry's expiry is
// its Interest's lifetime after it arrived), so they come in order: such a
// run is appended to a FIFO of deadlines, and stopping it only marks its
// entry stale, both at no cost. A deadline earlier than the FIFO's last
// goes into the timers heap.
func (t *Timer) Reset(at time.Duration) {
	if t.queued || t.Timer.Pending() {
		t.Stop()
	}
	s := t.s
	at, seq := max(at, s.Now()), s.reserve()
	if n := s.deadlines.Len(); n == 0 || at >= s.deadlines.PeekLast().at {
		s.deadlines.Push(deadline{at, seq, t})
		t.queued, t.seq = true, seq
		s.lower(at, seq)
		return
	}
	t.At = at
	s.timers.PushSeq(&t.Timer, seq)
	s.lower(at, seq)
}

// Stop cancels t's pending run and reports whether there was one. It
// implements sched.Timer.
func (t *Timer) Stop() bool {
	if !t.queued {
		return t.Timer.Stop()
	}
	t.queued = false
	s := t.s
	s.stale++
	if s.deadlines.Peek().t == t {
		s.pruneDeadlines()
	} else if s.stale > 64 && 3*s.stale > s.deadlines.Len() {
		s.compactDeadlines()
	}
	return true
}

// Pending reports whether t is armed.
func (t *Timer) Pending() bool { return t.queued || t.Timer.Pending() }

// compactDeadlines drops the stale entries of the deadline FIFO, so that
// its memory stays within one and a half times the timers armed.
func (s *Scheduler) compactDeadlines() {
	for n := s.deadlines.Len(); n > 0; n-- {
		if d := s.deadlines.Pop(); d.live() {
			s.deadlines.Push(d)
		}
	}
	s.stale = 0
}

// pruneDeadlines drops the stale entries at the head of the deadline
// FIFO, so that its head, if any, is always a live run.
func (s *Scheduler) pruneDeadlines() {
	for s.deadlines.Len() > 0 && !s.deadlines.Peek().live() {
		s.deadlines.Pop()
		s.stale--
	}
}

// NewLane returns an empty lane whose events run fn: a lane of the events
// queue, whose At takes the time and the place in the push order from the
// queue's clock (now, if t is earlier). It implements sched.LaneScheduler.
func (s *Scheduler) NewLane(fn func()) sched.Lane {
	l := s.events.NewLane(fn)
	s.laneList = append(s.laneList, l)
	return l
}

// Step runs the earliest event. It reports false when no event is queued.
func (s *Scheduler) Step() bool {
	fired, none := s.fired, 0
	s.run(math.MaxInt64, &none) // stops after one event
	return s.fired != fired
}

// stepAny runs the earliest event, if it is due by limit, when it may be
// a timer, a deadline or an At event due now (run's other case), and
// reports whether it ran one.
func (s *Scheduler) stepAny(limit time.Duration) bool {
	const (
		none = iota
		fromEvents
		fromTimers
		fromDeadlines
	)
	src := none
	var at time.Duration
	var seq uint64
	if eat, eseq, ok := s.events.Peek(); ok {
		src, at, seq = fromEvents, eat, eseq
	}
	if src == none || !before(at, seq, s.later.at, s.later.seq) {
		// The timers or the deadlines may be first: look, and
		// recompute the bound.
		s.later = never
		if tat, tseq, ok := s.timers.Peek(); ok {
			s.later = key{tat, tseq}
			if src == none || before(tat, tseq, at, seq) {
				src, at, seq = fromTimers, tat, tseq
			}
		}
		if s.deadlines.Len() > 0 { // its head is live (pruneDeadlines)
			d := s.deadlines.Peek()
			s.lower(d.at, d.seq)
			if src == none || before(d.at, d.seq, at, seq) {
				src, at, seq = fromDeadlines, d.at, d.seq
			}
		}
	}
	if s.ready.Len() > 0 {
		// Nothing queued is earlier than now; an event due now goes
		// first only if it was scheduled before.
		if r := s.ready.Peek(); src == none || at > s.Now() || seq > r.seq {
			if s.Now() > limit {
				return false
			}
			s.ready.Pop()
			s.fired++
			r.fn()
			return true
		}
	}
	if src == none || at > limit {
		return false
	}
	var fn func()
	switch src {
	case fromEvents:
		fn = s.events.PopFn()
	case fromTimers:
		fn = s.timers.PopFn()
	case fromDeadlines:
		d := s.deadlines.Pop()
		d.t.queued = false
		s.pruneDeadlines()
		fn = d.t.Fn
	}
	s.events.SetNow(at)
	s.fired++
	fn()
	return true
}

// before reports whether the event (at, seq) runs before (bat, bseq).
func before(at time.Duration, seq uint64, bat time.Duration, bseq uint64) bool {
	return at < bat || at == bat && seq < bseq
}

// yieldEvery is how many events RunUntil runs between two yields to the
// Go scheduler (a power of two).
const yieldEvery = 1024

// RunUntil runs events until none is left, stop returns true, or the next
// event lies after limit. Time then stands at the last event run.
//
// Every yieldEvery events it yields the processor (runtime.Gosched, some
// 100 ns every 200 µs or so). A simulation never blocks, so without it a
// garbage collection's background marker, which needs a turn on the
// processor, would wait up to the 10 ms preemption tick when the run has
// one processor (GOMAXPROCS=1, or every processor busy with runs), and
// every pointer the simulation writes meanwhile pays the collector's write
// barrier: that was 20-25% of a run's time (docs/performance.md).
func (s *Scheduler) RunUntil(limit time.Duration, stop func() bool) {
	if stop == nil {
		never := 1
		s.run(limit, &never)
		return
	}
	for {
		fired, none := s.fired, 0
		s.run(limit, &none) // one event
		if s.fired == fired || stop() {
			return
		}
	}
}

// RunWhile is RunUntil with stop reading *pending == 0 after each event:
// the simulator's run, which stops when every flow has ended, without a
// call per event.
func (s *Scheduler) RunWhile(limit time.Duration, pending *int) {
	s.run(limit, pending)
}

// run runs events until none is left, the next lies after limit, or,
// after one, *pending is 0, yielding every yieldEvery events (see
// RunUntil).
func (s *Scheduler) run(limit time.Duration, pending *int) {
	for {
		// The common case, in one call (PopBefore): no At event is due
		// now, and the events queue's earliest comes before the timers'
		// and the deadlines' bound and is due by limit.
		var fn func()
		if s.ready.Len() == 0 {
			fn = s.events.PopBefore(s.later.at, s.later.seq, limit)
		}
		if fn != nil {
			s.fired++
			fn()
		} else if !s.stepAny(limit) {
			return
		}
		if s.fired%yieldEvery == 0 {
			runtime.Gosched()
		}
		if *pending == 0 {
			return
		}
	}
}

// AdvanceTo runs every event due up to time t, then sets the clock to t
// (never back).
func (s *Scheduler) AdvanceTo(t time.Duration) {
	s.RunUntil(t, nil)
	s.events.SetNow(max(s.Now(), t))
}
