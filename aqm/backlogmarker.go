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
	// marked. Used when ThresholdPackets is 0. A queue with a byte limit
	// uses min(ThresholdBytes, Limits.Bytes/2) instead (see
	// BacklogMarker).
	ThresholdBytes int
	// ThresholdPackets, when positive, measures the backlog in packets
	// instead of bytes (seed 002 uses 10 packets for TCP faces). A queue
	// with a packet limit uses min(ThresholdPackets, Limits.Packets/2)
	// instead.
	ThresholdPackets int
	// SocketThresholdBytes, when positive and the backlog is measured in
	// packets, also counts the queue congested while the bytes queued
	// below it (SetExternalBacklog: a socket's unsent bytes) exceed it:
	// paper 002's TCP tunnels mark above 10 packets in NFD's send queue
	// or 50 KB in the socket. 0 (the default) leaves packets alone.
	SocketThresholdBytes int
	// Interval is how long the backlog stays above the threshold before
	// the first mark of a congestion period, and the base of the spacing
	// of the next ones (MarkSpaced only).
	Interval time.Duration
	// Marking says which packets are marked while the backlog stays above
	// the threshold: NFD's spaced marks (the default) or every packet.
	Marking Marking
}

// Marking is how a BacklogMarker marks while the backlog stays above its
// threshold.
type Marking int

const (
	// MarkSpaced is NFD's scheme, the default: the first mark falls once
	// the backlog has stayed above the threshold for Interval, the next
	// ones Interval/sqrt(k+1) apart (see BacklogMarker).
	MarkSpaced Marking = iota
	// MarkEvery marks every packet dequeued while the backlog exceeds
	// the threshold, with no spacing: the scheme of the 5th NDN
	// hackathon's NFD (paper 002), whose UDP and TCP faces set the mark
	// on each packet handed to a socket holding more than the threshold.
	MarkEvery
)

// markingNames are the names of the Marking values, by value.
var markingNames = [...]string{MarkSpaced: "spaced", MarkEvery: "every"}

// String returns the marking's parameter name: "spaced" or "every".
func (m Marking) String() string {
	if m >= 0 && int(m) < len(markingNames) {
		return markingNames[m]
	}
	return fmt.Sprintf("Marking(%d)", int(m))
}

// ParseMarking returns the Marking named s ("spaced" or "every").
func ParseMarking(s string) (Marking, error) {
	for m, name := range markingNames {
		if s == name {
			return Marking(m), nil
		}
	}
	return 0, fmt.Errorf("aqm: marking %q: want spaced or every", s)
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
	if p.SocketThresholdBytes < 0 {
		return fmt.Errorf("aqm: socket-threshold-bytes %d must not be negative (0 means off)", p.SocketThresholdBytes)
	}
	if p.Interval <= 0 {
		return fmt.Errorf("aqm: marking interval %v must be positive", p.Interval)
	}
	if p.Marking != MarkSpaced && p.Marking != MarkEvery {
		return fmt.Errorf("aqm: unknown marking %v (want spaced or every)", p.Marking)
	}
	return nil
}

