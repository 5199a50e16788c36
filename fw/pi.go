package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// pi is the "PI" baseline of PCON's evaluation: each Interest goes to the
// eligible nexthop with the fewest pending Interests (Forwarder.
// PendingInterests: Interests sent on the face and not yet answered by Data
// or Nack), ties broken by cost (lower first, then FIB order).
//
// Retransmissions go through best-route's per-entry exponential
// suppression; one that is forwarded goes to the least-pending eligible
// nexthop among those with no pending out-record for the entry, else to
// the eligible nexthop used longest ago. Without an eligible nexthop a new
// Interest is answered with Nack NoRoute. Nacks go downstream once every
// upstream has Nacked, with the least severe reason, as in best-route.
type pi struct {
	a     Actions
	retx  RetxSuppression
	cands []NextHop // scratch
}

// NewPI is the StrategyConstructor of pi.
func NewPI(a Actions) Strategy {
	return &pi{a: a, retx: DefaultRetxSuppression()}
}

// AfterReceiveInterest implements Strategy.
func (s *pi) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop) {
	forwardMultipath(s.a, s.retx, e, in, it, nexthops, &s.cands, s.choose)
}

// choose returns the candidate with the fewest pending Interests; the
// first (lowest cost) among equals.
func (s *pi) choose(cands []NextHop) FaceID {
	best, bestN := cands[0].Face, s.a.PendingInterests(cands[0].Face)
	for _, nh := range cands[1:] {
		if n := s.a.PendingInterests(nh.Face); n < bestN {
			best, bestN = nh.Face, n
		}
	}
	return best
}

// AfterReceiveData implements Strategy.
func (s *pi) AfterReceiveData(*PitEntry, FaceID, *ndn.Data, uint64) {}

// AfterReceiveNack implements Strategy.
func (s *pi) AfterReceiveNack(e *PitEntry, _ FaceID, _ ndn.Packet) {
	nackIfAllUpstreamsNacked(s.a, e)
}

// OnInterestUnsatisfied implements Strategy.
func (s *pi) OnInterestUnsatisfied(*PitEntry) {}

// chooser picks one face among cands: eligible nexthops, lowest cost
// first, never empty. The multipath strategies (pi, cf, pcon) differ only
// in their chooser.
type chooser func(cands []NextHop) FaceID

// forwardMultipath is the Interest processing that pi, cf and pcon share:
// best-route's per-entry retransmission suppression, then
//   - a new Interest goes to choose(eligible nexthops), or is answered with
//     Nack NoRoute when there is none;
//   - a forwarded retransmission goes to choose(eligible nexthops with no
//     pending out-record for e), else to the eligible nexthop used longest
//     ago;
//   - a suppressed one is counted.
//
// Eligible means up and not the downstream in. buf is the caller's scratch
// slice for the candidates.
func forwardMultipath(a Actions, retx RetxSuppression, e *PitEntry, in FaceID, it *ndn.Interest,
	nexthops []NextHop, buf *[]NextHop, choose chooser) {
	decision, now := retx.decideAt(e, a)
	cands := (*buf)[:0]
	defer func() { *buf = cands[:0] }()
	switch decision {
	case RetxSuppress:
		a.Suppressed(e)
	case RetxNew:
		for _, nh := range nexthops {
			if a.eligible(nh.Face, in) {
				cands = append(cands, nh)
			}
		}
		if len(cands) == 0 {
			a.SendNackToAll(e, ndn.NackNoRoute, 0)
			return
		}
		a.SendInterest(e, choose(cands), it)
	case RetxForward:
		var oldest FaceID
		var oldestAt time.Duration
		for _, nh := range nexthops {
			if !a.eligible(nh.Face, in) {
				continue
			}
			o := e.OutRecord(nh.Face)
			if o == nil || !o.pending(now) {
				cands = append(cands, nh)
			} else if oldest == 0 || o.LastSent < oldestAt {
				oldest, oldestAt = nh.Face, o.LastSent
			}
		}
		switch {
		case len(cands) > 0:
			a.SendInterest(e, choose(cands), it)
		case oldest != 0:
			a.SendInterest(e, oldest, it)
		}
	}
}
