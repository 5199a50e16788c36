package fw

import (
	"slices"
	"testing"
	"time"
)

// TestFaceCounters runs traffic through a forwarder and checks every
// face's counters, which must add up to the forwarder's.
func TestFaceCounters(t *testing.T) {
	sc := scenario{
		name:   "per-face counters",
		faces:  []string{"c1:local", "c2:net", "p:net"},
		routes: []route{{"/a", "p", 0}},
		steps: []step{
			{at: 0, on: "c1", pkt: interest("/a/1", 1), want: sent{"p": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "c2", pkt: interest("/a/1", 1), want: sent{"c2": {"N:Duplicate /a/1 nonce=1"}}, pit: 1},
			{at: 2 * ms, on: "p", pkt: data("/a/1", 0), want: sent{"c1": {"D /a/1"}}, pit: 0},
			{at: 3 * ms, on: "c2", pkt: interest("/b", 2), want: sent{"c2": {"N:NoRoute /b nonce=2"}}, pit: 0},
			{at: 4 * ms, on: "c2", pkt: interest("/a/2", 3), want: sent{"p": {"I /a/2 nonce=3"}}, pit: 1},
			{at: 5 * ms, on: "p", pkt: nack(interest("/a/2", 3), 50), want: sent{"c2": {"N:Congestion /a/2 nonce=3"}}, pit: 0},
		},
		counters: Counters{InInterests: 4, OutInterests: 2, InData: 1, OutData: 1, InNacks: 1, OutNacks: 3,
			DuplicateNonceDrops: 1, DeadNonces: 1},
	}
	r := sc.run(t)
	want := map[string]FaceCounters{
		"c1": {InInterests: 1, OutData: 1},
		"c2": {InInterests: 3, OutNacks: 3},
		"p":  {OutInterests: 2, InData: 1, InNacks: 1},
	}
	var sum FaceCounters
	for n, w := range want {
		got := r.f.FaceCounters(r.ids[n])
		if got != w {
			t.Errorf("face %s: %+v, want %+v", n, got, w)
		}
		sum.InInterests += got.InInterests
		sum.OutNacks += got.OutNacks
	}
	if c := r.f.Counters(); sum.InInterests != c.InInterests || sum.OutNacks != c.OutNacks {
		t.Errorf("faces sum to %+v, forwarder counted %+v", sum, c)
	}
	var told []FaceID
	r.f.OnFaceRemoved(func(id FaceID) { told = append(told, id) })
	r.f.RemoveFace(r.ids["c1"])
	if got := r.f.FaceCounters(r.ids["c1"]); got != (FaceCounters{}) || !slices.Equal(told, []FaceID{r.ids["c1"]}) {
		t.Errorf("a removed face's counters: %+v; OnFaceRemoved told %v", got, told)
	}
	if got := r.f.FaceCounters(99); got != (FaceCounters{}) {
		t.Errorf("counters of no face: %+v", got)
	}
	if _, ok := r.f.FaceKind(r.ids["c1"]); ok {
		t.Error("FaceKind of a removed face")
	}
	if k, ok := r.f.FaceKind(r.ids["p"]); !ok || k != FaceNetwork {
		t.Errorf("FaceKind(p) = %v, %t", k, ok)
	}
}

func TestCSConfig(t *testing.T) {
	r := newRig(t, Config{CSCapacity: 3})
	r.face("c", FaceLocal)
	r.face("p", FaceNetwork)
	r.route("/a", "p", 0)
	if got := r.f.CSConfig(); got != (CSConfig{Capacity: 3, Admit: true, Serve: true}) {
		t.Fatalf("initial CSConfig = %+v", got)
	}
	fill := func(at time.Duration, names ...string) {
		for i, n := range names {
			r.f.Receive(r.ids["c"], interest(n, uint32(at)+uint32(i)))
			r.f.Receive(r.ids["p"], data(n, time.Minute))
		}
		r.sent()
	}
	fill(0, "/a/1", "/a/2", "/a/3")
	r.f.Receive(r.ids["c"], interest("/a/1", 100)) // /a/1 becomes the most recently used
	if err := r.f.SetCSConfig(CSConfig{Capacity: 1, Admit: true, Serve: true}); err != nil {
		t.Fatal(err)
	}
	r.sent()
	r.run([]step{
		{at: 1 * ms, on: "c", pkt: interest("/a/1", 101), want: sent{"c": {"D /a/1"}}},
		{at: 2 * ms, on: "c", pkt: interest("/a/2", 102), want: sent{"p": {"I /a/2 nonce=102"}}, pit: 1},
		{at: 3 * ms, on: "p", pkt: data("/a/2", time.Minute), want: sent{"c": {"D /a/2"}}},
	})
	if n := r.f.Counters().CSSize; n != 1 {
		t.Errorf("CSSize %d after shrinking to 1", n)
	}
	if err := r.f.SetCSConfig(CSConfig{Capacity: 5, Admit: true, Serve: false}); err != nil {
		t.Fatal(err)
	}
	r.run([]step{ // not served: /a/2 is cached but the Interest goes upstream
		{at: 4 * ms, on: "c", pkt: interest("/a/2", 103), want: sent{"p": {"I /a/2 nonce=103"}}, pit: 1},
		{at: 5 * ms, on: "p", pkt: data("/a/2", time.Minute), want: sent{"c": {"D /a/2"}}},
	})
	if err := r.f.SetCSConfig(CSConfig{Capacity: 5, Admit: false, Serve: true}); err != nil {
		t.Fatal(err)
	}
	r.run([]step{ // not admitted: /a/4 never enters, /a/2 still answers
		{at: 6 * ms, on: "c", pkt: interest("/a/4", 104), want: sent{"p": {"I /a/4 nonce=104"}}, pit: 1},
		{at: 7 * ms, on: "p", pkt: data("/a/4", time.Minute), want: sent{"c": {"D /a/4"}}},
		{at: 8 * ms, on: "c", pkt: interest("/a/4", 105), want: sent{"p": {"I /a/4 nonce=105"}}, pit: 1},
		{at: 9 * ms, on: "c", pkt: interest("/a/2", 106), want: sent{"c": {"D /a/2"}}, pit: 1},
	})
	if err := r.f.SetCSConfig(CSConfig{Capacity: -1}); err == nil {
		t.Error("negative capacity accepted")
	}
}

func TestFIBAndStrategyChoices(t *testing.T) {
	r := newRig(t, Config{})
	a, b := r.face("a", FaceNetwork), r.face("b", FaceNetwork)
	r.route("/z", "a", 5)
	r.route("/a/b", "b", 1)
	r.route("/a/b", "a", 0)
	r.route("/a", "b", 3)
	r.f.RemoveRoute(name("/z"), a)
	fib := r.f.FIB()
	var got []string
	for _, e := range fib {
		s := e.Prefix.String() + ":"
		for _, nh := range e.NextHops {
			s += " " + string(rune('0'+nh.Face)) + "/" + string(rune('0'+nh.Cost))
		}
		got = append(got, s)
	}
	want := []string{"/a: 2/3", "/a/b: 1/0 2/1"}
	if !slices.Equal(got, want) || a != 1 || b != 2 {
		t.Errorf("FIB() = %q, want %q", got, want)
	}

	for _, sc := range []struct{ prefix, strategy string }{{"/a", StrategyMulticast}, {"/a/b", StrategyPCON}, {"/50=%01", StrategyPI}, {"/b", StrategyCF}} {
		if err := r.f.SetStrategy(name(sc.prefix), sc.strategy); err != nil {
			t.Fatal(err)
		}
	}
	choices := func() []string {
		var out []string
		for _, c := range r.f.StrategyChoices() {
			out = append(out, c.Prefix.String()+"="+c.Strategy)
		}
		return out
	}
	if got, want := choices(), []string{"/=best-route", "/a=multicast", "/a/b=pcon", "/b=cf", "/seg=1=pi"}; !slices.Equal(got, want) {
		t.Errorf("StrategyChoices() = %q, want %q", got, want)
	}
	if err := r.f.UnsetStrategy(name("/a/b")); err != nil {
		t.Fatal(err)
	}
	if s := r.f.StrategyFor(name("/a/b/c")); s != StrategyMulticast {
		t.Errorf("after unset, /a/b/c uses %s", s)
	}
	if err := r.f.UnsetStrategy(name("/")); err == nil {
		t.Error("unsetting the root's strategy succeeded")
	}
	if err := r.f.UnsetStrategy(name("/never/set")); err != nil {
		t.Errorf("unsetting an absent choice: %v", err)
	}
	if got, want := r.f.Strategies(), []string{"best-route", "cf", "multicast", "pcon", "pi"}; !slices.Equal(got, want) {
		t.Errorf("Strategies() = %q", got)
	}
}
