package tcp

import (
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/lazytimer"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/sched"
)

// SenderStats are a sender's counters of the segments it sent and the
// ACKs it received.
type SenderStats struct {
	SegmentsSent     uint64 // data segments sent, retransmissions included
	Retransmissions  uint64 // data segments sent again
	Timeouts         uint64 // RTO expiries
	TimeoutDecreases uint64 // window decreases by RTO (first expiry of a series)
	FastRetransmits  uint64 // fast retransmits (window decreases by duplicate ACKs)
	DupAcks          uint64 // duplicate ACKs received
}

// txSlot is the sender's state of one unacknowledged segment.
type txSlot struct {
	sent time.Duration // last transmission
	retx bool          // ever retransmitted (Karn's rule)
}

type rttSample struct {
	ok  bool
	seq uint64
	rtt time.Duration
}

// Sender is a flow's sending end (see the package comment). It calls send
// to transmit a segment; time and its retransmission timer come from the
// scheduler. It is used from the scheduler's goroutine only.
type Sender struct {
	s    sched.Scheduler
	alg  Algorithm
	rtt  *rtt.Estimator
	segs uint64
	send func(seq uint64)
	// gate, if set, must allow each new segment TrySend sends; nil
	// allows all.
	gate func() bool

	una, nxt, high uint64 // snd.una, snd.nxt, highest segment sent + 1
	ring           []txSlot

	dupAcks     int
	recovering  bool
	recoverEnd  uint64  // high when the last recovery or RTO began
	inflation   float64 // fast recovery's window above ssthresh
	partialSeen bool
	rtoSeries   int // RTO expiries since the last ACK of new data

	// rto is the retransmission timer. It is lazy (internal/lazytimer):
	// restarting it on every ACK only moves its deadline.
	rto lazytimer.Timer

	stats      SenderStats
	lastSample rttSample
}

// NewSender returns the sender of a transfer of segs segments (more may
// be added with SetSegments) whose window is alg's and whose RTO is
// estimated with rttCfg. It sends nothing until TrySend.
func NewSender(s sched.Scheduler, alg Algorithm, rttCfg rtt.Config, segs uint64, send func(seq uint64)) *Sender {
	t := &Sender{s: s, alg: alg, rtt: rtt.NewEstimator(rttCfg), segs: segs, send: send, ring: make([]txSlot, 16)}
	t.rto.Init(s, t.timeout)
	return t
}

// SetSegments sets the number of segments to transfer: a stream (a TCP
// tunnel's) grows as data is written. It never shrinks below Nxt.
func (t *Sender) SetSegments(n uint64) { t.segs = n }

// Segments is the number of segments to transfer.
func (t *Sender) Segments() uint64 { return t.segs }

// SetGate makes TrySend send a new segment only while gate allows it (a
// TCP tunnel's small-queue limit); the runtime calls TrySend again when
// the gate may open.
func (t *Sender) SetGate(gate func() bool) { t.gate = gate }

// Una is snd.una: the oldest segment not yet acknowledged.
func (t *Sender) Una() uint64 { return t.una }

// Nxt is snd.nxt: the next segment TrySend sends.
func (t *Sender) Nxt() uint64 { return t.nxt }

// Algorithm is the window policy.
func (t *Sender) Algorithm() Algorithm { return t.alg }

// RTT is the sender's RTT and RTO estimator.
func (t *Sender) RTT() *rtt.Estimator { return t.rtt }

// Stats returns the sender's counters.
func (t *Sender) Stats() SenderStats { return t.stats }

// TakeSample returns the latest Karn-valid RTT sample (the segment whose
// ACK gave it, and the RTT) if one arrived since the last call.
func (t *Sender) TakeSample() (seq uint64, sample time.Duration, ok bool) {
	s := t.lastSample
	t.lastSample.ok = false
	return s.seq, s.rtt, s.ok
}

func (t *Sender) slot(seq uint64) *txSlot { return &t.ring[seq&uint64(len(t.ring)-1)] }