// BacklogMarker is a FIFO with tail-drop limits that marks packets the way
// NFD marks packets on UDP, TCP and Unix faces: by the size of the send
// queue, not by delay. It never drops at dequeue.
//
// The backlog is what remains queued once the dequeued packet has been
// removed: bytes, or packets when ThresholdPackets is positive. As NFD caps
// a face's congestion threshold at half its send-queue capacity, the
// threshold in effect is the configured one capped at half the queue's
// limit in the same unit: min(ThresholdBytes, Limits.Bytes/2) when
// measuring bytes with a byte limit, min(ThresholdPackets,
// Limits.Packets/2) when measuring packets with a packet limit. A limit in
// the other unit (or none) leaves the threshold as configured. Without the
// cap a queue whose limit is at most the threshold could never mark.
//
// The marking follows NFD 24.07's rule for its UDP, TCP and Unix faces
// (GenericLinkService::checkCongestionLevel), a CoDel-like schedule. For
// each packet sent (at Dequeue, or at Enqueue after CheckAtEnqueue), if
// the backlog exceeds the threshold in effect:
//   - outside a congestion period, a period begins and its first mark is
//     due at now + Interval; this packet is not marked;
//   - inside one, the packet is marked if now has reached the due time;
//     with k the number of marks in the period including this one, the
//     next mark is then due Interval/sqrt(k+1) after the previous due time
//     (not after now), so marks fall 100, 170.7, 228.4, 278.4, 323.2 ms
//     after the period began for the default interval, and a backlog that
//     drains within Interval is never marked.
//
// A packet sent with the backlog at or below the threshold ends the
// period and resets the count. A Dequeue that finds the queue empty, or
// an Enqueue a limit refuses, changes nothing, as NFD checks only when it
// sends a packet. Every packet type is marked, as NFD marks every packet
// it sends on a congested face.
//
// Where the backlog is measured is the runtime's choice. By default the
// queue decides as the packet leaves it (Dequeue), counting the bytes
// queued behind it plus those a runtime reports beyond it
// (SetExternalBacklog), and the mark rides on the head of the queue. NFD
// decides as it hands the packet to the transport, counting the bytes
// queued ahead of it (its transport's queue and the socket's), so its
// mark rides on the tail and reaches the consumer only after the backlog
// ahead has drained: a consumer hears of a congestion period a queueing
// delay later, its window overshoots further and the period lasts longer.
// CheckAtEnqueue makes the queue decide NFD's way, at Enqueue. The
// schedule is the same either way.
//
// With Marking set to MarkEvery there is no spacing: every packet dequeued
// (or enqueued, after CheckAtEnqueue) while the backlog exceeds the
// threshold is marked, and Interval is unused. The NFD of paper 002 (the
// 5th NDN hackathon) marked this way on its UDP and TCP faces.
//
// A live runtime sends from this queue into more queues of its own: a
// writer's pending bytes and the kernel's socket send buffer. As NFD adds
// the socket's send-queue length to its own queue's, the runtime tells the
// marker those bytes with SetExternalBacklog before each Dequeue (or
// Enqueue, after CheckAtEnqueue), and caps the threshold at half the
// socket's send buffer with CapThreshold. Both apply to a backlog
// measured in bytes only.
type BacklogMarker struct {
	fifo
	p        BacklogParams
	external int           // bytes queued beyond this queue (SetExternalBacklog)
	thresh   int           // threshold in effect, in the backlog's unit
	marking  bool          // in a congestion period
	marks    int           // marks in the current period
	nextMark time.Duration // when the next mark is due (meaningful when marking)
	atEnq    bool          // decide at Enqueue (CheckAtEnqueue), not at Dequeue
}

// NewBacklogMarker returns an empty backlog-marking queue.
func NewBacklogMarker(p BacklogParams, lim Limits) (*BacklogMarker, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if err := lim.Validate(); err != nil {
		return nil, err
	}
	return &BacklogMarker{fifo: fifo{lim: lim}, p: p, thresh: effectiveThreshold(p, lim)}, nil
}

// effectiveThreshold returns the threshold the marker applies, in the unit
// it measures the backlog in: the configured threshold, capped at half the
// queue's limit in that unit if there is one.
func effectiveThreshold(p BacklogParams, lim Limits) int {
	if p.ThresholdPackets > 0 {
		if lim.Packets > 0 {
			return min(p.ThresholdPackets, lim.Packets/2)
		}
		return p.ThresholdPackets
	}
	if lim.Bytes > 0 {
		return min(p.ThresholdBytes, lim.Bytes/2)
	}
	return p.ThresholdBytes
}

// Params returns the queue's parameters as configured.
func (q *BacklogMarker) Params() BacklogParams { return q.p }

