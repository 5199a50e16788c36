package fw

import "github.com/ndncc/ndncc/ndn"

// cf is the "CF" baseline of PCON's evaluation, after the request
// forwarding of Carofiglio, Gallo, Muscariello, Papalini and Wang
// ("Optimal multipath congestion control and request forwarding in
// information-centric networks", ICNP 2013): a weighted random choice in
// which a nexthop's weight is inversely proportional to its pending
// Interests. Here the weight of face F is 1/(PendingInterests(F)+1), from
// the current count (the paper smooths the count with a moving average;
// the +1 gives an idle face a finite weight).
//
// The draw uses the forwarder's random source, so a run is deterministic
// for a seed: with eligible nexthops F1..Fn (lowest cost first) and
// weights w1..wn, r is Rand().Float64() times w1+...+wn and the Interest
// goes to the first Fi with r < w1+...+wi. A single eligible nexthop takes
// no draw.
//
// Retransmissions, NoRoute and Nacks are handled as in pi.
type cf struct {
	a     Actions
	retx  RetxSuppression
	cands []NextHop // scratch
	ws    []float64 // scratch
	pick  chooser   // s.choose, bound once
}

// NewCF is the StrategyConstructor of cf.
func NewCF(a Actions) Strategy {
	s := &cf{a: a, retx: DefaultRetxSuppression()}
	s.pick = s.choose
	return s
}

// AfterReceiveInterest implements Strategy.
func (s *cf) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop) {
	forwardMultipath(s.a, s.retx, e, in, it, nexthops, &s.cands, s.pick)
}

// cfWeight is the weight of a face with n pending Interests.
func cfWeight(n int) float64 { return 1 / float64(n+1) }

// choose draws a candidate with probability proportional to cfWeight.
func (s *cf) choose(cands []NextHop) FaceID {
	if len(cands) == 1 {
		return cands[0].Face
	}
	s.ws = s.ws[:0]
	for _, nh := range cands {
		s.ws = append(s.ws, cfWeight(s.a.PendingInterests(nh.Face)))
	}
	return cands[drawWeighted(s.a, s.ws)].Face
}

// AfterReceiveData implements Strategy.
func (s *cf) AfterReceiveData(*PitEntry, FaceID, *ndn.Data, uint64) {}

// AfterReceiveNack implements Strategy.
func (s *cf) AfterReceiveNack(e *PitEntry, _ FaceID, _ ndn.Packet) {
	nackIfAllUpstreamsNacked(s.a, e)
}

// OnInterestUnsatisfied implements Strategy.
func (s *cf) OnInterestUnsatisfied(*PitEntry) {}

// drawWeighted returns index i of ws (non-negative weights, at least two,
// some positive) with probability ws[i]/sum: r = Rand().Float64()*sum, and
// i is the first index with r < ws[0]+...+ws[i] (the last positive weight
// if rounding leaves r unmatched). It takes one number from a.Rand().
func drawWeighted(a Actions, ws []float64) int {
	var sum float64
	for _, w := range ws {
		sum += w
	}
	r := a.Rand().Float64() * sum
	var acc float64
	last := 0
	for i, w := range ws {
		if w <= 0 {
			continue
		}
		acc += w
		last = i
		if r < acc {
			return i
		}
	}
	return last
}
