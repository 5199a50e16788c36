package link

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/internal/lazytimer"
	"github.com/ndncc/ndncc/internal/reentry"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/sched"
)

// Defaults of the reliability service (ReliabilityConfig).
const (
	// DefaultAckDelay is how long a received frame's ack waits for a
	// reverse frame to ride on before it goes in an IDLE frame.
	DefaultAckDelay = 5 * time.Millisecond
	// DefaultLossThreshold is how many frames sent after a frame must
	// be acknowledged before that frame counts as lost (NFD's
	// LpReliability uses 3): a reordering allowance of two frames.
	DefaultLossThreshold = 3
	// DefaultWindow bounds the frames awaiting an ack.
	DefaultWindow = 1024
	// DefaultMaxAcks bounds the acks one frame carries; this many
	// waiting acks are sent at once in an IDLE frame.
	DefaultMaxAcks = 16
)

// DefaultAckTimeout returns the default ack-timeout estimator: RFC
// 6298's (gains 1/8 and 1/4, RTO = SRTT + 4*RTTVAR) over the link's ack
// round trips, starting at 200 ms, between 20 ms and 2 s, doubled after a
// timeout until the next sample.
func DefaultAckTimeout() rtt.Config {
	return rtt.Config{
		Alpha:             1.0 / 8,
		Beta:              1.0 / 4,
		K:                 4,
		InitialRTO:        200 * time.Millisecond,
		MinRTO:            20 * time.Millisecond,
		MaxRTO:            2 * time.Second,
		BackoffMultiplier: 2,
	}
}

// ReliabilityConfig parameterises a Reliability.
type ReliabilityConfig struct {
	// AckDelay is the longest an ack waits for a reverse frame to ride
	// on before an IDLE frame carries it. Default 5 ms.
	AckDelay time.Duration
	// LossThreshold: a frame is lost once acks for this many frames sent
	// after it have arrived. Default 3.
	LossThreshold int
	// AckTimeout estimates the ack timeout from the round trips of acked
	// frames: a frame not acked within the current timeout is lost.
	// Default DefaultAckTimeout.
	AckTimeout rtt.Config
	// Window is the most frames awaiting an ack; sending one more forgets
	// the oldest (counted in ReliabilityStats.Evicted, never reported).
	// Default 1024.
	Window int
	// MaxAcks is the most acks one frame carries. Default 16.
	MaxAcks int
}

// DefaultReliabilityConfig returns the documented defaults.
func DefaultReliabilityConfig() ReliabilityConfig {
	return ReliabilityConfig{
		AckDelay:      DefaultAckDelay,
		LossThreshold: DefaultLossThreshold,
		AckTimeout:    DefaultAckTimeout(),
		Window:        DefaultWindow,
		MaxAcks:       DefaultMaxAcks,
	}
}

// Validate reports the first field that is out of range.
func (c ReliabilityConfig) Validate() error {
	switch {
	case c.AckDelay <= 0:
		return fmt.Errorf("link: reliability: AckDelay %v must be positive", c.AckDelay)
	case c.LossThreshold < 1:
		return fmt.Errorf("link: reliability: LossThreshold %d must be at least 1", c.LossThreshold)
	case c.Window < 1:
		return fmt.Errorf("link: reliability: Window %d must be at least 1", c.Window)
	case c.MaxAcks < 1:
		return fmt.Errorf("link: reliability: MaxAcks %d must be at least 1", c.MaxAcks)
	}
	if err := c.AckTimeout.Validate(); err != nil {
		return fmt.Errorf("link: reliability: AckTimeout: %w", err)
	}
	return nil
}

// ReliabilityStats are a Reliability's counters.
type ReliabilityStats struct {
	Sent          uint64 // frames sent with a TxSeq (Interests, Data, Nacks)
	Acked         uint64 // of those, acknowledged
	LostByGap     uint64 // reported lost: LossThreshold later frames were acked
	LostByTimeout uint64 // reported lost: not acked within the ack timeout
	Evicted       uint64 // forgotten unacknowledged because the window was full
	LateAcks      uint64 // acks for frames already reported, forgotten or unknown
	Received      uint64 // frames received with a TxSeq
	Duplicates    uint64 // of those, seen before (not delivered)
	AcksSent      uint64 // acks sent, on reverse frames or IDLE frames
	IdleFrames    uint64 // IDLE frames sent (acks only)
}

// Frame states of the sender side.
const (
	frameFree uint8 = iota
	frameUnacked
	frameDone // acked or reported lost
)

// sentFrame is a frame this end sent and tracks until it is acked or
// reported lost.
type sentFrame struct {
	pkt     ndn.Packet // the packet it carried, for the loss report
	sentAt  time.Duration
	greater int // acks received for frames sent after this one
	state   uint8
}

