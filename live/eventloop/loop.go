package eventloop

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/internal/timerheap"
	"github.com/ndncc/ndncc/sched"
)

// InboxSize bounds the batches of input socket readers may queue for the
// loop (Deliver) before they block (and the kernel's socket buffers take
// over).
const InboxSize = 256

// maxBatch is how many queued batches the loop handles before it runs due
// timers and flushes its output.
const maxBatch = 16

// stallThreshold is how long a gap between the loop's notes of progress
// (beat), or a timer's lateness, must be for the loop to take it that it
// did not run meanwhile (its process was stopped, descheduled or paused
// by the garbage collector): the time that passed then says nothing about
// the network (Stalls), and what came in during it waits in the sockets.
// Before a timer that late runs, the loop reads that input in and handles
// it (catchUp).
const stallThreshold = 10 * time.Millisecond

// maxCatchUp bounds how long catchUp handles input before the timers.
const maxCatchUp = 200 * time.Millisecond

// catchUpPoll is how often catchUp looks at its readers when no input
// comes.
const catchUpPoll = 500 * time.Microsecond

// Loop is a real-time sched.Scheduler: one goroutine (the one that calls
// Run) runs every timer callback, posted function and batch of input, one
// at a time.
//
// Now may be called from any goroutine. After and Timer.Stop must be
// called on the loop goroutine (from a callback, or before Run starts).
// Other goroutines hand work to the loop with Post, and input with
// Deliver.
type Loop struct {
	start  time.Time
	timers timerheap.Heap

	inbox   chan inboxEvent
	posted  chan func()
	dirty   []Flusher // output to write before the loop next waits
	stopped atomic.Bool
	ended   chan struct{} // closed when Run first returns
	endOnce sync.Once
	wake    *time.Timer
	err     error

	held    inboxEvent    // taken from the inbox by runDue, read after its timers were due
	holding bool          // held is set
	arrival time.Duration // when the packet being handled was read (-1: none)
	wakeAt  time.Duration // when the loop's wait should end (-1: no timer)
	// lastBeat is when the loop last showed it ran (beat); stallTime
	// sums the gaps between beats longer than stallThreshold (Stalls).
	lastBeat, stallTime time.Duration

	sourcesMu sync.Mutex
	sources   map[Source]struct{} // open inputs, whose sockets catchUp reads
	stats     Stats
}

// Stats count how the loop ordered timers and input.
type Stats struct {
	// CatchUps counts the times timers were overdue by more than
	// stallThreshold (10 ms) and the loop first handled the input that
	// waited in its sockets; CatchUpTimeouts those that stopped waiting
	// for a socket reader after maxCatchUp (200 ms).
	CatchUps, CatchUpTimeouts uint64
	// InputFirst counts the batches of packets handled before timers that
	// were due, because they had been read before the timers ran.
	InputFirst uint64
	// Stalled is the time the loop found it had not run (Stalls).
	Stalled time.Duration
}

// Batch is input a reader goroutine hands the loop (Deliver): the
// packets one read from a socket gave, or the end of that input.
type Batch interface {
	// Handle handles the batch on the loop goroutine. One that runs a
	// callback per packet should stop early once the loop is Stopped.
	Handle()
}

// Source is a reader goroutine that takes input from a socket and
// Delivers it to the loop. The loop asks its sources how far they got
// when it catches up after a stall (see AddSource).
type Source interface {
	// Mark notes how much input the source's socket holds now and returns
	// a test, polled on the loop goroutine, of whether the reader has
	// since handed the loop all of it. Mark runs on the loop goroutine.
	Mark() (reached func() bool)
}

// inboxEvent is a batch of input and when its reader took it.
type inboxEvent struct {
	batch Batch
	at    time.Duration // loop time at which the reader took the batch's first packet from the socket (-1: not read)
}

// New returns a loop whose clock starts now.
func New() *Loop {
	return &Loop{
		start:   time.Now(),
		inbox:   make(chan inboxEvent, InboxSize),
		posted:  make(chan func(), 64),
		ended:   make(chan struct{}),
		arrival: -1,
		wakeAt:  -1,
		sources: make(map[Source]struct{}),
	}
}

