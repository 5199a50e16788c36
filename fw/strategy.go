package fw

import (
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// Strategy decides where Interests go and what to do with Nacks, in the
// style of NFD's forwarding strategies. The forwarder calls it from its
// pipelines; the strategy acts through the Actions it was constructed
// with. The *PitEntry passed in is valid only during the call.
//
// An Interest or Data is passed as the packet itself and what of its link
// fields a strategy reads (the Data's CongestionMark), not as an
// ndn.Packet: a Packet is eight words, which an interface call copies
// twice, and its address would make every packet handed to Receive escape
// to the heap. The rest of the link fields are in e's in-records.
type Strategy interface {
	// AfterReceiveInterest is called when Interest it arrived on face in,
	// was not a loop, was not answered from the Content Store, and has
	// been recorded as an in-record of e. nexthops are the FIB nexthops of
	// the longest matching prefix, lowest cost first (nil without a
	// route); the strategy must not modify them.
	AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop)
	// AfterReceiveData is called when Data d arrived on face in with
	// CongestionMark mark and satisfies e, before the forwarder sends it to
	// e's downstreams (every unexpired in-record except face in).
	AfterReceiveData(e *PitEntry, in FaceID, d *ndn.Data, mark uint64)
	// AfterReceiveNack is called when Nack p arrived on face in for the
	// Interest e last sent there; the out-record of in already holds the
	// Nack's reason and mark.
	AfterReceiveNack(e *PitEntry, in FaceID, p ndn.Packet)
	// OnInterestUnsatisfied is called when e expires without Data, just
	// before it is removed.
	OnInterestUnsatisfied(e *PitEntry)
}

// StrategyConstructor returns a new instance of a strategy. The forwarder
// creates one instance per strategy-choice entry, so an instance may keep
// state for its namespace.
type StrategyConstructor func(a Actions) Strategy

// Names of the built-in strategies.
const (
	StrategyBestRoute = "best-route"
	StrategyMulticast = "multicast"
	// The multipath strategies of PCON's evaluation (pcon.go, pi.go, cf.go).
	StrategyPCON = "pcon"
	StrategyPI   = "pi"
	StrategyCF   = "cf"
)

// BuiltinStrategies returns a new map of the strategies this package
// provides, by name, pcon with DefaultPCONParams. Config.Strategies adds
// to it (for example pcon with other parameters, see NewPCON).
func BuiltinStrategies() map[string]StrategyConstructor {
	return map[string]StrategyConstructor{
		StrategyBestRoute: NewBestRoute,
		StrategyMulticast: NewMulticast,
		StrategyPCON:      newPCONConstructor(DefaultPCONParams()),
		StrategyPI:        NewPI,
		StrategyCF:        NewCF,
	}
}

// Actions is what a strategy may do: the forwarder's outgoing pipelines,
// plus the clock, the random source and the face table. Actions on an
// entry that has already been satisfied, rejected or expired do nothing.
type Actions struct{ f *Forwarder }

// Now returns the scheduler's current time.
func (a Actions) Now() time.Duration { return a.f.now() }

// Rand returns the forwarder's random source.
func (a Actions) Rand() *rand.Rand { return a.f.rng }

// FaceKind returns the kind of face id; ok is false if no such face is up.
func (a Actions) FaceKind(id FaceID) (kind FaceKind, ok bool) {
	if !a.f.faceUp(id) {
		return 0, false
	}
	return a.f.faces[id].kind, true
}

// SendInterest sends Interest it (normally the one that just arrived) on
// face out and records out as an upstream of e. It reports whether the
// Interest was sent: not if the face is down, or it is a network face and
// the Interest's HopLimit is 0.
func (a Actions) SendInterest(e *PitEntry, out FaceID, it *ndn.Interest) bool {
	return a.f.sendInterest(e, out, it)
}

// SendNack sends a Nack with reason to downstream out of e and removes its
// in-record; the Nack carries mark, or the downstream's own Interest mark
// if larger. When the last in-record goes, e is finalized as unsatisfied.
func (a Actions) SendNack(e *PitEntry, out FaceID, reason ndn.NackReason, mark uint64) {
	a.f.sendNack(e, out, reason, mark)
}

// SendNackToAll sends a Nack with reason to every downstream of e and
// finalizes e as unsatisfied.
func (a Actions) SendNackToAll(e *PitEntry, reason ndn.NackReason, mark uint64) {
	a.f.sendNackToAll(e, reason, mark)
}

// Reject finalizes e as unsatisfied without telling the downstreams.
func (a Actions) Reject(e *PitEntry) {
	if e.live {
		a.f.finalize(e, false, 0)
	}
}

// Suppressed records that the strategy suppressed a retransmitted (or
// aggregated) Interest for e instead of forwarding it.
func (a Actions) Suppressed(e *PitEntry) {
	if e.live {
		a.f.counters.SuppressedRetx++
	}
}

// PendingInterests returns the number of Interests outstanding on face id
// (see Forwarder.PendingInterests).
func (a Actions) PendingInterests(id FaceID) int { return a.f.PendingInterests(id) }

// fibEntry returns the FIB entry that name's longest match is: its prefix,
// the prefix's hash and its nexthops (lowest cost first; the caller must
// not modify them). ok is false without a route. Multipath strategies key
// their per-prefix state by it.
func (a Actions) fibEntry(name ndn.Name) (prefix ndn.Name, h uint64, nexthops []NextHop, ok bool) {
	hs := a.f.auxHasher.prefixes(name)
	n := a.f.fib.t.longest(name, hs)
	if n == nil {
		return nil, 0, nil, false
	}
	return n.name, hs[len(n.name)], n.val, true
}

// eligible reports whether nexthop face may be used for an Interest that
// arrived on face in: it is up and is not the downstream itself. (Scope
// control has already removed the nexthops a scoped name may not use:
// Forwarder.scopeNexthops.)
func (a Actions) eligible(face, in FaceID) bool {
	return face != in && a.f.faceUp(face)
}

// nackIfAllUpstreamsNacked implements the Nack processing that NFD's
// best-route and multicast strategies share: once every upstream of e has
// Nacked (or the only one that has not is the sole downstream itself), the
// downstreams get a Nack with the least severe reason received, carrying
// the largest CongestionMark among the Nacks with that reason.
func nackIfAllUpstreamsNacked(a Actions, e *PitEntry) {
	var (
		notNacked int
		lastOpen  FaceID
		reason    = ndn.NackNone
		mark      uint64
	)
	for _, o := range e.out {
		switch {
		case o.Nack == ndn.NackNone:
			notNacked++
			lastOpen = o.Face
		case lessSevere(o.Nack, reason):
			reason, mark = o.Nack, o.NackMark
		case o.Nack == reason:
			mark = max(mark, o.NackMark)
		}
	}
	if notNacked == 0 || (notNacked == 1 && len(e.in) == 1 && e.in[0].Face == lastOpen) {
		a.SendNackToAll(e, reason, mark)
	}
}

// lessSevere reports whether Nack reason x is less severe than y, where
// NackNone stands for "no reason yet". Known reasons rank Congestion <
// Duplicate < NoRoute, by code, as in NFD.
func lessSevere(x, y ndn.NackReason) bool {
	if y == ndn.NackNone {
		return true
	}
	if x == ndn.NackNone {
		return false
	}
	return x < y
}