// Window is the number of segments the sender may have outstanding: the
// algorithm's cwnd, or during fast recovery ssthresh plus the inflation.
func (t *Sender) Window() float64 {
	if t.recovering {
		return max(t.alg.Cwnd()+t.inflation, 1)
	}
	return t.alg.Cwnd()
}

// TrySend sends new (or, after an RTO, resends old) segments while the
// window has room.
func (t *Sender) TrySend() {
	w := uint64(max(int(t.Window()), 1))
	for t.nxt < t.segs && t.nxt-t.una < w && (t.gate == nil || t.gate()) {
		t.transmit(t.nxt)
		t.nxt++
	}
}

func (t *Sender) transmit(seq uint64) {
	now := t.s.Now()
	if seq < t.high {
		sl := t.slot(seq)
		sl.sent, sl.retx = now, true
		t.stats.Retransmissions++
	} else {
		if seq-t.una >= uint64(len(t.ring)) {
			t.grow()
		}
		*t.slot(seq) = txSlot{sent: now}
		t.high = seq + 1
	}
	t.stats.SegmentsSent++
	if !t.rto.Armed() {
		t.restartTimer()
	}
	t.send(seq)
}

func (t *Sender) grow() {
	grown := make([]txSlot, 2*len(t.ring))
	for s := t.una; s < t.high; s++ {
		grown[s&uint64(len(grown)-1)] = *t.slot(s)
	}
	t.ring = grown
}

// OnAck handles a cumulative ACK, the receiver expecting segment ack
// next, and sends what the window then allows.
func (t *Sender) OnAck(ack uint64) {
	now := t.s.Now()
	switch {
	case ack > t.una && ack <= t.high:
		t.onNewAck(now, ack)
	case ack == t.una && t.high > t.una:
		t.onDupAck(now)
	}
	t.TrySend()
}

func (t *Sender) onNewAck(now time.Duration, ack uint64) {
	old := t.una
	var sample time.Duration
	karn := true
	for s := old; s < ack; s++ {
		if t.slot(s).retx {
			karn = false
			break
		}
	}
	if karn {
		sample = now - t.slot(ack-1).sent
		t.rtt.AddSample(sample)
		t.lastSample = rttSample{ok: true, seq: ack - 1, rtt: sample}
	}
	t.una = ack
	t.nxt = max(t.nxt, ack)
	t.dupAcks = 0
	t.rtoSeries = 0
	restart := true
	switch {
	case t.recovering && ack >= t.recoverEnd: // full ACK
		t.recovering, t.inflation = false, 0
	case t.recovering: // partial ACK
		t.inflation += 1 - float64(ack-old)
		t.transmit(t.una)
		restart = !t.partialSeen
		t.partialSeen = true
	default:
		t.alg.OnData(cc.Ack{Now: now, Seg: ack - 1, RTT: sample, HighInterest: t.high - 1, InFlight: int(t.nxt - t.una)})
	}
	switch {
	case t.una == t.high:
		t.rto.Stop()
	case restart:
		t.restartTimer()
	}
}

func (t *Sender) onDupAck(now time.Duration) {
	t.stats.DupAcks++
	t.dupAcks++
	switch {
	case t.recovering:
		t.inflation++
	case t.dupAcks == 3 && t.una >= t.recoverEnd:
		t.stats.FastRetransmits++
		t.alg.OnDecrease(now, cc.CauseHole)
		t.recovering, t.recoverEnd = true, t.high
		t.inflation, t.partialSeen = 3, false
		t.transmit(t.una)
	}
}

func (t *Sender) timeout() {
	now := t.s.Now()
	t.stats.Timeouts++
	if !t.recovering && t.rtoSeries == 0 {
		t.alg.OnDecrease(now, cc.CauseTimeout)
		t.stats.TimeoutDecreases++
	}
	t.alg.OnRTO(now)
	t.rtoSeries++
	t.rtt.Backoff()
	t.recovering, t.inflation, t.dupAcks = false, 0, 0
	t.recoverEnd = t.high
	t.nxt = t.una
	t.TrySend()
}

// restartTimer (re)arms the RTO timer to expire one RTO from now.
func (t *Sender) restartTimer() {
	t.rto.Set(t.s.Now() + t.rtt.RTO())
}
