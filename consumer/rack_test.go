package consumer

import (
	"strconv"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/ndn"
)

// TestRackRule replays deliveries and asks the rule about one Interest,
// in RFC 8985's terms: lost once a later-sent Interest's Data has arrived
// and its RTT plus the reorder window (min RTT/4, at most SRTT) has
// passed since the Interest left.
func TestRackRule(t *testing.T) {
	type delivery struct {
		now, sentAt time.Duration
		order       uint64
		retx        bool
	}
	tests := []struct {
		name       string
		samples    []time.Duration // unambiguous RTTs
		delivered  []delivery
		spurious   int // spurious losses of no measured reordering, each in a new round
		srtt       time.Duration
		rttvar     time.Duration
		now        time.Duration // asked about order 2, sent at 10 ms
		want       bool
		wantReoWnd time.Duration
	}{
		{name: "nothing delivered", samples: []time.Duration{ms(40)}, now: ms(500), srtt: ms(40), wantReoWnd: ms(10)},
		{name: "only earlier-sent delivered",
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(50), ms(10), 1, false}},
			now: ms(500), srtt: ms(40), wantReoWnd: ms(10)},
		{name: "later-sent delivered, inside the reorder window",
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			now: ms(59), srtt: ms(40), wantReoWnd: ms(10)},
		{name: "later-sent delivered, reorder window passed",
			// 10 (sent) + 40 (rack.rtt) + 10 (min RTT/4) = 60 ms.
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			now: ms(60), srtt: ms(40), want: true, wantReoWnd: ms(10)},
		{name: "newest-sent delivered sets rack.rtt",
			// Order 4's RTT (60 ms) counts, not order 3's: 10+60+10.
			samples:   []time.Duration{ms(40)},
			delivered: []delivery{{ms(75), ms(15), 4, false}, {ms(52), ms(12), 3, false}},
			now:       ms(79), srtt: ms(40), wantReoWnd: ms(10)},
		{name: "retransmission answered sooner than the min RTT is not taken",
			samples:   []time.Duration{ms(40)},
			delivered: []delivery{{ms(52), ms(45), 3, true}},
			now:       ms(500), srtt: ms(40), wantReoWnd: ms(10)},
		{name: "spurious loss widens the window",
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			spurious: 1, now: ms(69), srtt: ms(40), wantReoWnd: ms(20)},
		{name: "window bounded by SRTT",
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			spurious: 9, now: ms(95), srtt: ms(45), want: true, wantReoWnd: ms(45)},
		{name: "RTT deviation does not count on a path that has not reordered",
			samples: []time.Duration{ms(40)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			now: ms(60), srtt: ms(40), rttvar: ms(10), want: true, wantReoWnd: ms(10)},
		{name: "on a path that reordered the window covers rto-k RTT deviations",
			// Order 1's Data after order 3's: reordering. 8·3 ms = 24 ms.
			samples:   []time.Duration{ms(40)},
			delivered: []delivery{{ms(52), ms(12), 3, false}, {ms(53), ms(5), 1, false}},
			now:       ms(73), srtt: ms(40), rttvar: ms(3), wantReoWnd: ms(24)},
		{name: "on a path that reordered the window covers the RTTs' range and rto-k deviations",
			// RTTs of 40 and 70 ms: 30 ms, and 8·1 ms. 10+40+38.
			samples:   []time.Duration{ms(40), ms(70)},
			delivered: []delivery{{ms(52), ms(12), 3, false}, {ms(53), ms(5), 1, false}},
			now:       ms(87), srtt: ms(45), rttvar: ms(1), wantReoWnd: ms(38)},
		{name: "past the longest RTT and rto-k deviations it is lost",
			samples:   []time.Duration{ms(40), ms(70)},
			delivered: []delivery{{ms(52), ms(12), 3, false}, {ms(53), ms(5), 1, false}},
			now:       ms(88), srtt: ms(45), rttvar: ms(1), want: true, wantReoWnd: ms(38)},
		{name: "the RTTs' range does not count on a path that has not reordered",
			samples: []time.Duration{ms(40), ms(70)}, delivered: []delivery{{ms(52), ms(12), 3, false}},
			now: ms(60), srtt: ms(45), want: true, wantReoWnd: ms(10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRack(8)
			for _, s := range tt.samples {
				r.sample(s, s)
			}
			for _, d := range tt.delivered {
				r.delivered(d.now, d.sentAt, d.order, d.retx)
			}
			for i := range tt.spurious {
				r.spurious(0, r.order+1+uint64(i))
				r.order++ // the next round
			}
			if got := r.reoWnd(tt.srtt, tt.rttvar); got != tt.wantReoWnd {
				t.Errorf("reorder window %v, want %v", got, tt.wantReoWnd)
			}
			if got := r.lost(tt.now, ms(10), 2, tt.srtt, tt.rttvar); got != tt.want {
				t.Errorf("lost at %v: %v, want %v", tt.now, got, tt.want)
			}
		})
	}
}

