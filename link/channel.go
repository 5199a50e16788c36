package link

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/internal/reentry"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Params describes one direction of a point-to-point link, as a Mini-NDN
// link line does (bw=, delay=, loss=; the queue is the Channel's aqm.Queue).
type Params struct {
	// Bandwidth is the transmission rate in bit/s; 0 means infinitely
	// fast (no serialisation time).
	Bandwidth float64
	// Delay is the propagation delay.
	Delay time.Duration
	// Loss is the probability that a frame is lost on the wire, drawn
	// independently per frame (Bernoulli), 0..1.
	Loss float64
	// Jitter varies each frame's propagation delay: Delay plus a uniform
	// draw in [-Jitter, +Jitter] from the Channel's random source, at least
	// 0. A frame never arrives before the one sent ahead of it (netem's
	// jitter reorders frames; this link keeps their order).
	Jitter time.Duration
	// HeaderOverhead is the bytes added to every NDN frame on the wire
	// (IP/UDP and link headers).
	HeaderOverhead int
}

// Validate reports the first parameter out of range.
func (p Params) Validate() error {
	switch {
	case !(p.Bandwidth >= 0) || math.IsInf(p.Bandwidth, 0):
		return fmt.Errorf("link: bandwidth %v must be a finite number of bit/s, or 0 for unlimited", p.Bandwidth)
	case p.Delay < 0:
		return fmt.Errorf("link: delay %v must not be negative", p.Delay)
	case !(p.Loss >= 0 && p.Loss <= 1):
		return fmt.Errorf("link: loss %v must be a probability in [0, 1]", p.Loss)
	case p.Jitter < 0:
		return fmt.Errorf("link: jitter %v must not be negative", p.Jitter)
	case p.HeaderOverhead < 0:
		return fmt.Errorf("link: header overhead %d must not be negative", p.HeaderOverhead)
	}
	return nil
}

// SerializationTime is the time to put size bytes on a link of bandwidth
// bw bit/s, rounded up to the nanosecond (exact for whole nanoseconds); 0
// when bw is 0 (unlimited).
func SerializationTime(size int, bw float64) time.Duration {
	if bw <= 0 {
		return 0
	}
	bits := float64(size) * 8
	ns := bits * 1e9 / bw
	d := time.Duration(ns)
	if float64(d) < ns {
		d++
	}
	return d
}

// ChannelStats are the counters of one link direction.
type ChannelStats struct {
	Packets   uint64 // frames that left the transmitter (IDLE frames included)
	Bytes     uint64 // bytes that left the transmitter (incl. header overhead)
	TailDrops uint64 // dropped on arrival at a full queue
	AQMDrops  uint64 // dropped by the queue discipline
	LossDrops uint64 // lost on the wire (random loss)
	DownDrops uint64 // given to the channel while it was down (SetUp)
	Marks     uint64 // congestion marks set by the queue discipline
	MaxQueue  int    // largest queue length seen while the transmitter was busy, packets
	MeanQueue float64
	DataPkts  uint64
	Interests uint64
	NackPkts  uint64
	ExtPkts   uint64 // non-NDN frames (the simulator's TCP segments)
	// Lateness says how late the channel's timers ran: always zero in
	// virtual time; in real time, how faithfully the link was emulated.
	Lateness Lateness
}

// Drops is the total number of frames lost on this direction.
func (s ChannelStats) Drops() uint64 { return s.TailDrops + s.AQMDrops + s.LossDrops + s.DownDrops }

// Lateness measures how late a Channel's timers ran after their due time.
// In real time a timer fires late (the event loop was busy, the OS woke it
// late); the Channel still computes every departure and arrival from when
// it was due, not from when it ran, and releases at each wake every frame
// whose time has passed, so the rate stays exact on average while single
// frames leave late. A run whose lateness exceeds a frame's serialisation
// time (Overruns > 0) had a burstier link than its rate says and should
// say so in its result.
type Lateness struct {
	Wakes uint64        // timer callbacks run (transmissions ended, arrivals)
	Max   time.Duration // the latest one ran after its due time
	Total time.Duration // summed over all wakes (see Mean)
	// Overruns counts frames that started transmitting more than their
	// own serialisation time after their turn (only with a finite
	// bandwidth): the frame should already have left the link.
	Overruns uint64
}

