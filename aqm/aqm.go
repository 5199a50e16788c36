// Package aqm owns the output-queue disciplines of ndncc: the FIFO a link or
// face transmits from, its tail-drop limits, and the active queue management
// that drops or marks packets at dequeue (CoDel per RFC 8289, and NFD-style
// congestion marking by send-queue backlog).
//
// Everything here is sans-IO: the current time is an argument of Enqueue and
// Dequeue, nothing is scheduled, nothing is sent. A Queue is used from one
// logical thread (the scheduler's); it is not safe for concurrent use.
//
// This package imports only ndn and the standard library; it must never
// import sched, sim, live, consumer or any other fw package.
package aqm

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// Item is one queued packet.
type Item struct {
	// Pkt is the packet. A marking discipline sets Pkt.CongestionMark
	// on the copy it returns from Dequeue.
	Pkt ndn.Packet
	// Size is the packet's size in bytes on the wire, including link
	// overhead. It must be positive; it is what byte limits, byte
	// backlogs and CoDel's MTU rule count.
	Size int
	// Enqueued is the time the packet entered the queue. Enqueue sets
	// it to its now argument; any value the caller put there is replaced.
	Enqueued time.Duration
	// Ext, when non-nil, is a non-NDN frame the runtime carries through
	// the same queue (the simulator's TCP segments); Pkt is then empty.
	// Disciplines treat it as any packet of Size bytes.
	Ext any
}

// Queue is an output queue with its discipline.
type Queue interface {
	// Enqueue adds it at time now; it reports false if the packet was
	// dropped on arrival (tail drop).
	Enqueue(it Item, now time.Duration) bool
	// Dequeue removes the head packet for transmission at time now; an
	// AQM may drop packets here (they are counted and handed to the drop
	// handler) or set it.Pkt.CongestionMark before returning it.
	// ok=false when empty.
	Dequeue(now time.Duration) (it Item, ok bool)
	// Pass is Enqueue(*it, now) followed at once by Dequeue(now) on an
	// empty queue, as a link does with a packet that finds its
	// transmitter idle: the same counters, drops, marks and drop handler
	// calls. admitted is Enqueue's result and ok Dequeue's; with ok, *it
	// is what Dequeue would return (stamped Enqueued = now). It is
	// passed and returned in place: an Item is a dozen words. A
	// discipline may do it without going through its buffer. The queue
	// must be empty.
	Pass(it *Item, now time.Duration) (admitted, ok bool)
	// Len returns the number of packets queued.
	Len() int
	// Bytes returns the number of bytes queued (sum of Item.Size).
	Bytes() int
	// Stats returns the queue's counters.
	Stats() Stats
	// SetDropHandler installs h, which is called with every packet the
	// queue discards: a tail drop inside Enqueue (which then reports
	// false) and each AQM drop inside Dequeue. It lets a runtime tell the
	// sender of each lost packet (fw.Forwarder.OnSendFailure). h runs
	// inside Enqueue or Dequeue and must not call into the queue; nil
	// (the default) removes it.
	SetDropHandler(h func(it Item))
}

// Stats are a queue's counters since it was created.
type Stats struct {
	Enqueued  uint64 // packets accepted by Enqueue
	Dequeued  uint64 // packets returned by Dequeue (marked or not)
	TailDrops uint64 // packets refused by Enqueue because a limit was reached
	AQMDrops  uint64 // packets dropped by the AQM at dequeue
	Marks     uint64 // packets returned with CongestionMark set by the AQM
	MaxLen    int    // highest number of packets ever queued
	MaxBytes  int    // highest number of bytes ever queued
}

// Limits are a queue's tail-drop limits. A packet that would make the queue
// exceed either limit is dropped on arrival.
type Limits struct {
	Packets int // maximum packets queued; 0 = unlimited
	Bytes   int // maximum bytes queued; 0 = unlimited
}

// Validate reports an error if a limit is negative.
func (l Limits) Validate() error {
	if l.Packets < 0 {
		return fmt.Errorf("aqm: packet limit %d is negative (0 means unlimited)", l.Packets)
	}
	if l.Bytes < 0 {
		return fmt.Errorf("aqm: byte limit %d is negative (0 means unlimited)", l.Bytes)
	}
	return nil
}

// admits reports whether a queue holding n packets and b bytes may take one
// more packet of size bytes.
func (l Limits) admits(n, b, size int) bool {
	if l.Packets > 0 && n+1 > l.Packets {
		return false
	}
	if l.Bytes > 0 && b+size > l.Bytes {
		return false
	}
	return true
}

// fifo is the tail-drop FIFO with counters that every discipline builds on.
type fifo struct {
	ring    ring
	lim     Limits
	stats   Stats
	dropped func(Item) // see Queue.SetDropHandler
}

// enqueue stamps it with now and appends it unless a limit refuses it.
func (q *fifo) enqueue(it Item, now time.Duration) bool {
	if !q.lim.admits(q.ring.len(), q.ring.bytes, it.Size) {
		q.stats.TailDrops++
		if q.dropped != nil {
			q.dropped(it)
		}
		return false
	}
	it.Enqueued = now
	q.ring.push(it)
	q.stats.Enqueued++
	q.stats.MaxLen = max(q.stats.MaxLen, q.ring.len())
	q.stats.MaxBytes = max(q.stats.MaxBytes, q.ring.bytes)
	return true
}

// enqueueDequeue is Queue.Pass for a discipline that decides at dequeue:
// Enqueue, then Dequeue.
func enqueueDequeue(q Queue, it *Item, now time.Duration) (admitted, ok bool) {
	if !q.Enqueue(*it, now) {
		return false, false
	}
	out, ok := q.Dequeue(now)
	if ok {
		*it = out
	}
	return true, ok
}

// pass is enqueue at time now then pop, for an empty queue (DropTail.Pass): the
// same counters, the same tail drop, no buffering.
func (q *fifo) pass(it *Item) bool {
	if q.ring.len() != 0 {
		panic("aqm: pass on a queue that is not empty")
	}
	if !q.lim.admits(0, 0, it.Size) {
		q.stats.TailDrops++
		if q.dropped != nil {
			q.dropped(*it)
		}
		return false
	}
	q.stats.Enqueued++
	q.stats.MaxLen = max(q.stats.MaxLen, 1)
	q.stats.MaxBytes = max(q.stats.MaxBytes, it.Size)
	return true
}

// pop removes the head packet without counting it as dequeued or dropped.
func (q *fifo) pop() (Item, bool) { return q.ring.pop() }

// aqmDrop counts it as dropped by the discipline and hands it to the drop
// handler.
func (q *fifo) aqmDrop(it Item) {
	q.stats.AQMDrops++
	if q.dropped != nil {
		q.dropped(it)
	}
}

// SetDropHandler installs h (see Queue.SetDropHandler).
func (q *fifo) SetDropHandler(h func(it Item)) { q.dropped = h }

// mark sets the NDNLPv2 congestion mark on it (keeping a higher level an
// upstream hop may have set) and counts it.
func (q *fifo) mark(it *Item) {
	it.Pkt.CongestionMark = max(it.Pkt.CongestionMark, 1)
	q.stats.Marks++
}

// Len returns the number of packets queued.
func (q *fifo) Len() int { return q.ring.len() }

// Bytes returns the number of bytes queued.
func (q *fifo) Bytes() int { return q.ring.bytes }

// Stats returns the queue's counters.
func (q *fifo) Stats() Stats { return q.stats }

// The disciplines of this package.
var (
	_ Queue = (*DropTail)(nil)
	_ Queue = (*CoDel)(nil)
	_ Queue = (*BacklogMarker)(nil)
)