// Reliability is one end of a link's NDNLPv2 best-effort link reliability
// (NDN TR41, NFD's LpReliability without retransmission), as PCON's local
// link-loss detection uses it: it numbers the frames this end sends,
// acknowledges the frames it receives, and reports each frame it sent that
// the other end never got. It does not retransmit: the forwarder turns a
// reported loss into a Nack (fw.Forwarder.OnSendFailure), so the consumer
// retransmits without cutting its window (PCON's unmarked Nack).
//
// Sender: every frame carrying an Interest, Data or Nack that OnSend sees
// gets the next TxSeq (1, 2, ...) and is kept until acked. A frame is lost
// when acks for LossThreshold frames sent after it have arrived while its
// own has not (so up to LossThreshold-1 frames of reordering are
// tolerated), or when it is still unacked an ack timeout after it was
// sent; the timeout is RFC 6298's estimator over the round trips of acked
// frames, doubled after a timeout until the next sample. Lost frames are
// reported once each, with the packet they carried, through the lost
// callback. At most Window frames are kept; the oldest is forgotten
// silently when one more is sent.
//
// Receiver: every frame with a TxSeq that OnReceive sees is acked. Acks
// ride on the next frames OnSend sees (at most MaxAcks each); an ack that
// has found no frame within AckDelay, or MaxAcks acks waiting, go in an
// IDLE frame (no packet, only Acks) through the sendIdle callback. A frame
// received twice is acked but not delivered again.
//
// A lost ack makes its frame look lost (a false report): the forwarder's
// Nack then costs one needless retransmission by the consumer, or nothing
// if the Data was already through.
//
// # How to wire it
//
// One Reliability per face on a link, so two per link: the one at node A's
// end numbers what A sends on the link and acks what A receives from it.
// For a link A—B with face fa on forwarder FA and fb on FB, and the two
// directions a2b (A to B) and b2a:
//
//  1. ra, err := link.NewReliability(cfg, sched, sendIdleA, lostA) with
//     sendIdleA transmitting an IDLE frame on a2b (it may queue like any
//     other frame: Channel.SendFrame) and
//     lostA = func(p ndn.Packet) { FA.OnSendFailure(fa, p, fw.CauseLinkLoss) };
//     likewise rb for B. Then FA.EnableLossNacks(fa, cfg.Window) (and
//     FB.EnableLossNacks(fb, cfg.Window)), so a lost Data can be Nacked.
//  2. When a2b starts transmitting a frame (after it leaves any output
//     queue, not when it is enqueued, and before anything may lose it on
//     the way): ra.OnSend(&frame), then size or encode the frame
//     (ndn.Sizer.FrameSize, ndn.EncodeLinkFrame): the TxSeq and Acks it
//     now carries are LpPacket fields. Frames must reach OnSend in the
//     order they go on the wire. A packet dropped before that point never
//     reaches OnSend, so Reliability never reports it (step 4 does).
//     Channel.SetReliability does this step on a modelled link.
//  3. When a frame arrives from a2b at B (random loss simply never
//     arrives): if rb.OnReceive(frame) { FB.Receive(fb, frame.Pkt) }.
//     Every arriving frame goes through OnReceive, IDLE ones included;
//     IDLE frames and duplicates return false and must not reach FB.
//  4. When a2b's output queue drops a packet FA sent (tail drop at
//     enqueue, or an AQM drop at dequeue):
//     FA.OnSendFailure(fa, pkt, fw.CauseQueueDrop). This needs no
//     Reliability and works on links without one (Channel.OnDrop).
//
// In the live runtime, a frame's TxSeq and Acks travel as the NDNLPv2
// TxSequence and Ack fields of its LpPacket (ndn.EncodeLinkFrame,
// ndn.DecodeLinkFrame; an IDLE frame is an LpPacket with Acks and no
// Fragment). A face that fragments a packet numbers the packet, not each
// fragment: it puts the frame's LinkFields on the first fragment and
// calls OnReceive once the packet is reassembled, so a lost fragment is a
// lost frame.
//
// All calls come from the scheduler's thread. The callbacks run inside
// OnReceive and inside the Reliability's own timers, once its state is
// consistent: they may send on the link (and so reach OnSend) at once.
type Reliability struct {
	cfg      ReliabilityConfig
	s        sched.Scheduler
	sendIdle func(Frame)
	lost     func(ndn.Packet)
	rtt      *rtt.Estimator

	// sender: frames [head, next) are tracked, frames[seq%Window]; the
	// frame at head is unacked whenever head < next.
	frames []sentFrame
	head   uint64
	next   uint64
	rto    lazytimer.Timer // armed for the head frame's ack timeout
	// reports delivers loss reports once the state is consistent: what
	// OnReceive and onRTO find lost waits until they are done.
	reports reentry.Guard[ndn.Packet]

	// receiver
	pending  []uint64        // sequences to ack
	ackTimer lazytimer.Timer // armed while acks wait: AckDelay after the oldest arrived
	ackSlab  []uint64        // Acks slices of sent frames are cut from it
	rcvHigh  uint64          // highest sequence received
	seen     []uint64        // bitmap of sequences received, by seq%Window

	stats ReliabilityStats
}