// Mean returns the mean lateness of a wake (0 without wakes).
func (l Lateness) Mean() time.Duration {
	if l.Wakes == 0 {
		return 0
	}
	return l.Total / time.Duration(l.Wakes)
}

// observe records a wake due at due that runs at now. A wake on time (every
// one in virtual time) only counts.
func (l *Lateness) observe(due, now time.Duration) {
	l.Wakes++
	if late := now - due; late > 0 {
		l.Total += late
		l.Max = max(l.Max, late)
	}
}

// Channel is one direction of a link as a model: an output queue with its
// discipline (aqm), a transmitter of fixed bandwidth, a propagation
// delay, random loss and a per-frame header overhead. The forwarder that
// sends on the link sees it as an ndn.Face; frames come out at the other
// end through the OnDeliver callback. The simulator runs it on virtual
// time; the emulator runs the very same model on the live event loop.
//
// A frame given to Send waits in the queue while the transmitter is busy.
// When the transmitter takes it (the queue's AQM may drop or mark here),
// the Channel's Reliability, if any, numbers it and piggybacks acks
// (SetReliability); the frame then occupies the transmitter for its
// serialisation time (size with HeaderOverhead, at Bandwidth), is lost
// with probability Loss (one draw per frame from the Channel's random
// source, in transmission order) and otherwise arrives Delay after it
// left.
//
// Time comes from a sched.Scheduler. Departures are computed from a
// busy-until clock (a frame starts when the previous one has left, or
// when it arrives at an idle transmitter), never from when a timer
// happened to run, and a late wake releases every frame whose turn has
// passed; ChannelStats.Lateness measures how late the timers ran. A
// frame costs one event, its arrival, and a second, the end of its
// transmission, only when another frame waits behind it: the transmitter
// that sends its last queued frame takes no wake to end it, and the next
// Send finds it free or busy by its busy-until clock. The events are in
// two lanes (sched.NewLane: the transmitter's and the wire's); on a
// scheduler that keeps lanes (the simulator's) that is no allocation.
//
// A frame given to a transmitter whose last frame has just ended thus
// passes through the queue (aqm.Queue.Pass) rather than waiting for a
// wake to dequeue it at the same instant; and no discipline is asked to
// dequeue from its empty queue when a frame's transmission ends (CoDel
// leaves its dropping state at its next dequeue all the same, since a
// frame that passes has no sojourn time).
//
// All calls, and all callbacks, are on the scheduler's thread. Callbacks
// run once the Channel's state is consistent: they may send on it again.
type Channel struct {
	params Params
	queue  aqm.Queue
	s      sched.Scheduler
	sizer  *ndn.Sizer
	rng    *rand.Rand

	deliver    func(*Frame)
	deliverExt func(ext any)
	rel        *Reliability
	dropped    func(ndn.Packet)
	// reports tells dropped of the queue's drops once the channel's state
	// is consistent: drops found inside Send or a transmitter wake wait
	// until it is done.
	reports reentry.Guard[ndn.Packet]

	// busyUntil is when the transmitter is (or was) free: it holds a
	// frame while busyUntil is after now. woken says that the end of that
	// frame's transmission is scheduled (txEnd), which it is only while
	// frames wait in the queue behind it: a frame alone on the
	// transmitter takes no event to end, and the next Send finds the
	// transmitter free by its clock.
	busyUntil time.Duration
	woken     bool
	// lastArrive is the last frame's arrival on a link with jitter,
	// which the next frame's may not precede.
	lastArrive time.Duration
	// txSize, txTime: the last frame size and its serialisation time.
	txSize   int
	txTime   time.Duration
	inFlight fifo.Queue[flight]
	// sending is the Item that Send builds and enqueue reads, kept here
	// because the queue discipline takes it by address (aqm.Queue.Pass):
	// on the stack, it would be moved to the heap at every Send. Nothing
	// reads it once enqueue has queued or transmitted it.
	sending  aqm.Item
	txEnd    sched.Lane // the end of the frame in transmission
	arrivals sched.Lane // the frames on the wire, in order

	stats ChannelStats
	ctl   control // control.go
	// queue-length integral for the time-average
	lastChange time.Duration
	qIntegral  float64
}

