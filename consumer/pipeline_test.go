package consumer

import (
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/ndn"
)

func TestFetchDeliversEverySegment(t *testing.T) {
	tests := []struct {
		name      string
		window    string
		final     uint64
		delay     func(seg uint64) time.Duration
		wantOrder []uint64
		wantSends []time.Duration // send time of each Interest, in order
		wantEnd   time.Duration
	}{
		{
			name: "uniform delay", window: "4", final: 7,
			delay:     func(uint64) time.Duration { return ms(20) },
			wantOrder: []uint64{0, 1, 2, 3, 4, 5, 6, 7},
			// Segment 0 alone until the first Data tells the size; then
			// four at once; then one per Data.
			wantSends: []time.Duration{0, ms(20), ms(20), ms(20), ms(20), ms(40), ms(40), ms(40)},
			wantEnd:   ms(60),
		},
		{
			name: "later segments faster", window: "8", final: 7,
			delay:     func(seg uint64) time.Duration { return ms(50) - time.Duration(seg)*ms(5) },
			wantOrder: []uint64{0, 7, 6, 5, 4, 3, 2, 1},
			wantSends: []time.Duration{0, ms(50), ms(50), ms(50), ms(50), ms(50), ms(50), ms(50)},
			wantEnd:   ms(95),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": tt.window}, tt.final,
				func(seg uint64, _ int) action { return action{delay: tt.delay(seg)} })
			f.run(t)
			if !reflect.DeepEqual(f.order, tt.wantOrder) {
				t.Errorf("OnSegment order %v, want %v", f.order, tt.wantOrder)
			}
			var sends []time.Duration
			for _, s := range f.net.log {
				sends = append(sends, s.at)
			}
			if !reflect.DeepEqual(sends, tt.wantSends) {
				t.Errorf("Interests sent at %v, want %v", sends, tt.wantSends)
			}
			if len(f.done) != 1 || f.done[0] != nil {
				t.Fatalf("OnDone calls %v, want one with nil", f.done)
			}
			st := f.p.Stats()
			n := tt.final + 1
			if !st.Complete || st.End != tt.wantEnd || st.Duration() != tt.wantEnd || f.doneAt != tt.wantEnd {
				t.Errorf("complete %v, end %v (OnDone at %v), want complete at %v", st.Complete, st.End, f.doneAt, tt.wantEnd)
			}
			if st.Segments != n || st.Interests != n || st.DataReceived != n || st.PayloadBytes != 1024*n {
				t.Errorf("segments %d, Interests %d, Data %d, payload %d; want %d, %d, %d, %d",
					st.Segments, st.Interests, st.DataReceived, st.PayloadBytes, n, n, n, 1024*n)
			}
			if st.Retransmissions != 0 || st.Timeouts != 0 || st.LossEvents != 0 || st.Duplicates != 0 {
				t.Errorf("retx %d, timeouts %d, loss events %d, duplicates %d; want none",
					st.Retransmissions, st.Timeouts, st.LossEvents, st.Duplicates)
			}
		})
	}
}

func TestRTTStatistics(t *testing.T) {
	// Segment s takes 10+s ms: samples 10..17 ms, mean 13.5 ms.
	f := newFetch(t, "fixed", map[string]string{"window": "8"}, 7,
		func(seg uint64, _ int) action { return action{delay: ms(10 + float64(seg))} })
	f.run(t)
	st := f.p.Stats()
	if st.RTTMin != ms(10) || st.RTTAvg != ms(13.5) || st.RTTMax != ms(17) {
		t.Errorf("RTT min/avg/max %v/%v/%v, want 10ms/13.5ms/17ms", st.RTTMin, st.RTTAvg, st.RTTMax)
	}
}

func TestWindowLimitsInFlight(t *testing.T) {
	tests := []struct {
		window  string
		wantMax int
		wantEnd time.Duration
	}{
		{"1", 1, 200 * ms(10)},       // stop-and-wait: one RTT per segment
		{"4", 4, ms(10) + 50*ms(10)}, // segment 0, then 199 in batches of 4
		{"32", 32, ms(10) + 7*ms(10)},
		{"200", 199, ms(20)}, // all of the rest at once
	}
	for _, tt := range tests {
		t.Run("window "+tt.window, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": tt.window}, 199, always(ms(10)))
			f.run(t)
			if f.net.maxIn != tt.wantMax {
				t.Errorf("max Interests in flight %d, want %d", f.net.maxIn, tt.wantMax)
			}
			if st := f.p.Stats(); !st.Complete || st.End != tt.wantEnd {
				t.Errorf("complete %v at %v, want complete at %v", st.Complete, st.End, tt.wantEnd)
			}
		})
	}
}