// Threshold returns the threshold in effect: bytes, or packets when
// ThresholdPackets is positive, capped at half the queue's limit in that
// unit.
func (q *BacklogMarker) Threshold() int { return q.thresh }

// SetExternalBacklog sets the bytes queued downstream of this queue, in the
// runtime's own send path (see BacklogMarker); the next Dequeue counts
// them in the backlog, or, with the backlog in packets, compares them with
// SocketThresholdBytes. Negative values count as 0.
func (q *BacklogMarker) SetExternalBacklog(bytes int) { q.external = max(bytes, 0) }

// CapThreshold caps the byte threshold in effect at half of capacity
// bytes, as NFD caps its threshold at half a socket's send buffer. A
// capacity of 0 or less, or a backlog measured in packets, changes
// nothing.
func (q *BacklogMarker) CapThreshold(capacity int) {
	if capacity > 0 && q.p.ThresholdPackets == 0 {
		q.thresh = min(q.thresh, capacity/2)
	}
}

// CheckAtEnqueue makes the queue decide each mark as NFD does: at
// Enqueue, when the packet is handed over, from the backlog queued ahead
// of it (the queue's bytes or packets before it joins, plus the external
// backlog in bytes), instead of at Dequeue from the backlog behind it. A
// live face calls it: its queue stands where NFD's transport queue
// stands, between the forwarder and the socket. A packet a limit refuses
// changes nothing, as it is never sent. Call it before the first Enqueue.
func (q *BacklogMarker) CheckAtEnqueue() { q.atEnq = true }

// ChecksAtEnqueue reports whether CheckAtEnqueue was called.
func (q *BacklogMarker) ChecksAtEnqueue() bool { return q.atEnq }

// Pass implements Queue: Enqueue, then Dequeue.
func (q *BacklogMarker) Pass(it *Item, now time.Duration) (admitted, ok bool) {
	return enqueueDequeue(q, it, now)
}

// Enqueue adds it at time now; it reports false if a limit dropped it.
// After CheckAtEnqueue, it marks it first if the backlog ahead of it calls
// for a mark.
func (q *BacklogMarker) Enqueue(it Item, now time.Duration) bool {
	if !q.atEnq {
		return q.enqueue(it, now)
	}
	if !q.lim.admits(q.ring.len(), q.ring.bytes, it.Size) {
		return q.enqueue(it, now) // counts and reports the tail drop
	}
	q.check(&it, now)
	return q.enqueue(it, now)
}

// Dequeue removes the head packet for transmission at now and, unless the
// queue checks at Enqueue, marks it if the backlog behind it calls for a
// mark.
func (q *BacklogMarker) Dequeue(now time.Duration) (it Item, ok bool) {
	it, ok = q.pop()
	if !ok {
		return it, false // no packet sent: NFD checks nothing
	}
	q.stats.Dequeued++
	if !q.atEnq {
		q.check(&it, now)
	}
	return it, true
}

// check applies the marking rule to it, sent at now, against the backlog
// the queue holds (without it) plus the external backlog.
func (q *BacklogMarker) check(it *Item, now time.Duration) {
	if !q.congested() {
		q.marking = false
		q.marks = 0
		return
	}
	switch {
	case q.p.Marking == MarkEvery:
		q.marking = true
		q.marks++
		q.mark(it)
	case !q.marking:
		q.marking = true
		q.marks = 0
		q.nextMark = now + q.p.Interval
	case now >= q.nextMark:
		q.marks++
		q.nextMark += time.Duration(float64(q.p.Interval) / math.Sqrt(float64(q.marks+1)))
		q.mark(it)
	}
}

// congested reports whether the current backlog exceeds the threshold in
// effect.
func (q *BacklogMarker) congested() bool {
	if q.p.ThresholdPackets > 0 {
		return q.ring.len() > q.thresh || (q.p.SocketThresholdBytes > 0 && q.external > q.p.SocketThresholdBytes)
	}
	return q.ring.bytes+q.external > q.thresh
}
