package live

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/internal/timerheap"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// inboxSize bounds the batches of packets socket readers may queue for
// the loop before they block (and the kernel's socket buffers take over).
const inboxSize = 256

// maxBatch is how many queued batches the loop handles before it runs due
// timers and flushes its faces.
const maxBatch = 16

// Loop is a real-time sched.Scheduler: one goroutine (the one that calls
// Run) runs every timer callback and every packet handler, one at a time.
//
// Now may be called from any goroutine. After, Timer.Stop and all Face
// methods but Close must be called on the loop goroutine (from a callback,
// or before Run starts). Other goroutines hand work to the loop with Post.
type Loop struct {
	start  time.Time
	timers timerheap.Heap

	inbox   chan inboxEvent
	batches chan []received // handled batches, back to the readers
	posted  chan func()
	dirty   []Flusher // output to write before the loop next waits
	frames  framePool
	datas   dataPool
	recycle []*ndn.Data // Data (and their frames) to return to the pools after this iteration
	stopped atomic.Bool
	ended   chan struct{} // closed when Run first returns
	endOnce sync.Once
	wake    *time.Timer
	err     error
}

// inboxEvent is a batch of decoded packets from one face (those one read
// from its socket gave), or the end of its input.
type inboxEvent struct {
	face *Face
	pkts []received
	err  error // the face went down
}

// received is a decoded packet and what the reader found of its digest.
type received struct {
	pkt    ndn.Packet
	digest digestCheck
}

// digestCheck is the outcome of a reader's DigestSha256 verification.
type digestCheck int8

const (
	digestUnchecked digestCheck = iota
	digestOK
	digestBad
)

// NewLoop returns a loop whose clock starts now.
func NewLoop() *Loop {
	return &Loop{
		start:   time.Now(),
		inbox:   make(chan inboxEvent, inboxSize),
		batches: make(chan []received, inboxSize),
		frames:  newFramePool(),
		datas:   newDataPool(),
		posted:  make(chan func(), 64),
		ended:   make(chan struct{}),
	}
}

// Now returns the time elapsed since NewLoop.
func (l *Loop) Now() time.Duration { return time.Since(l.start) }

// After runs fn on the loop goroutine once d has elapsed.
func (l *Loop) After(d time.Duration, fn func()) sched.Timer {
	if d < 0 {
		d = 0
	}
	t := &timerheap.Timer{At: l.Now() + d, Fn: fn}
	l.timers.Push(t)
	return t
}

// loopTimer is a reusable timer of a Loop (NewTimer).
type loopTimer struct {
	timerheap.Timer
	l *Loop
}

// NewTimer returns an idle reusable timer that runs fn on the loop
// goroutine (sched.TimerScheduler). Call it and Reset on the loop
// goroutine.
func (l *Loop) NewTimer(fn func()) sched.ReusableTimer {
	return &loopTimer{Timer: timerheap.Timer{Fn: fn}, l: l}
}

// Reset arms t for loop time at, replacing a pending run.
func (t *loopTimer) Reset(at time.Duration) {
	t.Stop()
	t.At = at
	t.l.timers.Push(&t.Timer)
}

// Post runs fn on the loop goroutine as soon as possible. It may be called
// from any goroutine; it blocks while the loop is busy and its queue full.
// Once Run has returned, Post returns at once and fn never runs (a socket
// reader of a stopped loop is not left waiting).
func (l *Loop) Post(fn func()) {
	select {
	case l.posted <- fn:
	case <-l.ended:
	}
}

// Stop makes Run return after the current callback with err (nil for a
// normal end). Only the first Stop's error is kept. Call it on the loop
// goroutine; from elsewhere, Post it.
func (l *Loop) Stop(err error) {
	if l.stopped.Swap(true) {
		return
	}
	l.err = err
}

// ErrStopped is what Run returns when its context ends.
var ErrStopped = errors.New("live: event loop stopped")

