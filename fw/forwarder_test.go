package fw

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// scenario is a forwarding script against one forwarder.
type scenario struct {
	name     string
	cfg      Config
	faces    []string // "name:local" or "name:net"
	routes   []route
	steps    []step
	counters Counters // checked at the end, exactly
}

type route struct {
	prefix, face string
	cost         uint64
}

func (sc scenario) run(t *testing.T) *rig {
	r := newRig(t, sc.cfg)
	for _, fs := range sc.faces {
		n, k, _ := strings.Cut(fs, ":")
		kind := FaceNetwork
		if k == "local" {
			kind = FaceLocal
		}
		r.face(n, kind)
	}
	for _, rt := range sc.routes {
		r.route(rt.prefix, rt.face, rt.cost)
	}
	r.run(sc.steps)
	if got := r.f.Counters(); got != sc.counters {
		t.Errorf("counters\n got %+v\nwant %+v", got, sc.counters)
	}
	return r
}

func runScenarios(t *testing.T, scs []scenario) {
	for _, sc := range scs {
		t.Run(sc.name, func(t *testing.T) { sc.run(t) })
	}
}

type sent = map[string][]string

func TestPIT(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "aggregation: two downstreams, one upstream Interest, Data to both",
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 2), pit: 1},
			{at: 20 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}, "c2": {"D /a/1"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, SuppressedRetx: 1},
	}, {
		name:   "expiry: entry removed at lifetime, no Data forwarded after",
		faces:  []string{"c1:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 99 * ms, pit: 1},
			{at: 100 * ms, pit: 0},
			{at: 150 * ms, on: "p", pkt: data("/a/1", 0), pit: 0},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, UnsatisfiedExpiries: 1, UnsolicitedData: 1, DeadNonces: 1},
	}, {
		name:   "expiry follows the latest in-record, one timer re-armed lazily",
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 50 * ms, on: "c2", pkt: interest("/a/1", 2, lifetime(300*ms)), want: sent{"p": {"I /a/1 nonce=2"}}, pit: 1},
			{at: 200 * ms, pit: 1},
			{at: 349 * ms, pit: 1},
			{at: 350 * ms, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, UnsatisfiedExpiries: 1, DeadNonces: 1},
	}, {
		name:   "a renewal with a shorter lifetime brings the expiry forward",
		faces:  []string{"c1:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(300*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 20 * ms, on: "c1", pkt: interest("/a/1", 2, lifetime(50*ms)), want: sent{"p": {"I /a/1 nonce=2"}}, pit: 1},
			{at: 69 * ms, pit: 1},
			{at: 70 * ms, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, UnsatisfiedExpiries: 1, DeadNonces: 1},
	}, {
		// A satisfied entry only disarms its timer: the wake-up stays
		// queued, and the entry object, recycled, serves later Interests
		// with it (re-armed when it comes early, moved when it comes late).
		name:   "recycled entries expire at their own lifetimes",
		faces:  []string{"c1:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 10 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}}, pit: 0},
			{at: 20 * ms, on: "c1", pkt: interest("/a/2", 2, lifetime(100*ms)), want: sent{"p": {"I /a/2 nonce=2"}}, pit: 1},
			{at: 100 * ms, pit: 1}, // the first Interest's wake-up, early for this one
			{at: 119 * ms, pit: 1},
			{at: 120 * ms, pit: 0},
			{at: 200 * ms, on: "c1", pkt: interest("/a/3", 3, lifetime(500*ms)), want: sent{"p": {"I /a/3 nonce=3"}}, pit: 1},
			{at: 210 * ms, on: "p", pkt: data("/a/3", 0), want: sent{"c1": {"D /a/3"}}, pit: 0},
			{at: 220 * ms, on: "c1", pkt: interest("/a/4", 4, lifetime(30*ms)), want: sent{"p": {"I /a/4 nonce=4"}}, pit: 1},
			{at: 249 * ms, pit: 1},
			{at: 250 * ms, pit: 0}, // not at the wake-up queued for 700 ms
			{at: 800 * ms, pit: 0},
		},
		counters: Counters{InInterests: 4, OutInterests: 4, InData: 2, OutData: 2, UnsatisfiedExpiries: 2, DeadNonces: 2},
	}, {
		name:   "Data skips downstreams whose Interest expired",
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 5 * ms, on: "c2", pkt: interest("/a/1", 2, lifetime(time.Second)), pit: 1},
			{at: 200 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c2": {"D /a/1"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 1, SuppressedRetx: 1},
	}, {
		name:   "duplicate nonce: from another downstream, back from upstream, and from the dead-nonce list",
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 7, lifetime(100*ms)), want: sent{"p": {"I /a/1 nonce=7"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 7), want: sent{"c2": {"N:Duplicate /a/1 nonce=7"}}, pit: 1},
			// the same nonce again from the same downstream is not a loop
			{at: 2 * ms, on: "c1", pkt: interest("/a/1", 7, lifetime(100*ms)), pit: 1},
			{at: 3 * ms, on: "p", pkt: interest("/a/1", 7), want: sent{"p": {"N:Duplicate /a/1 nonce=7"}}, pit: 1},
			{at: 102 * ms, pit: 0},
			{at: 200 * ms, on: "c2", pkt: interest("/a/1", 7), want: sent{"c2": {"N:Duplicate /a/1 nonce=7"}}, pit: 0},
			{at: 201 * ms, on: "c2", pkt: interest("/a/1", 8), want: sent{"p": {"I /a/1 nonce=8"}}, pit: 1},
		},
		counters: Counters{InInterests: 6, OutInterests: 2, OutNacks: 3, PITSize: 1, DuplicateNonceDrops: 3,
			SuppressedRetx: 1, UnsatisfiedExpiries: 1, DeadNonces: 1},
	}, {
		name:   "selectors make distinct entries; CanBePrefix Data matching; one copy per downstream",
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "c1", pkt: interest("/a", 2, canBePrefix), want: sent{"p": {"I /a nonce=2"}}, pit: 2},
			{at: 0, on: "c2", pkt: interest("/a/1", 3, mustBeFresh), want: sent{"p": {"I /a/1 nonce=3"}}, pit: 3},
			{at: 0, on: "c2", pkt: interest("/a/1/x", 4, canBePrefix), want: sent{"p": {"I /a/1/x nonce=4"}}, pit: 4},
			{at: 5 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}, "c2": {"D /a/1"}}, pit: 1},
			{at: 6 * ms, on: "p", pkt: data("/a/1/x/y", 0), want: sent{"c2": {"D /a/1/x/y"}}, pit: 0},
		},
		// the MustBeFresh entry was satisfied by Data fresher than the
		// dead-nonce lifetime, so its nonce is remembered
		counters: Counters{InInterests: 4, OutInterests: 4, InData: 2, OutData: 3, DeadNonces: 1},
	}})
}

