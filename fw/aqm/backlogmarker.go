package aqm

import (
	"fmt"
	"math"
	"time"
)

// Defaults of the backlog marker's parameters.
const (
	// DefaultThresholdBytes is NFD's default congestion threshold for
	// UDP, TCP and Unix faces (64 KiB of send-queue backlog).
	DefaultThresholdBytes = 64 * 1024
	// DefaultMarkInterval is NFD's default base congestion marking
	// interval.
	DefaultMarkInterval = 100 * time.Millisecond
)

// BacklogParams are the backlog marker's parameters.
type BacklogParams struct {
	// ThresholdBytes is the backlog in bytes above which packets are
	// marked. Used when ThresholdPackets is 0.
	ThresholdBytes int
	// ThresholdPackets, when positive, measures the backlog in packets
	// instead of bytes (seed 002 uses 10 packets for TCP faces).
	ThresholdPackets int
	// Interval is the base spacing of marks in a congestion period.
	Interval time.Duration
}

// DefaultBacklogParams returns the defaults: a 64 KiB byte threshold and a
// 100 ms base interval.
func DefaultBacklogParams() BacklogParams {
	return BacklogParams{ThresholdBytes: DefaultThresholdBytes, Interval: DefaultMarkInterval}
}

// Validate reports an error if a parameter is out of range.
func (p BacklogParams) Validate() error {
	if p.ThresholdBytes < 0 {
		return fmt.Errorf("aqm: threshold-bytes %d must not be negative", p.ThresholdBytes)
	}
	if p.ThresholdPackets < 0 {
		return fmt.Errorf("aqm: threshold-packets %d must not be negative (0 means use threshold-bytes)", p.ThresholdPackets)
	}
	if p.Interval <= 0 {
		return fmt.Errorf("aqm: marking interval %v must be positive", p.Interval)
	}
	return nil
}

// BacklogMarker is a FIFO with tail-drop limits that marks packets the way
// NFD marks packets on UDP, TCP and Unix faces: by the size of the send
// queue, not by delay. It never drops at dequeue.
//
// The backlog is what remains queued once the dequeued packet has been
// removed: bytes, or packets when ThresholdPackets is positive. At each
// Dequeue, if the backlog exceeds the threshold:
//   - outside a congestion period, the packet is marked at once, a period
//     begins with one mark, and the next mark is due at now + Interval;
//   - inside one, the packet is marked if now has reached the due time;
//     with k the number of marks in the period including this one, the
//     next mark is then due Interval/sqrt(k) after the previous due time
//     (not after now), so the gaps run 100 ms, 70.7 ms, 57.7 ms, 50 ms, ...
//     for the default interval.
//
// A Dequeue that leaves the backlog at or below the threshold (or finds the
// queue empty) ends the period and resets the count. Every packet type is
// marked, as NFD marks every packet it sends on a congested face.
type BacklogMarker struct {
	fifo
	p        BacklogParams
	marking  bool          // in a congestion period
	marks    int           // marks in the current period
	nextMark time.Duration // when the next mark is due (meaningful when marking)
}

// NewBacklogMarker returns an empty backlog-marking queue.
func NewBacklogMarker(p BacklogParams, lim Limits) (*BacklogMarker, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	return &BacklogMarker{fifo: fifo{lim: lim}, p: p}, nil
}

// Params returns the queue's parameters.
func (q *BacklogMarker) Params() BacklogParams { return q.p }

// Enqueue adds it at time now; it reports false if a limit dropped it.
func (q *BacklogMarker) Enqueue(it Item, now time.Duration) bool { return q.enqueue(it, now) }

// Dequeue removes the head packet for transmission at now and marks it if
// the backlog behind it calls for a mark.
func (q *BacklogMarker) Dequeue(now time.Duration) (it Item, ok bool) {
	it, ok = q.pop()
	if !q.congested() {
		q.marking = false
		q.marks = 0
	} else { // congested implies a packet was popped: the backlog is behind it
		switch {
		case !q.marking:
			q.marking = true
			q.marks = 1
			q.nextMark = now + q.p.Interval
			q.mark(&it)
		case now >= q.nextMark:
			q.marks++
			q.nextMark += time.Duration(float64(q.p.Interval) / math.Sqrt(float64(q.marks)))
			q.mark(&it)
		}
	}
	if ok {
		q.stats.Dequeued++
	}
	return it, ok
}

// congested reports whether the current backlog exceeds the threshold.
func (q *BacklogMarker) congested() bool {
	if q.p.ThresholdPackets > 0 {
		return q.ring.len() > q.p.ThresholdPackets
	}
	return q.ring.bytes > q.p.ThresholdBytes
}