// TestRackSpreadForgets checks that the RTT range a reordering path's
// window covers forgets an RTT after rackSpreadWindow.
func TestRackSpreadForgets(t *testing.T) {
	r := newRack(8)
	r.sample(ms(100), ms(20))
	r.sample(ms(200), ms(90))
	r.delivered(ms(300), ms(260), 3, false)
	r.delivered(ms(301), ms(250), 2, false) // reordered
	if got := r.reoWnd(ms(40), 0); got != ms(70) {
		t.Fatalf("window %v with RTTs of 20 and 90 ms, want 70ms", got)
	}
	r.sample(ms(200)+rackSpreadWindow+1, ms(45))
	if got := r.reoWnd(ms(40), 0); got != ms(25) {
		t.Errorf("window %v once the 90 ms RTT is %v old, want the 45 ms one's 25ms", got, rackSpreadWindow)
	}
}

// TestRackSpuriousOncePerRound checks that the reorder window's step
// grows once per round trip however many spurious losses it brings, that
// the window covers the largest reordering they measured, and that both
// return to their least after 16 loss events without one (RFC 8985's
// reo_wnd_persist).
func TestRackSpuriousOncePerRound(t *testing.T) {
	r := newRack(8)
	r.sample(ms(40), ms(40))
	r.delivered(ms(52), ms(12), 3, false)
	r.spurious(ms(25), 10)
	r.spurious(ms(15), 11) // same round: rack.order 3 < 10
	if r.mult != 2 || r.reoSeen != ms(25) {
		t.Fatalf("mult %d, reordering %v after two spurious losses in one round, want 2 and 25ms", r.mult, r.reoSeen)
	}
	r.delivered(ms(90), ms(50), 10, false)
	r.spurious(ms(5), 20)
	if r.mult != 3 || r.reoWnd(ms(40), 0) != ms(30) {
		t.Fatalf("mult %d, window %v after a spurious loss in the next round, want 3 and 30ms", r.mult, r.reoWnd(ms(40), 0))
	}
	r.spurious(ms(70), 21)
	for i := range rackPersist {
		if r.mult != 3 || r.reoWnd(ms(40), 0) != ms(70) {
			t.Fatalf("mult %d, window %v after %d loss events, want 3 (same round) and 70ms (past SRTT) until %d", r.mult, r.reoWnd(ms(40), 0), i, rackPersist)
		}
		r.lossEvent()
	}
	if r.mult != 1 || r.reoWnd(ms(40), 0) != ms(10) {
		t.Errorf("mult %d, window %v after %d loss events, want 1 and 10ms", r.mult, r.reoWnd(ms(40), 0), rackPersist)
	}
}