// Deliver hands the loop a batch of input that its reader took from a
// socket at loop time at (Now then; negative for input not read, such as
// the end of a socket's input, which Arrival does not report). It may be
// called from any goroutine, and blocks while the inbox is full. It
// reports false, the batch not delivered, if cancel closes first.
//
// The loop handles a batch before a timer that became due after at, and
// Arrival reports at while it does.
func (l *Loop) Deliver(b Batch, at time.Duration, cancel <-chan struct{}) bool {
	select {
	case l.inbox <- inboxEvent{batch: b, at: at}:
		return true
	case <-cancel:
		return false
	}
}

// Queued returns the number of batches that wait in the inbox.
func (l *Loop) Queued() int { return len(l.inbox) }

// Arrival returns when the input being handled (a Batch's packet) was
// taken from its socket, in loop time (Now); outside a Batch's Handle, or
// for a batch delivered with a negative time, Now. The two differ when the
// loop was busy, or the process stalled, after the packet came in.
func (l *Loop) Arrival() time.Duration {
	if l.arrival < 0 {
		return l.Now()
	}
	return l.arrival
}

// Stalls returns how long, in all, the loop found it had not run: the
// loop notes the time before each batch of packets and each timer it
// handles, and when it wakes from a wait; a gap of more than 10 ms
// (stallThreshold) between two notes, not counting a wait until its
// deadline, is a stall (its process was stopped, descheduled or paused,
// or one callback ran that long). The time that passed then says nothing
// about the network: an Interest's wait for its Data across a stall is no
// round-trip time. Call it on the loop goroutine.
func (l *Loop) Stalls() time.Duration { return l.stallTime }

// Stats returns how the loop ordered timers and input so far. Call it on
// the loop goroutine, or after Run returned.
func (l *Loop) Stats() Stats {
	st := l.stats
	st.Stalled = l.stallTime
	return st
}

// Now returns the time elapsed since New.
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

