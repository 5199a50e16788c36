// Package consumer is the segment-fetch pipeline: it requests the segments
// of one object through a face, keeps per-segment state (send time, RTO at
// send, retries), detects timeouts with a periodic check, retransmits, and
// drives a window algorithm from package cc with what it sees: Data with
// their RTT samples and congestion marks, Nacks and timeouts.
//
// The pipeline owns segments, timers and retransmission; the algorithm
// owns only the window. It is sans-IO: time and timers come from a
// sched.Scheduler, packets leave through an ndn.Face and arrive through
// OnPacket. Per-flow state is bounded by the window (a ring buffer over the
// segments between the oldest missing one and the newest requested, a span
// capped at Options.SpanWindows windows), never by the object size. It must not import sim, live or fw.
package consumer

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Errors a fetch can end with.
var (
	ErrRetriesExhausted = errors.New("retries exhausted")
	ErrNoFinalBlock     = errors.New("Data carries no FinalBlockId")
)

type segStatus uint8

const (
	segUnused   segStatus = iota
	segInFlight           // Interest outstanding
	segRetxWait           // lost, waiting in the retransmission queue
	segReceived
)

type segment struct {
	status segStatus
	retx   bool // sent more than once: its RTT is ambiguous (Karn)
	// timedOut: the segment was last declared lost by a timeout (not a
	// Nack or a Reissue).
	timedOut bool
	// rackLost: the segment was last declared lost by time-based loss
	// detection (rack).
	rackLost bool
	// rackEvent: that loss is still to be taken as a loss event, when
	// the retransmission leaves.
	rackEvent bool
	retries   uint16
	// rackSince is when the reorder window started for a RACK loss
	// (rack.since at the declaration).
	rackSince time.Duration
	sentAt    time.Duration
	// stallsAtSend is the runtime's stall time when the latest Interest
	// left (Config.Stalls).
	stallsAtSend time.Duration
	rto          time.Duration
	order        uint64 // transmission order of the latest Interest
	nonce        uint32 // nonce of the latest Interest
	// holdUntil delays a retransmission (after a NoRoute Nack).
	holdUntil time.Duration
	// earlier are the send times of the segment's earlier Interests, the
	// newest first, that an application face keeping them pending
	// (Options.KeepPending) still holds; nEarlier of them are set.
	earlier  [maxEarlier]time.Duration
	nEarlier uint8
}

// maxEarlier bounds the earlier Interests of a segment that KeepPending
// tracks: with seed 003's RTO backoff of 2, more than four retransmissions
// of one segment fall within a 4 s Interest lifetime only if its RTO was
// below 270 ms throughout.
const maxEarlier = 4

// Config binds a pipeline to its environment.
type Config struct {
	// Prefix is the name segments are appended to (including any version).
	Prefix ndn.Name
	// Options are the pipeline's parameters.
	Options Options
	// Rand draws Interest nonces.
	Rand *rand.Rand
	// WireSize, if set, gives the on-the-wire size of a received packet
	// (for the seeds' throughput incl. headers). Nil: the payload size.
	WireSize func(p ndn.Packet) int
	// Tracer, if set, receives cwnd, RTT and rate traces.
	Tracer Tracer
	// OnDone is called once when the fetch completes or fails.
	OnDone func(err error)
	// OnSegment, if set, is called with each segment's payload in
	// arrival order (not in segment order).
	OnSegment func(seg uint64, d *ndn.Data)
	// Arrival, if set, tells during OnPacket when the packet reached the
	// runtime (was read from its socket), on the scheduler's clock; it is
	// before Now when the runtime was busy or stalled meanwhile. Nil: Now.
	// It only serves to tell spurious timeouts (Stats.SpuriousTimeouts):
	// a Data that arrived before its segment's retransmission left
	// answers the Interest that timed out.
	Arrival func() time.Duration
	// Interests, if set, supplies the Interests the pipeline sends (a
	// simulation's consumers share one Batch); nil: each is allocated
	// alone. A face that encodes on send (ndn.EncodingFace) reuses one
	// Interest instead.
	Interests *ndn.Batch[ndn.Interest]
	// Stalls, if set, returns how long, in all, the runtime found it had
	// not run (its process stopped, descheduled or paused). Time that
	// passed during a stall says nothing about the network: an Interest's
	// wait across one counts towards its timeout without the stall. (RTT
	// samples keep it: leaving out the samples that span a stall would
	// leave out the longest ones most.) Nil: no stalls.
	Stalls func() time.Duration
}