// NewReliability returns one end's reliability service with configuration
// cfg on scheduler s. sendIdle transmits an IDLE frame (Acks only) on the
// link; lost is told of each frame this end sent that was lost, with the
// packet it carried.
func NewReliability(cfg ReliabilityConfig, s sched.Scheduler, sendIdle func(Frame), lost func(ndn.Packet)) (*Reliability, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if s == nil || sendIdle == nil || lost == nil {
		return nil, fmt.Errorf("link: reliability: scheduler, sendIdle and lost are required")
	}
	r := &Reliability{
		cfg:      cfg,
		s:        s,
		sendIdle: sendIdle,
		lost:     lost,
		rtt:      rtt.NewEstimator(cfg.AckTimeout),
		frames:   make([]sentFrame, cfg.Window),
		head:     1,
		next:     1,
		seen:     make([]uint64, (cfg.Window+63)/64),
	}
	r.rto.Init(s, r.onRTO)
	r.ackTimer.Init(s, r.onAckTimer)
	r.reports.Init(func(p *ndn.Packet) { lost(*p) })
	return r, nil
}

// Stats returns the counters.
func (r *Reliability) Stats() ReliabilityStats { return r.stats }

// PendingAcks returns the number of received frames whose ack has not been
// sent yet.
func (r *Reliability) PendingAcks() int { return len(r.pending) }

// Unacked returns the number of frames sent and neither acked nor reported
// lost yet.
func (r *Reliability) Unacked() int {
	n := 0
	for seq := r.head; seq < r.next; seq++ {
		if r.frame(seq).state == frameUnacked {
			n++
		}
	}
	return n
}

// AckTimeout returns the current ack timeout.
func (r *Reliability) AckTimeout() time.Duration { return r.rtt.RTO() }

func (r *Reliability) frame(seq uint64) *sentFrame {
	return &r.frames[seq%uint64(len(r.frames))]
}

// OnSend prepares f, which this end is about to transmit: a frame
// carrying an Interest, Data or Nack gets the next TxSeq and its packet is
// kept until acked; any frame (IDLE ones included) takes waiting acks, up
// to MaxAcks in all. f.Acks is replaced by a new slice, never appended to
// in place.
func (r *Reliability) OnSend(f *Frame) {
	now := r.s.Now()
	if !f.IsIdle() {
		if r.next-r.head == uint64(len(r.frames)) {
			if r.frame(r.head).state == frameUnacked {
				r.stats.Evicted++
			}
			*r.frame(r.head) = sentFrame{}
			r.head++
			r.advanceHead()
		}
		f.TxSeq = r.next
		r.next++
		*r.frame(f.TxSeq) = sentFrame{pkt: f.Pkt, sentAt: now, state: frameUnacked}
		r.stats.Sent++
		r.armRTO()
	}
	if n := min(len(r.pending), r.cfg.MaxAcks-len(f.Acks)); n > 0 {
		acks := r.newAcks(len(f.Acks) + n)
		copy(acks[copy(acks, f.Acks):], r.pending[:n])
		f.Acks = acks
		r.takeAcks(n)
	}
}

// newAcks returns a new slice of n acks, cut from a slab so that a frame's
// Acks cost an allocation only every few hundred acks. The slices never
// overlap, and a frame's Acks are never written after it is sent.
func (r *Reliability) newAcks(n int) []uint64 {
	if cap(r.ackSlab)-len(r.ackSlab) < n {
		r.ackSlab = make([]uint64, 0, max(256, n))
	}
	k := len(r.ackSlab)
	r.ackSlab = r.ackSlab[:k+n]
	return r.ackSlab[k : k+n : k+n]
}