func TestContentStore(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "hit: the second Interest is served from the CS, nothing upstream",
		cfg:    Config{CSCapacity: 10},
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 10 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}}, pit: 0},
			{at: 20 * ms, on: "c2", pkt: interest("/a/1", 2), want: sent{"c2": {"D /a/1"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, CSHits: 1, CSMisses: 1, CSSize: 1},
	}, {
		name:   "LRU eviction at capacity 2",
		cfg:    Config{CSCapacity: 2},
		faces:  []string{"c:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}},
			{at: 2 * ms, on: "c", pkt: interest("/a/2", 2), want: sent{"p": {"I /a/2 nonce=2"}}, pit: 1},
			{at: 3 * ms, on: "p", pkt: data("/a/2", 0), want: sent{"c": {"D /a/2"}}},
			{at: 4 * ms, on: "c", pkt: interest("/a/1", 3), want: sent{"c": {"D /a/1"}}}, // /a/1 now most recent
			{at: 5 * ms, on: "c", pkt: interest("/a/3", 4), want: sent{"p": {"I /a/3 nonce=4"}}, pit: 1},
			{at: 6 * ms, on: "p", pkt: data("/a/3", 0), want: sent{"c": {"D /a/3"}}}, // evicts /a/2
			{at: 7 * ms, on: "c", pkt: interest("/a/2", 5), want: sent{"p": {"I /a/2 nonce=5"}}, pit: 1},
			{at: 8 * ms, on: "c", pkt: interest("/a/3", 6), want: sent{"c": {"D /a/3"}}, pit: 1},
		},
		counters: Counters{InInterests: 6, OutInterests: 4, InData: 3, OutData: 5, CSHits: 2, CSMisses: 4,
			PITSize: 1, CSSize: 2},
	}, {
		name:   "MustBeFresh respects FreshnessPeriod",
		cfg:    Config{CSCapacity: 10},
		faces:  []string{"c:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 10 * ms, on: "p", pkt: data("/a/1", time.Second), want: sent{"c": {"D /a/1"}}},
			{at: 500 * ms, on: "c", pkt: interest("/a/1", 2, mustBeFresh), want: sent{"c": {"D /a/1"}}},
			{at: 1009 * ms, on: "c", pkt: interest("/a/1", 3, mustBeFresh), want: sent{"c": {"D /a/1"}}},
			{at: 1010 * ms, on: "c", pkt: interest("/a/1", 4, mustBeFresh), want: sent{"p": {"I /a/1 nonce=4"}}, pit: 1},
			{at: 1010 * ms, on: "c", pkt: interest("/a/1", 5), want: sent{"c": {"D /a/1"}}, pit: 1},
			// Data without FreshnessPeriod is never fresh
			{at: 1020 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}},
			{at: 1020 * ms, on: "c", pkt: interest("/a/1", 6, mustBeFresh), want: sent{"p": {"I /a/1 nonce=6"}}, pit: 1},
		},
		counters: Counters{InInterests: 6, OutInterests: 3, InData: 2, OutData: 5, CSHits: 3, CSMisses: 3,
			PITSize: 1, CSSize: 1, DeadNonces: 1},
	}, {
		name:   "CanBePrefix finds the latest Data under the prefix",
		cfg:    Config{CSCapacity: 10},
		faces:  []string{"c:local", "p:net"},
		routes: []route{{"/", "p", 0}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/v1/s0", 1), want: sent{"p": {"I /a/v1/s0 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p", pkt: data("/a/v1/s0", 0), want: sent{"c": {"D /a/v1/s0"}}},
			{at: 2 * ms, on: "c", pkt: interest("/a", 2, canBePrefix), want: sent{"c": {"D /a/v1/s0"}}},
			{at: 3 * ms, on: "c", pkt: interest("/a/v1", 3, canBePrefix), want: sent{"c": {"D /a/v1/s0"}}},
			{at: 4 * ms, on: "c", pkt: interest("/a/v1/s0", 4, canBePrefix), want: sent{"c": {"D /a/v1/s0"}}},
			{at: 5 * ms, on: "c", pkt: interest("/a/v1", 5), want: sent{"p": {"I /a/v1 nonce=5"}}, pit: 1},
			{at: 6 * ms, on: "c", pkt: interest("/b", 6, canBePrefix), want: sent{"p": {"I /b nonce=6"}}, pit: 2},
		},
		counters: Counters{InInterests: 6, OutInterests: 3, InData: 1, OutData: 4, CSHits: 3, CSMisses: 3,
			PITSize: 2, CSSize: 1},
	}, {
		name:   "capacity 0 disables the CS",
		faces:  []string{"c:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p", pkt: data("/a/1", time.Second), want: sent{"c": {"D /a/1"}}},
			{at: 2 * ms, on: "c", pkt: interest("/a/1", 2), want: sent{"p": {"I /a/1 nonce=2"}}, pit: 1},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, InData: 1, OutData: 1, PITSize: 1},
	}})
}