// Pipeline fetches one segmented object.
type Pipeline struct {
	cfg  Config
	opt  Options
	s    sched.Scheduler
	face ndn.Face

	alg cc.Algorithm
	// ooo is the algorithm's out-of-order hook, if it has one (NDN-Vegas's
	// hole slow start).
	ooo interface{ OnOutOfOrder() }
	// counter is the algorithm's own count of signals, if it keeps one
	// (cc.SignalCounter): it sees every Data and every lost Interest.
	counter cc.SignalCounter
	cwa     *cc.Conservative
	hole    *cc.HoleDetector
	rto     retxTimer
	// rack is the time-based loss detection (used when Options.Rack).
	rack rack

	final      uint64
	finalKnown bool
	nextSeg    uint64 // next never-sent segment
	base       uint64 // lowest segment not yet received
	ring       []segment
	inFlight   int
	retxQ      fifo.Queue[uint64]
	sendOrder  uint64
	orderQ     fifo.Queue[orderEntry] // in-flight transmissions in send order, lazily pruned
	// timeoutFloor is at most the timeout key (timeoutKey) of every
	// segment in flight: before the runtime's clock less its stalls
	// reaches it, no Interest can time out, and checkTimeouts skips its
	// pass over the window. send lowers it; that pass sets it again.
	timeoutFloor time.Duration
	sampler      *cc.RTTSampler

	started bool
	done    bool
	err     error
	check   sched.Timer
	checkFn func()
	// checkTimer is the timeout check's reusable timer, on a scheduler
	// that makes them (no allocation per check); nil: one After each.
	checkTimer sched.ReusableTimer
	// rackTimer runs the loss detection a Data found due (rackDue); on
	// a scheduler without reusable timers, rackAfter is set while an
	// After of it is pending.
	rackTimer sched.ReusableTimer
	rackAfter sched.Timer
	rackFn    func()
	// rackArmed: the loss detection is scheduled to run (armRack).
	rackArmed bool

	rate  rateMeter
	stats Stats
	// pace spaces Interests for a paced algorithm (nil: none).
	pace *pacer
	// interest is the one Interest reused for every segment when the
	// face is an ndn.EncodingFace (nil otherwise: a new one per send).
	interest *ndn.Interest
}

// New returns a pipeline that sends on face. Call Start to begin.
func New(cfg Config, s sched.Scheduler, face ndn.Face) (*Pipeline, error) {
	o := cfg.Options
	if err := o.Validate(); err != nil {
		return nil, err
	}
	alg, err := cc.NewAlgorithm(o.Pipeline, o.AlgParams)
	if err != nil {
		return nil, err
	}
	if cfg.Rand == nil {
		return nil, fmt.Errorf("consumer %s: no random source", cfg.Prefix)
	}
	p := &Pipeline{
		cfg: cfg, opt: o, s: s, face: face, alg: alg,
		cwa:     cc.NewConservative(o.Conservative),
		rto:     newRetxTimer(o),
		rack:    newRack(o.RTT.K),
		sampler: cc.NewRTTSampler(o.RTTSampling),
		ring:    make([]segment, 64),

		timeoutFloor: math.MaxInt64, // nothing in flight
	}
	if o.HoleDetection {
		p.hole = cc.NewHoleDetector(o.HoleThreshold)
	}
	p.ooo, _ = alg.(interface{ OnOutOfOrder() })
	p.counter, _ = alg.(cc.SignalCounter)
	if pa, ok := alg.(cc.Paced); ok {
		p.pace = newPacer(pa, s, p.schedule)
	}
	p.checkFn = p.checkTimeouts
	p.rackFn = p.rackCheck
	if ts, ok := s.(sched.TimerScheduler); ok {
		p.checkTimer = ts.NewTimer(p.checkFn)
		p.rackTimer = ts.NewTimer(p.rackFn)
	}
	p.rate.tracer = cfg.Tracer
	if _, ok := face.(ndn.EncodingFace); ok {
		p.interest = &ndn.Interest{}
	}
	return p, nil
}

// Algorithm returns the window algorithm (for inspection).
func (p *Pipeline) Algorithm() cc.Algorithm { return p.alg }