func TestDuplicateAndUnexpectedData(t *testing.T) {
	// Segment 1's Data arrives twice (20 and 21 ms) while segment 3 (30
	// ms) is still outstanding.
	f := newFetch(t, "fixed", map[string]string{"window": "4"}, 3, func(seg uint64, _ int) action {
		if seg == 3 {
			return action{delay: ms(20)}
		}
		return action{delay: ms(10), dup: seg == 1}
	})
	f.run(t)
	st := f.p.Stats()
	if st.Duplicates != 1 || st.Segments != 4 || st.DataReceived != 5 {
		t.Errorf("duplicates %d, segments %d, Data %d; want 1, 4, 5", st.Duplicates, st.Segments, st.DataReceived)
	}
	if !reflect.DeepEqual(f.order, []uint64{0, 1, 2, 3}) {
		t.Errorf("OnSegment order %v: a duplicate must not be delivered twice", f.order)
	}
}

func TestDataWithoutFinalBlockFails(t *testing.T) {
	f := newFetch(t, "fixed", nil, 3, func(uint64, int) action { return action{delay: ms(10), noFinal: true} })
	f.run(t)
	if len(f.done) != 1 || !errors.Is(f.done[0], ErrNoFinalBlock) {
		t.Fatalf("OnDone %v, want one call with ErrNoFinalBlock", f.done)
	}
	if _, err := f.p.Done(); !errors.Is(err, ErrNoFinalBlock) {
		t.Errorf("Done() error %v, want ErrNoFinalBlock", err)
	}
}

// dropFirst drops the first transmission of the given segments and answers
// everything else after delay.
func dropFirst(delay time.Duration, segs ...uint64) func(uint64, int) action {
	return func(seg uint64, attempt int) action {
		for _, s := range segs {
			if s == seg && attempt == 0 {
				return action{drop: true}
			}
		}
		return action{delay: delay}
	}
}

func TestTimeoutRetransmitsAfterRTO(t *testing.T) {
	// Segment 0 returns at 33 ms with the first RTT sample (33 ms), so the
	// RTO is max(33 + 4*16.5, 200) = 200 ms; segments 1-3 leave at 33 ms.
	// Segment 2 is lost: its RTO expires at 233 ms, and the periodic check
	// notices at its first tick at or after that.
	tests := []struct {
		name     string
		params   map[string]string
		wantRetx time.Duration
	}{
		{"10 ms check", map[string]string{"window": "4"}, ms(240)},
		{"25 ms check", map[string]string{"window": "4", "rto-check-interval": "25ms"}, ms(250)},
		{"1 ms check", map[string]string{"window": "4", "rto-check-interval": "1ms"}, ms(233)},
		{"min-rto 300ms", map[string]string{"window": "4", "min-rto": "300ms"}, ms(340)},
		{"fixed-rto 500ms", map[string]string{"window": "4", "fixed-rto": "500ms"}, ms(540)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", tt.params, 3, dropFirst(ms(33), 2))
			f.run(t)
			tx := f.net.sendsOf(2)
			if len(tx) != 2 || tx[0].at != ms(33) || tx[1].at != tt.wantRetx {
				t.Fatalf("segment 2 sent %+v, want at 33ms and again at %v", tx, tt.wantRetx)
			}
			if tx[1].nonce == tx[0].nonce {
				t.Error("retransmission reused the nonce")
			}
			st := f.p.Stats()
			if st.End != tt.wantRetx+ms(33) || !st.Complete {
				t.Errorf("complete %v at %v, want %v", st.Complete, st.End, tt.wantRetx+ms(33))
			}
			if st.Timeouts != 1 || st.Retransmissions != 1 || st.Interests != 5 || st.LossEvents != 1 || st.Decreases[cc.CauseTimeout] != 1 {
				t.Errorf("timeouts %d retx %d Interests %d loss events %d (timeout %d); want 1, 1, 5, 1, 1",
					st.Timeouts, st.Retransmissions, st.Interests, st.LossEvents, st.Decreases[cc.CauseTimeout])
			}
		})
	}
}

func TestKarnsRuleRetransmissionGivesNoSample(t *testing.T) {
	// Segment 2's first Interest is lost; its retransmission is answered
	// after 70 ms. That 70 ms must not be taken as a sample: the Data
	// could answer either Interest.
	f := newFetch(t, "fixed", map[string]string{"window": "4"}, 3, func(seg uint64, attempt int) action {
		switch {
		case seg == 2 && attempt == 0:
			return action{drop: true}
		case seg == 2:
			return action{delay: ms(70)}
		}
		return action{delay: ms(33)}
	})
	f.run(t)
	st := f.p.Stats()
	if st.RTTMin != ms(33) || st.RTTMax != ms(33) || st.RTTAvg != ms(33) {
		t.Errorf("RTT min/avg/max %v/%v/%v, want 33ms each", st.RTTMin, st.RTTAvg, st.RTTMax)
	}
	if got := f.tr.rtts[2]; !reflect.DeepEqual(got, []time.Duration{0}) {
		t.Errorf("traced samples of segment 2 %v, want [0] (no sample)", got)
	}
	if got := f.tr.rtts[3]; !reflect.DeepEqual(got, []time.Duration{ms(33)}) {
		t.Errorf("traced samples of segment 3 %v, want [33ms]", got)
	}
}