func TestBestRoute(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "lowest cost, never back to the downstream",
		faces:  []string{"c:local", "f2:net", "f3:net", "f4:net"},
		routes: []route{{"/a", "f2", 10}, {"/a", "f3", 5}, {"/a", "f4", 7}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"f3": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "f3", pkt: interest("/a/2", 2), want: sent{"f4": {"I /a/2 nonce=2"}}, pit: 2},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, PITSize: 2},
	}, {
		name:   "retransmission suppression: 10 ms, x2, 250 ms; unused nexthop first, then the earliest used",
		faces:  []string{"c:local", "p1:net", "p2:net"},
		routes: []route{{"/a", "p1", 1}, {"/a", "p2", 2}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 5 * ms, on: "c", pkt: interest("/a/1", 2), pit: 1},                                         // 5 < 10
			{at: 10 * ms, on: "c", pkt: interest("/a/1", 3), want: sent{"p2": {"I /a/1 nonce=3"}}, pit: 1},  // unused; -> 20
			{at: 25 * ms, on: "c", pkt: interest("/a/1", 4), pit: 1},                                        // 15 < 20
			{at: 30 * ms, on: "c", pkt: interest("/a/1", 5), want: sent{"p1": {"I /a/1 nonce=5"}}, pit: 1},  // earliest; -> 40
			{at: 69 * ms, on: "c", pkt: interest("/a/1", 6), pit: 1},                                        // 39 < 40
			{at: 70 * ms, on: "c", pkt: interest("/a/1", 7), want: sent{"p2": {"I /a/1 nonce=7"}}, pit: 1},  // -> 80
			{at: 150 * ms, on: "c", pkt: interest("/a/1", 8), want: sent{"p1": {"I /a/1 nonce=8"}}, pit: 1}, // -> 160
			{at: 310 * ms, on: "c", pkt: interest("/a/1", 9), want: sent{"p2": {"I /a/1 nonce=9"}}, pit: 1}, // -> 250 (max)
			{at: 559 * ms, on: "c", pkt: interest("/a/1", 10), pit: 1},                                      // 249 < 250
			{at: 560 * ms, on: "c", pkt: interest("/a/1", 11), want: sent{"p1": {"I /a/1 nonce=11"}}, pit: 1},
		},
		counters: Counters{InInterests: 11, OutInterests: 7, PITSize: 1, SuppressedRetx: 4},
	}, {
		name:   "Nack: the least severe reason goes downstream once every upstream has Nacked",
		faces:  []string{"c:local", "p1:net", "p2:net"},
		routes: []route{{"/a", "p1", 1}, {"/a", "p2", 2}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 10 * ms, on: "c", pkt: interest("/a/1", 2), want: sent{"p2": {"I /a/1 nonce=2"}}, pit: 1},
			{at: 11 * ms, on: "p1", pkt: nack(interest("/a/1", 9), ndn.NackNoRoute), pit: 1}, // wrong nonce: dropped
			{at: 12 * ms, on: "p1", pkt: nack(interest("/a/1", 1), ndn.NackNoRoute), pit: 1},
			{at: 13 * ms, on: "p2", pkt: nack(interest("/a/1", 2), ndn.NackDuplicate), want: sent{"c": {"N:Duplicate /a/1 nonce=2"}}},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, InNacks: 3, OutNacks: 1, DroppedNacks: 1,
			UnsatisfiedExpiries: 0, DeadNonces: 2},
	}, {
		name:   "Nack Congestion from the only upstream goes downstream, with its mark",
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 2), pit: 1},
			{at: 5 * ms, on: "p", pkt: marked(nack(interest("/a/1", 1), ndn.NackCongestion), 2),
				want: sent{"c1": {"N:Congestion /a/1 nonce=1 mark=2"}, "c2": {"N:Congestion /a/1 nonce=2 mark=2"}}},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InNacks: 1, OutNacks: 2, SuppressedRetx: 1,
			MarksForwarded: 2, DeadNonces: 1},
	}})
}