// Stats returns the flow's statistics so far.
func (p *Pipeline) Stats() Stats {
	st := p.stats
	st.RTTMin, st.RTTAvg, st.RTTMax = p.rttStats()
	return st
}

// Done reports whether the fetch has ended, and its error if it failed.
func (p *Pipeline) Done() (bool, error) { return p.done, p.err }

// Start sends the first Interests and starts the timeout check.
func (p *Pipeline) Start() {
	if p.started {
		return
	}
	p.started = true
	p.stats.Start = p.s.Now()
	p.rto.data(p.s.Now())
	p.rate.start(p.s.Now())
	p.traceCwnd()
	p.schedule()
	p.armCheck()
}

// Stop abandons the fetch (no OnDone call).
func (p *Pipeline) Stop() {
	p.done = true
	if p.check != nil {
		p.check.Stop()
	}
	p.stopRack()
	p.pace.stop()
}

func (p *Pipeline) slot(seg uint64) *segment { return &p.ring[seg&uint64(len(p.ring)-1)] }

// grow doubles the ring, keeping segments [base, nextSeg) in place.
func (p *Pipeline) grow() {
	old := p.ring
	p.ring = make([]segment, 2*len(old))
	for s := p.base; s < p.nextSeg; s++ {
		p.ring[s&uint64(len(p.ring)-1)] = old[s&uint64(len(old)-1)]
	}
}

// window is the algorithm's window in whole segments, within [1,
// cc.MaxWindow]: an algorithm's window can grow past what an int holds
// (or be NaN), and the pipeline's state is sized by it.
func (p *Pipeline) window() int {
	w := p.alg.Cwnd()
	switch {
	case w < 1 || math.IsNaN(w):
		return 1
	case w > cc.MaxWindow:
		return cc.MaxWindow
	}
	return int(w)
}

// canSendNew reports whether a never-sent segment may go out now. Until
// the first Data tells the object's size, only segment 0 is requested;
// after that, segments up to the last, within the span limit.
func (p *Pipeline) canSendNew() bool {
	if !p.finalKnown {
		return p.nextSeg == 0
	}
	return p.nextSeg <= p.final && p.nextSeg-p.base < p.maxSpan()
}

// maxSpan is the most segments [base, nextSeg) may cover: SpanWindows
// windows, at least MinSpan.
func (p *Pipeline) maxSpan() uint64 {
	return uint64(max(p.opt.SpanWindows*p.window(), MinSpan))
}

// schedule sends Interests while the window allows.
func (p *Pipeline) schedule() {
	for !p.done && p.inFlight < p.window() && p.pace.ready() {
		if seg, ok := p.nextRetx(); ok {
			p.send(seg, true)
			continue
		}
		if !p.canSendNew() {
			return
		}
		if p.nextSeg-p.base >= uint64(len(p.ring)) {
			p.grow()
		}
		seg := p.nextSeg
		p.nextSeg++
		*p.slot(seg) = segment{}
		p.send(seg, false)
	}
}

// nextRetx pops the retransmission to send now, if any. With postponed
// retransmission a lost segment waits while new segments remain, unless
// its previous Interest's lifetime has run out.
func (p *Pipeline) nextRetx() (uint64, bool) {
	for p.retxQ.Len() > 0 {
		seg := p.retxQ.Peek()
		st := p.slot(seg)
		if seg < p.base || st.status != segRetxWait {
			p.retxQ.Pop() // satisfied meanwhile (late Data)
			continue
		}
		if st.holdUntil > p.s.Now() {
			return 0, false // the head waits; later losses queue behind it
		}
		if p.opt.PostponeRetx && p.canSendNew() && p.s.Now()-st.sentAt < p.lifetime(st.rto) {
			return 0, false
		}
		p.retxQ.Pop()
		return seg, true
	}
	return 0, false
}

