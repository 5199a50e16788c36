package lazytimer

import (
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/sched"
)

const ms = time.Millisecond

// countingClock is a virtual clock that counts the wake-ups scheduled on
// it. With reuse it is a sched.TimerScheduler (the Timer arms one
// reusable timer); without, a plain sched.Scheduler (one After per
// wake-up). Every test runs on both.
type countingClock struct {
	vclock.Scheduler
	reuse  bool
	afters int // wake-ups scheduled, by After or Reset
}

func (c *countingClock) After(d time.Duration, fn func()) sched.Timer {
	c.afters++
	return c.Scheduler.After(d, fn)
}

// sched returns the clock as the Timer sees it.
func (c *countingClock) sched() sched.Scheduler {
	if c.reuse {
		return reusing{c}
	}
	return plain{c}
}

// plain hides the clock's NewTimer.
type plain struct{ c *countingClock }

func (p plain) Now() time.Duration                           { return p.c.Now() }
func (p plain) After(d time.Duration, fn func()) sched.Timer { return p.c.After(d, fn) }

// reusing counts the Resets of the clock's reusable timers.
type reusing struct{ c *countingClock }

func (r reusing) Now() time.Duration                           { return r.c.Now() }
func (r reusing) After(d time.Duration, fn func()) sched.Timer { return r.c.After(d, fn) }
func (r reusing) NewTimer(fn func()) sched.ReusableTimer {
	return countingTimer{r.c.Scheduler.NewTimer(fn), r.c}
}

type countingTimer struct {
	sched.ReusableTimer
	c *countingClock
}

func (t countingTimer) Reset(at time.Duration) {
	t.c.afters++
	t.ReusableTimer.Reset(at)
}

// bothClocks runs f on a reusing and on a plain clock.
func bothClocks(t *testing.T, f func(t *testing.T, c *countingClock)) {
	for _, reuse := range []bool{true, false} {
		name := "After"
		if reuse {
			name = "reusable"
		}
		t.Run(name, func(t *testing.T) { f(t, &countingClock{reuse: reuse}) })
	}
}

// step is one action of a scripted run: at time at, set the deadline
// (set >= 0), stop (stop) or cancel (cancel).
type step struct {
	at     time.Duration
	set    time.Duration
	stop   bool
	cancel bool
}

func setAt(at, deadline time.Duration) step { return step{at: at, set: deadline} }

func TestTimer(t *testing.T) {
	for _, tc := range []struct {
		name      string
		steps     []step
		wantFired []time.Duration // when fn ran
		wantWakes int             // wake-ups scheduled
	}{{
		name:      "fires at its deadline",
		steps:     []step{setAt(0, 10*ms)},
		wantFired: []time.Duration{10 * ms},
		wantWakes: 1,
	}, {
		name:      "moved later: the first wake-up comes early and waits",
		steps:     []step{setAt(0, 10*ms), setAt(5*ms, 20*ms), setAt(6*ms, 30*ms)},
		wantFired: []time.Duration{30 * ms},
		wantWakes: 2,
	}, {
		name:      "moved earlier: the wake-up is replaced",
		steps:     []step{setAt(0, 30*ms), setAt(5*ms, 10*ms)},
		wantFired: []time.Duration{10 * ms},
		wantWakes: 2,
	}, {
		name:      "stopped: fn does not run",
		steps:     []step{setAt(0, 10*ms), {at: 5 * ms, stop: true}},
		wantWakes: 1,
	}, {
		name:      "stopped and set again before the wake-up: it is reused",
		steps:     []step{setAt(0, 10*ms), {at: 5 * ms, stop: true}, setAt(6*ms, 12*ms)},
		wantFired: []time.Duration{12 * ms},
		wantWakes: 2,
	}, {
		name:      "cancelled, then set again: a new wake-up",
		steps:     []step{setAt(0, 10*ms), {at: 5 * ms, cancel: true}, setAt(6*ms, 12*ms)},
		wantFired: []time.Duration{12 * ms},
		wantWakes: 2,
	}, {
		name:      "a deadline already passed fires at once",
		steps:     []step{setAt(5*ms, 2*ms)},
		wantFired: []time.Duration{5 * ms},
		wantWakes: 1,
	}, {
		name:      "set again after firing: fires again",
		steps:     []step{setAt(0, 10*ms), setAt(15*ms, 20*ms)},
		wantFired: []time.Duration{10 * ms, 20 * ms},
		wantWakes: 2,
	}} {
		bothClocks(t, func(t *testing.T, c *countingClock) {
			t.Log(tc.name)
			var tm Timer
			var fired []time.Duration
			tm.Init(c.sched(), func() { fired = append(fired, c.Now()) })
			for _, st := range tc.steps {
				c.AdvanceTo(st.at)
				switch {
				case st.stop:
					tm.Stop()
				case st.cancel:
					tm.Cancel()
				default:
					tm.Set(st.set)
				}
			}
			c.RunUntil(time.Hour, nil)
			if !slices.Equal(fired, tc.wantFired) {
				t.Errorf("fired at %v, want %v", fired, tc.wantFired)
			}
			if c.afters != tc.wantWakes {
				t.Errorf("%d wake-ups scheduled, want %d", c.afters, tc.wantWakes)
			}
			if tm.Armed() {
				t.Error("still armed after the run")
			}
		})
	}
}

func TestCancelLeavesNothingScheduled(t *testing.T) {
	bothClocks(t, func(t *testing.T, c *countingClock) {
		var tm Timer
		tm.Init(c.sched(), func() { t.Error("fn ran after Cancel") })
		tm.Set(10 * ms)
		tm.Cancel()
		if n := c.Pending(); n != 0 {
			t.Errorf("%d events pending after Cancel, want 0", n)
		}
		c.RunUntil(time.Hour, nil)
	})
}

// TestRenewingIsCheap renews a 100 ms deadline every millisecond for a
// second, as a PIT entry renewed by a retransmitting consumer would be:
// the timer wakes once per deadline period, not once per renewal.
func TestRenewingIsCheap(t *testing.T) {
	bothClocks(t, func(t *testing.T, c *countingClock) {
		var tm Timer
		fired := 0
		tm.Init(c.sched(), func() { fired++ })
		for i := range 1000 {
			c.AdvanceTo(time.Duration(i) * ms)
			tm.Set(c.Now() + 100*ms)
		}
		c.RunUntil(time.Hour, nil)
		if fired != 1 || c.Now() != 1099*ms {
			t.Errorf("fired %d times, last at %v; want once at 1.099s", fired, c.Now())
		}
		if c.afters > 12 {
			t.Errorf("%d wake-ups for 1000 renewals, want about one per 100 ms", c.afters)
		}
	})
}

// A timer on a sched.TimerScheduler moves its deadline, fires and is
// armed again without allocating.
func TestReusableTimerAllocatesNothing(t *testing.T) {
	var s vclock.Scheduler
	var tm Timer
	fired := 0
	tm.Init(&s, func() { fired++ })
	allocs := testing.AllocsPerRun(1000, func() {
		tm.Set(s.Now() + 10*ms)
		tm.Set(s.Now() + 5*ms) // earlier: the wake-up moves
		s.Step()
		tm.Set(s.Now() + ms)
		tm.Cancel()
	})
	if allocs != 0 {
		t.Errorf("%v allocations per cycle, want 0", allocs)
	}
	if fired < 1000 {
		t.Errorf("fired %d times, want >= 1000", fired)
	}
}