func TestMulticast(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "fan-out to every nexthop but the downstream, per-upstream suppression",
		cfg:    Config{DefaultStrategy: StrategyMulticast},
		faces:  []string{"c:local", "n1:net", "n2:net", "n3:net"},
		routes: []route{{"/a", "n1", 1}, {"/a", "n2", 2}, {"/a", "n3", 3}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1),
				want: sent{"n1": {"I /a/1 nonce=1"}, "n2": {"I /a/1 nonce=1"}, "n3": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "n2", pkt: interest("/a/2", 2), want: sent{"n1": {"I /a/2 nonce=2"}, "n3": {"I /a/2 nonce=2"}}, pit: 2},
			{at: 5 * ms, on: "c", pkt: interest("/a/1", 3), pit: 2},
			{at: 10 * ms, on: "c", pkt: interest("/a/1", 4),
				want: sent{"n1": {"I /a/1 nonce=4"}, "n2": {"I /a/1 nonce=4"}, "n3": {"I /a/1 nonce=4"}}, pit: 2},
			{at: 29 * ms, on: "c", pkt: interest("/a/1", 5), pit: 2}, // 19 < 20
			{at: 30 * ms, on: "n3", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}, pit: 1},
		},
		counters: Counters{InInterests: 5, OutInterests: 8, InData: 1, OutData: 1, PITSize: 1, SuppressedRetx: 2},
	}, {
		name:   "Nacks: wait for every upstream",
		cfg:    Config{DefaultStrategy: StrategyMulticast},
		faces:  []string{"c:local", "n1:net", "n2:net"},
		routes: []route{{"/a", "n1", 1}, {"/a", "n2", 2}},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"n1": {"I /a/1 nonce=1"}, "n2": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "n1", pkt: nack(interest("/a/1", 1), ndn.NackNoRoute), pit: 1},
			{at: 2 * ms, on: "n2", pkt: nack(interest("/a/1", 1), ndn.NackCongestion), want: sent{"c": {"N:Congestion /a/1 nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 2, InNacks: 2, OutNacks: 1, DeadNonces: 2},
	}})
}

