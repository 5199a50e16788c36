package consumer

import (
	"math"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/ndn"
)

// Stats are a flow's counters.
type Stats struct {
	Start, End time.Duration // when the fetch started and ended
	Complete   bool          // every segment arrived

	Segments        uint64 // distinct segments received
	PayloadBytes    uint64 // payload bytes of those segments
	DataReceived    uint64 // Data packets received, duplicates included
	WireBytes       uint64 // on-the-wire bytes of all Data received
	UniqueWireBytes uint64 // on-the-wire bytes of the distinct segments
	Duplicates      uint64 // Data for segments already received or not awaited
	Interests       uint64 // Interests sent, retransmissions included
	Retransmissions uint64 // Interests sent again for a segment
	Timeouts        uint64 // RTO expiries
	// RackLosses counts Interests declared lost by time-based loss
	// detection (Options.Rack) rather than by their RTO.
	RackLosses uint64
	// SpuriousRackLosses counts those whose Data then answered the
	// Interest declared lost.
	SpuriousRackLosses uint64
	LossEvents         uint64 // window decreases (congestion events acted on)
	Decreases          [cc.NumCauses]uint64
	Marks              uint64    // Data carrying a congestion mark
	Nacks              uint64    // Nacks received for outstanding Interests
	NacksByReason      [4]uint64 // Congestion, Duplicate, NoRoute, other
	LinkLossNacks      uint64    // unmarked Congestion Nacks taken as link losses
	// LateData counts Data that arrived for a segment already declared
	// lost but not yet retransmitted: certainly spurious timeouts (a late
	// Data after the retransmission left cannot be told from its answer).
	LateData uint64
	// SpuriousTimeouts counts timeouts whose segment's Data then answered
	// the Interest that timed out: it arrived before the retransmission
	// was sent (Config.Arrival; LateData after a timeout are among them).
	// A Data still in the kernel's socket buffer when the retransmission
	// left cannot be told from its answer and is not counted.
	SpuriousTimeouts uint64

	RTTMin, RTTAvg, RTTMax time.Duration // over unambiguous samples

	rttN   uint64
	rttSum time.Duration
	rttMin time.Duration
	rttMax time.Duration
}

// Duration is the download time (0 while running).
func (s Stats) Duration() time.Duration {
	if s.End < s.Start {
		return 0
	}
	return s.End - s.Start
}

func nackIndex(r ndn.NackReason) int {
	switch r {
	case ndn.NackCongestion:
		return 0
	case ndn.NackDuplicate:
		return 1
	case ndn.NackNoRoute:
		return 2
	}
	return 3
}

func (p *Pipeline) addRTTStat(d time.Duration) {
	s := &p.stats
	if s.rttN == 0 || d < s.rttMin {
		s.rttMin = d
	}
	if d > s.rttMax {
		s.rttMax = d
	}
	s.rttN++
	s.rttSum += d
}

func (p *Pipeline) rttStats() (min, avg, max time.Duration) {
	s := &p.stats
	if s.rttN == 0 {
		return 0, 0, 0
	}
	return s.rttMin, time.Duration(math.Round(float64(s.rttSum) / float64(s.rttN))), s.rttMax
}

// Tracer receives a flow's time series.
type Tracer interface {
	// Cwnd is called whenever the window may have changed.
	Cwnd(now time.Duration, cwnd, ssthresh float64)
	// RTT is called for every Data: its segment, its RTT sample (0 when
	// ambiguous), and the estimator's state after it.
	RTT(now time.Duration, seg uint64, rtt, srtt, rttvar, rto time.Duration)
	// Rate is called once per RateInterval with the payload received in it.
	Rate(start time.Duration, payloadBytes uint64)
}

// RateInterval is the bucket width of the receive-rate trace.
const RateInterval = 100 * time.Millisecond

// rateMeter buckets received payload per RateInterval.
type rateMeter struct {
	tracer Tracer
	bucket time.Duration // start of the current bucket
	bytes  uint64
	on     bool
}

func (r *rateMeter) start(now time.Duration) {
	r.on = r.tracer != nil
	r.bucket = now
}

func (r *rateMeter) add(now time.Duration, n int) {
	if !r.on {
		return
	}
	r.flush(now)
	r.bytes += uint64(n)
}

// flush emits every bucket that ended at or before now.
func (r *rateMeter) flush(now time.Duration) {
	if !r.on {
		return
	}
	for now >= r.bucket+RateInterval {
		r.tracer.Rate(r.bucket, r.bytes)
		r.bytes = 0
		r.bucket += RateInterval
	}
}

// close emits the last, partial bucket.
func (r *rateMeter) close(now time.Duration) {
	if !r.on {
		return
	}
	if r.bytes > 0 {
		r.tracer.Rate(r.bucket, r.bytes)
		r.bytes = 0
	}
	r.on = false
}

// orderEntry is one transmission: its send order and segment.
type orderEntry struct{ order, seg uint64 }
