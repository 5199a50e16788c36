package fw

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// llEnd is one end of a scripted link: its shim, the IDLE packets it sent
// and the names of the frames it reported lost, with when.
type llEnd struct {
	l    *LinkLoss
	idle []ndn.Packet
	lost []string
}

func newLLEnd(t *testing.T, s *fakeSched, cfg LinkLossConfig) *llEnd {
	t.Helper()
	e := &llEnd{}
	l, err := NewLinkLoss(cfg, s,
		func(p ndn.Packet) { e.idle = append(e.idle, p) },
		func(p ndn.Packet) { e.lost = append(e.lost, fmt.Sprintf("%s@%v", p.Name(), s.Now())) })
	if err != nil {
		t.Fatalf("NewLinkLoss: %v", err)
	}
	e.l = l
	return e
}

// frame returns an Interest frame named /f/<i>.
func frame(i int) ndn.Packet {
	return ndn.Packet{Interest: &ndn.Interest{Name: name(fmt.Sprintf("/f/%d", i)), Nonce: uint32(i)}}
}

// takeIdle returns and forgets the IDLE packets e sent.
func (e *llEnd) takeIdle() []ndn.Packet {
	p := e.idle
	e.idle = nil
	return p
}

func TestLinkLossDetection(t *testing.T) {
	for _, tc := range []struct {
		name     string
		arrivals []int    // frames 1..6 (sent at 0) that reach B at 10 ms, in order
		wantGap  []string // reported once B's acks reach A at 25 ms
		wantAll  []string // reported by 1 s
		stats    LinkLossStats
	}{{
		name:     "no loss",
		arrivals: []int{1, 2, 3, 4, 5, 6},
		stats:    LinkLossStats{Sent: 6, Acked: 6},
	}, {
		name:     "one frame lost: three later acks expose it",
		arrivals: []int{1, 2, 4, 5, 6},
		wantGap:  []string{"/f/3@25ms"},
		stats:    LinkLossStats{Sent: 6, Acked: 5, LostByGap: 1},
	}, {
		name:     "the first frame lost",
		arrivals: []int{2, 3, 4, 5, 6},
		wantGap:  []string{"/f/1@25ms"},
		stats:    LinkLossStats{Sent: 6, Acked: 5, LostByGap: 1},
	}, {
		name:     "reordered by one frame: no loss",
		arrivals: []int{1, 3, 2, 4, 5, 6},
		stats:    LinkLossStats{Sent: 6, Acked: 6},
	}, {
		name:     "reordered by two frames, the allowance: no loss",
		arrivals: []int{1, 3, 4, 2, 5, 6},
		stats:    LinkLossStats{Sent: 6, Acked: 6},
	}, {
		name:     "reordered by three frames: reported, its late ack ignored",
		arrivals: []int{1, 3, 4, 5, 2, 6},
		wantGap:  []string{"/f/2@25ms"},
		stats:    LinkLossStats{Sent: 6, Acked: 5, LostByGap: 1, LateAcks: 1},
	}, {
		name:     "two lost: the one with three later acks at once, the other by timeout",
		arrivals: []int{1, 3, 5, 6},
		wantGap:  []string{"/f/2@25ms"},
		// 4 acked frames sent at 0, acked at 25 ms: SRTT 25 ms, RTTVAR 12.5
		// then x0.75 three times = 5.2734375 ms: timeout 46.09375 ms
		wantAll: []string{"/f/2@25ms", "/f/4@46.09375ms"},
		stats:   LinkLossStats{Sent: 6, Acked: 4, LostByGap: 1, LostByTimeout: 1},
	}, {
		name:     "the last frames lost: only the timeout finds them",
		arrivals: []int{1, 2, 3, 4},
		wantAll:  []string{"/f/5@46.09375ms", "/f/6@46.09375ms"},
		stats:    LinkLossStats{Sent: 6, Acked: 4, LostByTimeout: 2},
	}, {
		name:    "everything lost: the initial timeout",
		wantAll: []string{"/f/1@200ms", "/f/2@200ms", "/f/3@200ms", "/f/4@200ms", "/f/5@200ms", "/f/6@200ms"},
		stats:   LinkLossStats{Sent: 6, LostByTimeout: 6},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := &fakeSched{}
			a, b := newLLEnd(t, s, DefaultLinkLossConfig()), newLLEnd(t, s, DefaultLinkLossConfig())
			sent := map[int]ndn.Packet{}
			for i := 1; i <= 6; i++ {
				p := frame(i)
				a.l.OnSend(&p)
				if p.TxSeq != uint64(i) {
					t.Fatalf("frame %d got TxSeq %d", i, p.TxSeq)
				}
				sent[i] = p
			}
			s.advanceTo(10 * ms)
			for _, i := range tc.arrivals {
				if !b.l.OnReceive(sent[i]) {
					t.Errorf("frame %d not delivered", i)
				}
			}
			s.advanceTo(15 * ms) // B's ack delay: one IDLE with every ack
			idle := b.takeIdle()
			if len(tc.arrivals) > 0 {
				if len(idle) != 1 || !slices.Equal(idle[0].Acks, toSeqs(tc.arrivals)) {
					t.Fatalf("B's IDLE packets %v, want one acking %v", idle, tc.arrivals)
				}
			}
			s.advanceTo(25 * ms)
			for _, p := range idle {
				if a.l.OnReceive(p) {
					t.Error("an IDLE packet was delivered")
				}
			}
			if !slices.Equal(a.lost, tc.wantGap) {
				t.Errorf("lost at 25 ms: %v, want %v", a.lost, tc.wantGap)
			}
			s.advanceTo(time.Second)
			wantAll := tc.wantAll
			if wantAll == nil {
				wantAll = tc.wantGap
			}
			if !slices.Equal(a.lost, wantAll) {
				t.Errorf("lost by 1 s: %v, want %v", a.lost, wantAll)
			}
			if got := a.l.Stats(); got != tc.stats {
				t.Errorf("A's stats\n got %+v\nwant %+v", got, tc.stats)
			}
			if n := a.l.Unacked(); n != 0 {
				t.Errorf("A still waits for %d acks", n)
			}
		})
	}
}