func TestNoRoute(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "no FIB entry: Nack NoRoute to local and network downstreams",
		faces:  []string{"c1:local", "c2:net"},
		routes: []route{{"/b", "c2", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"c1": {"N:NoRoute /a/1 nonce=1"}}},
			{at: 0, on: "c2", pkt: interest("/a/1", 2), want: sent{"c2": {"N:NoRoute /a/1 nonce=2"}}},
			// the only nexthop is the downstream itself
			{at: 0, on: "c2", pkt: interest("/b/1", 3), want: sent{"c2": {"N:NoRoute /b/1 nonce=3"}}},
		},
		counters: Counters{InInterests: 3, OutNacks: 3, DeadNonces: 0},
	}, {
		name:  "multicast without nexthops",
		cfg:   Config{DefaultStrategy: StrategyMulticast},
		faces: []string{"c:local"},
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"c": {"N:NoRoute /a/1 nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutNacks: 1},
	}})
}

func TestCongestionMarks(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "a marked Data keeps its mark downstream",
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 2), pit: 1},
			{at: 5 * ms, on: "p", pkt: marked(data("/a/1", 0), 3), want: sent{"c1": {"D /a/1 mark=3"}, "c2": {"D /a/1 mark=3"}}},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, SuppressedRetx: 1, MarksForwarded: 2},
	}, {
		name:   "a marked Interest gets a marked reply; the Interest goes upstream unmarked",
		cfg:    Config{CSCapacity: 10},
		faces:  []string{"c1:net", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: marked(interest("/a/1", 1), 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 2), pit: 1},
			{at: 5 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1 mark=1"}, "c2": {"D /a/1"}}},
			// from the Content Store too
			{at: 6 * ms, on: "c2", pkt: marked(interest("/a/1", 3), 1), want: sent{"c2": {"D /a/1 mark=1"}}},
			// and a Nack
			{at: 7 * ms, on: "c1", pkt: marked(interest("/a/2", 4), 1), want: sent{"p": {"I /a/2 nonce=4"}}, pit: 1},
			{at: 8 * ms, on: "p", pkt: nack(interest("/a/2", 4), ndn.NackCongestion), want: sent{"c1": {"N:Congestion /a/2 nonce=4 mark=1"}}},
		},
		counters: Counters{InInterests: 4, OutInterests: 2, InData: 1, OutData: 3, InNacks: 1, OutNacks: 1,
			CSHits: 1, CSMisses: 2, CSSize: 1, SuppressedRetx: 1, MarksForwarded: 3, DeadNonces: 1},
	}})
}

func TestHopLimit(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "decremented on arrival from the network, never sent at 0 to the network",
		faces:  []string{"c:local", "n:net", "p:net", "app:local"},
		routes: []route{{"/a", "p", 0}, {"/app", "app", 0}},
		steps: []step{
			{at: 0, on: "n", pkt: interest("/a/1", 1, hopLimit(2)), want: sent{"p": {"I /a/1 nonce=1 hop=1"}}, pit: 1},
			{at: 0, on: "n", pkt: interest("/a/2", 2, hopLimit(1)), pit: 2}, // becomes 0
			{at: 0, on: "n", pkt: interest("/a/3", 3, hopLimit(0)), pit: 2}, // dropped on arrival
			{at: 0, on: "c", pkt: interest("/a/4", 4, hopLimit(1)), want: sent{"p": {"I /a/4 nonce=4 hop=1"}}, pit: 3},
			{at: 0, on: "c", pkt: interest("/a/5", 5, hopLimit(0)), pit: 4},
			{at: 0, on: "n", pkt: interest("/app/1", 6, hopLimit(1)), want: sent{"app": {"I /app/1 nonce=6 hop=0"}}, pit: 5},
		},
		counters: Counters{InInterests: 6, OutInterests: 3, PITSize: 5, HopLimitDrops: 3},
	}})
}

