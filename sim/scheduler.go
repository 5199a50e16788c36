// Package sim is ndncc's discrete-event network simulator: a virtual-time
// scheduler, modelled links, and the assembly of forwarders, producers and
// consumers from a scenario into a network that runs deterministically.
//
// sim binds the sans-IO protocol core (fw, consumer, producer, cc) to
// virtual time. It is the only place besides package live that owns time
// and packet delivery; nothing in the core may import it.
package sim

import (
	"time"

	"github.com/ndncc/ndncc/sched"
)

// Scheduler is a virtual-time event scheduler. Events at the same time run
// in the order they were scheduled, so a run is deterministic. It
// implements sched.Scheduler.
type Scheduler struct {
	now    time.Duration
	seq    uint64
	events eventHeap
	free   []*event
	fired  uint64
}

type event struct {
	at    time.Duration
	seq   uint64
	fn    func()
	index int  // position in the heap, -1 when not queued
	owned bool // handed out as a sched.Timer: never recycled
	s     *Scheduler
}

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler { return &Scheduler{} }

// Now returns the current virtual time.
func (s *Scheduler) Now() time.Duration { return s.now }

// Events returns the number of events run so far.
func (s *Scheduler) Events() uint64 { return s.fired }

// Pending returns the number of queued events.
func (s *Scheduler) Pending() int { return len(s.events) }

// After implements sched.Scheduler.
func (s *Scheduler) After(d time.Duration, fn func()) sched.Timer {
	if d < 0 {
		d = 0
	}
	ev := &event{at: s.now + d, fn: fn, owned: true, s: s}
	s.push(ev)
	return ev
}

// at schedules fn at absolute time t with a recycled event; the caller gets
// no handle, so the event can be reused once it has fired.
func (s *Scheduler) at(t time.Duration, fn func()) {
	var ev *event
	if n := len(s.free); n > 0 {
		ev = s.free[n-1]
		s.free = s.free[:n-1]
	} else {
		ev = &event{s: s}
	}
	ev.at, ev.fn = t, fn
	s.push(ev)
}

func (s *Scheduler) push(ev *event) {
	ev.seq = s.seq
	s.seq++
	s.events.push(ev)
}

// Stop implements sched.Timer.
func (ev *event) Stop() bool {
	if ev.index < 0 {
		return false
	}
	ev.s.events.remove(ev.index)
	ev.fn = nil
	return true
}

// Step runs the earliest event. It reports false when no event is queued.
func (s *Scheduler) Step() bool {
	if len(s.events) == 0 {
		return false
	}
	ev := s.events.remove(0)
	s.now = ev.at
	fn := ev.fn
	ev.fn = nil
	if !ev.owned {
		s.free = append(s.free, ev)
	}
	s.fired++
	fn()
	return true
}

// RunUntil runs events until none is left, stop returns true, or the next
// event lies after limit. Time then stands at the last event run.
func (s *Scheduler) RunUntil(limit time.Duration, stop func() bool) {
	for len(s.events) > 0 && s.events[0].at <= limit {
		s.Step()
		if stop != nil && stop() {
			return
		}
	}
}

// eventHeap is a binary min-heap of events ordered by (time, sequence),
// typed to avoid container/heap's interface calls on the hot path.
type eventHeap []*event

func (h eventHeap) less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}

func (h eventHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}

func (h *eventHeap) push(ev *event) {
	ev.index = len(*h)
	*h = append(*h, ev)
	h.up(ev.index)
}

// remove takes out the event at position i and returns it.
func (h *eventHeap) remove(i int) *event {
	old := *h
	n := len(old) - 1
	ev := old[i]
	if i != n {
		old.swap(i, n)
	}
	old[n] = nil
	*h = old[:n]
	if i != n {
		if !h.down(i) {
			h.up(i)
		}
	}
	ev.index = -1
	return ev
}

func (h eventHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

func (h eventHeap) down(i0 int) bool {
	i, n := i0, len(h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		j := l
		if r := l + 1; r < n && h.less(r, l) {
			j = r
		}
		if !h.less(j, i) {
			break
		}
		h.swap(i, j)
		i = j
	}
	return i > i0
}
