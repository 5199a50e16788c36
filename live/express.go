package live

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Errors a one-shot Interest ends with.
var (
	// ErrNoReply reports an Interest that got no Data within its
	// lifetime, however often it was retransmitted.
	ErrNoReply = errors.New("no reply")
	// ErrNacked reports an Interest the network answered with a Nack.
	ErrNacked = errors.New("Nack")
)

// Request is a one-shot Interest, retransmitted until a Data answers it.
type Request struct {
	// Name is what the Data's name must start with (the Interest's name).
	Name        ndn.Name
	CanBePrefix bool
	MustBeFresh bool
	// Lifetime is the InterestLifetime and the wait before a retry.
	// 0 means 1 s.
	Lifetime time.Duration
	// Retries is how often the Interest is sent again after a timeout.
	Retries int
	// Budget, if positive, ends the request with ErrNoReply once this long
	// has passed since the first attempt, whatever retries are left.
	Budget time.Duration
	// Wire, if set, returns the encoded Interest for each attempt (for
	// signed command Interests); Name then only selects the answer.
	Wire func() ([]byte, error)
}

// Endpoint shares one Face between a long-lived handler (a pipeline, a
// producer) and one-shot Interests: each incoming Data or Nack is first
// offered to the outstanding requests, then to the handler. It implements
// ndn.Face, so the core sends through it. When its face goes down it
// reconnects if SetReconnect allows (reconnect.go), and the handler and
// the pending requests carry on over the new face. Use it on the loop
// goroutine.
type Endpoint struct {
	loop    *eventloop.Loop
	face    *face.Face
	rand    *rand.Rand
	handler func(ndn.Packet)
	pending []*request

	re          reconnector
	onLost      func(error)
	onRestored  func()
	lostForGood bool
}

type request struct {
	Request
	done     func(*ndn.Data, error)
	attempts int
	first    time.Duration // when the first attempt was sent
	timer    sched.Timer
}

// NewEndpoint takes over f's packet and down handlers.
func NewEndpoint(loop *eventloop.Loop, f *face.Face, r *rand.Rand) *Endpoint {
	e := &Endpoint{loop: loop, rand: r}
	e.re.ctx, e.re.cancel = context.WithCancel(context.Background())
	e.adopt(f)
	return e
}

// Face returns the underlying face.
func (e *Endpoint) Face() *face.Face { return e.face }

// recycle hands d back to the current face's free lists (Face.Recycle);
// a Data of an earlier face is as good for them.
func (e *Endpoint) recycle(d *ndn.Data) {
	if e.face != nil {
		e.face.Recycle(d)
	}
}

// Handle sets the handler of packets no request claims.
func (e *Endpoint) Handle(fn func(ndn.Packet)) { e.handler = fn }

// Send implements ndn.Face.
func (e *Endpoint) Send(p ndn.Packet) { e.face.Send(p) }

// EncodesOnSend marks the endpoint as an ndn.EncodingFace: its face, an
// application's, encodes a packet within Send and keeps no reference to
// it.
func (e *Endpoint) EncodesOnSend() {}

// SendWire sends an encoded packet (face.Face.SendWire, which counts a
// packet that cannot be sent as Send counts it).
func (e *Endpoint) SendWire(b []byte) { _ = e.face.SendWire(b) }

// Express sends a one-shot Interest and calls done once with the Data
// that answers it, or with an error wrapping ErrNoReply, ErrNacked or the
// encoding failure. A timeout, a Nack Congestion and a Nack Duplicate
// send the Interest again while r.Retries allows.
func (e *Endpoint) Express(r Request, done func(*ndn.Data, error)) {
	if r.Lifetime <= 0 {
		r.Lifetime = time.Second
	}
	q := &request{Request: r, done: done, first: e.loop.Now()}
	e.pending = append(e.pending, q)
	e.send(q)
}

func (e *Endpoint) send(q *request) {
	q.attempts++
	var err error
	if q.Wire != nil {
		var b []byte
		if b, err = q.Wire(); err == nil {
			err = e.face.SendWire(b)
		}
	} else {
		in := &ndn.Interest{Name: q.Name, CanBePrefix: q.CanBePrefix, MustBeFresh: q.MustBeFresh,
			Lifetime: q.Lifetime, Nonce: e.rand.Uint32()}
		e.face.Send(ndn.Packet{Interest: in})
		err = e.face.Err()
	}
	if err != nil && !(errors.Is(err, ErrFaceDown) && e.reconnecting()) {
		e.finish(q, nil, fmt.Errorf("send Interest %s: %w", q.Name, err))
		return
	}
	// Sent, or lost with a connection that is being restored: the
	// request is sent again on the new one, or when its timer runs out.
	wait := q.Lifetime
	if q.Budget > 0 {
		wait = min(wait, q.first+q.Budget-e.loop.Now())
	}
	q.timer = e.loop.After(wait, func() { e.expire(q) })
}

func (e *Endpoint) expire(q *request) {
	if q.Budget > 0 && e.loop.Now()-q.first >= q.Budget {
		e.finish(q, nil, fmt.Errorf("Interest %s: %w within %v (%d attempts)", q.Name, ErrNoReply, q.Budget, q.attempts))
		return
	}
	if q.attempts <= q.Retries {
		e.send(q)
		return
	}
	e.finish(q, nil, fmt.Errorf("Interest %s: %w after %d attempts of %v", q.Name, ErrNoReply, q.attempts, q.Lifetime))
}

func (e *Endpoint) finish(q *request, d *ndn.Data, err error) {
	for i, p := range e.pending {
		if p == q {
			e.pending = append(e.pending[:i], e.pending[i+1:]...)
			break
		}
	}
	if q.timer != nil {
		q.timer.Stop()
	}
	q.done(d, err)
}

// retriable reports whether a request Nacked for reason r is sent again.
func retriable(r ndn.NackReason) bool { return r == ndn.NackCongestion || r == ndn.NackDuplicate }

// receive offers a packet to the pending requests, then to the handler.
func (e *Endpoint) receive(p ndn.Packet) {
	e.re.recovering = false // the connection works: a later loss starts a new budget
	name := p.Name()
	for _, q := range e.pending {
		if !q.Name.IsPrefix(name) {
			continue
		}
		switch {
		case p.Data != nil:
			e.finish(q, p.Data, nil)
			return
		case p.IsNack() && retriable(p.Nack) && q.attempts <= q.Retries:
			// As ndn-cxx's DataFetcher does: a Congestion Nack (a queue or
			// link dropped the Interest, or PCON's link-loss Nack) or a
			// Duplicate is worth another attempt; the Interest goes again
			// at once with a fresh nonce.
			q.timer.Stop()
			e.send(q)
			return
		case p.IsNack():
			e.finish(q, nil, fmt.Errorf("Interest %s: %w, reason %s", q.Name, ErrNacked, p.Nack))
			return
		}
	}
	if e.handler != nil {
		e.handler(p)
	}
}