func TestConservativeAdaptationOneDecreasePerBurst(t *testing.T) {
	// AIMD with init-cwnd 8: segment 0 at 0, its Data at 30 ms makes cwnd
	// 9 and sends segments 1-9. Segments 3, 4 and 5 are lost; the other
	// six Data (60 ms) grow cwnd to 15. The three RTOs expire in the same
	// check (230 ms).
	tests := []struct {
		name           string
		conservative   string
		wantLossEvents uint64
		wantSsthresh   float64
		wantRetx       []time.Duration // of segments 3, 4, 5
	}{
		// One loss event: ssthresh = cwnd = 15/2; all three go again at
		// once.
		{"conservative", "true", 1, 7.5, []time.Duration{ms(230), ms(230), ms(230)}},
		// Three: 15 -> 7.5 -> 3.75 -> 2 (ssthresh floor 2). A window of 2
		// holds segment 5 back until segment 3's Data returns.
		{"every loss", "false", 3, 2, []time.Duration{ms(230), ms(230), ms(260)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", map[string]string{"init-cwnd": "8", "conservative": tt.conservative}, 9, dropFirst(ms(30), 3, 4, 5))
			f.run(t)
			st := f.p.Stats()
			if st.Timeouts != 3 || st.LossEvents != tt.wantLossEvents || st.Decreases[cc.CauseTimeout] != tt.wantLossEvents {
				t.Errorf("timeouts %d, loss events %d (timeout %d); want 3, %d", st.Timeouts, st.LossEvents, st.Decreases[cc.CauseTimeout], tt.wantLossEvents)
			}
			if got := f.p.Algorithm().Ssthresh(); got != tt.wantSsthresh {
				t.Errorf("ssthresh %v, want %v", got, tt.wantSsthresh)
			}
			for i, seg := range []uint64{3, 4, 5} {
				if tx := f.net.sendsOf(seg); len(tx) != 2 || tx[1].at != tt.wantRetx[i] {
					t.Errorf("segment %d sent %+v, want a retransmission at %v", seg, tx, tt.wantRetx[i])
				}
			}
			// After the decrease the three retransmitted segments return
			// in congestion avoidance: cwnd += 1/cwnd each.
			w := tt.wantSsthresh
			for i := 0; i < 3; i++ {
				w += 1 / w
			}
			if got := f.p.Algorithm().Cwnd(); math.Abs(got-w) > 1e-12 {
				t.Errorf("cwnd %v, want %v", got, w)
			}
		})
	}
}

func TestCongestionMarks(t *testing.T) {
	// AIMD, init-cwnd 8, 30 ms: Data 0 (unmarked) makes cwnd 9 and sends
	// 1-9 at 30 ms. Marked Data: segments 1 and 2 (the first RTT after
	// the first Data) and, in the twoRTTs case, 15 (sent after the first
	// decrease, so beyond recPoint = 9).
	tests := []struct {
		name       string
		final      uint64
		marked     []uint64
		ignore     string
		wantEvents uint64
		wantCwnd   float64 // when exact
	}{
		// One decrease 9 -> 4.5 for the first mark; the second mark is in
		// the same RTT. Segments 3-9 then add 1/cwnd each.
		{"one RTT", 9, []uint64{1, 2}, "false", 1, caGrowth(4.5, 7)},
		{"two RTTs", 20, []uint64{1, 2, 15}, "false", 2, 0},
		// Marks are counted but the window grows as if unmarked: 9 + 9.
		{"ignored", 9, []uint64{1, 2}, "true", 0, 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", map[string]string{"init-cwnd": "8", "ignore-marks": tt.ignore}, tt.final,
				func(seg uint64, _ int) action {
					for _, m := range tt.marked {
						if m == seg {
							return action{delay: ms(30), mark: true}
						}
					}
					return action{delay: ms(30)}
				})
			f.run(t)
			st := f.p.Stats()
			if st.Marks != uint64(len(tt.marked)) {
				t.Errorf("marks %d, want %d", st.Marks, len(tt.marked))
			}
			if st.LossEvents != tt.wantEvents || st.Decreases[cc.CauseMark] != tt.wantEvents {
				t.Errorf("loss events %d (mark %d), want %d", st.LossEvents, st.Decreases[cc.CauseMark], tt.wantEvents)
			}
			if st.Retransmissions != 0 || !st.Complete {
				t.Errorf("retx %d, complete %v: a mark is not a loss", st.Retransmissions, st.Complete)
			}
			if tt.wantCwnd != 0 && math.Abs(f.p.Algorithm().Cwnd()-tt.wantCwnd) > 1e-12 {
				t.Errorf("cwnd %v, want %v", f.p.Algorithm().Cwnd(), tt.wantCwnd)
			}
		})
	}
}

// caGrowth is an AIMD window w after n Data in congestion avoidance.
func caGrowth(w float64, n int) float64 {
	for i := 0; i < n; i++ {
		w += 1 / w
	}
	return w
}

