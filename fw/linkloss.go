package fw

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Defaults of the link-loss shim (LinkLossConfig).
const (
	// DefaultLinkAckDelay is how long a received frame's ack waits for a
	// reverse packet to ride on before it goes in an IDLE packet.
	DefaultLinkAckDelay = 5 * time.Millisecond
	// DefaultLinkLossThreshold is how many frames sent after a frame must
	// be acknowledged before that frame counts as lost (NFD's
	// LpReliability uses 3): a reordering allowance of two frames.
	DefaultLinkLossThreshold = 3
	// DefaultLinkLossWindow bounds the frames awaiting an ack.
	DefaultLinkLossWindow = 1024
	// DefaultLinkMaxAcks bounds the acks one packet carries; this many
	// waiting acks are sent at once in an IDLE packet.
	DefaultLinkMaxAcks = 16
)

// DefaultLinkAckTimeout returns the default ack-timeout estimator: RFC
// 6298's (gains 1/8 and 1/4, RTO = SRTT + 4*RTTVAR) over the link's ack
// round trips, starting at 200 ms, between 20 ms and 2 s, doubled after a
// timeout until the next sample.
func DefaultLinkAckTimeout() cc.RTTConfig {
	return cc.RTTConfig{
		Alpha:             1.0 / 8,
		Beta:              1.0 / 4,
		K:                 4,
		InitialRTO:        200 * time.Millisecond,
		MinRTO:            20 * time.Millisecond,
		MaxRTO:            2 * time.Second,
		BackoffMultiplier: 2,
	}
}

// LinkLossConfig parameterises a LinkLoss.
type LinkLossConfig struct {
	// AckDelay is the longest an ack waits for a reverse packet to ride
	// on before an IDLE packet carries it. Default 5 ms.
	AckDelay time.Duration
	// LossThreshold: a frame is lost once acks for this many frames sent
	// after it have arrived. Default 3.
	LossThreshold int
	// AckTimeout estimates the ack timeout from the round trips of acked
	// frames: a frame not acked within the current timeout is lost.
	// Default DefaultLinkAckTimeout.
	AckTimeout cc.RTTConfig
	// Window is the most frames awaiting an ack; sending one more forgets
	// the oldest (counted in LinkLossStats.Evicted, never reported).
	// Default 1024.
	Window int
	// MaxAcks is the most acks one packet carries. Default 16.
	MaxAcks int
}

// DefaultLinkLossConfig returns the documented defaults.
func DefaultLinkLossConfig() LinkLossConfig {
	return LinkLossConfig{
		AckDelay:      DefaultLinkAckDelay,
		LossThreshold: DefaultLinkLossThreshold,
		AckTimeout:    DefaultLinkAckTimeout(),
		Window:        DefaultLinkLossWindow,
		MaxAcks:       DefaultLinkMaxAcks,
	}
}

// Validate reports the first field that is out of range.
func (c LinkLossConfig) Validate() error {
	switch {
	case c.AckDelay <= 0:
		return fmt.Errorf("fw: link loss: AckDelay %v must be positive", c.AckDelay)
	case c.LossThreshold < 1:
		return fmt.Errorf("fw: link loss: LossThreshold %d must be at least 1", c.LossThreshold)
	case c.Window < 1:
		return fmt.Errorf("fw: link loss: Window %d must be at least 1", c.Window)
	case c.MaxAcks < 1:
		return fmt.Errorf("fw: link loss: MaxAcks %d must be at least 1", c.MaxAcks)
	}
	if err := c.AckTimeout.Validate(); err != nil {
		return fmt.Errorf("fw: link loss: AckTimeout: %w", err)
	}
	return nil
}

// LinkLossStats are a LinkLoss's counters.
type LinkLossStats struct {
	Sent          uint64 // frames sent with a TxSeq (Interests, Data, Nacks)
	Acked         uint64 // of those, acknowledged
	LostByGap     uint64 // reported lost: LossThreshold later frames were acked
	LostByTimeout uint64 // reported lost: not acked within the ack timeout
	Evicted       uint64 // forgotten unacknowledged because the window was full
	LateAcks      uint64 // acks for frames already reported, forgotten or unknown
	Received      uint64 // frames received with a TxSeq
	Duplicates    uint64 // of those, seen before (not delivered)
	AcksSent      uint64 // acks sent, on reverse packets or IDLE packets
	IdlePackets   uint64 // IDLE packets sent (acks only)
}