// Run runs the loop on the calling goroutine until Stop is called or ctx
// ends, and returns Stop's error, or ctx's wrapped in ErrStopped.
func (l *Loop) Run(ctx context.Context) error {
	l.wake = time.NewTimer(time.Hour)
	defer l.wake.Stop()
	defer l.endOnce.Do(func() { close(l.ended) })
	for !l.stopped.Load() {
		l.runDue()
		l.flush()
		if l.stopped.Load() {
			break
		}
		l.armWake()
		select {
		case ev := <-l.inbox:
			l.handle(ev)
			l.drain()
		case fn := <-l.posted:
			fn()
			l.drain()
		case <-l.wake.C:
		case <-ctx.Done():
			l.Stop(errors.Join(ErrStopped, ctx.Err()))
		}
	}
	l.flush()
	return l.err
}

// drain handles the events and posted functions already queued, up to
// maxBatch, so that the packets they trigger leave in one write.
func (l *Loop) drain() {
	for range maxBatch {
		if l.stopped.Load() {
			return
		}
		select {
		case ev := <-l.inbox:
			l.handle(ev)
		case fn := <-l.posted:
			fn()
		default:
			return
		}
	}
}

func (l *Loop) handle(ev inboxEvent) {
	for _, r := range ev.pkts {
		if l.stopped.Load() {
			return
		}
		ev.face.deliver(r)
	}
	if ev.err != nil {
		ev.face.down(ev.err)
	}
	l.reuseBatch(ev.pkts)
}

// reuseBatch hands a handled batch back for a stream reader's next one
// (a datagram reader's one-packet batches are too small to keep).
func (l *Loop) reuseBatch(b []received) {
	if cap(b) < maxReadBatch {
		return
	}
	clear(b) // drop the references to the packets
	select {
	case l.batches <- b[:0]:
	default:
	}
}

// newBatch returns an empty batch for a reader, reused when one is free.
func (l *Loop) newBatch() []received {
	select {
	case b := <-l.batches:
		return b
	default:
		return make([]received, 0, maxReadBatch)
	}
}

// runDue runs every timer whose time has come.
func (l *Loop) runDue() {
	now := l.Now()
	for !l.stopped.Load() {
		if at, _, ok := l.timers.Peek(); !ok || at > now {
			return
		}
		fn, _, _ := l.timers.Pop()
		fn()
	}
}

// armWake sets the wake-up timer to the earliest pending timer.
func (l *Loop) armWake() {
	if !l.wake.Stop() {
		select {
		case <-l.wake.C:
		default:
		}
	}
	d := time.Hour
	if at, _, ok := l.timers.Peek(); ok {
		d = max(at-l.Now(), 0)
	}
	l.wake.Reset(d)
}

// Flusher is output the loop writes out once the events at hand are
// handled, before it next waits (see MarkDirty).
type Flusher interface {
	// Flush writes (or hands to a writer) the output buffered so far. It
	// runs on the loop goroutine.
	Flush()
}

// MarkDirty asks the loop to call f.Flush once before it next waits; call
// it on the loop goroutine, once per batch of output (Flush may mark f
// again).
func (l *Loop) MarkDirty(f Flusher) {
	l.dirty = append(l.dirty, f)
}

func (l *Loop) flush() {
	for i := 0; i < len(l.dirty); i++ { // a Flush may mark more
		l.dirty[i].Flush()
		l.dirty[i] = nil
	}
	l.dirty = l.dirty[:0]
	for i, d := range l.recycle {
		l.frames.put(d.Wire)
		l.datas.put(d)
		l.recycle[i] = nil
	}
	l.recycle = l.recycle[:0]
}

// Recycle hands back a received Data the caller is done with, and its
// receive buffer: nothing may use d, its name, payload or wire bytes (nor
// anything else received in the same frame) once the current callback
// returns. Both are reused after the current loop iteration, d for a
// later Data. Each Data may be recycled once.
func (l *Loop) Recycle(d *ndn.Data) {
	if d != nil {
		l.recycle = append(l.recycle, d)
	}
}
