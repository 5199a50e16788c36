package tcp

import "time"

// Receiver is the receiving end of a flow: cumulative ACKs, and a bitmap
// of the segments that arrived beyond a hole (see the package comment).
type Receiver struct {
	segs uint64 // segments in the transfer
	nxt  uint64 // next segment expected in order
	// ooo marks segments in [nxt, nxt+len(ooo)) that arrived out of
	// order, at index seq & (len-1).
	ooo []bool
	end time.Duration

	stats ReceiverStats
}

// ReceiverStats are a receiver's counters of the data segments that
// arrived.
type ReceiverStats struct {
	Received   uint64 // data segments, duplicates included
	Unique     uint64 // distinct data segments
	Duplicates uint64 // data segments received again
	WireBytes  uint64 // wire bytes of every data segment
	UniqueWire uint64 // wire bytes of the distinct ones
}

// NewReceiver returns the receiver of a transfer of segs segments
// (math.MaxUint64 for a stream that never completes).
func NewReceiver(segs uint64) *Receiver { return &Receiver{segs: segs} }

// Next is the next segment expected in order: every segment before it
// has arrived.
func (r *Receiver) Next() uint64 { return r.nxt }

// Complete reports whether every segment of the transfer has arrived.
func (r *Receiver) Complete() bool { return r.segs > 0 && r.nxt == r.segs }

// End is when the transfer completed (0 until then).
func (r *Receiver) End() time.Duration { return r.end }

// Stats returns the receiver's counters.
func (r *Receiver) Stats() ReceiverStats { return r.stats }

// OnSegment takes data segment seq of size wire bytes, arrived at now,
// and returns the cumulative ACK to send.
func (r *Receiver) OnSegment(seq uint64, size int, now time.Duration) uint64 {
	r.stats.Received++
	r.stats.WireBytes += uint64(size)
	switch {
	case seq < r.nxt:
		r.stats.Duplicates++
	case seq == r.nxt:
		r.stats.Unique++
		r.stats.UniqueWire += uint64(size)
		r.nxt++
		for len(r.ooo) > 0 && r.ooo[r.nxt&uint64(len(r.ooo)-1)] {
			r.ooo[r.nxt&uint64(len(r.ooo)-1)] = false
			r.nxt++
		}
		if r.Complete() {
			r.end = now
		}
	default:
		r.reserve(seq - r.nxt + 1)
		slot := &r.ooo[seq&uint64(len(r.ooo)-1)]
		if *slot {
			r.stats.Duplicates++
			break
		}
		*slot = true
		r.stats.Unique++
		r.stats.UniqueWire += uint64(size)
	}
	return r.nxt
}

// reserve grows the bitmap to cover n segments from nxt.
func (r *Receiver) reserve(n uint64) {
	if n <= uint64(len(r.ooo)) {
		return
	}
	size := max(len(r.ooo), 16)
	for uint64(size) < n {
		size *= 2
	}
	grown := make([]bool, size)
	for s := r.nxt; s < r.nxt+uint64(len(r.ooo)); s++ {
		grown[s&uint64(size-1)] = r.ooo[s&uint64(len(r.ooo)-1)]
	}
	r.ooo = grown
}
