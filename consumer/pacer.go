package consumer

import (
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/lazytimer"
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
	next  time.Duration // earliest time of the next Interest
	timer lazytimer.Timer
}

func newPacer(alg cc.Paced, s sched.Scheduler, wake func()) *pacer {
	p := &pacer{alg: alg, s: s}
	p.timer.Init(s, wake)
	return p
}

// ready reports whether an Interest may go now; if not, it arms the timer
// that calls wake when one may.
func (p *pacer) ready() bool {
	if p == nil {
		return true
	}
	if p.s.Now() >= p.next || p.alg.PacingInterval() <= 0 {
		return true
	}
	if !p.timer.Armed() {
		p.timer.Set(p.next)
	}
	return false
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
	if p != nil {
		p.timer.Cancel()
	}
}
