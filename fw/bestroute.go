package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// bestRoute sends each Interest to the lowest-cost eligible nexthop (any
// nexthop but the downstream it came from), like NFD's best-route.
//
// A retransmission (an Interest for an entry that is still pending
// upstream, whatever its downstream) goes through per-entry exponential
// suppression; if not suppressed it goes to the lowest-cost eligible
// nexthop not tried yet (or whose Interest expired), else to the eligible
// nexthop used longest ago. With no eligible nexthop a new Interest is
// answered with Nack NoRoute. Nacks go downstream once every upstream has
// Nacked, with the least severe reason.
type bestRoute struct {
	a    Actions
	retx RetxSuppression
}

// NewBestRoute is the StrategyConstructor of best-route.
func NewBestRoute(a Actions) Strategy {
	return &bestRoute{a: a, retx: DefaultRetxSuppression()}
}

// AfterReceiveInterest implements Strategy.
func (s *bestRoute) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop) {
	decision, now := s.retx.decideAt(e, s.a)
	switch decision {
	case RetxSuppress:
		s.a.Suppressed(e)
	case RetxNew:
		for _, nh := range nexthops {
			if s.a.eligible(nh.Face, in) {
				s.a.SendInterest(e, nh.Face, it)
				return
			}
		}
		s.a.SendNackToAll(e, ndn.NackNoRoute, 0)
	case RetxForward:
		var earliest FaceID
		var earliestAt time.Duration
		for _, nh := range nexthops {
			if !s.a.eligible(nh.Face, in) {
				continue
			}
			o := e.OutRecord(nh.Face)
			if o == nil || o.Expiry <= now {
				s.a.SendInterest(e, nh.Face, it)
				return
			}
			if earliest == 0 || o.LastSent < earliestAt {
				earliest, earliestAt = nh.Face, o.LastSent
			}
		}
		if earliest != 0 {
			s.a.SendInterest(e, earliest, it)
		}
	}
}

// AfterReceiveData implements Strategy.
func (s *bestRoute) AfterReceiveData(*PitEntry, FaceID, *ndn.Data, uint64) {}

// AfterReceiveNack implements Strategy.
func (s *bestRoute) AfterReceiveNack(e *PitEntry, _ FaceID, _ ndn.Packet) {
	nackIfAllUpstreamsNacked(s.a, e)
}

// OnInterestUnsatisfied implements Strategy.
func (s *bestRoute) OnInterestUnsatisfied(*PitEntry) {}
