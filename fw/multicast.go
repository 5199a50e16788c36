package fw

import "github.com/ndncc/ndncc/ndn"

// multicast sends each Interest to every eligible nexthop (all but the
// downstream it came from), like NFD's multicast. Retransmissions are
// suppressed per upstream with exponential suppression; an Interest that
// was suppressed on every eligible upstream counts as one suppressed
// retransmission. With no eligible nexthop and nothing pending upstream the
// downstreams get Nack NoRoute. Nacks go downstream once every upstream has
// Nacked, with the least severe reason.
type multicast struct {
	a    Actions
	retx RetxSuppression
}

// NewMulticast is the StrategyConstructor of multicast.
func NewMulticast(a Actions) Strategy {
	return &multicast{a: a, retx: DefaultRetxSuppression()}
}

// AfterReceiveInterest implements Strategy.
func (s *multicast) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop) {
	now := s.a.Now()
	var sent, suppressed bool
	for _, nh := range nexthops {
		if !s.a.eligible(nh.Face, in) {
			continue
		}
		d := s.retx.DecidePerUpstream(e, nh.Face, now)
		if d == RetxSuppress {
			suppressed = true
			continue
		}
		if s.a.SendInterest(e, nh.Face, it) {
			sent = true
			if d == RetxForward {
				s.retx.IncrementUpstream(e, nh.Face)
			}
		}
	}
	switch {
	case sent:
	case suppressed:
		s.a.Suppressed(e)
	case !e.HasPendingOutRecords(now):
		s.a.SendNackToAll(e, ndn.NackNoRoute, 0)
	}
}

// AfterReceiveData implements Strategy.
func (s *multicast) AfterReceiveData(*PitEntry, FaceID, *ndn.Data, uint64) {}

// AfterReceiveNack implements Strategy.
func (s *multicast) AfterReceiveNack(e *PitEntry, _ FaceID, _ ndn.Packet) {
	nackIfAllUpstreamsNacked(s.a, e)
}

// OnInterestUnsatisfied implements Strategy.
func (s *multicast) OnInterestUnsatisfied(*PitEntry) {}