func TestNacks(t *testing.T) {
	// Window 4, 33 ms; segment 2's first Interest comes back as a Nack
	// after 10 ms (at 43 ms).
	tests := []struct {
		name          string
		reason        ndn.NackReason
		nonceDelta    uint32
		wantRetx      time.Duration
		wantNacks     uint64
		wantDecreases uint64
		wantTimeouts  uint64
	}{
		{"congestion: decrease and retry", ndn.NackCongestion, 0, ms(43), 1, 1, 0},
		{"duplicate: retry without decrease", ndn.NackDuplicate, 0, ms(43), 1, 0, 0},
		// A Nack for another transmission is ignored: the RTO recovers.
		{"stale nonce ignored", ndn.NackCongestion, 1, ms(240), 0, 1, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": "4"}, 3, func(seg uint64, attempt int) action {
				if seg == 2 && attempt == 0 {
					return action{delay: ms(10), nack: tt.reason, nonceDelta: tt.nonceDelta}
				}
				return action{delay: ms(33)}
			})
			f.run(t)
			tx := f.net.sendsOf(2)
			if len(tx) != 2 || tx[1].at != tt.wantRetx {
				t.Fatalf("segment 2 sent %+v, want a retransmission at %v", tx, tt.wantRetx)
			}
			st := f.p.Stats()
			if st.Nacks != tt.wantNacks || st.LossEvents != tt.wantDecreases || st.Timeouts != tt.wantTimeouts {
				t.Errorf("nacks %d, loss events %d, timeouts %d; want %d, %d, %d",
					st.Nacks, st.LossEvents, st.Timeouts, tt.wantNacks, tt.wantDecreases, tt.wantTimeouts)
			}
			if tt.reason == ndn.NackCongestion && tt.nonceDelta == 0 && st.Decreases[cc.CauseNack] != 1 {
				t.Errorf("nack decreases %d, want 1", st.Decreases[cc.CauseNack])
			}
			if st.End != tt.wantRetx+ms(33) || !st.Complete {
				t.Errorf("complete %v at %v, want at %v", st.Complete, st.End, tt.wantRetx+ms(33))
			}
		})
	}
}

func TestNoRouteNackWaitsBeforeRetrying(t *testing.T) {
	f := newFetch(t, "fixed", map[string]string{"window": "4"}, 3, func(seg uint64, attempt int) action {
		if seg == 2 && attempt == 0 {
			return action{delay: ms(10), nack: ndn.NackNoRoute}
		}
		return action{delay: ms(33)}
	})
	f.run(t)
	tx := f.net.sendsOf(2)
	// The Nack arrives at 43 ms with RTO 200 ms.
	if len(tx) != 2 || tx[1].at < ms(243) {
		t.Fatalf("segment 2 sent %+v, want the retry no earlier than 243ms", tx)
	}
}

func TestRetryLimit(t *testing.T) {
	// Window 4, 33 ms, segment 1 unanswered five times. It leaves at 33 ms
	// (RTO 200 ms) and times out at 240 ms: a loss event backs the RTO off
	// to 400 ms. Later timeouts of the same burst are no new loss event,
	// yet each is a retransmission timing out again, so the RTO doubles
	// on (RFC 6298, 5.5): timeouts at 640, 1440, 3040 and 6240 ms.
	lost := func(seg uint64, attempt int) action {
		if seg == 1 && attempt < 5 {
			return action{drop: true}
		}
		return action{delay: ms(33)}
	}
	tests := []struct {
		retries   string
		wantErr   bool
		wantEnd   time.Duration
		wantRetx  uint64
		wantTmout uint64
	}{
		{"0", true, ms(240), 0, 1},
		{"2", true, ms(1440), 2, 3},
		{"5", false, ms(6240) + ms(33), 5, 5}, // the sixth transmission is answered
		{"-1", false, ms(6240) + ms(33), 5, 5},
	}
	for _, tt := range tests {
		t.Run("retries "+tt.retries, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": "4", "retries": tt.retries}, 3, lost)
			f.run(t)
			if len(f.done) != 1 {
				t.Fatalf("OnDone called %d times, want once", len(f.done))
			}
			if got := errors.Is(f.done[0], ErrRetriesExhausted); got != tt.wantErr {
				t.Errorf("OnDone(%v): ErrRetriesExhausted %v, want %v", f.done[0], got, tt.wantErr)
			}
			st := f.p.Stats()
			if st.End != tt.wantEnd || st.Complete == tt.wantErr {
				t.Errorf("complete %v at %v, want complete %v at %v", st.Complete, st.End, !tt.wantErr, tt.wantEnd)
			}
			if st.Retransmissions != tt.wantRetx || st.Timeouts != tt.wantTmout {
				t.Errorf("retx %d, timeouts %d; want %d, %d", st.Retransmissions, st.Timeouts, tt.wantRetx, tt.wantTmout)
			}
			if tt.wantErr && f.s.Pending() != 0 {
				t.Errorf("%d callbacks still pending after the fetch failed", f.s.Pending())
			}
		})
	}
}

