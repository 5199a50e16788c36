package sim

import (
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/fw/aqm"
	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// LinkParams describes one direction of a point-to-point link.
type LinkParams struct {
	Bandwidth      float64       // bit/s; 0 means infinitely fast
	Delay          time.Duration // propagation delay
	Loss           float64       // Bernoulli loss probability per packet, 0..1
	HeaderOverhead int           // bytes added to every packet on the wire (IP/UDP and link headers)
}

// Receiver is what a link delivers packets to: a forwarder's face.
type Receiver func(p ndn.Packet)

// Channel is one direction of a link: an output queue with its discipline,
// a transmitter of fixed bandwidth, a propagation delay and random loss. It
// implements ndn.Face for the forwarder that sends on it.
type Channel struct {
	From, To string
	params   LinkParams
	queue    aqm.Queue
	sched    *Scheduler
	sizer    *ndn.Sizer
	rng      *rand.Rand
	deliver  Receiver
	// deliverExt receives the non-NDN frames (Ext) this direction carries.
	deliverExt func(ext any)
	// With link-loss detection: txShim numbers what the sender transmits,
	// rxShim (the receiver's end) acknowledges and filters arrivals, and
	// dropped reports packets the output queue dropped (tail or AQM
	// drops), once the channel's state is consistent: drops holds them
	// until then.
	txShim, rxShim *link.Reliability
	dropped        func(p ndn.Packet)
	drops          fifo.Queue[ndn.Packet]

	busy     bool
	inFlight fifo.Queue[flight] // packets propagating, in arrival order
	txDoneFn func()
	arriveFn func()

	stats ChannelStats
	// queue-length integral for the time-average
	lastChange time.Duration
	qIntegral  float64
}

type flight struct {
	frame  link.Frame
	ext    any
	arrive time.Duration
}

// idleFrame is an IDLE frame (acks only) of the link-loss shim, carried
// through the output queue as an aqm.Item's Ext.
type idleFrame struct{ acks []uint64 }

// ChannelStats are the counters of one link direction.
type ChannelStats struct {
	Packets   uint64 // packets that left the transmitter
	Bytes     uint64 // bytes that left the transmitter (incl. header overhead)
	TailDrops uint64 // dropped on arrival at a full queue
	AQMDrops  uint64 // dropped by the queue discipline
	LossDrops uint64 // lost on the wire (random loss)
	Marks     uint64 // congestion marks set by the queue discipline
	MaxQueue  int    // largest queue length seen, packets
	MeanQueue float64
	DataPkts  uint64
	Interests uint64
	NackPkts  uint64
	ExtPkts   uint64 // non-NDN frames (TCP segments)
}

// Drops is the total number of packets lost on this direction.
func (s ChannelStats) Drops() uint64 { return s.TailDrops + s.AQMDrops + s.LossDrops }

func newChannel(s *Scheduler, from, to string, p LinkParams, q aqm.Queue, sizer *ndn.Sizer, rng *rand.Rand) *Channel {
	c := &Channel{From: from, To: to, params: p, queue: q, sched: s, sizer: sizer, rng: rng}
	c.txDoneFn = c.txDone
	c.arriveFn = c.arrive
	q.SetDropHandler(c.onQueueDrop)
	return c
}

// onQueueDrop holds an NDN packet the queue dropped for reportDrops.
func (c *Channel) onQueueDrop(it aqm.Item) {
	if c.dropped != nil && it.Ext == nil {
		c.drops.Push(it.Pkt)
	}
}

// reportDrops tells the sender of each packet the queue dropped. The
// report may send on this channel again.
func (c *Channel) reportDrops() {
	for c.drops.Len() > 0 {
		c.dropped(c.drops.Pop())
	}
}

// SerializationTime is the time to put size bytes on a link of bandwidth
// bw bit/s, rounded up to the nanosecond (exact for whole nanoseconds).
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

// Params returns the link parameters of this direction.
func (c *Channel) Params() LinkParams { return c.params }

// Queue returns the output queue.
func (c *Channel) Queue() aqm.Queue { return c.queue }

// Send implements ndn.Face: the packet joins the output queue.
func (c *Channel) Send(p ndn.Packet) {
	c.enqueue(aqm.Item{Pkt: p, Size: c.sizer.PacketSize(&p) + c.params.HeaderOverhead})
}

// SendFrame queues an IDLE frame of the link-loss shim (acks only): it
// waits in the output queue like any other frame.
func (c *Channel) SendFrame(f link.Frame) {
	size := c.sizer.FrameSize(&f.Pkt, &f.LinkFields) + c.params.HeaderOverhead
	c.enqueue(aqm.Item{Ext: &idleFrame{acks: f.Acks}, Size: size})
}

// SendExt queues a non-NDN frame of size bytes on the wire (header
// overhead included), e.g. a TCP segment sharing the link with NDN.
func (c *Channel) SendExt(ext any, size int) {
	c.enqueue(aqm.Item{Ext: ext, Size: size})
}

func (c *Channel) enqueue(it aqm.Item) {
	now := c.sched.Now()
	it.Enqueued = now
	c.accountQueue(now)
	if !c.queue.Enqueue(it, now) {
		c.stats.TailDrops++
		c.reportDrops()
		return
	}
	// A packet that an idle transmitter takes at once never waits: it
	// counts towards the queue only while the transmitter is busy.
	if l := c.queue.Len(); c.busy && l > c.stats.MaxQueue {
		c.stats.MaxQueue = l
	}
	if !c.busy {
		c.startNext()
	}
}

func (c *Channel) accountQueue(now time.Duration) {
	c.qIntegral += float64(c.queue.Len()) * float64(now-c.lastChange)
	c.lastChange = now
}

func (c *Channel) startNext() {
	now := c.sched.Now()
	c.accountQueue(now)
	it, ok := c.queue.Dequeue(now)
	if !ok {
		c.busy = false
		c.reportDrops() // the AQM may have dropped all it held
		return
	}
	c.busy = true
	fr := link.Frame{Pkt: it.Pkt}
	idle, isIdle := it.Ext.(*idleFrame)
	if isIdle {
		fr.Acks, it.Ext = idle.acks, nil
	}
	if c.txShim != nil && it.Ext == nil {
		c.txShim.OnSend(&fr) // sequence number and piggybacked acks
		it.Size = c.sizer.FrameSize(&fr.Pkt, &fr.LinkFields) + c.params.HeaderOverhead
	}
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
	done := now + SerializationTime(it.Size, c.params.Bandwidth)
	if c.params.Loss > 0 && c.rng.Float64() < c.params.Loss {
		c.stats.LossDrops++
	} else {
		c.inFlight.Push(flight{frame: fr, ext: it.Ext, arrive: done + c.params.Delay})
		c.sched.At(done+c.params.Delay, c.arriveFn)
	}
	c.sched.At(done, c.txDoneFn)
	c.reportDrops() // the AQM's drops, now that the transmitter's state is set
}

func (c *Channel) txDone() { c.startNext() }

func (c *Channel) arrive() {
	f := c.inFlight.Pop()
	if f.ext != nil {
		if c.deliverExt != nil {
			c.deliverExt(f.ext)
		}
		return
	}
	if c.rxShim != nil && !c.rxShim.OnReceive(f.frame) {
		return // an IDLE ack or a duplicate
	}
	c.deliver(f.frame.Pkt)
}

// Stats returns the counters, with the mean queue length up to now. The
// queue discipline keeps its own drop and mark counts.
func (c *Channel) Stats() ChannelStats {
	st := c.stats
	qs := c.queue.Stats()
	st.AQMDrops, st.Marks = qs.AQMDrops, qs.Marks
	now := c.sched.Now()
	integral := c.qIntegral + float64(c.queue.Len())*float64(now-c.lastChange)
	if now > 0 {
		st.MeanQueue = integral / float64(now)
	}
	return st
}