// OnReceive processes f, which arrived from the other end: its acks
// resolve frames this end sent (reporting the ones found lost), and its
// TxSeq, if any, is queued for acking. It reports whether f.Pkt goes on to
// the forwarder: f is not an IDLE frame, nor a frame received before.
func (r *Reliability) OnReceive(f Frame) (deliver bool) {
	held := r.reports.Hold()
	now := r.s.Now()
	if len(f.Acks) > 0 {
		for _, seq := range f.Acks {
			r.onAck(seq, now)
		}
		r.advanceHead()
		r.armRTO()
	}
	deliver = !f.IsIdle()
	if f.TxSeq != 0 {
		r.stats.Received++
		if r.receivedBefore(f.TxSeq) {
			r.stats.Duplicates++
			deliver = false
		}
		r.pending = append(r.pending, f.TxSeq)
		switch {
		case len(r.pending) >= r.cfg.MaxAcks:
			r.flushAcks()
		case len(r.pending) == 1:
			r.ackTimer.Set(now + r.cfg.AckDelay)
		}
	}
	if held {
		r.reports.Release() // the callback may send on the link (and so call OnSend)
	}
	return deliver
}

// onAck resolves frame seq as acked and counts it against the older
// unacked frames.
func (r *Reliability) onAck(seq uint64, now time.Duration) {
	if seq < r.head || seq >= r.next || r.frame(seq).state != frameUnacked {
		r.stats.LateAcks++
		return
	}
	fr := r.frame(seq)
	r.rtt.AddSample(now - fr.sentAt)
	*fr = sentFrame{state: frameDone}
	r.stats.Acked++
	for x := r.head; x < seq; x++ {
		g := r.frame(x)
		if g.state != frameUnacked {
			continue
		}
		if g.greater++; g.greater >= r.cfg.LossThreshold {
			r.stats.LostByGap++
			r.markLost(g)
		}
	}
}

// markLost queues g's packet for reporting and resolves it.
func (r *Reliability) markLost(g *sentFrame) {
	r.reports.Do(g.pkt)
	*g = sentFrame{state: frameDone}
}

// advanceHead forgets the resolved frames at the head.
func (r *Reliability) advanceHead() {
	for r.head < r.next && r.frame(r.head).state != frameUnacked {
		*r.frame(r.head) = sentFrame{}
		r.head++
	}
}

// armRTO arms the ack timeout for the head frame, or disarms it when no
// frame awaits an ack. The timer is lazy: renewing it costs nothing.
func (r *Reliability) armRTO() {
	if r.head == r.next {
		r.rto.Stop()
		return
	}
	r.rto.Set(r.frame(r.head).sentAt + r.rtt.RTO())
}

// onRTO reports the frames whose ack timeout has passed, oldest first.
func (r *Reliability) onRTO() {
	held := r.reports.Hold()
	now := r.s.Now()
	rto := r.rtt.RTO()
	expired := false
	for seq := r.head; seq < r.next; seq++ {
		g := r.frame(seq)
		if g.state != frameUnacked {
			continue
		}
		if g.sentAt+rto > now {
			break
		}
		r.stats.LostByTimeout++
		r.markLost(g)
		expired = true
	}
	if expired {
		r.rtt.Backoff()
	}
	r.advanceHead()
	r.armRTO()
	if held {
		r.reports.Release() // the callback may send on the link (and so call OnSend)
	}
}

// receivedBefore records seq as received and reports whether it was
// already. Sequences more than Window below the highest one received are
// too old to tell and count as new.
func (r *Reliability) receivedBefore(seq uint64) bool {
	w := uint64(len(r.frames))
	if seq > r.rcvHigh {
		if seq-r.rcvHigh >= w {
			clear(r.seen)
		} else {
			for x := r.rcvHigh + 1; x < seq; x++ {
				r.seen[x%w/64] &^= 1 << (x % w % 64)
			}
		}
		r.rcvHigh = seq
		r.seen[seq%w/64] |= 1 << (seq % w % 64)
		return false
	}
	if r.rcvHigh-seq >= w {
		return false
	}
	word, bit := &r.seen[seq%w/64], uint64(1)<<(seq%w%64)
	if *word&bit != 0 {
		return true
	}
	*word |= bit
	return false
}

// takeAcks removes the first n waiting acks (counted as sent), and
// disarms the ack timer when none are left (lazily: it costs nothing).
func (r *Reliability) takeAcks(n int) {
	r.stats.AcksSent += uint64(n)
	r.pending = r.pending[:copy(r.pending, r.pending[n:])]
	if len(r.pending) == 0 {
		r.ackTimer.Stop()
	}
}

// flushAcks sends every waiting ack in IDLE frames.
func (r *Reliability) flushAcks() {
	for len(r.pending) > 0 {
		n := min(len(r.pending), r.cfg.MaxAcks)
		acks := r.newAcks(n)
		copy(acks, r.pending)
		r.takeAcks(n)
		r.stats.IdleFrames++
		r.sendIdle(Frame{LinkFields: ndn.LinkFields{Acks: acks}})
	}
}

// onAckTimer sends the waiting acks once the oldest has waited AckDelay.
func (r *Reliability) onAckTimer() { r.flushAcks() }