func TestPostponedRetransmission(t *testing.T) {
	// Window 4 (fixed) or NDN-Vegas, 33 ms, 100 segments; segment 2's first
	// Interest is lost and times out at 240 ms.
	tests := []struct {
		name     string
		pipeline string
		params   map[string]string
		// wantAt is the retransmission's time; 0: right after the first
		// Interest for segment after (the last new segment, or the one
		// that fills the span).
		wantAt time.Duration
		after  int
	}{
		{"fixed, at once", "fixed", map[string]string{"window": "4"}, ms(240), 0},
		{"fixed, postponed", "fixed", map[string]string{"window": "4", "postpone-retx": "true"}, 0, 99},
		// The span limit, here max(8 windows, 64) segments, releases it:
		// with segment 2 missing, segment 65 is the last new one allowed.
		{"fixed, postponed, span full", "fixed", map[string]string{"window": "4", "postpone-retx": "true", "span-windows": "8"}, 0, 65},
		{"ndn-vegas (postpones by default)", "ndn-vegas", nil, 0, 99},
		// The lost Interest's 300 ms lifetime runs out at 333 ms; the next
		// Data after that arrives at 339 ms (= 240 + 33 + 66).
		{"fixed, lifetime expired", "fixed", map[string]string{"window": "4", "postpone-retx": "true", "lifetime": "300ms"}, ms(339), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, tt.pipeline, tt.params, 99, dropFirst(ms(33), 2))
			f.run(t)
			if st := f.p.Stats(); !st.Complete || st.Retransmissions != 1 {
				t.Fatalf("complete %v with %d retransmissions, want complete with 1", st.Complete, st.Retransmissions)
			}
			retx, last := -1, -1
			for i, s := range f.net.log {
				if s.seg == 2 && s.attempt == 1 {
					retx = i
				}
				if s.seg == 99 {
					last = i
				}
			}
			at := f.net.log[retx].at
			if tt.wantAt == 0 {
				// The retransmission directly follows the first Interest
				// for segment after (Interests in between are also
				// first transmissions of segments <= after).
				prev := -1
				for i := retx - 1; i >= 0; i-- {
					if f.net.log[i].attempt == 0 {
						prev = int(f.net.log[i].seg)
						break
					}
				}
				if prev != tt.after {
					t.Errorf("retransmission sent at %v (Interest #%d) after the first Interest for segment %d, want after segment %d", at, retx, prev, tt.after)
				}
				for _, s := range f.net.log[:retx] {
					if int(s.seg) > tt.after {
						t.Errorf("segment %d requested before the retransmission, want none past %d", s.seg, tt.after)
						break
					}
				}
				return
			}
			if at != tt.wantAt || retx > last {
				t.Errorf("retransmission sent at %v (Interest #%d, last new #%d), want at %v before the last new segment", at, retx, last, tt.wantAt)
			}
		})
	}
	if !DefaultOptions("ndn-vegas").PostponeRetx || DefaultOptions("aimd").PostponeRetx {
		t.Error("PostponeRetx defaults: want true for ndn-vegas only")
	}
}

func TestHoleDetection(t *testing.T) {
	// AIMD with init-cwnd 8 and hole detection; Data 0 at 30 ms makes
	// cwnd 9 and sends 1..final. Segment 1 is lost, so every later Data of
	// that window is out of order, and out-of-order Data leave the window
	// unchanged.
	tests := []struct {
		name      string
		final     uint64
		wantHole  uint64
		wantTmout uint64 // loss events by timeout
		wantCwnd  float64
	}{
		// Five out-of-order Data (2-6): no reaction; segment 1's timeout
		// is the loss event (9 -> 4.5), its Data adds 1/4.5.
		{"five out of order", 6, 0, 1, caGrowth(4.5, 1)},
		// Six (2-7): the sixth fires (9 -> 4.5); the timeout that follows
		// belongs to the same loss event.
		{"six out of order", 7, 1, 0, caGrowth(4.5, 1)},
		// Seven (2-8): fires on the sixth; the seventh starts a new count.
		{"seven out of order", 8, 1, 0, caGrowth(4.5, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", map[string]string{"init-cwnd": "8", "hole-detection": "true"}, tt.final, dropFirst(ms(30), 1))
			f.run(t)
			st := f.p.Stats()
			if st.Decreases[cc.CauseHole] != tt.wantHole || st.Decreases[cc.CauseTimeout] != tt.wantTmout {
				t.Errorf("hole decreases %d, timeout decreases %d; want %d, %d", st.Decreases[cc.CauseHole], st.Decreases[cc.CauseTimeout], tt.wantHole, tt.wantTmout)
			}
			if got := f.p.Algorithm().Cwnd(); math.Abs(got-tt.wantCwnd) > 1e-12 {
				t.Errorf("cwnd %v, want %v", got, tt.wantCwnd)
			}
			if !st.Complete || st.Timeouts != 1 {
				t.Errorf("complete %v, timeouts %d; want complete, 1", st.Complete, st.Timeouts)
			}
		})
	}
}