func (p *Pipeline) send(seg uint64, retx bool) {
	now := p.s.Now()
	st := p.slot(seg)
	if st.rackEvent {
		p.rackLossEvent(now, seg, st)
	}
	if retx {
		st.retx = true
		st.retries++
		p.stats.Retransmissions++
		if p.opt.KeepPending {
			copy(st.earlier[1:], st.earlier[:maxEarlier-1])
			st.earlier[0] = st.sentAt
			st.nEarlier = min(st.nEarlier+1, maxEarlier)
		}
	} else {
		st.nEarlier = 0
	}
	st.status = segInFlight
	st.holdUntil = 0
	st.sentAt = now
	st.stallsAtSend = p.stalls()
	st.rto = p.rto.rto()
	p.timeoutFloor = min(p.timeoutFloor, timeoutKey(st))
	st.order = p.sendOrder
	if p.orderQ.Len() >= 2*p.inFlight+MinSpan {
		p.compactOrder()
	}
	p.orderQ.Push(orderEntry{order: p.sendOrder, seg: seg})
	p.sendOrder++
	p.inFlight++
	p.cwa.OnInterestSent(seg)
	p.stats.Interests++
	p.pace.sent()

	in := p.interest
	if in != nil {
		in.SetSegment(p.cfg.Prefix, seg)
	} else if b := p.cfg.Interests; b != nil {
		in = b.New()
		in.SetSegment(p.cfg.Prefix, seg)
	} else {
		in = ndn.NewSegmentInterest(p.cfg.Prefix, seg)
	}
	in.Nonce = p.cfg.Rand.Uint32()
	st.nonce = in.Nonce
	in.Lifetime = p.lifetime(st.rto)
	in.MustBeFresh = p.opt.MustBeFresh
	p.face.Send(ndn.Packet{Interest: in})
}

// lifetime is the InterestLifetime of an Interest sent with timeout rto:
// Options.Lifetime, or rto when that is longer. An Interest that left the
// PITs before its timeout fires could no longer bring its Data back: with a
// backed-off RTO past the lifetime, a late Data would find the consumer's
// in-record gone and the segment would wait out the rest of its RTO for
// nothing.
func (p *Pipeline) lifetime(rto time.Duration) time.Duration {
	return max(p.opt.Lifetime, rto)
}

// OnPacket handles a Data or Nack from the forwarder.
func (p *Pipeline) OnPacket(pkt ndn.Packet) {
	if p.done || !p.started {
		return
	}
	switch {
	case pkt.Data != nil:
		p.onData(pkt)
	case pkt.IsNack():
		p.onNack(pkt)
	}
}

// segOf returns the segment a name under the prefix asks for.
func (p *Pipeline) segOf(n ndn.Name) (uint64, bool) {
	if len(n) != len(p.cfg.Prefix)+1 {
		return 0, false
	}
	return ndn.SegmentOf(n)
}

// onData handles a Data: it accounts for it and, if it is a segment
// still missing, takes its RTT sample, lets the loss detection and the
// window react, and moves the fetch on.
func (p *Pipeline) onData(pkt ndn.Packet) {
	now := p.s.Now()
	seg, st, size, ok := p.accept(now, pkt)
	if !ok {
		return
	}
	if p.opt.Rack {
		p.rackDelivered(now, st)
	}
	outOfOrder := p.outOfOrder(st.order)
	p.deliver(now, seg, st, pkt.Data, size)
	sample := p.rttSample(now, seg, st)
	if st.stallsAtSend != p.stalls() {
		// The runtime stalled while this Interest waited: its RTT says
		// as much about the stall as about the network, and the window
		// algorithm gets no sample (a delay-based one would take the
		// stall for a queue, or for a longer path).
		sample = 0
	}
	p.react(now, seg, pkt, sample, outOfOrder)
	p.advance(now)
}

// accept counts a Data and returns its segment's state and its size if
// the Data answers a segment still missing (in flight or waiting for its
// retransmission); it ends the fetch if the first Data has no
// FinalBlockId.
func (p *Pipeline) accept(now time.Duration, pkt ndn.Packet) (uint64, *segment, int, bool) {
	d := pkt.Data
	seg, ok := p.segOf(d.Name)
	if !ok {
		return 0, nil, 0, false
	}
	size := d.ContentLen
	if p.cfg.WireSize != nil {
		size = p.cfg.WireSize(pkt)
	}
	p.stats.DataReceived++
	p.rto.data(now)
	p.stats.WireBytes += uint64(size)
	if seg < p.base || seg >= p.nextSeg {
		p.stats.Duplicates++
		return 0, nil, 0, false
	}
	st := p.slot(seg)
	if st.status == segReceived {
		p.stats.Duplicates++
		return 0, nil, 0, false
	}
	if n := p.stillPending(st, now); n > 0 {
		// The application face hands this Data to every Interest of the
		// segment it still holds: each counts as a Data received.
		p.stats.DataReceived += uint64(n)
		p.stats.WireBytes += uint64(n * size)
	}
	if !p.finalKnown {
		final, ok := d.FinalSegment()
		if !ok {
			p.finish(fmt.Errorf("segment %d of %s: %w", seg, p.cfg.Prefix, ErrNoFinalBlock))
			return 0, nil, 0, false
		}
		p.final, p.finalKnown = final, true
	}
	if st.status == segInFlight {
		p.inFlight--
	}
	if st.status == segRetxWait {
		// Lost by the pipeline's reckoning, yet here before it was asked
		// again: the timeout (or Nack) was spurious.
		p.stats.LateData++
	}
	if st.timedOut && (st.status == segRetxWait || p.arrival(now) < st.sentAt) {
		// It answers the Interest that timed out: here before the
		// retransmission was even sent (Eifel's test, with the arrival
		// time standing in for its timestamp).
		p.stats.SpuriousTimeouts++
	}
	return seg, st, size, true
}

