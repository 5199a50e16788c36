package live

import (
	"context"
	"fmt"
	"time"

	"github.com/ndncc/ndncc/live/face"
)

// Reconnect tells an Endpoint to re-establish its connection to the
// forwarder when it is lost (a forwarder restarted or killed), instead of
// giving up at once.
type Reconnect struct {
	// Budget is how long to keep trying, from the loss until a new
	// connection has delivered a packet; 0 never reconnects.
	Budget time.Duration
	// Dial opens a new face on the endpoint's loop. It runs on its own
	// goroutine and must honour ctx.
	Dial func(ctx context.Context) (*face.Face, error)
}

// Delays between reconnection attempts: the first is immediate, then each
// waits twice as long as the one before, from minRedial to maxRedial.
const (
	minRedial = 50 * time.Millisecond
	maxRedial = time.Second
)

// reconnector is an Endpoint's reconnection state (on the loop goroutine).
type reconnector struct {
	cfg        Reconnect
	ctx        context.Context // ends with the endpoint (Close)
	cancel     context.CancelFunc
	recovering bool          // lost, and no packet has come on a new face yet
	lostAt     time.Duration // when recovery began
	attempts   int           // dials since recovery began
	lastErr    error         // why the last connection ended, or the last dial failed
}

// SetReconnect makes e reconnect as cfg says when its face goes down.
// Call it on the loop goroutine, or before the loop runs.
func (e *Endpoint) SetReconnect(cfg Reconnect) { e.re.cfg = cfg }

// OnLost sets the handler called once the connection is lost for good:
// at once without a reconnection budget, else when the budget is spent.
func (e *Endpoint) OnLost(fn func(error)) { e.onLost = fn }

// OnRestored sets the handler called each time a new connection replaces
// a lost one: re-register prefixes, re-express what the old forwarder
// forgot. The endpoint itself re-sends its pending one-shot Interests.
func (e *Endpoint) OnRestored(fn func()) { e.onRestored = fn }

// Close ends reconnection attempts and closes the face. It may be called
// from any goroutine.
func (e *Endpoint) Close() error {
	e.re.cancel()
	return e.face.Close()
}

// reconnecting reports whether a lost connection may still be restored.
func (e *Endpoint) reconnecting() bool {
	return e.re.cfg.Budget > 0 && e.re.cfg.Dial != nil && !e.lostForGood
}

// down handles the loss of the current face.
func (e *Endpoint) down(err error) {
	e.face.Close()
	r := &e.re
	r.lastErr = err
	if r.cfg.Budget <= 0 || r.cfg.Dial == nil {
		e.lost(err)
		return
	}
	if !r.recovering {
		r.recovering, r.lostAt, r.attempts = true, e.loop.Now(), 0
	}
	e.redial()
}

// redial schedules the next connection attempt, or gives up when the
// budget is spent.
func (e *Endpoint) redial() {
	r := &e.re
	left := r.cfg.Budget - (e.loop.Now() - r.lostAt)
	if left <= 0 {
		e.lost(fmt.Errorf("%w (no new connection within %v: %w)", ErrFaceDown, r.cfg.Budget, r.lastErr))
		return
	}
	wait := time.Duration(0)
	if r.attempts > 0 {
		wait = min(minRedial<<min(r.attempts-1, 16), maxRedial, left)
	}
	r.attempts++
	e.loop.After(wait, func() {
		ctx, cancel := context.WithTimeout(r.ctx, left-wait)
		go func() {
			defer cancel()
			f, err := r.cfg.Dial(ctx)
			if !e.loop.PostUnless(func() { e.dialed(f, err) }, r.ctx.Done()) && f != nil {
				f.Close()
			}
		}()
	})
}

// dialed takes the outcome of one connection attempt.
func (e *Endpoint) dialed(f *face.Face, err error) {
	if e.re.ctx.Err() != nil || e.lostForGood {
		if f != nil {
			f.Close()
		}
		return
	}
	if err != nil {
		e.re.lastErr = err
		e.redial()
		return
	}
	e.adopt(f)
	for _, q := range e.pending {
		if q.timer != nil {
			q.timer.Stop()
		}
		e.send(q)
	}
	if e.onRestored != nil {
		e.onRestored()
	}
}

// adopt makes f the endpoint's face.
func (e *Endpoint) adopt(f *face.Face) {
	e.face = f
	f.OnPacket(e.receive)
	f.OnDown(e.down)
}

// lost gives up on the connection.
func (e *Endpoint) lost(err error) {
	if e.lostForGood {
		return
	}
	e.lostForGood = true
	if e.onLost != nil {
		e.onLost(err)
	}
}
