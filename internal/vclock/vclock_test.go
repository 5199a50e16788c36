package vclock

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/ndncc/ndncc/sched"
)

// logger records which callbacks ran and at what virtual time.
type logger struct {
	s   *Scheduler
	got []string
}

func (l *logger) fn(name string) func() {
	return func() { l.got = append(l.got, fmt.Sprintf("%s@%v", name, l.s.Now())) }
}

func TestSchedulerOrdersByTimeThenInsertion(t *testing.T) {
	s := &Scheduler{}
	l := &logger{s: s}
	s.After(20*time.Millisecond, l.fn("a"))
	s.After(10*time.Millisecond, l.fn("b"))
	s.At(10*time.Millisecond, l.fn("c")) // recycled event, same time: after b
	s.After(10*time.Millisecond, l.fn("d"))
	s.After(0, l.fn("e"))
	s.After(5*time.Millisecond, func() {
		l.fn("f")()
		// Scheduled during the run at an already-occupied time: after c and d.
		s.After(5*time.Millisecond, l.fn("g"))
	})
	for s.Step() {
	}
	want := []string{"e@0s", "f@5ms", "b@10ms", "c@10ms", "d@10ms", "g@10ms", "a@20ms"}
	if !reflect.DeepEqual(l.got, want) {
		t.Fatalf("order = %v, want %v", l.got, want)
	}
	if s.Events() != 7 {
		t.Errorf("Events() = %d, want 7", s.Events())
	}
	if s.Pending() != 0 {
		t.Errorf("Pending() = %d, want 0", s.Pending())
	}
}

func TestSchedulerNegativeDelayRunsNowAfterQueuedEvents(t *testing.T) {
	s := &Scheduler{}
	l := &logger{s: s}
	s.After(5*time.Millisecond, func() {
		s.After(-3*time.Millisecond, l.fn("neg"))
	})
	s.After(5*time.Millisecond, l.fn("same"))
	for s.Step() {
	}
	want := []string{"same@5ms", "neg@5ms"}
	if !reflect.DeepEqual(l.got, want) {
		t.Fatalf("order = %v, want %v (a negative delay is zero, never the past)", l.got, want)
	}
}

func TestSchedulerStop(t *testing.T) {
	s := &Scheduler{}
	l := &logger{s: s}
	a := s.After(10*time.Millisecond, l.fn("a"))
	b := s.After(10*time.Millisecond, l.fn("b"))
	c := s.After(20*time.Millisecond, l.fn("c"))
	s.After(5*time.Millisecond, func() {
		if !b.Stop() {
			t.Error("first Stop of a pending timer = false, want true")
		}
		if b.Stop() {
			t.Error("second Stop = true, want false")
		}
	})
	if s.Pending() != 4 {
		t.Fatalf("Pending() = %d, want 4", s.Pending())
	}
	for s.Step() {
	}
	if a.Stop() {
		t.Error("Stop after the callback ran = true, want false")
	}
	if c.Stop() {
		t.Error("Stop after the callback ran = true, want false")
	}
	want := []string{"a@10ms", "c@20ms"}
	if !reflect.DeepEqual(l.got, want) {
		t.Fatalf("ran %v, want %v", l.got, want)
	}
	if s.Events() != 3 {
		t.Errorf("Events() = %d, want 3 (a stopped timer is not an event)", s.Events())
	}
}