func toSeqs(xs []int) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = uint64(x)
	}
	return out
}

func TestLinkLossAcks(t *testing.T) {
	cfg := DefaultLinkLossConfig()
	cfg.MaxAcks = 2
	s := &fakeSched{}
	a, b := newLLEnd(t, s, cfg), newLLEnd(t, s, cfg)
	send := func(e *llEnd, p ndn.Packet) ndn.Packet { e.l.OnSend(&p); return p }

	// A frame's ack rides on the next packet B sends; no IDLE follows.
	s.advanceTo(10 * ms)
	b.l.OnReceive(send(a, frame(1)))
	s.advanceTo(12 * ms)
	rev := send(b, frame(100))
	if rev.TxSeq != 1 || !slices.Equal(rev.Acks, []uint64{1}) {
		t.Errorf("reverse packet TxSeq %d Acks %v, want 1 and [1]", rev.TxSeq, rev.Acks)
	}
	s.advanceTo(20 * ms)
	if idle := b.takeIdle(); len(idle) != 0 || b.l.PendingAcks() != 0 {
		t.Errorf("IDLE packets %v, pending %d after a piggybacked ack", idle, b.l.PendingAcks())
	}

	// Without reverse traffic the ack leaves in an IDLE after AckDelay.
	b.l.OnReceive(send(a, frame(2)))
	s.advanceTo(24 * ms)
	if idle := b.takeIdle(); len(idle) != 0 {
		t.Errorf("IDLE before the ack delay: %v", idle)
	}
	s.advanceTo(25 * ms)
	if idle := b.takeIdle(); len(idle) != 1 || !slices.Equal(idle[0].Acks, []uint64{2}) || idle[0].TxSeq != 0 {
		t.Errorf("IDLE packets at 25 ms %v, want one acking [2] with no TxSeq", idle)
	}

	// MaxAcks waiting acks leave at once; a packet carries at most MaxAcks.
	for i := 3; i <= 5; i++ {
		b.l.OnReceive(send(a, frame(i)))
	}
	if idle := b.takeIdle(); len(idle) != 1 || !slices.Equal(idle[0].Acks, []uint64{3, 4}) {
		t.Errorf("IDLE packets on the second waiting ack: %v, want one acking [3 4]", idle)
	}
	idle := ndn.Packet{Acks: []uint64{9}}
	b.l.OnSend(&idle) // an IDLE packet takes acks up to MaxAcks, and no TxSeq
	if idle.TxSeq != 0 || !slices.Equal(idle.Acks, []uint64{9, 5}) {
		t.Errorf("IDLE after OnSend: TxSeq %d Acks %v, want 0 and [9 5]", idle.TxSeq, idle.Acks)
	}

	// A frame received twice is acked twice, delivered once.
	f6 := send(a, frame(6))
	if !b.l.OnReceive(f6) || b.l.OnReceive(f6) {
		t.Error("duplicate frame: want delivered once")
	}
	want := LinkLossStats{Sent: 1, Received: 7, Duplicates: 1, AcksSent: 7, IdlePackets: 3}
	if got := b.l.Stats(); got != want {
		t.Errorf("B's stats\n got %+v\nwant %+v", got, want)
	}
}

