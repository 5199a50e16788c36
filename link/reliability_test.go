package link

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
)

const ms = time.Millisecond

// name parses an NDN name, which the test knows to be valid.
func name(s string) ndn.Name {
	n, err := ndn.ParseName(s)
	if err != nil {
		panic(err)
	}
	return n
}

// llEnd is one end of a scripted link: its Reliability, the IDLE frames it
// sent and the names of the frames it reported lost, with when.
type llEnd struct {
	l    *Reliability
	idle []Frame
	lost []string
}

func newLLEnd(t *testing.T, s *vclock.Scheduler, cfg ReliabilityConfig) *llEnd {
	t.Helper()
	e := &llEnd{}
	l, err := NewReliability(cfg, s,
		func(f Frame) { e.idle = append(e.idle, f) },
		func(p ndn.Packet) { e.lost = append(e.lost, fmt.Sprintf("%s@%v", p.Name(), s.Now())) })
	if err != nil {
		t.Fatalf("NewReliability: %v", err)
	}
	e.l = l
	return e
}

// frame returns a frame carrying an Interest named /f/<i>.
func frame(i int) Frame {
	return Frame{Pkt: ndn.Packet{Interest: &ndn.Interest{Name: name(fmt.Sprintf("/f/%d", i)), Nonce: uint32(i)}}}
}

// takeIdle returns and forgets the IDLE frames e sent.
func (e *llEnd) takeIdle() []Frame {
	p := e.idle
	e.idle = nil
	return p
}