// flight is a frame on the wire, due at the far end at arrive.
type flight struct {
	frame  Frame
	ext    any
	arrive time.Duration
}

// carried is the link fields of a frame that SendFrame queued with them:
// an IDLE frame (acks only) of the Reliability, or a frame that already
// has its fields (a channel that emulates the way in, before the
// receiving end's Reliability). They ride through the output queue as an
// aqm.Item's Ext, beside the packet, if any.
type carried struct{ lf ndn.LinkFields }

// NewChannel returns an idle channel with parameters p and output queue q
// on scheduler s. sizer sizes frames (nil for a new one); rng draws the
// random loss (it may be nil when p.Loss is 0). Frames that arrive go to
// the OnDeliver callback, which must be set before the first arrives.
func NewChannel(s sched.Scheduler, p Params, q aqm.Queue, sizer *ndn.Sizer, rng *rand.Rand) (*Channel, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if s == nil || q == nil {
		return nil, errors.New("link: channel: a scheduler and a queue are required")
	}
	if rng == nil && (p.Loss > 0 || p.Jitter > 0) {
		return nil, errors.New("link: channel: random loss and jitter need a random source")
	}
	if sizer == nil {
		sizer = ndn.NewSizer()
	}
	c := &Channel{params: p, queue: q, s: s, sizer: sizer, rng: rng}
	c.txEnd = sched.NewLane(s, c.txDone)
	// The arrivals' callback delivers the frame at the head of the wire.
	// It is written here, not as a method: a method value is a
	// wrapper that calls the method, one call more per frame.
	c.arrivals = sched.NewLane(s, func() {
		f := c.inFlight.Front()
		c.stats.Lateness.observe(f.arrive, c.s.Now())
		if ext := f.ext; ext != nil {
			c.inFlight.Drop()
			if c.deliverExt != nil {
				c.deliverExt(ext)
			}
			return
		}
		// The frame is handed over where it waited, not copied: it leaves
		// the wire after, at the head still, whatever the callback sent
		// meanwhile (a frame queued behind it never takes its slot; if the
		// wire's queue grows, the old array, which f points into, is left
		// as it was).
		c.deliver(&f.frame)
		c.inFlight.Drop()
	})
	c.reports.Init(func(p *ndn.Packet) { c.dropped(*p) })
	q.SetDropHandler(c.onQueueDrop)
	return c, nil
}

// OnDeliver sets where frames that arrive at the far end go: the far
// end's Reliability (OnReceive) and forwarder, or a socket in the live
// runtime. The frame is where it waited on the wire, valid only during
// the call (fn may send on the channel meanwhile): fn copies what it
// keeps.
func (c *Channel) OnDeliver(fn func(*Frame)) { c.deliver = fn }

// OnDeliverExt sets where non-NDN frames (SendExt) go when they arrive;
// without it they are discarded.
func (c *Channel) OnDeliverExt(fn func(ext any)) { c.deliverExt = fn }

// OnDrop sets what is told of each NDN packet the output queue drops (tail
// drop at Send, or an AQM drop when the transmitter takes the next frame):
// usually the sender's Forwarder.OnSendFailure with fw.CauseQueueDrop.
// IDLE frames and non-NDN frames are not reported.
func (c *Channel) OnDrop(fn func(ndn.Packet)) { c.dropped = fn }

// SetReliability makes r number every frame as it starts transmission and
// piggyback its waiting acks (r.OnSend). r is the sending end's
// Reliability; its sendIdle should be this Channel's SendFrame. The far
// end's Reliability filters arrivals in the OnDeliver callback.
func (c *Channel) SetReliability(r *Reliability) { c.rel = r }

// Reliability returns the sending end's Reliability (SetReliability), nil
// without one.
func (c *Channel) Reliability() *Reliability { return c.rel }

// Params returns the link parameters of this direction.
func (c *Channel) Params() Params { return c.params }

// Queue returns the output queue.
func (c *Channel) Queue() aqm.Queue { return c.queue }