// TestRackRetransmitsBeforeRTO is a scripted fetch in virtual time:
// segment 0 returns at 33 ms (min RTT 33 ms), segments 1-3 leave at
// 33 ms and segment 2's Interest is lost. Segment 3's Data at 66 ms makes
// segment 2 lost at 33 + 33 + 33/4 = 74.25 ms; the next check finds it.
// Without rack it waits for its 200 ms RTO.
func TestRackRetransmitsBeforeRTO(t *testing.T) {
	tests := []struct {
		name     string
		params   map[string]string
		wantRetx time.Duration
		wantRack uint64
	}{
		{"rack off", map[string]string{"window": "4"}, ms(240), 0},
		{"rack", map[string]string{"window": "4", "rack": "true"}, ms(80), 1},
		{"rack, 1 ms check", map[string]string{"window": "4", "rack": "true", "rto-check-interval": "1ms"}, ms(75), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", tt.params, 3, dropFirst(ms(33), 2))
			f.run(t)
			tx := f.net.sendsOf(2)
			if len(tx) != 2 || tx[0].at != ms(33) || tx[1].at != tt.wantRetx {
				t.Fatalf("segment 2 sent %+v, want at 33ms and again at %v", tx, tt.wantRetx)
			}
			st := f.p.Stats()
			if !st.Complete || st.End != tt.wantRetx+ms(33) {
				t.Errorf("complete %v at %v, want at %v", st.Complete, st.End, tt.wantRetx+ms(33))
			}
			timeouts := 1 - tt.wantRack
			if st.RackLosses != tt.wantRack || st.Timeouts != timeouts || st.Decreases[cc.CauseLoss] != tt.wantRack || st.Decreases[cc.CauseTimeout] != timeouts {
				t.Errorf("RACK losses %d, timeouts %d, decreases %v; want %d RACK, %d timeouts", st.RackLosses, st.Timeouts, st.Decreases, tt.wantRack, timeouts)
			}
		})
	}
}

// TestRackReorderingIsSpurious delays segment 2's first Data to 83 ms:
// declared lost at 80 ms and sent again, its Data then comes 3 ms after
// the retransmission, sooner than the min RTT, so it answers the first
// Interest: a spurious loss, which widens the reorder window.
func TestRackReorderingIsSpurious(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "4", "rack": "true"}, 3, func(seg uint64, attempt int) action {
		if seg == 2 && attempt == 0 {
			return action{delay: ms(50)}
		}
		return action{delay: ms(33)}
	})
	f.run(t)
	st := f.p.Stats()
	if st.RackLosses != 1 || st.SpuriousRackLosses != 1 || f.p.rack.mult != 2 {
		t.Errorf("RACK losses %d, spurious %d, reorder multiplier %d; want 1, 1, 2", st.RackLosses, st.SpuriousRackLosses, f.p.rack.mult)
	}
	if !st.Complete || st.End != ms(83) {
		t.Errorf("complete %v at %v, want at 83ms", st.Complete, st.End)
	}
}

// TestRackRetransmissionWaitsForSuppression loses segment 2 three times:
// each retransmission leaves no sooner than the forwarder's suppression
// interval after the previous Interest (10, 20, 40 ms), so that it is not
// dropped there.
func TestRackRetransmissionWaitsForSuppression(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "4", "rack": "true", "rto-check-interval": "1ms"}, 60, func(seg uint64, attempt int) action {
		if seg == 2 && attempt < 3 {
			return action{drop: true}
		}
		return action{delay: ms(2)}
	})
	f.run(t)
	tx := f.net.sendsOf(2)
	if len(tx) != 4 {
		t.Fatalf("segment 2 sent %d times, want 4", len(tx))
	}
	for i := 1; i < len(tx); i++ {
		if gap, least := tx[i].at-tx[i-1].at, fwRetxSuppression(uint16(i-1)); gap < least {
			t.Errorf("retransmission %d %v after the previous Interest, want at least %v", i, gap, least)
		}
	}
	if st := f.p.Stats(); st.Timeouts != 0 || st.RackLosses != 3 {
		t.Errorf("%d timeouts, %d RACK losses; want 0 and 3", st.Timeouts, st.RackLosses)
	}
}

func TestFwRetxSuppression(t *testing.T) {
	for _, tt := range []struct {
		retries uint16
		want    time.Duration
	}{{0, ms(10)}, {1, ms(20)}, {2, ms(40)}, {4, ms(160)}, {5, ms(250)}, {15, ms(250)}, {65535, ms(250)}} {
		if got := fwRetxSuppression(tt.retries); got != tt.want {
			t.Errorf("fwRetxSuppression(%d) = %v, want %v", tt.retries, got, tt.want)
		}
	}
}