func TestSchedulerStopKeepsHeapOrder(t *testing.T) {
	// Stopping timers in the middle of the heap must leave the others in
	// (time, insertion) order.
	s := &Scheduler{}
	var got []int
	var timers []interface{ Stop() bool }
	for i := 0; i < 50; i++ {
		i := i
		d := time.Duration((i*37)%11) * time.Millisecond
		timers = append(timers, s.After(d, func() { got = append(got, i) }))
	}
	for i := 0; i < 50; i += 3 {
		timers[i].Stop()
	}
	for s.Step() {
	}
	var want []int
	for ms := 0; ms < 11; ms++ {
		for i := 0; i < 50; i++ {
			if i%3 != 0 && (i*37)%11 == ms {
				want = append(want, i)
			}
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("order = %v, want %v", got, want)
	}
}

func TestSchedulerRunUntil(t *testing.T) {
	tests := []struct {
		name        string
		limit       time.Duration
		stopAfter   int // stop() returns true once this many events ran; 0: never
		wantRan     []string
		wantNow     time.Duration
		wantPending int
	}{
		{"limit between events", 25 * time.Millisecond, 0, []string{"a@10ms", "b@20ms"}, 20 * time.Millisecond, 2},
		{"limit on an event runs it", 30 * time.Millisecond, 0, []string{"a@10ms", "b@20ms", "c@30ms"}, 30 * time.Millisecond, 1},
		{"limit before all", 5 * time.Millisecond, 0, nil, 0, 4},
		{"no limit drains", time.Hour, 0, []string{"a@10ms", "b@20ms", "c@30ms", "d@40ms"}, 40 * time.Millisecond, 0},
		{"stop func", time.Hour, 2, []string{"a@10ms", "b@20ms"}, 20 * time.Millisecond, 2},
	}
	for _, tt := range tests {
		for _, while := range []bool{false, true} {
			name := tt.name + "/RunUntil"
			if while {
				name = tt.name + "/RunWhile"
			}
			t.Run(name, func(t *testing.T) {
				s := &Scheduler{}
				l := &logger{s: s}
				left := -1 // RunWhile's count: 0 once stopAfter events ran
				if tt.stopAfter > 0 {
					left = tt.stopAfter
				}
				for i, n := range []string{"a", "b", "c", "d"} {
					fn := l.fn(n)
					s.After(time.Duration(i+1)*10*time.Millisecond, func() { fn(); left-- })
				}
				var stop func() bool
				if tt.stopAfter > 0 {
					stop = func() bool { return len(l.got) >= tt.stopAfter }
				}
				if while {
					s.RunWhile(tt.limit, &left)
				} else {
					s.RunUntil(tt.limit, stop)
				}
				if !reflect.DeepEqual(l.got, tt.wantRan) {
					t.Errorf("ran %v, want %v", l.got, tt.wantRan)
				}
				if s.Now() != tt.wantNow {
					t.Errorf("Now() = %v, want %v", s.Now(), tt.wantNow)
				}
				if s.Pending() != tt.wantPending {
					t.Errorf("Pending() = %d, want %d", s.Pending(), tt.wantPending)
				}
			})
		}
	}
}

func TestSchedulerRecyclesInternalEvents(t *testing.T) {
	// Internal events (at) are reused once fired, so a steady stream of
	// them does not allocate.
	s := &Scheduler{}
	var fn func()
	n := 0
	fn = func() {
		n++
		s.At(s.Now()+time.Microsecond, fn)
	}
	s.At(0, fn)
	s.RunUntil(time.Millisecond, nil) // warm up
	allocs := testing.AllocsPerRun(1000, func() { s.Step() })
	if allocs != 0 {
		t.Errorf("allocations per recycled event = %v, want 0", allocs)
	}
	if n < 1000 {
		t.Errorf("ran %d events, want >= 1000", n)
	}
}

func TestAdvanceTo(t *testing.T) {
	var s Scheduler
	var ran []time.Duration
	for _, d := range []time.Duration{5, 10, 15} {
		s.After(d*time.Millisecond, func() { ran = append(ran, s.Now()) })
	}
	s.AdvanceTo(12 * time.Millisecond)
	if want := []time.Duration{5 * time.Millisecond, 10 * time.Millisecond}; !reflect.DeepEqual(ran, want) || s.Now() != 12*time.Millisecond {
		t.Errorf("after AdvanceTo(12ms): ran at %v, now %v; want %v, now 12ms", ran, s.Now(), want)
	}
	s.AdvanceTo(time.Millisecond) // never back
	if s.Now() != 12*time.Millisecond || s.Pending() != 1 {
		t.Errorf("AdvanceTo(1ms) from 12ms: now %v, %d pending; want 12ms, 1", s.Now(), s.Pending())
	}
}

// TestPerPacketEventsAllocateNothing pins BenchmarkEvent's claim for every
// kind of event the simulator's per-packet paths use: once warm, a steady
// stream of lane events, of zero-delay At events, and of reusable timers
// re-armed ahead and stopped (a PIT entry's expiry) allocates nothing.
func TestPerPacketEventsAllocateNothing(t *testing.T) {
	tests := []struct {
		name  string
		start func(s *Scheduler) // schedules a self-renewing stream
	}{
		{"lane", func(s *Scheduler) {
			var l sched.Lane
			l = s.NewLane(func() { l.At(s.Now() + 3*time.Microsecond) })
			l.At(0)
		}},
		{"At now, then later", func(s *Scheduler) {
			var later, now func()
			now = func() { s.At(s.Now()+time.Microsecond, later) }
			later = func() { s.At(s.Now(), now) }
			s.At(0, now)
		}},
		{"reusable timers", func(s *Scheduler) {
			expiry := s.NewTimer(func() {})
			var tick func()
			tick = func() {
				expiry.Stop()
				expiry.Reset(s.Now() + time.Second)
				s.At(s.Now()+time.Microsecond, tick)
			}
			s.At(0, tick)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Scheduler{}
			tt.start(s)
			s.RunUntil(10*time.Millisecond, nil) // warm up: queues at their size
			before := s.Events()
			if allocs := testing.AllocsPerRun(1000, func() { s.Step() }); allocs != 0 {
				t.Errorf("%v allocations per event, want 0", allocs)
			}
			if ran := s.Events() - before; ran < 1000 {
				t.Errorf("ran %d events, want at least 1000", ran)
			}
		})
	}
}
