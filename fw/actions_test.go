package fw

import (
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// funcStrategy runs onInterest for every Interest; it lets a test drive
// the Actions directly.
type funcStrategy struct {
	a          Actions
	onInterest func(a Actions, e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop)
}

func (s *funcStrategy) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop) {
	s.onInterest(s.a, e, in, it, nh)
}
func (s *funcStrategy) AfterReceiveData(*PitEntry, FaceID, *ndn.Data, uint64) {}
func (s *funcStrategy) AfterReceiveNack(*PitEntry, FaceID, ndn.Packet)        {}
func (s *funcStrategy) OnInterestUnsatisfied(*PitEntry)                       {}

func TestActions(t *testing.T) {
	for _, tc := range []struct {
		name       string
		onInterest func(a Actions, e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop)
		steps      []step
		counters   Counters
	}{{
		name: "SendNack to one downstream keeps the entry for the others",
		onInterest: func(a Actions, e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop) {
			if len(e.InRecords()) == 1 {
				a.SendInterest(e, nh[0].Face, it)
				return
			}
			a.SendNack(e, in, ndn.NackCongestion, 0)
			a.SendNack(e, in, ndn.NackCongestion, 0) // no in-record any more: nothing
		},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 2, lifetime(300*ms)), want: sent{"c2": {"N:Congestion /a/1 nonce=2"}}, pit: 1},
			{at: 99 * ms, pit: 1},
			{at: 100 * ms, pit: 0}, // c1's lifetime, not c2's
		},
		counters: Counters{InInterests: 2, OutInterests: 1, OutNacks: 1, UnsatisfiedExpiries: 1, DeadNonces: 1},
	}, {
		name: "SendNack to the last downstream finalizes the entry; later actions do nothing",
		onInterest: func(a Actions, e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop) {
			a.SendNack(e, in, ndn.NackNoRoute, 4)
			a.SendInterest(e, nh[0].Face, it)
			a.SendNackToAll(e, ndn.NackNoRoute, 0)
			a.Suppressed(e)
			a.Reject(e)
		},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"c1": {"N:NoRoute /a/1 nonce=1 mark=4"}}},
		},
		counters: Counters{InInterests: 1, OutNacks: 1, MarksForwarded: 1},
	}, {
		name: "Reject drops the entry silently; its nonces become dead",
		onInterest: func(a Actions, e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop) {
			a.SendInterest(e, nh[0].Face, it)
			a.Reject(e)
		},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}},
			{at: 1 * ms, on: "p", pkt: data("/a/1", 0)},
			{at: 2 * ms, on: "c2", pkt: interest("/a/1", 1), want: sent{"c2": {"N:Duplicate /a/1 nonce=1"}}},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutNacks: 1, UnsolicitedData: 1,
			DuplicateNonceDrops: 1, DeadNonces: 1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{DefaultStrategy: "func", Strategies: map[string]StrategyConstructor{
				"func": func(a Actions) Strategy { return &funcStrategy{a: a, onInterest: tc.onInterest} },
			}})
			r.face("c1", FaceLocal)
			r.face("c2", FaceNetwork)
			r.face("p", FaceNetwork)
			r.route("/a", "p", 0)
			r.run(tc.steps)
			if got := r.f.Counters(); got != tc.counters {
				t.Errorf("counters\n got %+v\nwant %+v", got, tc.counters)
			}
		})
	}
}