// PostUnless is Post that gives up when cancel closes first: it reports
// whether fn was queued. Unlike Post it waits on after Run has returned.
func (l *Loop) PostUnless(fn func(), cancel <-chan struct{}) bool {
	select {
	case l.posted <- fn:
		return true
	case <-cancel:
		return false
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

// Stopped reports whether Stop was called: a Batch's Handle checks it
// between packets. Any goroutine.
func (l *Loop) Stopped() bool { return l.stopped.Load() }

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
		if l.holding {
			l.handle(l.take())
			l.drain()
			continue
		}
		if at, _, ok := l.timers.Peek(); ok && at <= l.Now() {
			// Due while the loop ran: runDue orders it with the input
			// read by then (a posted function may go first, as a select
			// would have it).
			select {
			case fn := <-l.posted:
				fn()
			case <-ctx.Done():
				l.Stop(errors.Join(ErrStopped, ctx.Err()))
			default:
			}
			continue
		}
		l.beat()
		l.armWake()
		select {
		case ev := <-l.inbox:
			l.wokeUp()
			l.handle(ev)
			l.drain()
		case fn := <-l.posted:
			l.wokeUp()
			fn()
			l.drain()
		case <-l.wake.C:
			l.wokeUp()
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
		if l.stopped.Load() || !l.handleNext(nil) {
			return
		}
	}
}

// handleNext handles the held batch, else a queued batch or posted
// function, and reports whether there was one. With wait nil it does not
// wait for one; else it waits until wait delivers.
func (l *Loop) handleNext(wait <-chan time.Time) bool {
	if l.holding {
		l.handle(l.take())
		return true
	}
	var ev inboxEvent
	var fn func()
	if wait == nil {
		select {
		case ev = <-l.inbox:
		case fn = <-l.posted:
		default:
			return false
		}
	} else {
		select {
		case ev = <-l.inbox:
		case fn = <-l.posted:
		case <-wait:
			return false
		}
	}
	if fn != nil {
		fn()
	} else {
		l.handle(ev)
	}
	return true
}

// wokeUp notes the loop's wake from a wait, which was due at wakeAt at the
// latest: later than that by over stallThreshold is a stall.
func (l *Loop) wokeUp() {
	if l.wakeAt < 0 {
		l.lastBeat = l.Now()
		return
	}
	l.lastBeat = max(l.lastBeat, l.wakeAt)
	l.beat()
}

// beat notes that the loop runs: a gap since the last note of more than
// stallThreshold counts as stalled time.
func (l *Loop) beat() {
	now := l.Now()
	if gap := now - l.lastBeat; gap > stallThreshold {
		l.stallTime += gap
	}
	l.lastBeat = now
}

// take returns the held event and clears it.
func (l *Loop) take() inboxEvent {
	ev := l.held
	l.held, l.holding = inboxEvent{}, false
	return ev
}

func (l *Loop) handle(ev inboxEvent) {
	l.beat()
	l.arrival = ev.at
	ev.batch.Handle()
	l.arrival = -1
}

// runDue runs every timer whose time has come, but each only after the
// input that came in before it runs: a timeout must not fire while the
// Data that answers it waits in the inbox. Batches the readers took from
// their sockets before runDue began are handled first; when a timer is
// overdue by more than stallThreshold, the loop did not run for that long
// and catchUp first reads in what waits in the sockets too.
func (l *Loop) runDue() {
	now := l.Now()
	caughtUp := time.Duration(-1) // when the last catch-up ended
	for !l.stopped.Load() {
		at, _, ok := l.timers.Peek()
		if !ok || at > now {
			return
		}
		// Late since it was due, or since the last catch-up: also a
		// stall during an earlier timer's run.
		if l.Now()-max(at, caughtUp) > stallThreshold {
			caughtUp = l.catchUp()
			now = max(now, caughtUp)
			continue
		}
		if l.handleReadBy(now) {
			l.stats.InputFirst++
			continue
		}
		fn, _, _ := l.timers.Pop()
		l.beat()
		fn()
	}
}

// handleReadBy handles the next queued batch if its reader took it from
// the socket by loop time t, and reports whether it did; a later batch is
// held for the next iteration.
func (l *Loop) handleReadBy(t time.Duration) bool {
	if !l.holding {
		select {
		case l.held = <-l.inbox:
			l.holding = true
		default:
			return false
		}
	}
	if l.held.at > t {
		return false
	}
	l.handle(l.take())
	return true
}

// catchUp reads in the input that waits for the loop's sources: it sends
// the output queued so far, notes how far each source's reader must get to
// have taken all its socket holds now, and handles batches as they come
// until every reader got there (or maxCatchUp passed). It returns the loop
// time then: the batches queued by that time are for runDue to handle
// before its timers. (Data the forwarder held back while the socket was
// full come later; the pipeline leaves the stall out of their Interests'
// waits, Stalls.)
func (l *Loop) catchUp() time.Duration {
	l.stats.CatchUps++
	l.flush()
	l.sourcesMu.Lock()
	marks := make([]func() bool, 0, len(l.sources))
	for s := range l.sources {
		marks = append(marks, s.Mark())
	}
	l.sourcesMu.Unlock()
	start := time.Now()
	var poll *time.Timer
	for !l.stopped.Load() && !caughtUp(marks) {
		if time.Since(start) >= maxCatchUp {
			l.stats.CatchUpTimeouts++
			break
		}
		if poll == nil {
			poll = time.NewTimer(catchUpPoll)
			defer poll.Stop()
		} else {
			poll.Reset(catchUpPoll)
		}
		l.handleNext(poll.C)
	}
	return l.Now()
}

// caughtUp reports whether every reader got as far as its mark asks.
func caughtUp(marks []func() bool) bool {
	for _, reached := range marks {
		if !reached() {
			return false
		}
	}
	return true
}

// AddSource registers an open input whose socket the loop reads in
// before overdue timers after a stall; RemoveSource forgets it. Both may
// be called from any goroutine.
func (l *Loop) AddSource(s Source) {
	l.sourcesMu.Lock()
	l.sources[s] = struct{}{}
	l.sourcesMu.Unlock()
}

// RemoveSource forgets a source AddSource registered.
func (l *Loop) RemoveSource(s Source) {
	l.sourcesMu.Lock()
	delete(l.sources, s)
	l.sourcesMu.Unlock()
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
	l.wakeAt = -1
	if at, _, ok := l.timers.Peek(); ok {
		d = max(at-l.Now(), 0)
		l.wakeAt = at
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
}