// Frame states of the sender side.
const (
	frameFree uint8 = iota
	frameUnacked
	frameDone // acked or reported lost
)

type linkFrame struct {
	pkt     ndn.Packet
	sentAt  time.Duration
	greater int // acks received for frames sent after this one
	state   uint8
}

// LinkLoss is PCON's local link-loss detection, after the best-effort link
// reliability of NDNLPv2 (NDN TR41): a shim at one end of a point-to-point
// link that numbers the frames it sends, acknowledges the frames it
// receives, and reports each frame it sent that the other end never got.
// It does not retransmit: the forwarder turns a reported loss into a Nack
// (Forwarder.OnSendFailure), so the consumer retransmits without cutting
// its window (PCON's unmarked Nack).
//
// Sender: every Interest, Data or Nack that OnSend sees gets the next
// TxSeq (1, 2, ...) and is kept until acked. A frame is lost when acks for
// LossThreshold frames sent after it have arrived while its own has not
// (so up to LossThreshold-1 frames of reordering are tolerated), or when
// it is still unacked an ack timeout after it was sent; the timeout is
// RFC 6298's estimator over the round trips of acked frames, doubled after
// a timeout until the next sample. Lost frames are reported once each,
// with the packet as sent, through the lost callback. At most Window
// frames are kept; the oldest is forgotten silently when one more is sent.
//
// Receiver: every frame with a TxSeq that OnReceive sees is acked. Acks
// ride on the next packets OnSend sees (at most MaxAcks each); an ack that
// has found no packet within AckDelay, or MaxAcks acks waiting, go in an
// IDLE packet (a Packet with only Acks) through the sendIdle callback. A
// frame received twice is acked but not delivered again.
//
// A lost ack makes its frame look lost (a false report): the forwarder's
// Nack then costs one needless retransmission by the consumer, or nothing
// if the Data was already through.
//
// # How to wire it
//
// One LinkLoss per forwarder face on a link, so two per link: the shim at
// node A's end numbers what A sends on the link and acks what A receives
// from it. For a link A—B with face fa on forwarder FA and fb on FB, and
// the channels a2b (A to B) and b2a:
//
//  1. la, err := fw.NewLinkLoss(cfg, sched, sendIdleA, lostA) with
//     sendIdleA = func(p ndn.Packet) { a2b.Send(p) } (an IDLE packet
//     queues and transmits like any other) and
//     lostA = func(p ndn.Packet) { FA.OnSendFailure(fa, p, fw.CauseLinkLoss) };
//     likewise lb for B. Then FA.EnableLossNacks(fa, cfg.Window) (and
//     FB.EnableLossNacks(fb, cfg.Window)), so a lost Data can be Nacked.
//  2. When a2b starts transmitting a packet (after it leaves the output
//     queue, not when it is enqueued, and before the random-loss draw):
//     la.OnSend(&pkt), then size the packet (ndn.Sizer.PacketSize): the
//     TxSeq and Acks it now carries are LpPacket fields and add bytes. A
//     packet dropped by the queue never reaches OnSend, so the shim never
//     reports it (step 4 does).
//  3. When a packet arrives from a2b at B (random loss simply never
//     arrives): if lb.OnReceive(pkt) { FB.Receive(fb, pkt) }. Every
//     arriving packet goes through OnReceive, IDLE ones included; IDLE
//     packets and duplicates return false and must not reach FB.
//  4. When a2b's output queue drops a packet FA sent (tail drop at
//     enqueue, or an AQM drop at dequeue):
//     FA.OnSendFailure(fa, pkt, fw.CauseQueueDrop). This needs no shim and
//     works on links without one; IDLE packets may be passed (ignored).
//
// OnSendFailure answers a lost Interest with a Nack Congestion to its
// downstreams (unmarked for CauseLinkLoss, marked for CauseQueueDrop) and a
// lost Data with such a Nack to the downstream forwarder it was sent to:
// that forwarder still has the PIT entry and passes the Nack on. All calls
// come from the scheduler's thread. The callbacks run inside OnReceive and
// inside the shim's own timers, once its state is consistent: they may
// send on the link (and so reach OnSend) at once. OnSendFailure may be
// called from within the forwarder's own Send (step 4's tail drop): the
// forwarder queues the report until the current packet is done.
type LinkLoss struct {
	cfg      LinkLossConfig
	s        sched.Scheduler
	sendIdle func(ndn.Packet)
	lost     func(ndn.Packet)
	rtt      *cc.RTTEstimator

	// sender: frames [head, next) are tracked, frames[seq%Window]; the
	// frame at head is unacked whenever head < next.
	frames   []linkFrame
	head     uint64
	next     uint64
	rtoTimer sched.Timer
	rtoAt    time.Duration
	onRTOFn  func()
	lostBuf  []ndn.Packet // reports to deliver once the state is consistent

	// receiver
	pending      []uint64      // sequences to ack
	pendingSince time.Duration // when the oldest of them arrived
	ackTimer     sched.Timer   // fires no later than pendingSince+AckDelay
	onAckFn      func()
	ackSlab      []uint64 // Acks slices of sent packets are cut from it
	rcvHigh      uint64   // highest sequence received
	seen         []uint64 // bitmap of sequences received, by seq%Window

	stats LinkLossStats
}

