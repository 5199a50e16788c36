package fw

import (
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// TestPitToken: a downstream's PitToken stays in its in-record and comes
// back on whatever answers its Interest; it never goes upstream.
func TestPitToken(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "Data returns each downstream its own token",
		faces:  []string{"c1:local", "c2:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: withToken(interest("/a/1", 1), 0xc1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: withToken(interest("/a/1", 2), 0xc2, 0x02), pit: 1},
			{at: 20 * ms, on: "p", pkt: withToken(data("/a/1", 0), 0xee), want: sent{
				"c1": {"D /a/1 token=c1"}, "c2": {"D /a/1 token=c202"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, SuppressedRetx: 1},
	}, {
		name:   "a renewed in-record keeps the latest token",
		faces:  []string{"c1:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: withToken(interest("/a/1", 1), 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 500 * ms, on: "c1", pkt: withToken(interest("/a/1", 2), 2), want: sent{"p": {"I /a/1 nonce=2"}}, pit: 1},
			{at: 600 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1 token=02"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, InData: 1, OutData: 1},
	}, {
		name:   "Nacks carry the token: no route, and a looping nonce",
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: withToken(interest("/b/1", 1), 7), want: sent{"c1": {"N:NoRoute /b/1 nonce=1 token=07"}}, pit: 0},
			{at: 1 * ms, on: "c1", pkt: withToken(interest("/a/1", 3), 8), want: sent{"p": {"I /a/1 nonce=3"}}, pit: 1},
			{at: 2 * ms, on: "c2", pkt: withToken(interest("/a/1", 3), 9), want: sent{"c2": {"N:Duplicate /a/1 nonce=3 token=09"}}, pit: 1},
			{at: 3 * ms, on: "p", pkt: nack(interest("/a/1", 3), ndn.NackCongestion), want: sent{"c1": {"N:Congestion /a/1 nonce=3 token=08"}}, pit: 0},
		},
		counters: Counters{InInterests: 3, OutInterests: 1, InNacks: 1, OutNacks: 3, DuplicateNonceDrops: 1, DeadNonces: 1},
	}, {
		name:   "a Content Store hit answers with the Interest's token",
		cfg:    Config{CSCapacity: 10},
		faces:  []string{"c1:local", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p", pkt: data("/a/1", time.Second), want: sent{"c1": {"D /a/1"}}, pit: 0},
			{at: 2 * ms, on: "c1", pkt: withToken(interest("/a/1", 2), 5), want: sent{"c1": {"D /a/1 token=05"}}, pit: 0},
		},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, CSHits: 1, CSMisses: 1, CSSize: 1},
	}})
}

// TestSetLocalFields: a face with local fields learns which face each
// Interest and Data arrived on; other faces never see the field.
func TestSetLocalFields(t *testing.T) {
	r := newRig(t, Config{CSCapacity: 10})
	c := r.face("c", FaceNetwork)
	app := r.face("app", FaceLocal)
	p := r.face("p", FaceNetwork)
	r.f.SetLocalFields(app, true)
	r.route("/app", "app", 0)
	r.route("/a", "p", 0)
	r.f.AddRoute(name("/a"), app, 5) // the app may also serve /a
	r.f.SetStrategy(name("/a"), StrategyMulticast)
	r.run([]step{
		{at: 0, on: "c", pkt: interest("/app/x", 1, hopLimit(3)), want: sent{"app": {"I /app/x nonce=1 hop=2 from=1"}}, pit: 1},
		{at: 1 * ms, on: "app", pkt: data("/app/x", 0), want: sent{"c": {"D /app/x"}}, pit: 0},
		{at: 2 * ms, on: "c", pkt: interest("/a/1", 2), want: sent{"p": {"I /a/1 nonce=2"}, "app": {"I /a/1 nonce=2 from=1"}}, pit: 1},
		{at: 3 * ms, on: "app", pkt: interest("/a/2", 3), want: sent{"p": {"I /a/2 nonce=3"}}, pit: 2},
		{at: 4 * ms, on: "p", pkt: data("/a/2", time.Second), want: sent{"app": {"D /a/2 from=3"}}, pit: 1},
		{at: 5 * ms, on: "app", pkt: interest("/a/2", 4), want: sent{"app": {"D /a/2"}}, pit: 1}, // from the CS: no face
	})
	if c != 1 || p != 3 {
		t.Fatalf("face IDs %d, %d; the script assumes 1 and 3", c, p)
	}
	r.f.SetLocalFields(app, false)
	r.run([]step{
		{at: 6 * ms, on: "c", pkt: interest("/app/y", 5), want: sent{"app": {"I /app/y nonce=5"}}, pit: 2},
	})
}
