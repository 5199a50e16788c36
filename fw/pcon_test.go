package fw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// pconRig is a forwarder running pcon (with params p) with a consumer face
// c and upstreams p1, p2, ... for /a, cost 10, 20, ...
func pconRig(t *testing.T, p PCONParams, upstreams int) *rig {
	t.Helper()
	ctor, err := NewPCON(p)
	if err != nil {
		t.Fatalf("NewPCON: %v", err)
	}
	return upstreamRig(t, Config{DefaultStrategy: StrategyPCON, Strategies: map[string]StrategyConstructor{StrategyPCON: ctor}}, upstreams)
}

// shares returns the forwarding shares of /a by face name.
func (r *rig) shares() map[string]float64 {
	out := map[string]float64{}
	for n, v := range r.f.ForwardingShares(name("/a/x")) {
		for fn, id := range r.ids {
			if id == n {
				out[fn] = v
			}
		}
	}
	return out
}

func sameShares(got, want map[string]float64) bool {
	if len(got) != len(want) {
		return false
	}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-12 {
			return false
		}
	}
	return true
}

// pconEvent: at time at, Interest /a/<seq> arrives from c, then its Data
// from face from with CongestionMark mark.
type pconEvent struct {
	at   time.Duration
	from string
	mark uint64
}

func TestPCONSharesAfterMarks(t *testing.T) {
	quick := DefaultPCONParams()
	quick.QuietPeriod, quick.ShiftBack = 100*ms, 0.5
	for _, tc := range []struct {
		name      string
		params    PCONParams
		upstreams int
		events    []pconEvent
		want      map[string]float64
	}{{
		name: "start on the shortest path with probing shares", params: DefaultPCONParams(), upstreams: 3,
		events: []pconEvent{{at: 0, from: "p1"}},
		want:   map[string]float64{"p1": 0.998, "p2": 0.001, "p3": 0.001},
	}, {
		name: "one mark on the shortest path", params: DefaultPCONParams(), upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}},
		// p1 loses 0.02*0.999 = 0.01998
		want: map[string]float64{"p1": 0.97902, "p2": 0.02098},
	}, {
		name: "two marks on p1, one on p2", params: DefaultPCONParams(), upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 1 * ms, from: "p1", mark: 1}, {at: 2 * ms, from: "p2", mark: 1}},
		// p1: 0.97902 - 0.0195804 = 0.9594396; p2 then loses 0.02*0.0405604 = 0.000811208
		want: map[string]float64{"p1": 0.960250808, "p2": 0.039749192},
	}, {
		name: "the removed share is spread equally over the other faces", params: DefaultPCONParams(), upstreams: 3,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 1 * ms, from: "p3", mark: 1}},
		// p1 loses 0.01996 (0.00998 each to p2, p3); p3 then loses 0.0002196 (0.0001098 each)
		want: map[string]float64{"p1": 0.9781498, "p2": 0.0110898, "p3": 0.0107604},
	}, {
		name: "no face falls below the probing floor", params: DefaultPCONParams(), upstreams: 2,
		events: []pconEvent{{at: 0, from: "p2", mark: 1}},
		want:   map[string]float64{"p1": 0.999, "p2": 0.001},
	}, {
		name: "unmarked Data counts for nothing", params: DefaultPCONParams(), upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 1 * ms, from: "p1"}, {at: 2 * ms, from: "p2"}},
		want:   map[string]float64{"p1": 0.97902, "p2": 0.02098},
	}, {
		name: "no shift back within the quiet period", params: quick, upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 99 * ms, from: "p2"}},
		want:   map[string]float64{"p1": 0.97902, "p2": 0.02098},
	}, {
		name: "after the quiet period unmarked Data from a longer path shifts back", params: quick, upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 100 * ms, from: "p2"}, {at: 101 * ms, from: "p1"}},
		// p2 gives 0.5*(0.02098-0.001) = 0.00999 to p1; Data from p1 itself moves nothing
		want: map[string]float64{"p1": 0.98901, "p2": 0.01099},
	}, {
		name: "a mark restarts the quiet period", params: quick, upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 150 * ms, from: "p2", mark: 1}, {at: 200 * ms, from: "p2"}},
		// p2 loses 0.02*0.02098 = 0.0004196 at 150 ms; at 200 ms it is not quiet yet
		want: map[string]float64{"p1": 0.9794396, "p2": 0.0205604},
	}, {
		name: "default shift back", params: DefaultPCONParams(), upstreams: 2,
		events: []pconEvent{{at: 0, from: "p1", mark: 1}, {at: 2 * time.Second, from: "p2"}},
		// 0.0001*(0.02098-0.001) = 0.000001998
		want: map[string]float64{"p1": 0.979021998, "p2": 0.020978002},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := pconRig(t, tc.params, tc.upstreams)
			for i, ev := range tc.events {
				r.s.advanceTo(ev.at)
				n := fmt.Sprintf("/a/%d", i)
				r.f.Receive(r.ids["c"], interest(n, uint32(i+1)))
				r.f.Receive(r.ids[ev.from], marked(data(n, 0), ev.mark))
			}
			if got := r.shares(); !sameShares(got, tc.want) {
				t.Errorf("shares %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPCONSplitFollowsShares(t *testing.T) {
	r := pconRig(t, DefaultPCONParams(), 2)
	// Five marks on p1: p1 = 0.999*0.98^5 and p2 the rest.
	for i := range 5 {
		n := fmt.Sprintf("/a/m%d", i)
		r.f.Receive(r.ids["c"], interest(n, uint32(100+i)))
		r.f.Receive(r.ids["p1"], marked(data(n, 0), 1))
	}
	r.sent()
	// Smooth weighted round robin: after any k Interests, p1 has carried
	// k*s1 of them, give or take the credit left from before (under 2).
	s1 := 0.999 * math.Pow(0.98, 5)
	counts := map[string]int{}
	for i := range 200 {
		n := fmt.Sprintf("/a/%d", i)
		r.f.Receive(r.ids["c"], interest(n, uint32(i+1)))
		got := r.sent()
		if len(got) != 1 {
			t.Fatalf("Interest %d: sent %v, want it on one path", i, got)
		}
		for f := range got {
			counts[f]++
		}
		if dev := float64(counts["p1"]) - float64(i+1)*s1; math.Abs(dev) >= 2 {
			t.Fatalf("after %d Interests p1 carried %d, want %.1f ± 2", i+1, counts["p1"], float64(i+1)*s1)
		}
	}
	if counts["p2"] < 10 || counts["p1"] == 0 {
		t.Errorf("split %v: both paths should carry Interests, p2 about %.0f", counts, 200*(1-s1))
	}
}

func TestPCONForwarding(t *testing.T) {
	noProbe := DefaultPCONParams()
	noProbe.ProbeShare = 0 // p2 starts at 0: the first choice is always p1
	for _, tc := range []struct {
		name     string
		steps    []step
		counters Counters
		shares   map[string]float64
	}{{
		name: "a Nack is retried on a face not tried yet; its mark reaches the consumer on the Data",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: marked(nack(interest("/a/1", 1), ndn.NackCongestion), 1), want: sent{"p2": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 2 * ms, on: "p2", pkt: data("/a/1", 0), want: sent{"c": {"D /a/1 mark=1"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 2, InNacks: 1, InData: 1, OutData: 1, MarksForwarded: 1},
		shares:   map[string]float64{"p1": 0.98, "p2": 0.02}, // the marked Nack counted as a mark on p1
	}, {
		name: "once every upstream has Nacked, the consumer gets the Nack",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: nack(interest("/a/1", 1), ndn.NackNoRoute), want: sent{"p2": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 2 * ms, on: "p2", pkt: nack(interest("/a/1", 1), ndn.NackCongestion), want: sent{"c": {"N:Congestion /a/1 nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutInterests: 2, InNacks: 2, OutNacks: 1, DeadNonces: 2}, // one per out-record
		shares:   map[string]float64{"p1": 1, "p2": 0},
	}, {
		name: "marked Nacks move shares at most once per NackInterval",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 0, on: "c", pkt: interest("/a/2", 2), want: sent{"p1": {"I /a/2 nonce=2"}}, pit: 2},
			{at: 0, on: "c", pkt: interest("/a/3", 3), want: sent{"p1": {"I /a/3 nonce=3"}}, pit: 3},
			{at: 1 * ms, on: "p1", pkt: marked(nack(interest("/a/1", 1), ndn.NackCongestion), 1), want: sent{"p2": {"I /a/1 nonce=1"}}, pit: 3},
			{at: 110 * ms, on: "p1", pkt: marked(nack(interest("/a/2", 2), ndn.NackCongestion), 1), want: sent{"p2": {"I /a/2 nonce=2"}}, pit: 3},
			{at: 111 * ms, on: "p1", pkt: marked(nack(interest("/a/3", 3), ndn.NackCongestion), 1), want: sent{"p2": {"I /a/3 nonce=3"}}, pit: 3},
		},
		counters: Counters{InInterests: 3, OutInterests: 6, InNacks: 3, PITSize: 3},
		// p1: 1 -> 0.98 at 1 ms -> 0.9604 at 111 ms; the Nack at 110 ms came
		// 109 ms after the one that counted
		shares: map[string]float64{"p1": 0.9604, "p2": 0.0396},
	}, {
		name: "retransmissions are suppressed, then go to a face without a pending Interest",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 5 * ms, on: "c", pkt: interest("/a/1", 2), pit: 1},
			{at: 20 * ms, on: "c", pkt: interest("/a/1", 3), want: sent{"p2": {"I /a/1 nonce=3"}}, pit: 1},
			{at: 60 * ms, on: "c", pkt: interest("/a/1", 4), want: sent{"p1": {"I /a/1 nonce=4"}}, pit: 1},
		},
		counters: Counters{InInterests: 4, OutInterests: 3, SuppressedRetx: 1, PITSize: 1},
		shares:   map[string]float64{"p1": 1, "p2": 0},
	}, {
		name: "an Interest that expires unanswered counts as a mark on its upstream",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/a/1", 1, lifetime(100*ms)), want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 100 * ms},
		},
		counters: Counters{InInterests: 1, OutInterests: 1, UnsatisfiedExpiries: 1, DeadNonces: 1},
		shares:   map[string]float64{"p1": 0.98, "p2": 0.02},
	}, {
		name: "no route: Nack NoRoute",
		steps: []step{
			{at: 0, on: "c", pkt: interest("/b/1", 1), want: sent{"c": {"N:NoRoute /b/1 nonce=1"}}},
		},
		counters: Counters{InInterests: 1, OutNacks: 1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := pconRig(t, noProbe, 2)
			r.run(tc.steps)
			if got := r.f.Counters(); got != tc.counters {
				t.Errorf("counters\n got %+v\nwant %+v", got, tc.counters)
			}
			if got := r.shares(); tc.shares != nil && !sameShares(got, tc.shares) {
				t.Errorf("shares %v, want %v", got, tc.shares)
			}
		})
	}
}

// TestPCONExpiriesShareTheNackLimiter checks that expired Interests count
// as marks at most once per NackInterval for the prefix, through the same
// limiter as marked Nacks. Every Interest goes to p1 at time 0 (p2 starts
// at share 0); one that is to expire at T has lifetime T, one that is to be
// Nacked lives 10 s and gets a marked Congestion Nack from p1 at its time
// (it is then retried on p2, which never answers).
func TestPCONExpiriesShareTheNackLimiter(t *testing.T) {
	noProbe := DefaultPCONParams()
	noProbe.ProbeShare = 0
	burst := make([]time.Duration, 10) // 10 expiries within 110 ms
	for i := range burst {
		burst[i] = 100*ms + time.Duration(i)*ms
	}
	for _, tc := range []struct {
		name     string
		expiries []time.Duration
		nacks    []time.Duration
		retxAt   time.Duration // if positive, /a/e0 is retransmitted then and goes to p2
		want     map[string]float64
	}{{
		name: "a burst of 10 expiries lowers the share once", expiries: burst,
		want: map[string]float64{"p1": 0.98, "p2": 0.02},
	}, {
		name: "two expiries 120 ms apart lower it twice", expiries: []time.Duration{100 * ms, 220 * ms},
		want: map[string]float64{"p1": 0.9604, "p2": 0.0396},
	}, {
		name: "two expiries exactly NackInterval apart lower it twice", expiries: []time.Duration{100 * ms, 210 * ms},
		want: map[string]float64{"p1": 0.9604, "p2": 0.0396},
	}, {
		name: "two expiries 109 ms apart lower it once", expiries: []time.Duration{100 * ms, 209 * ms},
		want: map[string]float64{"p1": 0.98, "p2": 0.02},
	}, {
		// The window runs from the expiry that counted (100 ms), not from the
		// last one refused (109 ms).
		name: "a burst, then an expiry 110 ms after the burst's first", expiries: append(slices.Clone(burst), 210*ms),
		want: map[string]float64{"p1": 0.9604, "p2": 0.0396},
	}, {
		name: "an expiry 50 ms after a counted marked Nack does not count", expiries: []time.Duration{100 * ms}, nacks: []time.Duration{50 * ms},
		want: map[string]float64{"p1": 0.98, "p2": 0.02},
	}, {
		name: "a marked Nack 50 ms after a counted expiry does not count", expiries: []time.Duration{100 * ms}, nacks: []time.Duration{150 * ms},
		want: map[string]float64{"p1": 0.98, "p2": 0.02},
	}, {
		name: "a marked Nack NackInterval after a counted expiry counts", expiries: []time.Duration{100 * ms}, nacks: []time.Duration{210 * ms},
		want: map[string]float64{"p1": 0.9604, "p2": 0.0396},
	}, {
		// p1 loses 0.02 first, then p2 loses 0.02*0.02 = 0.0004 to p1.
		name: "one expiry counts on every upstream that left it unanswered", expiries: []time.Duration{100 * ms}, retxAt: 20 * ms,
		want: map[string]float64{"p1": 0.9804, "p2": 0.0196},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r := pconRig(t, noProbe, 2)
			nonce := uint32(0)
			for i, at := range tc.expiries {
				nonce++
				r.f.Receive(r.ids["c"], interest(fmt.Sprintf("/a/e%d", i), nonce, lifetime(at)))
			}
			for i := range tc.nacks {
				nonce++
				r.f.Receive(r.ids["c"], interest(fmt.Sprintf("/a/n%d", i), nonce, lifetime(10*time.Second)))
			}
			if got := r.sent(); len(got) != 1 || len(got["p1"]) != len(tc.expiries)+len(tc.nacks) {
				t.Fatalf("sent %v, want every Interest on p1", got)
			}
			if tc.retxAt > 0 {
				r.s.advanceTo(tc.retxAt)
				nonce++
				r.f.Receive(r.ids["c"], interest("/a/e0", nonce, lifetime(tc.expiries[0]-tc.retxAt)))
				if got := r.sent(); len(got) != 1 || len(got["p2"]) != 1 {
					t.Fatalf("retransmission sent %v, want it on p2", got)
				}
			}
			for i, at := range tc.nacks {
				r.s.advanceTo(at)
				r.f.Receive(r.ids["p1"], marked(nack(interest(fmt.Sprintf("/a/n%d", i), uint32(len(tc.expiries)+i+1)), ndn.NackCongestion), 1))
			}
			r.s.advanceTo(time.Second)
			if n := r.f.Counters().UnsatisfiedExpiries; n != uint64(len(tc.expiries)) {
				t.Errorf("%d unsatisfied expiries, want %d", n, len(tc.expiries))
			}
			if got := r.shares(); !sameShares(got, tc.want) {
				t.Errorf("shares %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPCONNexthopChanges(t *testing.T) {
	r := pconRig(t, DefaultPCONParams(), 2)
	r.f.Receive(r.ids["c"], interest("/a/1", 1))
	r.face("p3", FaceNetwork)
	r.route("/a", "p3", 5) // now the shortest path
	r.f.Receive(r.ids["c"], interest("/a/2", 2))
	// p1 and p2 keep their shares scaled by 0.999; p3 joins at the floor.
	want := map[string]float64{"p1": 0.999 * 0.999, "p2": 0.001 * 0.999, "p3": 0.001}
	if got := r.shares(); !sameShares(got, want) {
		t.Errorf("after adding p3: shares %v, want %v", got, want)
	}
	r.f.RemoveRoute(name("/a"), r.ids["p1"])
	r.f.Receive(r.ids["c"], interest("/a/3", 3))
	// p2 and p3 share 0.999*0.001 + 0.001 = 0.001999; rescaled to sum to 1.
	want = map[string]float64{"p2": 0.000999 / 0.001999, "p3": 0.001 / 0.001999}
	if got := r.shares(); !sameShares(got, want) {
		t.Errorf("after removing p1: shares %v, want %v", got, want)
	}
}

func TestForwardingSharesOnlyForPCON(t *testing.T) {
	r := newRig(t, Config{})
	r.face("c", FaceLocal)
	r.face("p1", FaceNetwork)
	r.route("/a", "p1", 0)
	r.f.Receive(r.ids["c"], interest("/a/1", 1))
	if got := r.f.ForwardingShares(name("/a")); got != nil {
		t.Errorf("best-route: ForwardingShares = %v, want nil", got)
	}
	if err := r.f.SetStrategy(name("/a"), StrategyPCON); err != nil {
		t.Fatal(err)
	}
	if got := r.f.ForwardingShares(name("/a")); got != nil {
		t.Errorf("pcon before any Interest: ForwardingShares = %v, want nil", got)
	}
	r.f.Receive(r.ids["c"], interest("/a/2", 2))
	if got := r.f.ForwardingShares(name("/a/2")); len(got) != 1 || got[r.ids["p1"]] != 1 {
		t.Errorf("pcon, one nexthop: ForwardingShares = %v, want {p1: 1}", got)
	}
	if got := r.f.ForwardingShares(name("/b")); got != nil {
		t.Errorf("no route: ForwardingShares = %v, want nil", got)
	}
}

func TestParsePCONParams(t *testing.T) {
	for _, tc := range []struct {
		in      map[string]string
		want    PCONParams
		wantErr bool
	}{
		{in: nil, want: DefaultPCONParams()},
		{in: map[string]string{"change-per-mark": "0.05", "probe-share": "0", "quiet-period": "500ms", "shift-back": "0", "nack-interval": "0s"},
			want: PCONParams{ChangePerMark: 0.05, QuietPeriod: 500 * ms}},
		{in: map[string]string{"change-per-mark": "0"}, wantErr: true},
		{in: map[string]string{"probe-share": "1"}, wantErr: true},
		{in: map[string]string{"quiet-period": "2"}, wantErr: true},
		{in: map[string]string{"speed": "1"}, wantErr: true},
	} {
		got, err := ParsePCONParams(tc.in)
		if (err != nil) != tc.wantErr {
			t.Errorf("ParsePCONParams(%v): error %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if err == nil && got != tc.want {
			t.Errorf("ParsePCONParams(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	if _, err := NewPCON(PCONParams{}); err == nil {
		t.Error("NewPCON(zero params): no error")
	}
}

// BenchmarkMultipathInterestData sends one Interest and its (every fourth
// marked) Data through a forwarder whose strategy splits /bench over two
// upstreams: the per-packet cost of the multipath strategies.
func BenchmarkMultipathInterestData(b *testing.B) {
	for _, strategy := range []string{StrategyBestRoute, StrategyPCON, StrategyPI, StrategyCF} {
		b.Run(strategy, func(b *testing.B) {
			s := &fakeSched{}
			f, err := New(Config{DefaultStrategy: strategy}, s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			c, p1, p2 := &discardFace{}, &discardFace{}, &discardFace{}
			cid := f.AddFace(c, FaceLocal)
			pids := []FaceID{f.AddFace(p1, FaceNetwork), f.AddFace(p2, FaceNetwork)}
			f.AddRoute(name("/bench"), pids[0], 10)
			f.AddRoute(name("/bench"), pids[1], 20)
			is, ds := benchPackets(4096)
			for j := range ds {
				ds[j].CongestionMark = uint64(j % 4 / 3)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				j := i % len(is)
				f.Receive(cid, is[j])
				f.Receive(pids[i%2], ds[j])
			}
			b.StopTimer()
			if c.n != b.N {
				b.Fatalf("consumer got %d Data, want %d", c.n, b.N)
			}
		})
	}
}