func TestReliabilityDetection(t *testing.T) {
	for _, tc := range []struct {
		name     string
		arrivals []int    // frames 1..6 (sent at 0) that reach B at 10 ms, in order
		wantGap  []string // reported once B's acks reach A at 25 ms
		wantAll  []string // reported by 1 s
		stats    ReliabilityStats
	}{{
		name:     "no loss",
		arrivals: []int{1, 2, 3, 4, 5, 6},
		stats:    ReliabilityStats{Sent: 6, Acked: 6},
	}, {
		name:     "one frame lost: three later acks expose it",
		arrivals: []int{1, 2, 4, 5, 6},
		wantGap:  []string{"/f/3@25ms"},
		stats:    ReliabilityStats{Sent: 6, Acked: 5, LostByGap: 1},
	}, {
		name:     "the first frame lost",
		arrivals: []int{2, 3, 4, 5, 6},
		wantGap:  []string{"/f/1@25ms"},
		stats:    ReliabilityStats{Sent: 6, Acked: 5, LostByGap: 1},
	}, {
		name:     "reordered by one frame: no loss",
		arrivals: []int{1, 3, 2, 4, 5, 6},
		stats:    ReliabilityStats{Sent: 6, Acked: 6},
	}, {
		name:     "reordered by two frames, the allowance: no loss",
		arrivals: []int{1, 3, 4, 2, 5, 6},
		stats:    ReliabilityStats{Sent: 6, Acked: 6},
	}, {
		name:     "reordered by three frames: reported, its late ack ignored",
		arrivals: []int{1, 3, 4, 5, 2, 6},
		wantGap:  []string{"/f/2@25ms"},
		stats:    ReliabilityStats{Sent: 6, Acked: 5, LostByGap: 1, LateAcks: 1},
	}, {
		name:     "two lost: the one with three later acks at once, the other by timeout",
		arrivals: []int{1, 3, 5, 6},
		wantGap:  []string{"/f/2@25ms"},
		// 4 acked frames sent at 0, acked at 25 ms: SRTT 25 ms, RTTVAR 12.5
		// then x0.75 three times = 5.2734375 ms: timeout 46.09375 ms
		wantAll: []string{"/f/2@25ms", "/f/4@46.09375ms"},
		stats:   ReliabilityStats{Sent: 6, Acked: 4, LostByGap: 1, LostByTimeout: 1},
	}, {
		name:     "the last frames lost: only the timeout finds them",
		arrivals: []int{1, 2, 3, 4},
		wantAll:  []string{"/f/5@46.09375ms", "/f/6@46.09375ms"},
		stats:    ReliabilityStats{Sent: 6, Acked: 4, LostByTimeout: 2},
	}, {
		name:    "everything lost: the initial timeout",
		wantAll: []string{"/f/1@200ms", "/f/2@200ms", "/f/3@200ms", "/f/4@200ms", "/f/5@200ms", "/f/6@200ms"},
		stats:   ReliabilityStats{Sent: 6, LostByTimeout: 6},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			s := &vclock.Scheduler{}
			a, b := newLLEnd(t, s, DefaultReliabilityConfig()), newLLEnd(t, s, DefaultReliabilityConfig())
			sent := map[int]Frame{}
			for i := 1; i <= 6; i++ {
				p := frame(i)
				a.l.OnSend(&p)
				if p.TxSeq != uint64(i) {
					t.Fatalf("frame %d got TxSeq %d", i, p.TxSeq)
				}
				sent[i] = p
			}
			s.AdvanceTo(10 * ms)
			for _, i := range tc.arrivals {
				if !b.l.OnReceive(sent[i]) {
					t.Errorf("frame %d not delivered", i)
				}
			}
			s.AdvanceTo(15 * ms) // B's ack delay: one IDLE with every ack
			idle := b.takeIdle()
			if len(tc.arrivals) > 0 {
				if len(idle) != 1 || !slices.Equal(idle[0].Acks, toSeqs(tc.arrivals)) {
					t.Fatalf("B's IDLE frames %v, want one acking %v", idle, tc.arrivals)
				}
			}
			s.AdvanceTo(25 * ms)
			for _, f := range idle {
				if a.l.OnReceive(f) {
					t.Error("an IDLE frame was delivered")
				}
			}
			if !slices.Equal(a.lost, tc.wantGap) {
				t.Errorf("lost at 25 ms: %v, want %v", a.lost, tc.wantGap)
			}
			s.AdvanceTo(time.Second)
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

func TestReliabilityAcks(t *testing.T) {
	cfg := DefaultReliabilityConfig()
	cfg.MaxAcks = 2
	s := &vclock.Scheduler{}
	a, b := newLLEnd(t, s, cfg), newLLEnd(t, s, cfg)
	send := func(e *llEnd, f Frame) Frame { e.l.OnSend(&f); return f }

	// A frame's ack rides on the next packet B sends; no IDLE follows.
	s.AdvanceTo(10 * ms)
	b.l.OnReceive(send(a, frame(1)))
	s.AdvanceTo(12 * ms)
	rev := send(b, frame(100))
	if rev.TxSeq != 1 || !slices.Equal(rev.Acks, []uint64{1}) {
		t.Errorf("reverse frame TxSeq %d Acks %v, want 1 and [1]", rev.TxSeq, rev.Acks)
	}
	s.AdvanceTo(20 * ms)
	if idle := b.takeIdle(); len(idle) != 0 || b.l.PendingAcks() != 0 {
		t.Errorf("IDLE frames %v, pending %d after a piggybacked ack", idle, b.l.PendingAcks())
	}

	// Without reverse traffic the ack leaves in an IDLE after AckDelay.
	b.l.OnReceive(send(a, frame(2)))
	s.AdvanceTo(24 * ms)
	if idle := b.takeIdle(); len(idle) != 0 {
		t.Errorf("IDLE before the ack delay: %v", idle)
	}
	s.AdvanceTo(25 * ms)
	if idle := b.takeIdle(); len(idle) != 1 || !slices.Equal(idle[0].Acks, []uint64{2}) || idle[0].TxSeq != 0 {
		t.Errorf("IDLE frames at 25 ms %v, want one acking [2] with no TxSeq", idle)
	}

	// MaxAcks waiting acks leave at once; a frame carries at most MaxAcks.
	for i := 3; i <= 5; i++ {
		b.l.OnReceive(send(a, frame(i)))
	}
	if idle := b.takeIdle(); len(idle) != 1 || !slices.Equal(idle[0].Acks, []uint64{3, 4}) {
		t.Errorf("IDLE frames on the second waiting ack: %v, want one acking [3 4]", idle)
	}
	idle := Frame{LinkFields: ndn.LinkFields{Acks: []uint64{9}}}
	b.l.OnSend(&idle) // an IDLE frame takes acks up to MaxAcks, and no TxSeq
	if idle.TxSeq != 0 || !slices.Equal(idle.Acks, []uint64{9, 5}) {
		t.Errorf("IDLE after OnSend: TxSeq %d Acks %v, want 0 and [9 5]", idle.TxSeq, idle.Acks)
	}

	// A frame received twice is acked twice, delivered once.
	f6 := send(a, frame(6))
	if !b.l.OnReceive(f6) || b.l.OnReceive(f6) {
		t.Error("duplicate frame: want delivered once")
	}
	want := ReliabilityStats{Sent: 1, Received: 7, Duplicates: 1, AcksSent: 7, IdleFrames: 3}
	if got := b.l.Stats(); got != want {
		t.Errorf("B's stats\n got %+v\nwant %+v", got, want)
	}
}

func TestReliabilityWindow(t *testing.T) {
	cfg := DefaultReliabilityConfig()
	cfg.Window = 4
	s := &vclock.Scheduler{}
	a := newLLEnd(t, s, cfg)
	for i := 1; i <= 6; i++ {
		p := frame(i)
		a.l.OnSend(&p)
	}
	if n := a.l.Unacked(); n != 4 {
		t.Errorf("Unacked %d, want 4", n)
	}
	s.AdvanceTo(time.Second)
	want := []string{"/f/3@200ms", "/f/4@200ms", "/f/5@200ms", "/f/6@200ms"}
	if !slices.Equal(a.lost, want) {
		t.Errorf("lost %v, want %v (the first two were forgotten)", a.lost, want)
	}
	if st := a.l.Stats(); st.Evicted != 2 || st.LostByTimeout != 4 {
		t.Errorf("stats %+v, want 2 evicted, 4 lost by timeout", st)
	}
}

func TestReliabilityTimeoutBacksOff(t *testing.T) {
	s := &vclock.Scheduler{}
	a := newLLEnd(t, s, DefaultReliabilityConfig())
	p := frame(1)
	a.l.OnSend(&p)
	s.AdvanceTo(300 * ms)
	p = frame(2)
	a.l.OnSend(&p) // the timeout is 400 ms now
	s.AdvanceTo(699 * ms)
	if want := []string{"/f/1@200ms"}; !slices.Equal(a.lost, want) {
		t.Errorf("lost by 699 ms: %v, want %v", a.lost, want)
	}
	s.AdvanceTo(700 * ms)
	if want := []string{"/f/1@200ms", "/f/2@700ms"}; !slices.Equal(a.lost, want) {
		t.Errorf("lost by 700 ms: %v, want %v", a.lost, want)
	}
}

func TestReliabilityConfigValidate(t *testing.T) {
	if err := DefaultReliabilityConfig().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	for _, mutate := range []func(*ReliabilityConfig){
		func(c *ReliabilityConfig) { c.AckDelay = 0 },
		func(c *ReliabilityConfig) { c.LossThreshold = 0 },
		func(c *ReliabilityConfig) { c.Window = 0 },
		func(c *ReliabilityConfig) { c.MaxAcks = 0 },
		func(c *ReliabilityConfig) { c.AckTimeout.MinRTO = 0 },
	} {
		c := DefaultReliabilityConfig()
		mutate(&c)
		if _, err := NewReliability(c, &vclock.Scheduler{}, func(Frame) {}, func(ndn.Packet) {}); err == nil {
			t.Errorf("config %+v: no error", c)
		}
	}
}

// BenchmarkReliability moves frames from A to B and B's acks back on reverse
// frames, one frame each way per iteration: OnSend and OnReceive on both
// ends, no loss.
func BenchmarkReliability(b *testing.B) {
	s := &vclock.Scheduler{}
	cfg := DefaultReliabilityConfig()
	idle, lost := func(Frame) {}, func(ndn.Packet) {}
	a, err := NewReliability(cfg, s, idle, lost)
	if err != nil {
		b.Fatal(err)
	}
	bb, err := NewReliability(cfg, s, idle, lost)
	if err != nil {
		b.Fatal(err)
	}
	prefix := name("/bench/file").WithVersion(1)
	is, ds := make([]Frame, 1024), make([]Frame, 1024)
	for i := range is {
		it := ndn.NewSegmentInterest(prefix, uint64(i))
		is[i] = Frame{Pkt: ndn.Packet{Interest: it}}
		ds[i] = Frame{Pkt: ndn.Packet{Data: &ndn.Data{Name: it.Name, ContentLen: 1024}}}
	}
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
