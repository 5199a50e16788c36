package fw

import "testing"

// TestScope checks NFD's namespace-based scope control: /localhost
// Interests and Data only from and to local faces, /localhop Interests
// not relayed from one network face to another.
func TestScope(t *testing.T) {
	runScenarios(t, []scenario{{
		name:   "/localhost Interest from a network face is dropped, whatever the route",
		faces:  []string{"remote:net", "app:local"},
		routes: []route{{"/localhost/secret", "app", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/localhost/secret/1", 1), pit: 0},
		},
		counters: Counters{InInterests: 1, ScopeInterestDrops: 1},
	}, {
		name:   "/localhost Interest from a local app reaches a local producer, its Data comes back",
		faces:  []string{"app:local", "prod:local"},
		routes: []route{{"/localhost/secret", "prod", 0}},
		steps: []step{
			{at: 0, on: "app", pkt: interest("/localhost/secret/1", 1), want: sent{"prod": {"I /localhost/secret/1 nonce=1"}}, pit: 1},
			{at: ms, on: "prod", pkt: data("/localhost/secret/1", 0), want: sent{"app": {"D /localhost/secret/1"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, OutData: 1},
	}, {
		name:   "/localhost Interest from a local app is never sent to a peer: Nack NoRoute",
		faces:  []string{"app:local", "peer:net"},
		routes: []route{{"/", "peer", 0}},
		steps: []step{
			{at: 0, on: "app", pkt: interest("/localhost/private/key2", 1), want: sent{"app": {"N:NoRoute /localhost/private/key2 nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutNacks: 1, ScopeDeniedNexthops: 1},
	}, {
		name:   "/localhost Interest with a network and a local nexthop goes to the local one",
		faces:  []string{"app:local", "peer:net", "prod:local"},
		routes: []route{{"/", "peer", 0}, {"/", "prod", 10}},
		steps: []step{
			{at: 0, on: "app", pkt: interest("/localhost/x", 1), want: sent{"prod": {"I /localhost/x nonce=1"}}, pit: 1},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, ScopeDeniedNexthops: 1, PITSize: 1},
	}, {
		name:   "/localhost Data from a network face never reaches the local app",
		faces:  []string{"app:local", "peer:net", "prod:local"},
		routes: []route{{"/localhost", "prod", 0}},
		steps: []step{
			{at: 0, on: "app", pkt: interest("/localhost/private/key2", 1), want: sent{"prod": {"I /localhost/private/key2 nonce=1"}}, pit: 1},
			{at: ms, on: "peer", pkt: data("/localhost/private/key2", 0), pit: 1},
			{at: 2 * ms, on: "prod", pkt: data("/localhost/private/key2", 0), want: sent{"app": {"D /localhost/private/key2"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 2, OutData: 1, ScopeDataDrops: 1},
	}, {
		name:   "/localhop Interest from a network face is not relayed to another network face",
		faces:  []string{"remote:net", "peer:net"},
		routes: []route{{"/", "peer", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/localhop/nfd/rib/list", 1), want: sent{"remote": {"N:NoRoute /localhop/nfd/rib/list nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutNacks: 1, ScopeDeniedNexthops: 1},
	}, {
		name:   "/localhop Interest from a network face reaches a local app",
		faces:  []string{"remote:net", "app:local"},
		routes: []route{{"/localhop", "app", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/localhop/x", 1), want: sent{"app": {"I /localhop/x nonce=1"}}, pit: 1},
			{at: ms, on: "app", pkt: data("/localhop/x", 0), want: sent{"remote": {"D /localhop/x"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, OutData: 1},
	}, {
		name:   "/localhop Interest from a local app goes to the next node, its Data comes back",
		faces:  []string{"app:local", "peer:net"},
		routes: []route{{"/", "peer", 0}},
		steps: []step{
			{at: 0, on: "app", pkt: interest("/localhop/x", 1), want: sent{"peer": {"I /localhop/x nonce=1"}}, pit: 1},
			{at: ms, on: "peer", pkt: data("/localhop/x", 0), want: sent{"app": {"D /localhop/x"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, OutData: 1},
	}, {
		name:   "multicast: /localhop from a network face only to local nexthops",
		cfg:    Config{DefaultStrategy: StrategyMulticast},
		faces:  []string{"remote:net", "peer:net", "app:local"},
		routes: []route{{"/", "peer", 0}, {"/", "app", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/localhop/x", 1), want: sent{"app": {"I /localhop/x nonce=1"}}, pit: 1},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, ScopeDeniedNexthops: 1, PITSize: 1},
	}, {
		name:   "names that only look scoped are not",
		faces:  []string{"remote:net", "peer:net"},
		routes: []route{{"/", "peer", 0}},
		steps: []step{
			{at: 0, on: "remote", pkt: interest("/a/localhost", 1), want: sent{"peer": {"I /a/localhost nonce=1"}}, pit: 1},
			{at: 0, on: "remote", pkt: interest("/localhostx", 2), want: sent{"peer": {"I /localhostx nonce=2"}}, pit: 2},
		},
		counters: Counters{InInterests: 2, OutInterests: 2, PITSize: 2},
	}})
}

// TestScopeStrategies checks that every built-in strategy keeps a
// /localhost Interest from a local app off a network nexthop.
func TestScopeStrategies(t *testing.T) {
	for _, st := range []string{StrategyBestRoute, StrategyMulticast, StrategyPCON, StrategyPI, StrategyCF} {
		t.Run(st, func(t *testing.T) {
			r := newRig(t, Config{DefaultStrategy: st})
			app := r.face("app", FaceLocal)
			r.face("peer", FaceNetwork)
			r.route("/", "peer", 0)
			r.f.Receive(app, interest("/localhost/secret", 1))
			if got := r.sent()["peer"]; len(got) != 0 {
				t.Errorf("peer received %v", got)
			}
			if c := r.f.Counters(); c.OutInterests != 0 || c.ScopeDeniedNexthops == 0 {
				t.Errorf("counters %+v: want no Interest out and a scope denial", c)
			}
		})
	}
}
