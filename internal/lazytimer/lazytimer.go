// Package lazytimer is the one-shot deadline timer of the protocol core: a
// timer whose deadline moves often (renewed PIT in-records, an RTO
// restarted by every ACK, acks waiting to ride on a reverse frame) at
// almost no cost.
//
// A Timer keeps at most one wake-up scheduled on a sched.Scheduler. Moving
// the deadline later leaves that wake-up alone: when it comes early, the
// Timer schedules the next one for the current deadline and does not run
// its callback. Moving the deadline earlier replaces it. So a deadline
// renewed on every packet costs one wake-up per deadline period, not a
// cancel and a reschedule per packet.
//
// It imports only sched and must not import the protocol core or a runtime.
package lazytimer

import (
	"time"

	"github.com/ndncc/ndncc/sched"
)

// Timer is a lazy one-shot deadline timer. The zero value is unusable:
// call Init first. It is used from the scheduler's thread only.
type Timer struct {
	// wake is the wake-up: on a sched.TimerScheduler one of its reusable
	// timers, else an afterTimer that schedules each wake-up with After.
	wake     sched.ReusableTimer
	s        sched.Scheduler
	fn       func()
	deadline time.Duration
	wakeAt   time.Duration // when the scheduled wake-up runs
	armed    bool
	waiting  bool // a wake-up is scheduled
}

// Init prepares t to run fn on scheduler s. It allocates once (the
// wake-up timer); a Timer kept in a recycled object keeps its binding.
// Stopping it is enough before the object is reused: a wake-up still
// queued then serves the next deadline, if it comes before it, at no cost
// (a PIT entry's timer). Cancel also removes the wake-up.
func (t *Timer) Init(s sched.Scheduler, fn func()) {
	*t = Timer{s: s, fn: fn}
	if ts, ok := s.(sched.TimerScheduler); ok {
		t.wake = ts.NewTimer(t.onWake)
	} else {
		t.wake = &afterTimer{s: s, fn: t.onWake}
	}
}

// afterTimer is a sched.ReusableTimer on a plain sched.Scheduler: one
// After per Reset.
type afterTimer struct {
	s   sched.Scheduler
	fn  func()
	cur sched.Timer
}

func (a *afterTimer) Reset(at time.Duration) {
	a.Stop()
	a.cur = a.s.After(at-a.s.Now(), a.fn)
}

func (a *afterTimer) Stop() bool {
	if a.cur == nil {
		return false
	}
	stopped := a.cur.Stop()
	a.cur = nil
	return stopped
}

// Set arms t for deadline, replacing any earlier deadline: fn runs once,
// at deadline or (on a real-time scheduler) as soon after as the
// scheduler wakes, unless Set, Stop or Cancel is called first.
func (t *Timer) Set(deadline time.Duration) {
	t.deadline, t.armed = deadline, true
	if t.waiting && t.wakeAt <= deadline {
		return // the wake-up comes first and re-arms: the common case, inlined
	}
	t.reschedule()
}

// reschedule schedules the wake-up for the deadline, replacing a later
// one.
func (t *Timer) reschedule() {
	if t.waiting {
		t.unschedule()
	}
	t.schedule()
}

// Stop disarms t: fn does not run unless Set is called again. A scheduled
// wake-up stays queued and finds t disarmed (or re-armed, and so serves
// the next deadline): stopping and re-arming costs nothing.
func (t *Timer) Stop() { t.armed = false }

// Cancel disarms t and removes its wake-up from the scheduler, for an
// owner that goes away or is recycled.
func (t *Timer) Cancel() {
	t.armed = false
	if t.waiting {
		t.unschedule()
	}
}

// Armed reports whether fn is due to run.
func (t *Timer) Armed() bool { return t.armed }

// Deadline returns the deadline t is (or was last) armed for.
func (t *Timer) Deadline() time.Duration { return t.deadline }

func (t *Timer) schedule() {
	t.wakeAt, t.waiting = t.deadline, true
	t.wake.Reset(t.deadline)
}

func (t *Timer) unschedule() {
	t.waiting = false
	t.wake.Stop()
}

// onWake runs fn if the deadline has come, or waits for it.
func (t *Timer) onWake() {
	t.waiting = false
	if !t.armed {
		return
	}
	if t.s.Now() < t.deadline {
		t.schedule()
		return
	}
	t.armed = false
	t.fn()
}