// NewLinkLoss returns a shim with configuration cfg on scheduler s.
// sendIdle transmits an IDLE packet on the link; lost is told of each
// frame this side sent that was lost, with the packet as OnSend saw it
// (TxSeq set, Acks cleared).
func NewLinkLoss(cfg LinkLossConfig, s sched.Scheduler, sendIdle, lost func(ndn.Packet)) (*LinkLoss, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if s == nil || sendIdle == nil || lost == nil {
		return nil, fmt.Errorf("fw: link loss: scheduler, sendIdle and lost are required")
	}
	l := &LinkLoss{
		cfg:      cfg,
		s:        s,
		sendIdle: sendIdle,
		lost:     lost,
		rtt:      cc.NewRTTEstimator(cfg.AckTimeout),
		frames:   make([]linkFrame, cfg.Window),
		head:     1,
		next:     1,
		seen:     make([]uint64, (cfg.Window+63)/64),
	}
	l.onRTOFn = l.onRTO
	l.onAckFn = l.onAckTimer
	return l, nil
}

// Stats returns the counters.
func (l *LinkLoss) Stats() LinkLossStats { return l.stats }

// PendingAcks returns the number of received frames whose ack has not been
// sent yet.
func (l *LinkLoss) PendingAcks() int { return len(l.pending) }

// Unacked returns the number of frames sent and neither acked nor reported
// lost yet.
func (l *LinkLoss) Unacked() int {
	n := 0
	for seq := l.head; seq < l.next; seq++ {
		if l.frame(seq).state == frameUnacked {
			n++
		}
	}
	return n
}

// AckTimeout returns the current ack timeout.
func (l *LinkLoss) AckTimeout() time.Duration { return l.rtt.RTO() }

func (l *LinkLoss) frame(seq uint64) *linkFrame {
	return &l.frames[seq%uint64(len(l.frames))]
}

// OnSend prepares p, which this side is about to transmit: an Interest,
// Data or Nack gets the next TxSeq and is kept until acked; any packet
// (IDLE ones included) takes waiting acks, up to MaxAcks in all. p.Acks is
// replaced by a new slice, never appended to in place.
func (l *LinkLoss) OnSend(p *ndn.Packet) {
	now := l.s.Now()
	if p.Interest != nil || p.Data != nil {
		if l.next-l.head == uint64(len(l.frames)) {
			if l.frame(l.head).state == frameUnacked {
				l.stats.Evicted++
			}
			*l.frame(l.head) = linkFrame{}
			l.head++
			l.advanceHead()
		}
		p.TxSeq = l.next
		l.next++
		kept := *p
		kept.Acks = nil
		*l.frame(p.TxSeq) = linkFrame{pkt: kept, sentAt: now, state: frameUnacked}
		l.stats.Sent++
		l.armRTO(now)
	}
	if n := min(len(l.pending), l.cfg.MaxAcks-len(p.Acks)); n > 0 {
		acks := l.newAcks(len(p.Acks) + n)
		copy(acks[copy(acks, p.Acks):], l.pending[:n])
		p.Acks = acks
		l.takeAcks(n)
	}
}

