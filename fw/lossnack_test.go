package fw

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// failFace records what is sent on it and reports Interests (not Nacks)
// as dropped by its queue at once, from within Send.
type failFace struct {
	recFace
	f  *Forwarder
	id FaceID
}

func (x *failFace) Send(p ndn.Packet) {
	x.recFace.Send(p)
	if p.Interest != nil && !p.IsNack() {
		x.f.OnSendFailure(x.id, p, CauseQueueDrop)
	}
}

func TestOnSendFailure(t *testing.T) {
	type report struct {
		face  string
		pkt   ndn.Packet
		cause LossCause
	}
	it1 := interest("/a/1", 1)
	d1 := data("/a/1", time.Second) // the forwarder caches and resends this very *Data
	for _, tc := range []struct {
		name     string
		strategy string
		setup    []step
		fail     report
		want     sent
		counters Counters
	}{{
		name:     "a lost Interest: unmarked Nack Congestion to the consumer",
		setup:    []step{{at: 0, on: "c", pkt: it1, want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1}},
		fail:     report{"p1", it1, CauseLinkLoss},
		want:     sent{"c": {"N:Congestion /a/1 nonce=1"}},
		counters: Counters{InInterests: 1, OutInterests: 1, OutNacks: 1, LostInterests: 1, DeadNonces: 1, CSMisses: 1},
	}, {
		name:  "an Interest dropped by the queue: marked Nack",
		setup: []step{{at: 0, on: "c", pkt: it1, want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1}},
		fail:  report{"p1", it1, CauseQueueDrop},
		want:  sent{"c": {"N:Congestion /a/1 nonce=1 mark=1"}},
		counters: Counters{InInterests: 1, OutInterests: 1, OutNacks: 1, LostInterests: 1,
			MarksForwarded: 1, DeadNonces: 1, CSMisses: 1},
	}, {
		name: "a lost Interest whose nonce is not the one last sent on that face: nothing",
		setup: []step{
			{at: 0, on: "c", pkt: it1, want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 50 * ms, on: "c", pkt: interest("/a/1", 2), want: sent{"p2": {"I /a/1 nonce=2"}}, pit: 1},
		},
		fail:     report{"p2", it1, CauseLinkLoss},
		counters: Counters{InInterests: 2, OutInterests: 2, UnmatchedLosses: 1, PITSize: 1, CSMisses: 1},
	}, {
		name:     "a lost Nack is sent again",
		setup:    []step{{at: 0, on: "c", pkt: interest("/b/1", 1), want: sent{"c": {"N:NoRoute /b/1 nonce=1"}}}},
		fail:     report{"c", nack(interest("/b/1", 1), ndn.NackNoRoute), CauseLinkLoss},
		want:     sent{"c": {"N:NoRoute /b/1 nonce=1"}},
		counters: Counters{InInterests: 1, OutNacks: 2, LostNacks: 1, CSMisses: 1},
	}, {
		name:     "pcon retries a lost Interest on another path",
		strategy: StrategyPCON,
		setup:    []step{{at: 0, on: "c", pkt: it1, want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1}},
		fail:     report{"p1", it1, CauseLinkLoss},
		want:     sent{"p2": {"I /a/1 nonce=1"}},
		counters: Counters{InInterests: 1, OutInterests: 2, LostInterests: 1, PITSize: 1, CSMisses: 1},
	}, {
		name: "a lost Data: Nack Congestion on that face for the Interest it answered",
		setup: []step{
			{at: 0, on: "d", pkt: interest("/a/1", 7), want: sent{"p1": {"I /a/1 nonce=7"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: d1, want: sent{"d": {"D /a/1"}}},
		},
		fail: report{"d", d1, CauseLinkLoss},
		want: sent{"d": {"N:Congestion /a/1 nonce=7"}},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, OutData: 1, OutNacks: 1, LostData: 1,
			CSMisses: 1, CSSize: 1},
	}, {
		name: "a lost Data from the Content Store, dropped by the queue: marked Nack",
		setup: []step{
			{at: 0, on: "c", pkt: it1, want: sent{"p1": {"I /a/1 nonce=1"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: d1, want: sent{"c": {"D /a/1"}}},
			{at: 2 * ms, on: "d", pkt: interest("/a/1", 9), want: sent{"d": {"D /a/1"}}},
		},
		fail: report{"d", d1, CauseQueueDrop},
		want: sent{"d": {"N:Congestion /a/1 nonce=9 mark=1"}},
		counters: Counters{InInterests: 2, OutInterests: 1, InData: 1, OutData: 2, CSHits: 1, CSMisses: 1, CSSize: 1,
			OutNacks: 1, LostData: 1, MarksForwarded: 1},
	}, {
		name: "a lost Data is matched by identity: another Data of that name is unknown",
		setup: []step{
			{at: 0, on: "d", pkt: interest("/a/1", 7), want: sent{"p1": {"I /a/1 nonce=7"}}, pit: 1},
			{at: 1 * ms, on: "p1", pkt: d1, want: sent{"d": {"D /a/1"}}},
		},
		fail:     report{"d", data("/a/1", time.Second), CauseLinkLoss},
		counters: Counters{InInterests: 1, OutInterests: 1, InData: 1, OutData: 1, UnmatchedLosses: 1, CSMisses: 1, CSSize: 1},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			strategy := tc.strategy
			if strategy == "" {
				strategy = StrategyBestRoute
			}
			noProbe := DefaultPCONParams()
			noProbe.ProbeShare = 0 // pcon's first choice is p1
			pc, err := NewPCON(noProbe)
			if err != nil {
				t.Fatal(err)
			}
			r := newRig(t, Config{DefaultStrategy: strategy, CSCapacity: 10, Strategies: map[string]StrategyConstructor{StrategyPCON: pc}})
			r.face("c", FaceLocal)
			r.face("d", FaceNetwork)
			r.face("p1", FaceNetwork)
			r.face("p2", FaceNetwork)
			r.route("/a", "p1", 10)
			r.route("/a", "p2", 20)
			if err := r.f.EnableLossNacks(r.ids["d"], 4); err != nil {
				t.Fatal(err)
			}
			r.run(tc.setup)
			r.f.OnSendFailure(r.ids[tc.fail.face], tc.fail.pkt, tc.fail.cause)
			if got := r.sent(); !equalSent(got, orEmpty(tc.want)) {
				t.Errorf("sent %v, want %v", got, tc.want)
			}
			if got := r.f.Counters(); got != tc.counters {
				t.Errorf("counters\n got %+v\nwant %+v", got, tc.counters)
			}
		})
	}
}

func orEmpty(s sent) sent {
	if s == nil {
		return sent{}
	}
	return s
}

func TestOnSendFailureLostDataNacked(t *testing.T) {
	r := newRig(t, Config{})
	r.face("d", FaceNetwork)
	r.face("p1", FaceNetwork)
	r.route("/a", "p1", 0)
	if err := r.f.EnableLossNacks(r.ids["d"], 2); err != nil {
		t.Fatal(err)
	}
	// Three Data go to d; the ring remembers the last two.
	for i := 1; i <= 3; i++ {
		n := fmt.Sprintf("/a/%d", i)
		r.f.Receive(r.ids["d"], interest(n, uint32(10+i)))
		r.f.Receive(r.ids["p1"], data(n, 0))
	}
	ds := r.faces["d"].sent
	lost := []ndn.Packet{ds[0], ds[1], ds[2]}
	r.sent()
	for _, p := range lost {
		r.f.OnSendFailure(r.ids["d"], p, CauseLinkLoss)
	}
	want := sent{"d": {"N:Congestion /a/2 nonce=12", "N:Congestion /a/3 nonce=13"}}
	if got := r.sent(); !equalSent(got, want) {
		t.Errorf("sent %v, want %v", got, want)
	}
	if c := r.f.Counters(); c.LostData != 2 || c.UnmatchedLosses != 1 {
		t.Errorf("LostData %d UnmatchedLosses %d, want 2 and 1", c.LostData, c.UnmatchedLosses)
	}
	if err := r.f.EnableLossNacks(FaceID(99), 0); err == nil {
		t.Error("EnableLossNacks on no face: no error")
	}
}

func TestOnSendFailureFromWithinSend(t *testing.T) {
	r := newRig(t, Config{})
	r.face("c", FaceLocal)
	ff := &failFace{f: r.f}
	ff.id = r.f.AddFace(ff, FaceNetwork)
	r.f.AddRoute(name("/a"), ff.id, 0)
	r.f.Receive(r.ids["c"], interest("/a/1", 1))
	if got, want := r.sent(), (sent{"c": {"N:Congestion /a/1 nonce=1 mark=1"}}); !equalSent(got, want) {
		t.Errorf("consumer got %v, want %v", got, want)
	}
	if c := r.f.Counters(); c.PITSize != 0 || c.LostInterests != 1 {
		t.Errorf("counters %+v", c)
	}
}

// lossyLink is one direction of a scripted link between two forwarders,
// with the link layer's Reliability at each end: 10 ms delay, and drop
// decides what is lost on the wire.
type lossyLink struct {
	s        *fakeSched
	from, to *link.Reliability
	peer     *Forwarder
	peerFace FaceID
	drop     func(p ndn.Packet) bool
}

func (l *lossyLink) Send(p ndn.Packet) { l.sendFrame(link.Frame{Pkt: p}) }

func (l *lossyLink) sendFrame(f link.Frame) {
	l.from.OnSend(&f)
	if l.drop(f.Pkt) {
		return
	}
	l.s.After(10*ms, func() {
		if l.to.OnReceive(f) {
			l.peer.Receive(l.peerFace, f.Pkt)
		}
	})
}

// TestLinkLossNacksEndToEnd wires consumer — D —lossy link— U — producer as
// the simulator would, loses one Interest and one Data on the link, and
// checks that the consumer gets an unmarked Nack for each.
func TestLinkLossNacksEndToEnd(t *testing.T) {
	s := &fakeSched{}
	newFW := func(n string) *Forwarder {
		f, err := New(Config{Name: n}, s, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	fd, fu := newFW("D"), newFW("U")
	dropped := map[string]bool{}
	lose := func(p ndn.Packet) bool { // each named packet once
		if p.Interest == nil && p.Data == nil {
			return false // IDLE
		}
		key := describe(p)
		if (key == "I /a/1 nonce=1" || key == "D /a/2") && !dropped[key] {
			dropped[key] = true
			return true
		}
		return false
	}
	d2u := &lossyLink{s: s, peer: fu, drop: lose}
	u2d := &lossyLink{s: s, peer: fd, drop: lose}
	dFace := fd.AddFace(d2u, FaceNetwork)
	uFace := fu.AddFace(u2d, FaceNetwork)
	d2u.peerFace, u2d.peerFace = uFace, dFace
	cfg := link.DefaultReliabilityConfig()
	var err error
	if d2u.from, err = link.NewReliability(cfg, s, d2u.sendFrame, func(p ndn.Packet) { fd.OnSendFailure(dFace, p, CauseLinkLoss) }); err != nil {
		t.Fatal(err)
	}
	if u2d.from, err = link.NewReliability(cfg, s, u2d.sendFrame, func(p ndn.Packet) { fu.OnSendFailure(uFace, p, CauseLinkLoss) }); err != nil {
		t.Fatal(err)
	}
	d2u.to, u2d.to = u2d.from, d2u.from
	if err := fd.EnableLossNacks(dFace, cfg.Window); err != nil {
		t.Fatal(err)
	}
	if err := fu.EnableLossNacks(uFace, cfg.Window); err != nil {
		t.Fatal(err)
	}
	consumer := &timedFace{}
	cFace := fd.AddFace(consumer, FaceLocal)
	producer := &recFace{}
	pFace := fu.AddFace(producer, FaceLocal)
	fd.AddRoute(name("/a"), dFace, 0)
	fu.AddRoute(name("/a"), pFace, 0)

	fd.Receive(cFace, interest("/a/1", 1)) // lost on the wire
	fd.Receive(cFace, interest("/a/2", 2)) // its Data is lost on the wire
	s.advanceTo(20 * ms)
	if got := describeAll(producer.sent); !slices.Equal(got, []string{"I /a/2 nonce=2"}) {
		t.Fatalf("producer got %v", got)
	}
	// U acked /a/2 in an IDLE at 15 ms (so that the ack is not lost with
	// the Data); it reaches D at 25 ms: sample 25 ms, timeout 25+4*12.5 =
	// 75 ms, so D reports /a/1 (sent at 0) at 75 ms. U sends the Data at
	// 20 ms with no sample of its own: reported at 220 ms, and U's Nack
	// reaches D, which still has the PIT entry, at 230 ms.
	fu.Receive(pFace, data("/a/2", 0))
	got := map[time.Duration]string{}
	consumer.onSend = func(p ndn.Packet) { got[s.Now()] = describe(p) }
	s.advanceTo(time.Second)
	want := map[time.Duration]string{75 * ms: "N:Congestion /a/1 nonce=1", 230 * ms: "N:Congestion /a/2 nonce=2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("consumer got %v, want %v", got, want)
	}
	if c := fd.Counters(); c.LostInterests != 1 || c.PITSize != 0 || c.OutNacks != 2 {
		t.Errorf("D's counters %+v", c)
	}
	if c := fu.Counters(); c.LostData != 1 || c.OutNacks != 1 {
		t.Errorf("U's counters %+v", c)
	}
}

// timedFace calls onSend for each packet sent on it.
type timedFace struct{ onSend func(ndn.Packet) }

func (f *timedFace) Send(p ndn.Packet) {
	if f.onSend != nil {
		f.onSend(p)
	}
}

func describeAll(ps []ndn.Packet) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = describe(p)
	}
	return out
}
