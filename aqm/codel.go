package aqm

import (
	"fmt"
	"math"
	"time"
)

// Defaults of CoDel's parameters (RFC 8289, section 4).
const (
	DefaultCoDelTarget   = 5 * time.Millisecond
	DefaultCoDelInterval = 100 * time.Millisecond
	DefaultMTU           = 1500 // bytes
)

// Mode says what an AQM does to a packet it has chosen as a congestion
// signal.
type Mode uint8

// AQM modes.
const (
	// Drop discards the packet (it is counted in Stats.AQMDrops).
	Drop Mode = iota
	// Mark sets the packet's NDNLPv2 CongestionMark to 1 and transmits
	// it (counted in Stats.Marks). Any packet type is marked; what a
	// mark on an Interest or Nack means is the forwarder's business.
	Mark
)

// String returns "drop" or "mark".
func (m Mode) String() string {
	switch m {
	case Drop:
		return "drop"
	case Mark:
		return "mark"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// CoDelParams are CoDel's parameters.
type CoDelParams struct {
	// Target is the acceptable standing queue delay (sojourn time).
	Target time.Duration
	// Interval is how long the sojourn time must stay at or above Target
	// before CoDel acts, and the base spacing of its control law.
	Interval time.Duration
	// MTU is the maximum packet size in bytes: CoDel never drops or
	// marks while at most MTU bytes remain queued behind the head packet,
	// so a link is never starved of its last packet. 0 disables the rule.
	MTU int
}

// DefaultCoDelParams returns RFC 8289's defaults: target 5 ms, interval
// 100 ms, MTU 1500 bytes.
func DefaultCoDelParams() CoDelParams {
	return CoDelParams{Target: DefaultCoDelTarget, Interval: DefaultCoDelInterval, MTU: DefaultMTU}
}

// Validate reports an error if a parameter is out of range.
func (p CoDelParams) Validate() error {
	if p.Target <= 0 {
		return fmt.Errorf("aqm: codel target %v must be positive", p.Target)
	}
	if p.Interval <= 0 {
		return fmt.Errorf("aqm: codel interval %v must be positive", p.Interval)
	}
	if p.MTU < 0 {
		return fmt.Errorf("aqm: codel mtu %d must not be negative", p.MTU)
	}
	return nil
}

// CoDel is a FIFO with tail-drop limits and the Controlled Delay AQM of
// RFC 8289, which acts at dequeue on the packet's sojourn time.
//
// When the sojourn time has stayed at or above Target for a full Interval
// (and more than MTU bytes remain queued), CoDel enters its dropping state
// and signals the head packet. While in that state it signals again each
// time the next-signal time passes, spacing signals Interval/sqrt(count)
// apart, where count is the number of signals in this dropping state. It
// leaves the state on the first dequeue whose packet is below Target (or
// leaves at most MTU bytes behind). On re-entering within 16 intervals of
// the last scheduled signal, count resumes at the number of signals the
// previous dropping state added (if more than one) instead of 1.
//
// In Drop mode, a signal discards the packet (handing it to the drop
// handler, see SetDropHandler) and CoDel looks at the next one, so one
// Dequeue may drop several packets, exactly as RFC 8289's pseudocode does. In Mark mode, a signal marks the packet and returns it;
// at most one packet is marked per Dequeue, and the next-signal time
// advances at the mark (as in ECN-capable CoDel).
type CoDel struct {
	fifo
	mode Mode
	p    CoDelParams
	st   CoDelState
}

// CoDelState is CoDel's control state, exposed for tests and traces.
type CoDelState struct {
	// Above is true while the sojourn time has been at or above Target
	// since the dequeue that set FirstAbove.
	Above bool
	// FirstAbove is when the sojourn time will have been above Target for
	// a full interval (meaningful when Above).
	FirstAbove time.Duration
	// Dropping is true in the dropping (signalling) state.
	Dropping bool
	// DropNext is the time of the next drop or mark while Dropping.
	DropNext time.Duration
	// Count is the number of drops or marks in the current (or last)
	// dropping state, as adjusted by the re-entry rule.
	Count int
	// LastCount is Count as it was when the dropping state was entered.
	LastCount int
}

// NewCoDel returns an empty CoDel queue.
func NewCoDel(mode Mode, p CoDelParams, lim Limits) (*CoDel, error) {
	if mode != Drop && mode != Mark {
		return nil, fmt.Errorf("aqm: codel mode %v is neither drop nor mark", mode)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	return &CoDel{fifo: fifo{lim: lim}, mode: mode, p: p}, nil
}

// Mode returns whether the queue drops or marks.
func (q *CoDel) Mode() Mode { return q.mode }

// Params returns the queue's CoDel parameters.
func (q *CoDel) Params() CoDelParams { return q.p }

// State returns a copy of CoDel's control state.
func (q *CoDel) State() CoDelState { return q.st }

// Enqueue adds it at time now; it reports false if a limit dropped it.
func (q *CoDel) Enqueue(it Item, now time.Duration) bool { return q.enqueue(it, now) }

// Pass implements Queue: Enqueue, then Dequeue.
func (q *CoDel) Pass(it *Item, now time.Duration) (admitted, ok bool) {
	return enqueueDequeue(q, it, now)
}

// Dequeue removes the head packet for transmission at now, first dropping
// (Drop mode) or marking (Mark mode) as the control law says.
func (q *CoDel) Dequeue(now time.Duration) (it Item, ok bool) {
	it, ok, okToDrop := q.next(now)
	if !ok {
		q.st.Dropping = false
		return it, false
	}
	st := &q.st
	switch {
	case st.Dropping:
		if !okToDrop {
			st.Dropping = false
		}
		for st.Dropping && now >= st.DropNext {
			st.Count++
			if q.mode == Mark {
				st.DropNext = q.controlLaw(st.DropNext)
				q.mark(&it)
				break
			}
			q.aqmDrop(it)
			it, ok, okToDrop = q.next(now)
			if okToDrop {
				st.DropNext = q.controlLaw(st.DropNext)
			} else {
				st.Dropping = false
			}
		}
	case okToDrop:
		if q.mode == Mark {
			q.mark(&it)
		} else {
			q.aqmDrop(it)
			it, ok, _ = q.next(now)
		}
		st.Dropping = true
		delta := st.Count - st.LastCount
		st.Count = 1
		if delta > 1 && now-st.DropNext < 16*q.p.Interval {
			st.Count = delta
		}
		st.DropNext = q.controlLaw(now)
		st.LastCount = st.Count
	}
	if ok {
		q.stats.Dequeued++
	}
	return it, ok
}

// next pops the head packet and updates the above-target tracking; okToDrop
// says whether the sojourn time has now been at or above Target for at
// least an interval with more than an MTU still queued.
func (q *CoDel) next(now time.Duration) (it Item, ok, okToDrop bool) {
	it, ok = q.pop()
	if !ok {
		q.st.Above = false
		return it, false, false
	}
	if now-it.Enqueued < q.p.Target || q.ring.bytes <= q.p.MTU {
		q.st.Above = false
		return it, true, false
	}
	if !q.st.Above {
		q.st.Above = true
		q.st.FirstAbove = now + q.p.Interval
		return it, true, false
	}
	return it, true, now >= q.st.FirstAbove
}

// controlLaw returns t + Interval/sqrt(Count).
func (q *CoDel) controlLaw(t time.Duration) time.Duration {
	return t + time.Duration(float64(q.p.Interval)/math.Sqrt(float64(q.st.Count)))
}
