package fw

import (
	"fmt"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// TestLimits checks the forwarder's bounds on state and work: the
// InterestLifetime cap, the PIT's capacity, one face's fair share of it,
// and the name length.
func TestLimits(t *testing.T) {
	huge := lifetime(time.Duration(1<<40) * ms)
	runScenarios(t, []scenario{{
		name:   "a lifetime of 2^40 ms keeps the entry only MaxInterestLifetime",
		cfg:    Config{MaxInterestLifetime: time.Second},
		faces:  []string{"remote:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/a/1", 1, huge), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 999 * ms, pit: 1},
			{at: time.Second, pit: 0},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, UnsatisfiedExpiries: 1, DeadNonces: 1},
	}, {
		name:   "PIT full: a new entry is refused with Nack Congestion; renewals and aggregation are not",
		cfg:    Config{PITCapacity: 2},
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "c1", pkt: interest("/a/2", 2), want: sent{"p": {"I /a/2 nonce=2"}}, pit: 2},
			{at: 0, on: "c1", pkt: interest("/a/3", 3), want: sent{"c1": {"N:Congestion /a/3 nonce=3"}}, pit: 2},
			{at: 0, on: "c2", pkt: interest("/a/1", 4), pit: 2},
			{at: 300 * ms, on: "c1", pkt: interest("/a/2", 5), want: sent{"p": {"I /a/2 nonce=5"}}, pit: 2},
			{at: 310 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}, "c2": {"D /a/1"}}, pit: 1},
			{at: 320 * ms, on: "c2", pkt: interest("/a/3", 6), want: sent{"p": {"I /a/3 nonce=6"}}, pit: 2},
		},
		counters: Counters{InInterests: 6, OutInterests: 4, InData: 1, OutData: 2, OutNacks: 1, SuppressedRetx: 1,
			PITLimitNacks: 1, PITSize: 2},
	}, {
		name:   "one face's fair share: its next in-record is refused, other faces still get theirs",
		cfg:    Config{PITFaceLimit: 2},
		faces:  []string{"remote:net", "app:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "remote", pkt: interest("/a/2", 2), want: sent{"p": {"I /a/2 nonce=2"}}, pit: 2},
			{at: 0, on: "remote", pkt: interest("/a/3", 3), want: sent{"remote": {"N:Congestion /a/3 nonce=3"}}, pit: 2},
			{at: 0, on: "app", pkt: interest("/a/3", 4), want: sent{"p": {"I /a/3 nonce=4"}}, pit: 3},
			{at: 10 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"remote": {"D /a/1"}}, pit: 2},
			{at: 10 * ms, on: "remote", pkt: interest("/a/4", 5), want: sent{"p": {"I /a/4 nonce=5"}}, pit: 3},
		},
		counters: Counters{InInterests: 5, OutInterests: 4, InData: 1, OutData: 1, OutNacks: 1, PITLimitNacks: 1, PITSize: 3},
	}, {
		name:   "names over MaxNameComponents are dropped on arrival",
		cfg:    Config{MaxNameComponents: 3},
		faces:  []string{"remote:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/a/b/c/d", 1)},
			{at: 0, on: "remote", pkt: interest("/a/b/c", 2), want: sent{"p": {"I /a/b/c nonce=2"}}, pit: 1},
			{at: ms, on: "p", pkt: data("/a/b/c/d", 0), pit: 1},
			{at: ms, on: "p", pkt: nack(interest("/a/b/c/d", 2), ndn.NackNoRoute), pit: 1},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, InNacks: 1, NameTooLongDrops: 3, PITSize: 1},
	}})
}

// TestPITFlood is the lifetime flood of a remote peer, in virtual time:
// 100,000 Interests of lifetime 2^40 ms, 5,000 a second, from one network
// face that no upstream answers, while a local consumer fetches 1,000
// segments through the same forwarder. The PIT never holds more than the
// flooding face's fair share plus the consumer's window, every segment
// arrives, and two minutes after the flood the PIT is empty.
func TestPITFlood(t *testing.T) {
	r := newRig(t, Config{})
	remote := r.face("remote", FaceNetwork)
	app := r.face("app", FaceLocal)
	r.face("sink", FaceNetwork) // the flood's upstream: never answers
	prod := r.face("prod", FaceLocal)
	r.route("/flood", "sink", 0)
	r.route("/file", "prod", 0)
	huge := time.Duration(1<<40) * ms
	const floods, segments, window = 100_000, 1_000, 8
	var maxPIT, got, next int
	prefix := name("/file")
	seg := func(i int) ndn.Name { return append(prefix[:1:1], enc.NewSegmentComponent(uint64(i))) }
	for i := range floods {
		now := time.Duration(i) * 200 * time.Microsecond // 5,000 a second
		r.s.advanceTo(now)
		r.f.Receive(remote, ndn.Packet{Interest: &ndn.Interest{Name: name(fmt.Sprintf("/flood/%d", i)), Nonce: uint32(i), Lifetime: huge}})
		// the consumer keeps window segments outstanding; the producer
		// answers at once
		for next < segments && next-got < window {
			r.f.Receive(app, ndn.Packet{Interest: &ndn.Interest{Name: seg(next), Nonce: uint32(floods + next)}})
			next++
		}
		for _, p := range r.faces["prod"].sent {
			r.f.Receive(prod, ndn.Packet{Data: &ndn.Data{Name: p.Interest.Name}})
		}
		r.faces["prod"].sent = r.faces["prod"].sent[:0]
		for _, p := range r.faces["app"].sent {
			if p.Data == nil {
				t.Fatalf("the consumer got %s", describe(p))
			}
			got++
		}
		r.faces["app"].sent = r.faces["app"].sent[:0]
		r.faces["remote"].sent = r.faces["remote"].sent[:0]
		r.faces["sink"].sent = r.faces["sink"].sent[:0]
		maxPIT = max(maxPIT, r.f.Counters().PITSize)
	}
	c := r.f.Counters()
	if maxPIT > DefaultPITFaceLimit+window {
		t.Errorf("PIT peaked at %d entries, want at most the face's share %d plus the window %d", maxPIT, DefaultPITFaceLimit, window)
	}
	if got != segments {
		t.Errorf("the consumer got %d of %d segments", got, segments)
	}
	if want := uint64(floods - DefaultPITFaceLimit); c.PITLimitNacks != want {
		t.Errorf("%d Interests refused, want %d", c.PITLimitNacks, want)
	}
	r.s.advanceTo(time.Duration(floods)*200*time.Microsecond + DefaultMaxInterestLifetime)
	if n := r.f.Counters().PITSize; n != 0 {
		t.Errorf("PIT holds %d entries a lifetime cap after the flood, want 0", n)
	}
	if n := r.f.faces[remote].inRecords; n != 0 {
		t.Errorf("the flooding face still counts %d in-records", n)
	}
}