// syncProducer answers every Interest from inside Send, re-entering the
// forwarder: by Receive, or by ReceiveInPlace with a packet it overwrites
// once the call returns (the forwarder, busy, must have taken a copy).
type syncProducer struct {
	f       *Forwarder
	id      FaceID
	inPlace bool
}

func (p *syncProducer) Send(pkt ndn.Packet) {
	if pkt.Interest == nil || pkt.Nack != ndn.NackNone {
		return
	}
	d := ndn.Packet{Data: &ndn.Data{Name: pkt.Interest.Name}}
	if !p.inPlace {
		p.f.Receive(p.id, d)
		return
	}
	p.f.ReceiveInPlace(p.id, &d)
	d.Data = &ndn.Data{Name: name("/overwritten")}
}

func TestReentrantFace(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(fmt.Sprintf("inPlace=%v", inPlace), func(t *testing.T) {
			r := newRig(t, Config{})
			r.face("c", FaceLocal)
			prod := &syncProducer{f: r.f, inPlace: inPlace}
			prod.id = r.f.AddFace(prod, FaceLocal)
			r.f.AddRoute(name("/p"), prod.id, 0)
			r.run([]step{
				{at: 0, on: "c", pkt: interest("/p/1", 1), want: sent{"c": {"D /p/1"}}},
				{at: 1 * ms, on: "c", pkt: interest("/p/2", 2), want: sent{"c": {"D /p/2"}}},
			})
		})
	}
}

func TestFIBLongestPrefixMatch(t *testing.T) {
	r := newRig(t, Config{})
	f1, f2, f3 := r.face("f1", FaceNetwork), r.face("f2", FaceNetwork), r.face("f3", FaceNetwork)
	r.route("/", "f1", 0)
	r.route("/a", "f2", 0)
	r.route("/a/b", "f3", 0)
	r.route("/a/b", "f2", 1)
	for _, tc := range []struct {
		name string
		want []NextHop
	}{
		{"/a/b/c", []NextHop{{f3, 0}, {f2, 1}}},
		{"/a/b", []NextHop{{f3, 0}, {f2, 1}}},
		{"/a/x", []NextHop{{f2, 0}}},
		{"/a", []NextHop{{f2, 0}}},
		{"/ab", []NextHop{{f1, 0}}},
		{"/z/y/x/w", []NextHop{{f1, 0}}},
		{"/", []NextHop{{f1, 0}}},
	} {
		n := name(tc.name)
		got := r.f.fib.lookup(n, r.f.hasher.prefixes(n))
		if !equalHops(got, tc.want) {
			t.Errorf("lookup %s = %v, want %v", tc.name, got, tc.want)
		}
	}

	// cost updates re-rank; removal falls back to shorter prefixes
	r.route("/a/b", "f2", 0) // ties keep insertion order: f3 first
	r.f.RemoveRoute(name("/a/b"), f3)
	n := name("/a/b/c")
	if got, want := r.f.fib.lookup(n, r.f.hasher.prefixes(n)), []NextHop{{f2, 0}}; !equalHops(got, want) {
		t.Errorf("after removing f3: %v, want %v", got, want)
	}
	r.f.RemoveRoute(name("/a/b"), f2)
	r.f.RemoveFace(f2)
	if got, want := r.f.fib.lookup(n, r.f.hasher.prefixes(n)), []NextHop{{f1, 0}}; !equalHops(got, want) {
		t.Errorf("after removing /a/b and face f2: %v, want %v", got, want)
	}
}

func equalHops(a, b []NextHop) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFIBCostOrder(t *testing.T) {
	r := newRig(t, Config{})
	ids := []FaceID{r.face("a", FaceNetwork), r.face("b", FaceNetwork), r.face("c", FaceNetwork)}
	r.route("/x", "a", 10)
	r.route("/x", "b", 5)
	r.route("/x", "c", 10)
	r.route("/x", "a", 1) // update
	n := name("/x/1")
	want := []NextHop{{ids[0], 1}, {ids[1], 5}, {ids[2], 10}}
	if got := r.f.fib.lookup(n, r.f.hasher.prefixes(n)); !equalHops(got, want) {
		t.Errorf("nexthops %v, want %v", got, want)
	}
}