func TestHoleDetectionFiresOnSixthOutOfOrderData(t *testing.T) {
	// Seven out-of-order Data (segments 2-8): the window is 9 through the
	// first five and falls to 4.5 on the sixth (segment 7).
	f := newFetch(t, "aimd", map[string]string{"init-cwnd": "8", "hole-detection": "true"}, 8, dropFirst(ms(30), 1))
	f.p.Start()
	f.s.run(ms(30))
	start := len(f.tr.cwnd)
	f.s.run(ms(60))
	want := []float64{9, 9, 9, 9, 9, 4.5, 4.5}
	if got := f.tr.cwnd[start:]; !reflect.DeepEqual(got, want) {
		t.Errorf("cwnd after each out-of-order Data %v, want %v", got, want)
	}
}

func TestStateBoundedByWindow(t *testing.T) {
	// A long fetch that loses the first Interest of every 100th segment:
	// per-flow state must depend on the window and on how long a lost
	// segment holds the ring's base (its RTO, ~7 RTTs here), never on the
	// 100,000 segments.
	tests := []struct {
		pipeline string
		params   map[string]string
	}{
		{"fixed", map[string]string{"window": "32"}},
		{"aimd", nil},
		// NDN-Vegas postpones a retransmission up to the Interest
		// lifetime (4 s); the span limit releases it sooner.
		{"ndn-vegas", nil},
	}
	for _, tt := range tests {
		t.Run(tt.pipeline, func(t *testing.T) {
			f := newFetch(t, tt.pipeline, tt.params, 99999, func(seg uint64, attempt int) action {
				if seg%100 == 50 && attempt == 0 {
					return action{drop: true}
				}
				return action{delay: ms(33)}
			})
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Segments != 100000 || st.Timeouts != 1000 {
				t.Fatalf("complete %v, %d segments, %d timeouts; want 100000 segments, 1000 timeouts", st.Complete, st.Segments, st.Timeouts)
			}
			maxCwnd := 0.0
			for _, w := range f.tr.cwnd {
				maxCwnd = max(maxCwnd, w)
			}
			// A lost segment holds the base for RTO + one check (~240 ms,
			// ~7.3 RTTs) while the window moves on; the ring is a power
			// of two, so it may be up to twice that.
			limit := int(2 * 8 * maxCwnd)
			t.Logf("max cwnd %.1f: ring %d, order queue %d, retx queue %d", maxCwnd, len(f.p.ring), f.p.orderQ.Cap(), f.p.retxQ.Cap())
			if len(f.p.ring) > limit || f.p.orderQ.Cap() > limit || f.p.retxQ.Cap() > limit {
				t.Errorf("ring %d, order queue %d, retx queue %d slots; want each <= %d (16 x max cwnd)",
					len(f.p.ring), f.p.orderQ.Cap(), f.p.retxQ.Cap(), limit)
			}
		})
	}
}

func TestRTOBacksOffOnEveryRepeatedTimeout(t *testing.T) {
	// Nothing answers for a while. Before the first Data no loss event can
	// pass the conservative filter (seed 000's recPoint), so the first
	// timeout leaves the initial 1 s RTO; but each timeout of a
	// retransmission doubles it: segment 0 goes out at 0, 1, 2 and 4 s
	// (without that rule: 0, 1, 2, 3).
	tests := []struct {
		name   string
		silent int // transmissions of segment 0 left unanswered
		want   []time.Duration
	}{
		{"answered at once", 0, []time.Duration{0}},
		{"one timeout", 1, []time.Duration{0, ms(1000)}},
		{"three timeouts", 3, []time.Duration{0, ms(1000), ms(2000), ms(4000)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", nil, 0, func(seg uint64, attempt int) action {
				if attempt < tt.silent {
					return action{drop: true}
				}
				return action{delay: ms(40)}
			})
			f.run(t)
			var got []time.Duration
			for _, s := range f.net.log {
				got = append(got, s.at)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("segment 0 sent at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRTOUntouchedByMarksAndNacks(t *testing.T) {
	// A marked Data and a Congestion Nack each cost a loss event, but only
	// a timeout backs the RTO off.
	tests := []struct {
		name string
		act  action
	}{
		{"mark", action{delay: ms(40), mark: true}},
		{"congestion nack", action{delay: ms(40), nack: ndn.NackCongestion}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", map[string]string{"init-cwnd": "4"}, 19, func(seg uint64, attempt int) action {
				if seg == 5 && attempt == 0 {
					return tt.act
				}
				return action{delay: ms(40)}
			})
			f.p.Start()
			f.s.run(ms(100)) // segments 0-3 answered at 40 ms: RTO at its 200 ms floor
			before := f.p.rto.rto()
			f.s.run(time.Hour)
			st := f.p.Stats()
			if !st.Complete || st.LossEvents != 1 || st.Timeouts != 0 {
				t.Fatalf("complete %v, %d loss events, %d timeouts; want complete, 1, 0", st.Complete, st.LossEvents, st.Timeouts)
			}
			if before != ms(200) || f.p.rto.rto() != before {
				t.Errorf("RTO %v before the %s and %v after, want 200ms both", before, tt.name, f.p.rto.rto())
			}
		})
	}
}

