package vclock

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/sched"
)

// model is the specification of Scheduler: every event in one list, and
// Step runs the one with the smallest (time, place in push order).
type model struct {
	now  time.Duration // the current time
	next uint64        // the next place in the push order
	evs  []*modelEvent
}

type modelEvent struct {
	at, seq uint64
	fn      func()
	dead    bool
}

func (m *model) Now() time.Duration { return m.now }

func (m *model) push(at time.Duration, seq uint64, fn func()) *modelEvent {
	e := &modelEvent{at: uint64(max(at, m.now, 0)), seq: seq, fn: fn}
	m.evs = append(m.evs, e)
	return e
}

func (m *model) reserve() uint64 { m.next++; return m.next - 1 }

func (m *model) After(d time.Duration, fn func()) sched.Timer {
	return &modelTimer{m: m, e: m.push(m.now+max(d, 0), m.reserve(), fn)}
}

func (m *model) At(t time.Duration, fn func()) { m.push(t, m.reserve(), fn) }

type modelTimer struct {
	m  *model
	e  *modelEvent
	fn func()
}

func (t *modelTimer) Stop() bool {
	if t.e == nil || t.e.dead {
		return false
	}
	t.e.dead = true
	return true
}

func (t *modelTimer) Reset(at time.Duration) {
	t.Stop()
	t.e = t.m.push(at, t.m.reserve(), t.fn)
}

func (m *model) NewTimer(fn func()) sched.ReusableTimer { return &modelTimer{m: m, fn: fn} }

type modelLane struct {
	m  *model
	fn func()
}

func (m *model) NewLane(fn func()) sched.Lane { return &modelLane{m, fn} }
func (l *modelLane) At(t time.Duration)       { l.m.push(t, l.m.reserve(), l.fn) }

func (m *model) Step() bool {
	var best *modelEvent
	for _, e := range m.evs {
		if !e.dead && (best == nil || e.at < best.at || e.at == best.at && e.seq < best.seq) {
			best = e
		}
	}
	if best == nil {
		return false
	}
	best.dead = true
	m.now = time.Duration(best.at)
	best.fn()
	return true
}

// clock is what the random program needs of a scheduler.
type clock interface {
	sched.AtScheduler
	sched.TimerScheduler
	sched.LaneScheduler
	Step() bool
}

// program runs a random mix of every kind of event on c and returns the
// log of what ran when. Events schedule more events; the random source is
// drawn in run order, so two schedulers that run the same order log the
// same.
func program(c clock, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, 7))
	var log []string
	ran := func(what string) { log = append(log, fmt.Sprintf("%s@%d", what, c.Now())) }
	d := func() time.Duration { return time.Duration(rng.IntN(4)) * time.Duration(rng.IntN(20)) } // often 0, many ties
	var timers []sched.ReusableTimer
	var afters []sched.Timer
	type laneState struct {
		l    sched.Lane
		last time.Duration
	}
	var lanes []*laneState
	budget := 4000
	var act func(id int)
	act = func(id int) {
		ran(fmt.Sprint("e", id))
		for range 2 + rng.IntN(2) {
			if budget--; budget < 0 {
				return
			}
			n := budget
			switch rng.IntN(11) {
			case 0:
				c.At(c.Now()+d(), func() { act(n) })
			case 1:
				c.At(c.Now()-d(), func() { act(n) })
			case 2:
				afters = append(afters, c.After(d()-2, func() { act(n) }))
			case 3:
				if len(afters) > 0 {
					ran(fmt.Sprint("stop-after", afters[rng.IntN(len(afters))].Stop()))
				}
			case 4:
				tm := timers[rng.IntN(len(timers))]
				if rng.IntN(3) == 0 {
					ran(fmt.Sprint("stop", tm.Stop()))
				} else {
					tm.Reset(c.Now() + d()*time.Duration(rng.IntN(3)))
				}
			default:
				ls := lanes[rng.IntN(len(lanes))]
				ls.last = max(ls.last, c.Now()) + d()
				ls.l.At(ls.last)
			}
		}
	}
	for i := range 8 {
		timers = append(timers, c.NewTimer(func() { act(-1 - i) }))
		lanes = append(lanes, &laneState{l: c.NewLane(func() { act(-100 - i) })})
	}
	c.At(0, func() { act(0) })
	for c.Step() {
	}
	return log
}

// The scheduler runs every kind of event (At now and later, After and
// its Stop, reusable timers set in and out of order and stopped, lanes)
// in the order of the one-list model.
func TestSchedulerMatchesModel(t *testing.T) {
	for seed := range uint64(20) {
		want := program(&model{}, seed)
		got := program(&Scheduler{}, seed)
		if len(want) < 1000 {
			t.Fatalf("seed %d: only %d log lines", seed, len(want))
		}
		if !slices.Equal(got, want) {
			for i := range min(len(got), len(want)) {
				if got[i] != want[i] {
					t.Fatalf("seed %d: line %d: got %s, model %s", seed, i, got[i], want[i])
				}
			}
			t.Fatalf("seed %d: %d lines, model %d", seed, len(got), len(want))
		}
	}
}