func TestStrategyChoice(t *testing.T) {
	r := newRig(t, Config{})
	if err := r.f.SetStrategy(name("/m"), StrategyMulticast); err != nil {
		t.Fatal(err)
	}
	if err := r.f.SetStrategy(name("/m/b"), StrategyBestRoute); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, want string }{
		{"/", StrategyBestRoute},
		{"/a/1", StrategyBestRoute},
		{"/m", StrategyMulticast},
		{"/m/a/1", StrategyMulticast},
		{"/m/b/1", StrategyBestRoute},
		{"/mm", StrategyBestRoute},
	} {
		if got := r.f.StrategyFor(name(tc.name)); got != tc.want {
			t.Errorf("StrategyFor(%s) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if err := r.f.SetStrategy(name("/x"), "nope"); err == nil {
		t.Error("SetStrategy with an unknown strategy: no error")
	}
}

func TestNewErrors(t *testing.T) {
	s := &fakeSched{}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"unknown default strategy", Config{DefaultStrategy: "nope"}},
		{"negative CS capacity", Config{CSCapacity: -1}},
		{"negative dead-nonce lifetime", Config{DeadNonceLifetime: -1}},
	} {
		if _, err := New(tc.cfg, s, nil); err == nil {
			t.Errorf("%s: no error without rng", tc.name)
		}
		if _, err := New(tc.cfg, s, newRig(t, Config{}).f.rng); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// countingStrategy is a custom strategy registered through Config: it
// forwards to the first nexthop and counts what it sees.
type countingStrategy struct {
	a                                          Actions
	interests, data, nacks, unsatisfied, marks int
}

func (s *countingStrategy) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nh []NextHop) {
	s.interests++
	s.a.SendInterest(e, nh[0].Face, it)
}
func (s *countingStrategy) AfterReceiveData(e *PitEntry, in FaceID, d *ndn.Data, mark uint64) {
	s.data++
	if mark > 0 {
		s.marks++
	}
}
func (s *countingStrategy) AfterReceiveNack(*PitEntry, FaceID, ndn.Packet) { s.nacks++ }
func (s *countingStrategy) OnInterestUnsatisfied(*PitEntry)                { s.unsatisfied++ }

func TestCustomStrategy(t *testing.T) {
	var cs *countingStrategy
	r := newRig(t, Config{DefaultStrategy: "count", Strategies: map[string]StrategyConstructor{
		"count": func(a Actions) Strategy { cs = &countingStrategy{a: a}; return cs },
	}})
	r.face("c", FaceLocal)
	r.face("p", FaceNetwork)
	r.route("/", "p", 0)
	r.run([]step{
		{at: 0, on: "c", pkt: interest("/a/1", 1, lifetime(50*ms)), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
		{at: 0, on: "c", pkt: interest("/a/2", 2, lifetime(50*ms)), want: sent{"p": {"I /a/2 nonce=2"}}, pit: 2},
		{at: 0, on: "c", pkt: interest("/a/3", 3, lifetime(50*ms)), want: sent{"p": {"I /a/3 nonce=3"}}, pit: 3},
		{at: 1 * ms, on: "p", pkt: marked(data("/a/1", 0), 1), want: sent{"c": {"D /a/1 mark=1"}}, pit: 2},
		{at: 2 * ms, on: "p", pkt: nack(interest("/a/2", 2), ndn.NackCongestion), pit: 2},
		{at: 50 * ms, pit: 0},
	})
	got := [5]int{cs.interests, cs.data, cs.marks, cs.nacks, cs.unsatisfied}
	if want := [5]int{3, 1, 1, 1, 2}; got != want {
		t.Errorf("strategy saw interests, data, marks, nacks, unsatisfied = %v, want %v", got, want)
	}
}

func TestContentStoreGrowsWithUse(t *testing.T) {
	// The CS used to allocate its index for its whole capacity up front:
	// cs-capacity 1e7 took 905 MB for a 100 KiB transfer, 1e8 ran out of
	// memory. Now an empty store of capacity 2^20 costs almost nothing.
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := newRig(t, Config{CSCapacity: 1 << 20})
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("a forwarder with an empty CS of capacity 2^20 allocated %d bytes, want under 1 MiB", got)
	}
	c, p := r.face("c", FaceLocal), r.face("p", FaceNetwork)
	r.route("/a", "p", 0)
	for i := range 100 {
		n := fmt.Sprintf("/a/%d", i)
		r.f.Receive(c, interest(n, uint32(i+1)))
		r.f.Receive(p, data(n, time.Second))
	}
	if got := r.f.Counters().CSSize; got != 100 {
		t.Errorf("CS holds %d Data, want 100", got)
	}
}