// newAcks returns a new slice of n acks, cut from a slab so that a packet's
// Acks cost an allocation only every few hundred acks. The slices never
// overlap, and a packet's Acks are never written after it is sent.
func (l *LinkLoss) newAcks(n int) []uint64 {
	if cap(l.ackSlab)-len(l.ackSlab) < n {
		l.ackSlab = make([]uint64, 0, max(256, n))
	}
	k := len(l.ackSlab)
	l.ackSlab = l.ackSlab[:k+n]
	return l.ackSlab[k : k+n : k+n]
}

// OnReceive processes p, which arrived from the other side: its acks
// resolve frames this side sent (reporting the ones found lost), and its
// TxSeq, if any, is queued for acking. It reports whether p goes on to the
// forwarder: not an IDLE packet, not a frame received before.
func (l *LinkLoss) OnReceive(p ndn.Packet) (deliver bool) {
	now := l.s.Now()
	if len(p.Acks) > 0 {
		for _, seq := range p.Acks {
			l.onAck(seq, now)
		}
		l.advanceHead()
		l.armRTO(now)
	}
	deliver = p.Interest != nil || p.Data != nil
	if p.TxSeq != 0 {
		l.stats.Received++
		if l.receivedBefore(p.TxSeq) {
			l.stats.Duplicates++
			deliver = false
		}
		if len(l.pending) == 0 {
			l.pendingSince = now
		}
		l.pending = append(l.pending, p.TxSeq)
		switch {
		case len(l.pending) >= l.cfg.MaxAcks:
			l.flushAcks()
		case l.ackTimer == nil:
			l.ackTimer = l.s.After(l.cfg.AckDelay, l.onAckFn)
		}
	}
	l.reportLost()
	return deliver
}

// onAck resolves frame seq as acked and counts it against the older
// unacked frames.
func (l *LinkLoss) onAck(seq uint64, now time.Duration) {
	if seq < l.head || seq >= l.next || l.frame(seq).state != frameUnacked {
		l.stats.LateAcks++
		return
	}
	fr := l.frame(seq)
	l.rtt.AddSample(now - fr.sentAt)
	*fr = linkFrame{state: frameDone}
	l.stats.Acked++
	for x := l.head; x < seq; x++ {
		g := l.frame(x)
		if g.state != frameUnacked {
			continue
		}
		if g.greater++; g.greater >= l.cfg.LossThreshold {
			l.stats.LostByGap++
			l.markLost(g)
		}
	}
}

// markLost queues g's packet for reporting and resolves it.
func (l *LinkLoss) markLost(g *linkFrame) {
	l.lostBuf = append(l.lostBuf, g.pkt)
	*g = linkFrame{state: frameDone}
}

// advanceHead forgets the resolved frames at the head.
func (l *LinkLoss) advanceHead() {
	for l.head < l.next && l.frame(l.head).state != frameUnacked {
		*l.frame(l.head) = linkFrame{}
		l.head++
	}
}

// armRTO makes the ack timer fire no later than the head frame's
// deadline. A timer already armed for earlier is left alone: it re-arms
// when it fires.
func (l *LinkLoss) armRTO(now time.Duration) {
	if l.head == l.next {
		return
	}
	at := l.frame(l.head).sentAt + l.rtt.RTO()
	if l.rtoTimer != nil {
		if l.rtoAt <= at {
			return
		}
		l.rtoTimer.Stop()
	}
	l.rtoAt = at
	l.rtoTimer = l.s.After(at-now, l.onRTOFn)
}