// deliver marks the segment received, of size bytes on the wire, and
// hands its payload on.
func (p *Pipeline) deliver(now time.Duration, seg uint64, st *segment, d *ndn.Data, size int) {
	st.status = segReceived
	p.stats.Segments++
	p.stats.UniqueWireBytes += uint64(size)
	p.stats.PayloadBytes += uint64(d.ContentLen)
	p.rate.add(now, d.ContentLen)
	if p.cfg.OnSegment != nil {
		p.cfg.OnSegment(seg, d)
	}
}

// rttSample is the segment's RTT sample (0 for a retransmitted segment,
// Karn's rule), fed to the RTO estimator as the sampling mode allows and
// traced.
func (p *Pipeline) rttSample(now time.Duration, seg uint64, st *segment) time.Duration {
	var sample time.Duration
	if !st.retx {
		sample = now - st.sentAt
		p.addRTTStat(sample)
		if p.sampler.Take(seg, false, p.nextSeg-1) {
			p.rto.sample(sample)
		}
	}
	if p.cfg.Tracer != nil {
		p.cfg.Tracer.RTT(now, seg, sample, p.rto.est.SRTT(), p.rto.est.RTTVar(), p.rto.rto())
	}
	return sample
}

// react lets the window algorithm react to a delivered segment: growth,
// a mark's decrease, hole detection and the out-of-order hook.
func (p *Pipeline) react(now time.Duration, seg uint64, pkt ndn.Packet, sample time.Duration, outOfOrder bool) {
	p.cwa.OnData(seg)
	marked := pkt.CongestionMark > 0
	if marked {
		p.stats.Marks++
	}
	ack := cc.Ack{Now: now, Seg: seg, RTT: sample, SRTT: p.rto.est.SRTT(), HighInterest: p.cwa.HighInterest(), InFlight: p.inFlight, Marked: marked}
	switch {
	case p.counter != nil:
		// It counts marks and deliveries itself.
		p.alg.OnData(ack)
	case marked && !p.opt.IgnoreMarks:
		p.decrease(now, cc.CauseMark)
	case p.hole != nil && outOfOrder:
		// Seed 003: an out-of-order Data leaves the window unchanged; it
		// only counts towards hole detection.
	default:
		p.alg.OnData(ack)
	}
	if p.hole != nil && p.hole.OnData(outOfOrder) {
		p.decrease(now, cc.CauseHole)
	}
	if outOfOrder && p.ooo != nil {
		p.ooo.OnOutOfOrder()
	}
}

// advance moves the fetch on after a delivery: the oldest missing
// segment, completion, the loss detection's run if the delivery made an
// Interest due (armRack), and the Interests the window now allows (after
// that run, so that retransmissions go first).
func (p *Pipeline) advance(now time.Duration) {
	for p.base < p.nextSeg && p.slot(p.base).status == segReceived {
		p.base++
	}
	if p.finalKnown && p.stats.Segments == p.final+1 {
		p.traceCwnd()
		p.finish(nil)
		return
	}
	p.armRack(now)
	p.traceCwnd()
	if p.done || p.rackArmed {
		// The loss detection's run sends what the window allows then,
		// the segments it finds lost first.
		return
	}
	p.schedule()
}

// arrival is when the packet being handled arrived (Config.Arrival), now
// without it.
func (p *Pipeline) arrival(now time.Duration) time.Duration {
	if p.cfg.Arrival == nil {
		return now
	}
	return p.cfg.Arrival()
}