// TestRackDefaults: on by default for the paced pipelines (ndncc's own),
// off for ndnget's and the seeds', whose consumers wait for the RTO
// (docs/algorithms.md); the rack parameter turns it on or off for any.
func TestRackDefaults(t *testing.T) {
	for _, tt := range []struct {
		pipeline string
		want     bool
	}{
		{"paced-delay", true}, {"bbr", true}, {"copa", true},
		{"fixed", false}, {"aimd", false}, {"cubic", false}, {"bic", false},
		{"vegas", false}, {"ndn-vegas", false}, {"raaqm", false},
	} {
		if got := DefaultOptions(tt.pipeline).Rack; got != tt.want {
			t.Errorf("%s: rack %v by default, want %v", tt.pipeline, got, tt.want)
		}
		for _, v := range []bool{true, false} {
			o, err := ParseParams(tt.pipeline, map[string]string{"rack": strconv.FormatBool(v)})
			if err != nil {
				t.Fatalf("%s: %v", tt.pipeline, err)
			}
			if o.Rack != v {
				t.Errorf("%s: rack=%v gave %v", tt.pipeline, v, o.Rack)
			}
		}
	}
}

// TestRackReorderingWithinSuppressionWait: segment 2's Data comes 8 ms
// after its Interest (the others in 2 ms). Declared lost at the 5 ms check
// (2 + 2 + 2/4 = 4.5 ms), it waits for the forwarder's suppression until
// 12 ms; its Data at 10 ms ends the wait: no retransmission and no window
// decrease, only a spurious loss.
func TestRackReorderingWithinSuppressionWait(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "4", "rack": "true", "rto-check-interval": "1ms"}, 3, func(seg uint64, attempt int) action {
		if seg == 2 {
			return action{delay: ms(8)}
		}
		return action{delay: ms(2)}
	})
	f.run(t)
	st := f.p.Stats()
	if st.RackLosses != 1 || st.SpuriousRackLosses != 1 || st.Retransmissions != 0 || st.LossEvents != 0 {
		t.Errorf("RACK losses %d, spurious %d, retransmissions %d, loss events %d; want 1, 1, 0, 0",
			st.RackLosses, st.SpuriousRackLosses, st.Retransmissions, st.LossEvents)
	}
	if !st.Complete || st.End != ms(10) {
		t.Errorf("complete %v at %v, want at 10ms", st.Complete, st.End)
	}
}

// TestRackWindowAdaptsToReordering is a scripted fetch in virtual time on
// a path that holds every tenth segment's Data back 8 ms (the others take
// 2 ms), as a forwarder's busy thread would: the first reordered segment
// is declared lost and its Data, arriving during the suppression wait,
// measures the reordering. From then on the window covers it: no later
// held-back segment is declared lost, and nothing is retransmitted. With
// RFC 8985's window alone (min RTT/4 = 0.5 ms, one more step per round
// trip with a spurious loss, at most SRTT) each of them would be.
func TestRackWindowAdaptsToReordering(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "8", "rack": "true", "rto-check-interval": "1ms"}, 199, func(seg uint64, attempt int) action {
		if seg%10 == 5 {
			return action{delay: ms(8)}
		}
		return action{delay: ms(2)}
	})
	f.run(t)
	st := f.p.Stats()
	if !st.Complete {
		t.Fatalf("fetch incomplete: %+v", st)
	}
	// The first held-back segment (5) may be declared lost; at most one
	// more before the window has measured it (those in flight with it).
	if st.SpuriousRackLosses == 0 || st.RackLosses > 2 || st.RackLosses != st.SpuriousRackLosses {
		t.Errorf("RACK losses %d, spurious %d; want 1-2, all spurious", st.RackLosses, st.SpuriousRackLosses)
	}
	if st.Retransmissions != 0 || st.LossEvents != 0 {
		t.Errorf("%d retransmissions, %d loss events; want none", st.Retransmissions, st.LossEvents)
	}
	if w := f.p.rack.reoWnd(f.p.rto.est.SRTT(), f.p.rto.est.RTTVar()); w < ms(6) {
		t.Errorf("reorder window %v at the end, want the 6 ms measured at least", w)
	}
}