func TestOutageStateBounded(t *testing.T) {
	// The producer goes silent after segment 20 for an hour of virtual
	// time with unlimited retries: the RTO climbs to a 10 s ceiling and
	// the pipeline's queues stay the size of the window, however many
	// retransmissions the outage costs.
	f := newFetch(t, "aimd", map[string]string{"retries": "-1", "timeout": "0s", "max-rto": "10s"}, 99999, func(seg uint64, attempt int) action {
		if seg > 20 {
			return action{drop: true}
		}
		return action{delay: ms(33)}
	})
	f.p.Start()
	f.s.run(time.Hour)
	st := f.p.Stats()
	if st.Segments != 21 || st.Retransmissions < 1000 {
		t.Fatalf("%d segments, %d retransmissions; want 21 and an hour of retries", st.Segments, st.Retransmissions)
	}
	if got := f.p.rto.rto(); got != 10*time.Second {
		t.Errorf("RTO after an hour of silence %v, want the 10s ceiling", got)
	}
	if len(f.p.ring) > 128 || f.p.orderQ.Cap() > 256 || f.p.retxQ.Cap() > 128 {
		t.Errorf("ring %d, order queue %d, retx queue %d slots after %d retransmissions; want at most 128, 256, 128",
			len(f.p.ring), f.p.orderQ.Cap(), f.p.retxQ.Cap(), st.Retransmissions)
	}
}

// hugeWindow is an algorithm whose window has grown past what an int holds.
type hugeWindow struct{}

func (hugeWindow) Name() string                       { return "huge" }
func (hugeWindow) OnData(cc.Ack)                      {}
func (hugeWindow) OnDecrease(time.Duration, cc.Cause) {}
func (hugeWindow) Cwnd() float64                      { return 1e19 }
func (hugeWindow) Ssthresh() float64                  { return 1e19 }

func TestWindowBeyondIntIsClamped(t *testing.T) {
	// int(1e19) is negative: the pipeline sent nothing and waited forever.
	// It acts on at most cc.MaxWindow segments instead.
	f := newFetch(t, "fixed", nil, 2*cc.MaxWindow, always(ms(10)))
	f.p.alg = hugeWindow{}
	f.run(t)
	if len(f.done) != 1 || f.done[0] != nil {
		t.Fatalf("OnDone(%v), want success", f.done)
	}
	if f.net.maxIn != cc.MaxWindow {
		t.Errorf("at most %d Interests in flight, want cc.MaxWindow = %d", f.net.maxIn, cc.MaxWindow)
	}
}

// TestKeepPending: segment 2's first Interest is answered only after 500
// ms, so the RTO (200 ms) sends it again at 240 ms, answered at 273 ms.
// With keep-pending the first Interest is still pending in the face then
// (its lifetime is 4 s): the Data answers both and counts twice. (The
// first Interest's own Data comes after the fetch has ended.)
func TestKeepPending(t *testing.T) {
	script := func(seg uint64, attempt int) action {
		if seg == 2 && attempt == 0 {
			return action{delay: ms(500)}
		}
		return action{delay: ms(33)}
	}
	for _, tc := range []struct {
		keep         string
		wantReceived uint64
	}{{"false", 4}, {"true", 5}} {
		t.Run("keep-pending="+tc.keep, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": "4", "keep-pending": tc.keep}, 3, script)
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Segments != 4 || st.Retransmissions != 1 {
				t.Fatalf("complete %v, %d segments, %d retransmissions; want true, 4, 1", st.Complete, st.Segments, st.Retransmissions)
			}
			if st.DataReceived != tc.wantReceived {
				t.Errorf("Data received %d, want %d", st.DataReceived, tc.wantReceived)
			}
		})
	}
}

func TestSpuriousTimeouts(t *testing.T) {
	// Window 4, 33 ms, segments 0-99. Segment 2's first Interest is
	// answered after 250 ms, at 283 ms: it times out at 240 ms, and a
	// retransmission (answered after 100 ms) leaves then, unless
	// postponed. stall is how long before OnPacket the runtime read the
	// Data (Config.Arrival).
	tests := []struct {
		name                   string
		params                 map[string]string
		stall                  time.Duration
		wantSpurious, wantLate uint64
		wantRetransmissions    uint64
	}{
		{"arrived after the retransmission left", map[string]string{"window": "4"}, 0, 0, 0, 1},
		{"read 50 ms before it was handled, before the retransmission left", map[string]string{"window": "4"}, ms(50), 1, 0, 1},
		{"read 40 ms before it was handled, after the retransmission left", map[string]string{"window": "4"}, ms(40), 0, 0, 1},
		{"arrived before the postponed retransmission", map[string]string{"window": "4", "postpone-retx": "true"}, 0, 1, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", tt.params, 99, func(seg uint64, attempt int) action {
				switch {
				case seg == 2 && attempt == 0:
					return action{delay: ms(250)}
				case seg == 2:
					return action{delay: ms(100)}
				}
				return action{delay: ms(33)}
			})
			f.p.cfg.Arrival = func() time.Duration { return f.s.Now() - tt.stall }
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Timeouts != 1 || st.SpuriousTimeouts != tt.wantSpurious || st.LateData != tt.wantLate || st.Retransmissions != tt.wantRetransmissions {
				t.Errorf("complete %v, timeouts %d, spurious %d, late Data %d, retransmissions %d; want complete, 1, %d, %d, %d",
					st.Complete, st.Timeouts, st.SpuriousTimeouts, st.LateData, st.Retransmissions, tt.wantSpurious, tt.wantLate, tt.wantRetransmissions)
			}
		})
	}
}