// Send implements ndn.Face: the packet joins the output queue.
func (c *Channel) Send(p ndn.Packet) {
	it := &c.sending // only Send fills it: Ext stays nil; the queue stamps Enqueued
	it.Pkt = p
	it.Size = c.sizer.PacketSize(&it.Pkt) + c.params.HeaderOverhead
	c.enqueue(it)
}

// SendFrame queues a frame. It is how a Reliability sends its IDLE frames
// (acks only), which wait in the output queue like any other frame. A
// frame with a packet is sent as Send sends it (its link fields are set at
// transmission, see SetReliability), unless the channel has no Reliability
// and the frame has link fields already: they then arrive with it (a
// channel emulating the way in, in front of the receiving end's
// Reliability).
func (c *Channel) SendFrame(f Frame) {
	if !f.IsIdle() && (c.rel != nil || f.LinkFields.IsZero()) {
		c.Send(f.Pkt)
		return
	}
	size := c.sizer.FrameSize(&f.Pkt, &f.LinkFields) + c.params.HeaderOverhead
	c.enqueue(&aqm.Item{Pkt: f.Pkt, Ext: &carried{lf: f.LinkFields}, Size: size})
}

// SendExt queues a non-NDN frame of size bytes on the wire (header
// overhead included), e.g. a TCP segment sharing the link with NDN.
func (c *Channel) SendExt(ext any, size int) {
	c.enqueue(&aqm.Item{Ext: ext, Size: size})
}

func (c *Channel) enqueue(it *aqm.Item) {
	if c.dropDown() {
		return
	}
	held := c.reports.Hold()
	now := c.s.Now()
	switch {
	case !c.woken && c.busyUntil <= now:
		// An idle transmitter has an empty queue (frames wait only
		// behind a scheduled end of transmission): the frame passes
		// through it (aqm.Queue.Pass) and leaves at once. The queue
		// stays empty, so its length's integral has nothing to add.
		admitted, ok := c.queue.Pass(it, now)
		if !admitted {
			c.stats.TailDrops++
		} else if ok {
			c.transmit(it, now, now)
		}
	case !c.accountedEnqueue(it, now):
		c.stats.TailDrops++
	default:
		// A packet that an idle transmitter takes at once never waits:
		// it counts towards the queue only while the transmitter is busy.
		c.stats.MaxQueue = max(c.stats.MaxQueue, c.queue.Len())
		if !c.woken {
			// The first frame to wait behind the one in
			// transmission: the transmitter wakes when that one ends.
			c.woken = true
			c.txEnd.At(c.busyUntil)
		}
	}
	if held {
		c.reports.Release() // the queue's drops, now that the state is set
	}
}

// accountedEnqueue accounts the queue up to now and offers it to it.
func (c *Channel) accountedEnqueue(it *aqm.Item, now time.Duration) bool {
	c.accountQueue(now)
	return c.queue.Enqueue(*it, now)
}

func (c *Channel) accountQueue(now time.Duration) {
	c.qIntegral += float64(c.queue.Len()) * float64(now-c.lastChange)
	c.lastChange = now
}

// onQueueDrop reports an NDN packet the queue dropped, once the channel is
// done with the Send or wake in progress (which holds c.reports).
func (c *Channel) onQueueDrop(it aqm.Item) {
	if c.dropped != nil && (it.Pkt.Interest != nil || it.Pkt.Data != nil) {
		c.reports.Do(it.Pkt)
	}
}

// txDone runs when the transmitter has finished the frame that left at
// busyUntil and frames wait behind it: it takes the next frame at that
// instant, and, if the wake came late, every later frame whose turn has
// passed too. It wakes again at the end of the last one it started if
// frames still wait; else the transmitter is free from then on.
func (c *Channel) txDone() {
	held := c.reports.Hold()
	now := c.s.Now()
	c.woken = false
	c.stats.Lateness.observe(c.busyUntil, now)
	for c.startNext(c.busyUntil, now) && c.busyUntil < now {
	}
	if c.queue.Len() > 0 {
		c.woken = true
		c.txEnd.At(c.busyUntil)
	}
	if held {
		c.reports.Release() // the AQM's drops, now that the state is set
	}
}