// TestRackWindowReturnsAfterRecoveries: after a spurious loss has widened
// the window, 16 loss events with no spurious one (segments really lost,
// each a round trip apart) return it to min RTT/4.
func TestRackWindowReturnsAfterRecoveries(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "4", "rack": "true", "rto-check-interval": "1ms", "conservative": "false"}, 400, func(seg uint64, attempt int) action {
		switch {
		case seg == 5 && attempt == 0:
			return action{delay: ms(9)}
		case seg > 20 && seg%20 == 0 && attempt == 0:
			return action{drop: true}
		}
		return action{delay: ms(2)}
	})
	f.run(t)
	st := f.p.Stats()
	if !st.Complete || st.SpuriousRackLosses != 1 {
		t.Fatalf("complete %v, %d spurious RACK losses; want a complete fetch and 1", st.Complete, st.SpuriousRackLosses)
	}
	if st.LossEvents < rackPersist {
		t.Fatalf("%d loss events, want at least %d", st.LossEvents, rackPersist)
	}
	if f.p.rack.mult != 1 || f.p.rack.reoSeen != 0 {
		t.Errorf("after %d loss events: mult %d, reordering %v; want 1 and 0", st.LossEvents, f.p.rack.mult, f.p.rack.reoSeen)
	}
}

// TestRackStallIsNoLoss is a scripted fetch in virtual time across a stall
// of the runtime, as when its process is stopped: segments 1-8 leave at
// 2 ms; 2-8 return at 4 ms, and 9-15 leave then; segment 1's Data is late
// (after 4.5 ms its reorder window, 0.5 ms, has run out, but no detection
// runs before the stall). Nothing runs from 4 ms to 404 ms; then the
// Data of 9-15 and 1 wait in the socket and come in one read, segment 9's
// first. The runtime counts the stall only after that read, as a live
// loop notes it before its next timer or read. Handled inline, segment 9's
// Data would find segment 1 sent 402 ms ago, past 2 ms plus the RTT of
// segment 9 (400 ms) plus the window, and send it again; the detection
// runs from a timer after the read, when segment 1's Data has come (same
// read) or the stall is counted and its RTO decides (next read).
func TestRackStallIsNoLoss(t *testing.T) {
	const stall = 400 * time.Millisecond
	for _, tt := range []struct {
		name      string
		sameBatch bool // segment 1's Data in the read with the others
	}{{"late Data in the same read", true}, {"late Data in the next read", false}} {
		t.Run(tt.name, func(t *testing.T) {
			var f *fetch
			var held []uint64 // segments whose Data wait in the socket
			f = newFetch(t, "fixed", map[string]string{"window": "8", "rack": "true", "rto-check-interval": "1s"}, 15, func(seg uint64, attempt int) action {
				if (seg == 1 || seg >= 9) && attempt == 0 {
					held = append(held, seg)
					return action{drop: true}
				}
				return action{delay: ms(2)}
			})
			var stalled time.Duration
			f.p.cfg.Stalls = func() time.Duration { return stalled }
			data := func(seg uint64) ndn.Packet {
				d := &ndn.Data{Name: f.p.cfg.Prefix.Append(enc.NewSegmentComponent(seg)), ContentLen: 1024}
				d.FinalBlockID, d.HasFinal = enc.NewSegmentComponent(15), true
				return ndn.Packet{Data: d}
			}
			f.s.After(ms(4)+stall, func() {
				if len(held) != 8 {
					t.Fatalf("held segments %v, want 1 and 9-15", held)
				}
				// Segment 9 first, then 10-15, then 1.
				read := append(held[1:], held[0])
				if !tt.sameBatch {
					read = read[:7]
				}
				for _, seg := range read {
					f.p.OnPacket(data(seg))
				}
				stalled = stall
			})
			if !tt.sameBatch {
				f.s.After(ms(4)+stall+100*time.Microsecond, func() { f.p.OnPacket(data(1)) })
			}
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Retransmissions != 0 || st.RackLosses != 0 || st.Timeouts != 0 {
				t.Errorf("complete %v, %d retransmissions, %d RACK losses, %d timeouts; want complete and none",
					st.Complete, st.Retransmissions, st.RackLosses, st.Timeouts)
			}
			want := ms(4) + stall
			if !tt.sameBatch {
				want += 100 * time.Microsecond
			}
			if st.End != want {
				t.Errorf("ended at %v, want at %v (segment 1's Data)", st.End, want)
			}
		})
	}
}