// stalls is the runtime's stall time so far (Config.Stalls).
func (p *Pipeline) stalls() time.Duration {
	if p.cfg.Stalls == nil {
		return 0
	}
	return p.cfg.Stalls()
}

// stillPending is the number of a segment's earlier Interests that an
// application face keeping them pending (Options.KeepPending) still holds
// at now: those sent less than an Interest lifetime ago.
func (p *Pipeline) stillPending(st *segment, now time.Duration) int {
	n := 0
	for _, t := range st.earlier[:st.nEarlier] {
		if now-t < p.opt.Lifetime {
			n++
		}
	}
	return n
}

// outOfOrder reports whether an Interest sent before the one with this
// transmission order is still outstanding.
func (p *Pipeline) outOfOrder(order uint64) bool {
	for p.orderQ.Len() > 0 {
		e := p.orderQ.Peek()
		if !p.live(e) {
			p.orderQ.Pop()
			continue
		}
		return e.order < order
	}
	return false
}

// live reports whether e is the latest transmission of a segment still in
// flight.
func (p *Pipeline) live(e orderEntry) bool {
	if e.seg < p.base || e.seg >= p.nextSeg {
		return false
	}
	st := p.slot(e.seg)
	return st.status == segInFlight && st.order == e.order
}

// compactOrder drops the order queue's stale entries. outOfOrder prunes
// only at the head, and only when Data arrive; without this, each
// retransmission during an outage would leave an entry behind. Called when
// the queue holds twice the Interests in flight, it costs O(1) amortised.
func (p *Pipeline) compactOrder() {
	for n := p.orderQ.Len(); n > 0; n-- {
		if e := p.orderQ.Pop(); p.live(e) {
			p.orderQ.Push(e)
		}
	}
}

// decrease applies a congestion event, subject to conservative filtering,
// and reports whether it was taken as a loss event.
func (p *Pipeline) decrease(now time.Duration, cause cc.Cause) bool {
	if !p.cwa.TryLossEvent() {
		return false
	}
	p.alg.OnDecrease(now, cause)
	p.stats.LossEvents++
	p.stats.Decreases[cause]++
	return true
}

func (p *Pipeline) onNack(pkt ndn.Packet) {
	now := p.s.Now()
	seg, ok := p.segOf(pkt.Interest.Name)
	if !ok || seg < p.base || seg >= p.nextSeg {
		return
	}
	st := p.slot(seg)
	if st.status != segInFlight || pkt.Interest.Nonce != st.nonce {
		return // a Nack for an earlier transmission
	}
	p.stats.Nacks++
	p.stats.NacksByReason[nackIndex(pkt.Nack)]++
	switch pkt.Nack {
	case ndn.NackCongestion:
		if pkt.CongestionMark > 0 || !p.opt.LinkLossNacks {
			p.decrease(now, cc.CauseNack)
			if p.counter != nil {
				p.counter.OnLost(now, seg)
			}
		} else {
			p.stats.LinkLossNacks++
		}
		p.lose(seg, st, false)
	case ndn.NackDuplicate:
		p.lose(seg, st, false)
	default:
		// No route (or unknown): wait one RTO before retrying so that a
		// route that appears later is used, and the retry budget bounds it.
		p.lose(seg, st, false)
		st.sentAt = now
		st.holdUntil = now + p.rto.rto()
	}
	p.traceCwnd()
	p.schedule()
}

// lose moves an in-flight segment to the retransmission queue; timedOut
// tells whether a timeout (rather than a Nack or Reissue) lost it.
func (p *Pipeline) lose(seg uint64, st *segment, timedOut bool) {
	if st.status == segInFlight {
		p.inFlight--
	}
	st.timedOut = timedOut
	st.rackLost, st.rackEvent = false, false
	if p.opt.MaxRetries >= 0 && int(st.retries) >= p.opt.MaxRetries {
		p.finish(fmt.Errorf("segment %d of %s: %w after %d retransmissions", seg, p.cfg.Prefix, ErrRetriesExhausted, st.retries))
		return
	}
	st.status = segRetxWait
	p.retxQ.Push(seg)
}

// Reissue sends again every Interest still outstanding, as far as the
// window allows (the rest queue for retransmission): the caller knows they
// were lost with its connection to the network, such as a forwarder that
// restarted and forgot its PIT. It is no congestion signal: the window and
// the RTO stay as they are. Each counts as a retransmission of its segment,
// against the retry limit.
func (p *Pipeline) Reissue() {
	if p.done || !p.started {
		return
	}
	for seg := p.base; seg < p.nextSeg && !p.done; seg++ {
		if st := p.slot(seg); st.status == segInFlight {
			p.lose(seg, st, false)
		}
	}
	p.schedule()
}

