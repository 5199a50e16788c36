package fw

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/internal/fifo"
	"github.com/ndncc/ndncc/ndn"
)

// DefaultShaperQueue is how many Interests a shaper holds by default.
const DefaultShaperQueue = 100

// ShaperConfig configures a hop-by-hop Interest shaper on one face: the
// mechanism of Wang, Rozhnova, Narayanan, Oran and Rhee, "An Improved
// Hop-by-hop Interest Shaper for Congestion Control in Named Data
// Networking" (ACM SIGCOMM CCR 2013), in the simplified form PCON's talk
// (seed 004) compares against. Each Interest the face sends is expected to
// bring back one Data of DataSize bytes over the face's link, so the shaper
// sends Interests at most at Rate / (8 DataSize) per second, the rate at
// which their Data fill Rate bit/s. Interests beyond that wait in a FIFO of
// Queue Interests; one that finds it full is dropped, and the forwarder
// handles it as an Interest its output queue dropped (a Congestion Nack
// with a congestion mark for its downstreams, OnSendFailure's
// CauseQueueDrop). The shaper has to be told the capacity (Rate) and the
// Data size: that is the assumption PCON removes. The improved shaper's
// correction for Interests sharing the reverse direction with Data is not
// modelled: Interests here are under a tenth of a Data's size.
type ShaperConfig struct {
	// Rate is the Data rate, in bit/s, the shaped Interests may draw
	// back over the face.
	Rate float64
	// DataSize is the expected size of one Data on the wire, in bytes.
	DataSize int
	// Queue is how many Interests wait for their turn; 0 means
	// DefaultShaperQueue.
	Queue int
}

// interval is the time between two shaped Interests.
func (c ShaperConfig) interval() time.Duration {
	return time.Duration(float64(8*c.DataSize) / c.Rate * float64(time.Second))
}

// shaper is one face's Interest shaper.
type shaper struct {
	cfg   ShaperConfig
	gap   time.Duration
	q     fifo.Queue[ndn.Packet]
	next  time.Duration // earliest time the next Interest may leave
	armed bool          // a release is scheduled
	fn    func()
	// Shaped counts Interests that waited; Dropped those a full queue
	// refused.
	shaped, dropped uint64
}

// ShaperCounters are a shaper's counters.
type ShaperCounters struct {
	// Delayed counts Interests that waited in the shaper's queue.
	Delayed uint64
	// Dropped counts Interests a full queue refused.
	Dropped uint64
	// Queued is the number of Interests waiting now.
	Queued int
}

// SetInterestShaper shapes the Interests sent on face id (see
// ShaperConfig). It replaces any shaper the face had; Interests still
// waiting in the old one are dropped as CauseQueueDrop.
func (f *Forwarder) SetInterestShaper(id FaceID, cfg ShaperConfig) error {
	if !f.faceUp(id) {
		return fmt.Errorf("fw %s: interest shaper: no face %d", f.name, id)
	}
	if !(cfg.Rate > 0) || cfg.DataSize <= 0 || cfg.Queue < 0 {
		return fmt.Errorf("fw %s: interest shaper on face %d: want a positive rate and Data size and a non-negative queue, have %v bit/s, %d bytes, %d", f.name, id, cfg.Rate, cfg.DataSize, cfg.Queue)
	}
	if cfg.Queue == 0 {
		cfg.Queue = DefaultShaperQueue
	}
	if old := f.faces[id].shaper; old != nil {
		for old.q.Len() > 0 {
			f.OnSendFailure(id, old.q.Pop(), CauseQueueDrop)
		}
	}
	s := &shaper{cfg: cfg, gap: cfg.interval()}
	s.fn = func() { f.releaseShaped(id, s) }
	f.faces[id].shaper = s
	return nil
}

// ShaperCounters returns the counters of face id's shaper (zero without
// one).
func (f *Forwarder) ShaperCounters(id FaceID) ShaperCounters {
	if id == 0 || int(id) >= len(f.faces) || f.faces[id].shaper == nil {
		return ShaperCounters{}
	}
	s := f.faces[id].shaper
	return ShaperCounters{Delayed: s.shaped, Dropped: s.dropped, Queued: s.q.Len()}
}

// shapeInterest sends Interest p on face id through the face's shaper:
// at once if its turn has come and nothing waits, else queued (or, with
// the queue full, dropped as CauseQueueDrop).
func (f *Forwarder) shapeInterest(id FaceID, s *shaper, p ndn.Packet) {
	now := f.now()
	if s.q.Len() == 0 && now >= s.next {
		s.next = now + s.gap
		f.faces[id].out.Send(p)
		return
	}
	if s.q.Len() >= s.cfg.Queue {
		s.dropped++
		f.OnSendFailure(id, p, CauseQueueDrop)
		return
	}
	s.shaped++
	s.q.Push(p)
	if !s.armed {
		s.armed = true
		f.sched.After(s.next-now, s.fn)
	}
}

// releaseShaped sends the Interest at the head of s's queue and schedules
// the next. A face that went down or changed shaper drops what waited.
func (f *Forwarder) releaseShaped(id FaceID, s *shaper) {
	s.armed = false
	if !f.faceUp(id) || f.faces[id].shaper != s {
		for s.q.Len() > 0 {
			s.q.Pop()
		}
		return
	}
	if s.q.Len() == 0 {
		return
	}
	now := f.now()
	p := s.q.Pop()
	s.next = now + s.gap
	held := f.guard.Hold() // what the face delivers may come back
	f.faces[id].out.Send(p)
	if held {
		f.guard.Release()
	}
	if s.q.Len() > 0 {
		s.armed = true
		f.sched.After(s.gap, s.fn)
	}
}
