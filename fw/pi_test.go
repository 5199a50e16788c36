package fw

import (
	"fmt"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// multipathRig is a forwarder running strategy with a consumer face c and
// upstreams p1, p2, ... for /a, cost 10, 20, ...
func multipathRig(t *testing.T, strategy string, upstreams int) *rig {
	t.Helper()
	return upstreamRig(t, Config{DefaultStrategy: strategy}, upstreams)
}

// upstreamRig is multipathRig with the forwarder's whole configuration.
func upstreamRig(t *testing.T, cfg Config, upstreams int) *rig {
	t.Helper()
	r := newRig(t, cfg)
	r.face("c", FaceLocal)
	for i := 1; i <= upstreams; i++ {
		n := fmt.Sprintf("p%d", i)
		r.face(n, FaceNetwork)
		r.route("/a", n, uint64(10*i))
	}
	return r
}

// pending returns PendingInterests by face name, for faces with some.
func (r *rig) pending() map[string]int {
	out := map[string]int{}
	for n, id := range r.ids {
		if k := r.f.PendingInterests(id); k != 0 {
			out[n] = k
		}
	}
	return out
}

func TestPI(t *testing.T) {
	r := multipathRig(t, StrategyPI, 3)
	r.run([]step{
		{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
		{at: 0, on: "c", pkt: interest("/a/2", 2), want: sent{"p2": {"I /a/2 nonce=2"}}, pit: 2},
		{at: 0, on: "c", pkt: interest("/a/3", 3), want: sent{"p3": {"I /a/3 nonce=3"}}, pit: 3},
		// all have one pending: the lowest cost wins
		{at: 0, on: "c", pkt: interest("/a/4", 4), want: sent{"p1": {"I /a/4 nonce=4"}}, pit: 4},
		{at: 1 * ms, on: "p1", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}, pit: 3},
		{at: 1 * ms, on: "c", pkt: interest("/a/5", 5), want: sent{"p1": {"I /a/5 nonce=5"}}, pit: 4},
		{at: 2 * ms, on: "p2", pkt: nack(interest("/a/2", 2), ndn.NackCongestion), want: sent{"c": {"N:Congestion /a/2 nonce=2"}}, pit: 3},
		{at: 2 * ms, on: "c", pkt: interest("/a/6", 6), want: sent{"p2": {"I /a/6 nonce=6"}}, pit: 4},
		// a retransmission goes to the least pending face not tried for it
		{at: 5 * ms, on: "c", pkt: interest("/a/3", 7), pit: 4},
		{at: 20 * ms, on: "c", pkt: interest("/a/3", 8), want: sent{"p2": {"I /a/3 nonce=8"}}, pit: 4},
		{at: 30 * ms, on: "c", pkt: interest("/b/1", 9), want: sent{"c": {"N:NoRoute /b/1 nonce=9"}}, pit: 4},
	})
	want := map[string]int{"p1": 2, "p2": 2, "p3": 1}
	if got := r.pending(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pending %v, want %v", got, want)
	}
}

func TestPendingInterests(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
		want  map[string]int
	}{{
		name: "sent, then answered by Data",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}},
		},
		want: map[string]int{},
	}, {
		name: "a retransmission to the same upstream counts once",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 50 * ms, on: "c", pkt: interest("/a/1", 2), want: sent{"p1": {"I /a/1 nonce=2"}}, pit: 1},
		},
		want: map[string]int{"p1": 1},
	}, {
		name: "a Nack answers; a new Interest after it counts again",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "c", pkt: interest("/a/2", 2), want: sent{"p1": {"I /a/2 nonce=2"}}, pit: 2},
			{at: 1 * ms, on: "p1", pkt: nack(interest("/a/1", 1), ndn.NackCongestion), want: sent{"c": {"N:Congestion /a/1 nonce=1"}}, pit: 1},
			{at: 2 * ms, on: "c", pkt: interest("/a/1", 3), want: sent{"p1": {"I /a/1 nonce=3"}}, pit: 2},
		},
		want: map[string]int{"p1": 2},
	}, {
		name: "expiry ends it",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 100 * ms},
		},
		want: map[string]int{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := multipathRig(t, StrategyBestRoute, 1)
			r.run(tc.steps)
			if got := r.pending(); fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("pending %v, want %v", got, tc.want)
			}
		})
	}
	t.Run("Data from one upstream ends every upstream's Interest", func(t *testing.T) {
		r := multipathRig(t, StrategyMulticast, 2)
		r.run([]step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}, "p2": {"I /a/1 nonce=1"}}, pit: 1},
		})
		if got, want := r.pending(), map[string]int{"p1": 1, "p2": 1}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("pending %v, want %v", got, want)
		}
		r.run([]step{{at: 1 * ms, on: "p2", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1"}}}})
		if got := r.pending(); len(got) != 0 {
			t.Errorf("pending %v, want none", got)
		}
	})
}