// checkTimeouts is the periodic RTO check (seed 000: every 10 ms): it
// declares expired Interests lost, backs the RTO off once when one of
// them was a retransmission or a loss event (retxTimer), and ends the
// fetch when the give-up budget is spent.
func (p *Pipeline) checkTimeouts() {
	if p.done {
		return
	}
	now := p.s.Now()
	if p.rto.gaveUp(now) {
		p.finish(fmt.Errorf("%s: %w (%v without Data)", p.cfg.Prefix, ErrGaveUp, now-p.rto.lastData))
		return
	}
	p.detectLosses(now)
	if p.done {
		return
	}
	timedOut, backOff := false, false
	stalls := p.stalls()
	if now-stalls >= p.timeoutFloor {
		timedOut, backOff = p.expire(now, stalls)
	}
	if p.done {
		return
	}
	if backOff {
		p.rto.backOff()
	}
	if timedOut {
		if o, ok := p.alg.(cc.TimeoutObserver); ok {
			o.OnTimeout(now)
		}
		p.traceCwnd()
	}
	if timedOut || p.retxQ.Len() > 0 {
		p.schedule() // also releases retransmissions that were held back
	}
	p.rate.flush(now)
	p.armCheck()
}

// timeoutKey is the time of the runtime's clock less its stalls at which
// segment st, in flight, times out: its wait, but for the runtime's stalls
// since it left (now-sentAt-(stalls-stallsAtSend)), reaches its RTO. (An
// RTO so long that the sum overflows gives a negative key: a floor that
// never skips the pass.)
func timeoutKey(st *segment) time.Duration { return st.sentAt - st.stallsAtSend + st.rto }

// expire declares lost the segments in flight whose Interest has timed out
// (now, less the runtime's stalls, at or past their timeoutKey), and
// reports whether there was one and whether the RTO is to back off. It
// sets timeoutFloor to the earliest key of the segments still in flight.
func (p *Pipeline) expire(now, stalls time.Duration) (timedOut, backOff bool) {
	floor := time.Duration(math.MaxInt64)
	p.timeoutFloor = floor // lowered by what is sent meanwhile
	for seg := p.base; seg < p.nextSeg && !p.done; seg++ {
		st := p.slot(seg)
		if st.status != segInFlight {
			continue
		}
		// Its wait so far, but for the runtime's stalls since it left.
		if now-st.sentAt-(stalls-st.stallsAtSend) < st.rto {
			floor = min(floor, timeoutKey(st))
			continue
		}
		p.stats.Timeouts++
		timedOut = true
		lossEvent := p.decrease(now, cc.CauseTimeout)
		if lossEvent {
			p.rack.lossEvent()
		}
		if lossEvent || p.rto.unanswered(st.retries, st.rto) {
			backOff = true
		}
		if p.counter != nil {
			p.counter.OnLost(now, seg)
		}
		p.lose(seg, st, true)
	}
	p.timeoutFloor = min(p.timeoutFloor, floor)
	return timedOut, backOff
}

// armCheck schedules the next timeout check, CheckInterval from now.
func (p *Pipeline) armCheck() {
	if p.checkTimer == nil {
		p.check = p.s.After(p.opt.CheckInterval, p.checkFn)
		return
	}
	p.checkTimer.Reset(p.s.Now() + max(p.opt.CheckInterval, 0))
	p.check = p.checkTimer
}

func (p *Pipeline) finish(err error) {
	if p.done {
		return
	}
	p.done = true
	p.err = err
	p.stats.End = p.s.Now()
	p.stats.Complete = err == nil
	p.rate.flush(p.s.Now())
	p.rate.close(p.s.Now())
	if p.check != nil {
		p.check.Stop()
	}
	p.stopRack()
	p.pace.stop()
	if p.cfg.OnDone != nil {
		p.cfg.OnDone(err)
	}
}

func (p *Pipeline) traceCwnd() {
	if p.cfg.Tracer != nil {
		p.cfg.Tracer.Cwnd(p.s.Now(), p.alg.Cwnd(), p.alg.Ssthresh())
	}
}