func TestLinkLossWindow(t *testing.T) {
	cfg := DefaultLinkLossConfig()
	cfg.Window = 4
	s := &fakeSched{}
	a := newLLEnd(t, s, cfg)
	for i := 1; i <= 6; i++ {
		p := frame(i)
		a.l.OnSend(&p)
	}
	if n := a.l.Unacked(); n != 4 {
		t.Errorf("Unacked %d, want 4", n)
	}
	s.advanceTo(time.Second)
	want := []string{"/f/3@200ms", "/f/4@200ms", "/f/5@200ms", "/f/6@200ms"}
	if !slices.Equal(a.lost, want) {
		t.Errorf("lost %v, want %v (the first two were forgotten)", a.lost, want)
	}
	if st := a.l.Stats(); st.Evicted != 2 || st.LostByTimeout != 4 {
		t.Errorf("stats %+v, want 2 evicted, 4 lost by timeout", st)
	}
}

func TestLinkLossTimeoutBacksOff(t *testing.T) {
	s := &fakeSched{}
	a := newLLEnd(t, s, DefaultLinkLossConfig())
	p := frame(1)
	a.l.OnSend(&p)
	s.advanceTo(300 * ms)
	p = frame(2)
	a.l.OnSend(&p) // the timeout is 400 ms now
	s.advanceTo(699 * ms)
	if want := []string{"/f/1@200ms"}; !slices.Equal(a.lost, want) {
		t.Errorf("lost by 699 ms: %v, want %v", a.lost, want)
	}
	s.advanceTo(700 * ms)
	if want := []string{"/f/1@200ms", "/f/2@700ms"}; !slices.Equal(a.lost, want) {
		t.Errorf("lost by 700 ms: %v, want %v", a.lost, want)
	}
}

func TestLinkLossConfigValidate(t *testing.T) {
	if err := DefaultLinkLossConfig().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, mutate := range []func(*LinkLossConfig){
		func(c *LinkLossConfig) { c.AckDelay = 0 },
		func(c *LinkLossConfig) { c.LossThreshold = 0 },
		func(c *LinkLossConfig) { c.Window = 0 },
		func(c *LinkLossConfig) { c.MaxAcks = 0 },
		func(c *LinkLossConfig) { c.AckTimeout.MinRTO = 0 },
	} {
		c := DefaultLinkLossConfig()
		mutate(&c)
		if _, err := NewLinkLoss(c, &fakeSched{}, func(ndn.Packet) {}, func(ndn.Packet) {}); err == nil {
			t.Errorf("config %+v: no error", c)
		}
	}
}

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
		name:     "a lost Nack: nothing",
		setup:    []step{{at: 0, on: "c", pkt: interest("/b/1", 1), want: sent{"c": {"N:NoRoute /b/1 nonce=1"}}}},
		fail:     report{"c", nack(interest("/b/1", 1), ndn.NackNoRoute), CauseLinkLoss},
		counters: Counters{InInterests: 1, OutNacks: 1, UnmatchedLosses: 1, CSMisses: 1},
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
// with a LinkLoss at each end: 10 ms delay, and drop decides what is lost
// on the wire.
type lossyLink struct {
	s        *fakeSched
	from, to *LinkLoss
	peer     *Forwarder
	peerFace FaceID
	drop     func(p ndn.Packet) bool
}

func (l *lossyLink) Send(p ndn.Packet) {
	l.from.OnSend(&p)
	if l.drop(p) {
		return
	}
	l.s.After(10*ms, func() {
		if l.to.OnReceive(p) {
			l.peer.Receive(l.peerFace, p)
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
	cfg := DefaultLinkLossConfig()
	var err error
	if d2u.from, err = NewLinkLoss(cfg, s, d2u.Send, func(p ndn.Packet) { fd.OnSendFailure(dFace, p, CauseLinkLoss) }); err != nil {
		t.Fatal(err)
	}
	if u2d.from, err = NewLinkLoss(cfg, s, u2d.Send, func(p ndn.Packet) { fu.OnSendFailure(uFace, p, CauseLinkLoss) }); err != nil {
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

// BenchmarkLinkLoss moves frames from A to B and B's acks back on reverse
// frames, one frame each way per iteration: OnSend and OnReceive on both
// ends, no loss.
func BenchmarkLinkLoss(b *testing.B) {
	s := &fakeSched{}
	cfg := DefaultLinkLossConfig()
	nop := func(ndn.Packet) {}
	a, err := NewLinkLoss(cfg, s, nop, nop)
	if err != nil {
		b.Fatal(err)
	}
	bb, err := NewLinkLoss(cfg, s, nop, nop)
	if err != nil {
		b.Fatal(err)
	}
	is, ds := benchPackets(1024)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		p := is[i%len(is)]
		a.OnSend(&p)
		bb.OnReceive(p)
		d := ds[i%len(ds)]
		bb.OnSend(&d)
		a.OnReceive(d)
		s.AdvanceTo(s.Now() + 100*time.Microsecond)
	}
	b.StopTimer()
	if st := a.Stats(); st.Acked != uint64(b.N) {
		b.Fatalf("A: %d of %d frames acked", st.Acked, b.N)
	}
}