// onRTO reports the frames whose ack timeout has passed, oldest first.
func (l *LinkLoss) onRTO() {
	l.rtoTimer = nil
	now := l.s.Now()
	rto := l.rtt.RTO()
	expired := false
	for seq := l.head; seq < l.next; seq++ {
		g := l.frame(seq)
		if g.state != frameUnacked {
			continue
		}
		if g.sentAt+rto > now {
			break
		}
		l.stats.LostByTimeout++
		l.markLost(g)
		expired = true
	}
	if expired {
		l.rtt.Backoff()
	}
	l.advanceHead()
	l.armRTO(now)
	l.reportLost()
}

// reportLost delivers the queued loss reports. The callback may send on
// the link (and so call OnSend): the state is consistent by now.
func (l *LinkLoss) reportLost() {
	if len(l.lostBuf) == 0 {
		return
	}
	batch := l.lostBuf
	l.lostBuf = nil
	for _, p := range batch {
		l.lost(p)
	}
}

// receivedBefore records seq as received and reports whether it was
// already. Sequences more than Window below the highest one received are
// too old to tell and count as new.
func (l *LinkLoss) receivedBefore(seq uint64) bool {
	w := uint64(len(l.frames))
	if seq > l.rcvHigh {
		if seq-l.rcvHigh >= w {
			clear(l.seen)
		} else {
			for x := l.rcvHigh + 1; x < seq; x++ {
				l.seen[x%w/64] &^= 1 << (x % w % 64)
			}
		}
		l.rcvHigh = seq
		l.seen[seq%w/64] |= 1 << (seq % w % 64)
		return false
	}
	if l.rcvHigh-seq >= w {
		return false
	}
	word, bit := &l.seen[seq%w/64], uint64(1)<<(seq%w%64)
	if *word&bit != 0 {
		return true
	}
	*word |= bit
	return false
}

// takeAcks removes the first n waiting acks (counted as sent). The ack
// timer stays armed even when none are left: it re-arms lazily when it
// fires, which saves a Stop and an After per piggybacked ack.
func (l *LinkLoss) takeAcks(n int) {
	l.stats.AcksSent += uint64(n)
	l.pending = l.pending[:copy(l.pending, l.pending[n:])]
}

// flushAcks sends every waiting ack in IDLE packets.
func (l *LinkLoss) flushAcks() {
	for len(l.pending) > 0 {
		n := min(len(l.pending), l.cfg.MaxAcks)
		acks := l.newAcks(n)
		copy(acks, l.pending)
		l.takeAcks(n)
		l.stats.IdlePackets++
		l.sendIdle(ndn.Packet{Acks: acks})
	}
}

// onAckTimer sends the waiting acks once the oldest has waited AckDelay,
// or re-arms for that moment.
func (l *LinkLoss) onAckTimer() {
	l.ackTimer = nil
	if len(l.pending) == 0 {
		return
	}
	if wait := l.pendingSince + l.cfg.AckDelay - l.s.Now(); wait > 0 {
		l.ackTimer = l.s.After(wait, l.onAckFn)
		return
	}
	l.flushAcks()
}

// LossCause says why a packet a face was given never reached the other
// end of its link.
type LossCause uint8

// Loss causes.
const (
	// CauseLinkLoss: lost on the link, as LinkLoss detects it. The
	// consumer should retransmit without cutting its window.
	CauseLinkLoss LossCause = iota + 1
	// CauseQueueDrop: dropped by the face's output queue (tail drop or
	// an AQM drop), a congestion signal: retransmit and cut.
	CauseQueueDrop
)

func (c LossCause) String() string {
	switch c {
	case CauseLinkLoss:
		return "link-loss"
	case CauseQueueDrop:
		return "queue-drop"
	}
	return fmt.Sprintf("LossCause(%d)", uint8(c))
}

// mark is the CongestionMark of the Nack a loss of this cause produces.
func (c LossCause) mark() uint64 {
	if c == CauseQueueDrop {
		return 1
	}
	return 0
}

