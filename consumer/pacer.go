package consumer

import (
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/sched"
)

// pacer spaces Interests at the interval a paced algorithm (cc.Paced)
// asks for. It is sans-IO: the time is the scheduler's, and when an
// Interest must wait it asks the scheduler to call wake at the next send
// time. Up to pacingQuantum of sending time (at least one Interest)
// carries over an idle gap or a late timer.
type pacer struct {
	alg   cc.Paced
	s     sched.Scheduler
	wake  func()
	next  time.Duration // earliest time of the next Interest
	timer sched.Timer
	armed bool
}

func newPacer(alg cc.Paced, s sched.Scheduler, wake func()) *pacer {
	return &pacer{alg: alg, s: s, wake: wake}
}

// ready reports whether an Interest may go now; if not, it arms the timer
// that calls wake when one may.
func (p *pacer) ready() bool {
	if p == nil {
		return true
	}
	now := p.s.Now()
	if now >= p.next || p.alg.PacingInterval() <= 0 {
		return true
	}
	if !p.armed {
		p.armed = true
		p.timer = p.s.After(p.next-now, p.fire)
	}
	return false
}

func (p *pacer) fire() {
	p.armed = false
	p.wake()
}

// sent books an Interest sent now.
func (p *pacer) sent() {
	if p == nil {
		return
	}
	iv := p.alg.PacingInterval()
	if iv <= 0 {
		return
	}
	p.next = max(p.next, p.s.Now()-max(iv, pacingQuantum)) + iv
}

// pacingQuantum is the sending time that may carry over an idle gap or a
// late timer: at least one Interest, and up to 1 ms of them back to back
// (Linux's fq paces in quanta likewise). A timer cannot wake every few
// microseconds, as pacing one Interest at a time at a gigabit would ask.
const pacingQuantum = time.Millisecond

// stop cancels a pending wake-up.
func (p *pacer) stop() {
	if p != nil && p.armed {
		p.timer.Stop()
		p.armed = false
	}
}