// startNext takes the next frame from the queue at time free, when the
// transmitter became free (now, or earlier if the wake is late), and puts
// it on the wire. It reports false when the queue had no frame to send
// (empty, or the discipline dropped what was left): the transmitter is
// then free from free on.
func (c *Channel) startNext(free, now time.Duration) bool {
	c.accountQueue(now)
	it, ok := c.queue.Dequeue(free)
	if !ok {
		return false
	}
	c.transmit(&it, free, now)
	return true
}

// transmit puts it on the wire at time free (or when it arrived, if
// later): the transmitter is busy until its last bit has left.
func (c *Channel) transmit(it *aqm.Item, free, now time.Duration) {
	start := max(free, it.Enqueued)
	// The frame is built where it waits on the wire (nothing below
	// touches inFlight), and taken back if it is lost.
	f := c.inFlight.PushZero()
	fr := &f.frame
	cf, isCarried := it.Ext.(*carried)
	fr.Pkt = it.Pkt
	if isCarried {
		fr.LinkFields, it.Ext = cf.lf, nil
	}
	switch {
	case c.rel != nil && it.Ext == nil:
		c.rel.OnSend(fr) // sequence number and piggybacked acks
		it.Size = c.sizer.FrameSize(&fr.Pkt, &fr.LinkFields) + c.params.HeaderOverhead
	case it.Ext == nil && fr.Pkt.CongestionMark != 0:
		// The queue may have marked it at dequeue: the mark's NDNLPv2
		// header goes on the wire too (Size was measured at enqueue).
		it.Size = c.sizer.PacketSize(&fr.Pkt) + c.params.HeaderOverhead
	}
	c.count(it)
	if it.Size != c.txSize { // most frames have the size of the last one
		c.txSize, c.txTime = it.Size, SerializationTime(it.Size, c.params.Bandwidth)
	}
	tx := c.txTime
	if now-start > tx && c.params.Bandwidth > 0 { // late (in real time only)
		c.stats.Lateness.Overruns++
	}
	done := start + tx
	c.busyUntil = done
	if c.params.Loss > 0 && c.rng.Float64() < c.params.Loss {
		c.stats.LossDrops++
		c.inFlight.DropLast()
		return
	}
	arrive := max(done+c.params.Delay, c.ctl.notBefore)
	if c.params.Jitter > 0 {
		arrive = max(c.jittered(done), c.ctl.notBefore)
	}
	f.arrive = arrive
	if it.Ext != nil { // an NDN frame leaves f.ext nil, as PushZero gave it
		f.ext = it.Ext
	}
	c.arrivals.At(arrive)
}

// jittered returns the arrival of a frame whose last bit left at done on a
// link with jitter: done plus the delay varied by a uniform draw in
// [-Jitter, +Jitter] (at least done), and never before the last frame's.
func (c *Channel) jittered(done time.Duration) time.Duration {
	d := c.params.Delay + time.Duration((2*c.rng.Float64()-1)*float64(c.params.Jitter))
	arrive := max(done+max(d, 0), c.lastArrive)
	c.lastArrive = arrive
	return arrive
}

// count adds a frame that leaves the transmitter to the counters.
func (c *Channel) count(it *aqm.Item) {
	c.stats.Packets++
	c.stats.Bytes += uint64(it.Size)
	switch {
	case it.Ext != nil:
		c.stats.ExtPkts++
	case it.Pkt.Data != nil:
		c.stats.DataPkts++
	case it.Pkt.IsNack():
		c.stats.NackPkts++
	case it.Pkt.Interest != nil:
		c.stats.Interests++
	}
}

// Stats returns the counters, with the mean queue length up to now. The
// queue discipline keeps its own drop and mark counts.
func (c *Channel) Stats() ChannelStats {
	st := c.stats
	qs := c.queue.Stats()
	st.AQMDrops, st.Marks, st.DownDrops = qs.AQMDrops, qs.Marks, c.ctl.drops
	now := c.s.Now()
	integral := c.qIntegral + float64(c.queue.Len())*float64(now-c.lastChange)
	if now > 0 {
		st.MeanQueue = integral / float64(now)
	}
	return st
}