// EnableLossNacks makes the forwarder remember, for the last window Data
// it sent on face (0 means DefaultLinkLossWindow), which downstream
// Interest each answered, so that OnSendFailure can Nack a lost one.
// window should cover the Data that can be sent before a loss is
// detected: LinkLossConfig.Window does.
func (f *Forwarder) EnableLossNacks(face FaceID, window int) error {
	if !f.faceUp(face) {
		return fmt.Errorf("fw %s: enable loss Nacks: no face %d", f.name, face)
	}
	if window < 0 {
		return fmt.Errorf("fw %s: enable loss Nacks on face %d: negative window %d", f.name, face, window)
	}
	if window == 0 {
		window = DefaultLinkLossWindow
	}
	f.faces[face].sent = &sentDataRing{buf: make([]sentData, window)}
	return nil
}

// OnSendFailure tells the forwarder that packet p, which it sent on face,
// was lost (see LossCause); p is the packet as sent (a TxSeq or Acks on it
// are ignored). The reaction is PCON's Nack, with CongestionMark 0 for
// CauseLinkLoss and 1 for CauseQueueDrop:
//
//   - a lost Interest that is still awaited from face is handled as if
//     face had returned Nack Congestion: the entry's strategy decides
//     (best-route Nacks the downstreams once no other upstream is
//     pending; pcon first retries another nexthop);
//   - a lost Data is answered with Nack Congestion on face itself, for the
//     Interest the Data answered (if EnableLossNacks remembers it): the
//     forwarder downstream still has the PIT entry, matches the Nack to
//     its out-record and passes it on to the consumer;
//   - a lost Nack, and anything that no longer matches, is only counted
//     (Counters.UnmatchedLosses).
//
// It may be called from within a face's Send: the report is then handled
// once the current packet is done.
func (f *Forwarder) OnSendFailure(face FaceID, p ndn.Packet, cause LossCause) {
	if f.busy {
		f.backlog = append(f.backlog, arrival{face: face, pkt: p, loss: cause})
		return
	}
	f.busy = true
	f.onSendFailure(face, p, cause)
	f.drain()
}

func (f *Forwarder) onSendFailure(face FaceID, p ndn.Packet, cause LossCause) {
	if face == 0 || int(face) >= len(f.faces) || (p.Interest == nil && p.Data == nil) {
		return // not a face, or an IDLE packet: nothing to answer
	}
	switch {
	case p.Data != nil:
		var it *ndn.Interest
		if r := f.faces[face].sent; r != nil {
			it = r.find(p.Data)
		}
		if it == nil || !f.send(face, ndn.Packet{Interest: it, Nack: ndn.NackCongestion, CongestionMark: cause.mark()}) {
			f.counters.UnmatchedLosses++
			return
		}
		f.counters.LostData++
		f.counters.OutNacks++
		if cause.mark() > 0 {
			f.counters.MarksForwarded++
		}
	case p.IsNack():
		f.counters.UnmatchedLosses++
	default:
		it := p.Interest
		e := f.pit.find(it, f.hasher.full(it.Name))
		var o *OutRecord
		if e != nil {
			o = e.OutRecord(face)
		}
		if o == nil || o.Nonce != it.Nonce || o.Nack != ndn.NackNone {
			f.counters.UnmatchedLosses++
			return
		}
		f.counters.LostInterests++
		f.upstreamNack(e, o, face, ndn.Packet{Interest: it, Nack: ndn.NackCongestion, CongestionMark: cause.mark()})
	}
}

// sentData pairs a Data sent on a face with the downstream Interest it
// answered.
type sentData struct {
	d  *ndn.Data
	it *ndn.Interest
}

// sentDataRing remembers the last len(buf) Data sent on one face.
type sentDataRing struct {
	buf  []sentData
	next int
}

func (r *sentDataRing) add(d *ndn.Data, it *ndn.Interest) {
	r.buf[r.next] = sentData{d: d, it: it}
	r.next = (r.next + 1) % len(r.buf)
}

// find returns the Interest that the latest sending of d answered, or nil.
func (r *sentDataRing) find(d *ndn.Data) *ndn.Interest {
	n := len(r.buf)
	for i := 1; i <= n; i++ {
		x := &r.buf[(r.next-i+n)%n]
		if x.d == d {
			return x.it
		}
	}
	return nil
}