func TestNackLossIsNoSpuriousTimeout(t *testing.T) {
	// Segment 2's first Interest gets a Duplicate Nack and is asked again
	// at once; its Data, handled as if read long before, is no timeout's.
	f := newFetch(t, "fixed", map[string]string{"window": "4"}, 9, func(seg uint64, attempt int) action {
		if seg == 2 && attempt == 0 {
			return action{delay: ms(10), nack: ndn.NackDuplicate}
		}
		return action{delay: ms(33)}
	})
	f.p.cfg.Arrival = func() time.Duration { return f.s.Now() - time.Second }
	f.run(t)
	if st := f.p.Stats(); !st.Complete || st.Timeouts != 0 || st.SpuriousTimeouts != 0 || st.Retransmissions != 1 {
		t.Errorf("complete %v, timeouts %d, spurious %d, retransmissions %d; want complete, 0, 0, 1", st.Complete, st.Timeouts, st.SpuriousTimeouts, st.Retransmissions)
	}
}

func TestStallsDelayTimeouts(t *testing.T) {
	// Window 4, 33 ms, segments 0-19. Segment 2 leaves at 33 ms and its
	// Data takes 250 ms, past the 200 ms RTO. If the runtime reports a
	// 100 ms stall at 100 ms, the wait counts 150 ms without it: no
	// timeout, and its sample is the 250 ms it waited.
	tests := []struct {
		name         string
		stall        time.Duration
		wantTimeouts uint64
		wantRTTMax   time.Duration
	}{
		{"no stall", 0, 1, ms(33)}, // retransmitted: no sample (Karn)
		{"100 ms stall", ms(100), 0, ms(250)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "fixed", map[string]string{"window": "4"}, 19, func(seg uint64, attempt int) action {
				if seg == 2 && attempt == 0 {
					return action{delay: ms(250)}
				}
				return action{delay: ms(33)}
			})
			f.p.cfg.Stalls = func() time.Duration {
				if f.s.Now() >= ms(100) {
					return tt.stall
				}
				return 0
			}
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Timeouts != tt.wantTimeouts || st.Retransmissions != tt.wantTimeouts {
				t.Errorf("complete %v, %d timeouts, %d retransmissions; want complete, %d and %d", st.Complete, st.Timeouts, st.Retransmissions, tt.wantTimeouts, tt.wantTimeouts)
			}
			if st.RTTMax != tt.wantRTTMax {
				t.Errorf("RTT max %v, want %v", st.RTTMax, tt.wantRTTMax)
			}
		})
	}
}

// TestPacedDelayHostStopRetransmitsLittle: the network stops for 400 ms
// (a producer or forwarder descheduled): every Data due meanwhile comes
// at the end of the stop. On a host path (0.3 ms) paced-delay's loss
// window keeps the pipeline from sending most of the late flight again,
// also when a mark's decrease just before the stop makes the conservative
// filter ignore the timeouts; on a farther path (2 ms) a quiet timeout
// leaves the window, and the whole flight is sent again.
func TestPacedDelayHostStopRetransmitsLittle(t *testing.T) {
	const stopAt, stopFor = 5 * time.Millisecond, 400 * time.Millisecond
	cases := []struct {
		name        string
		base        time.Duration
		markBefore  bool
		wholeFlight bool // every timed-out Interest is sent again
	}{
		{"host path", ms(0.3), false, false},
		{"host path, mark just before", ms(0.3), true, false},
		{"farther path", ms(2), false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var f *fetch
			marked := false
			f = newFetch(t, "paced-delay", map[string]string{"init-ssthresh": "32"}, 20000, func(uint64, int) action {
				now := f.s.Now()
				a := action{delay: c.base}
				if at := now + c.base; at >= stopAt && at < stopAt+stopFor {
					a.delay = stopAt + stopFor - now
				} else if c.markBefore && !marked && at >= stopAt-c.base && at < stopAt {
					a.mark, marked = true, true
				}
				return a
			})
			f.run(t)
			st := f.p.Stats()
			if !st.Complete || st.Timeouts < 20 {
				t.Fatalf("complete %v, timeouts %d: want a flight of at least 20 timed out", st.Complete, st.Timeouts)
			}
			if c.markBefore && st.Marks != 1 {
				t.Fatalf("marks %d, want 1", st.Marks)
			}
			if c.wholeFlight && st.Retransmissions != st.Timeouts || !c.wholeFlight && 3*st.Retransmissions > st.Timeouts {
				t.Errorf("%d timeouts, %d retransmissions; want them equal: %v", st.Timeouts, st.Retransmissions, c.wholeFlight)
			}
			t.Logf("%d timeouts, %d retransmissions, %d spurious", st.Timeouts, st.Retransmissions, st.SpuriousTimeouts)
		})
	}
}
