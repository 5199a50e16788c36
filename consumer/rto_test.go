package consumer

import (
	"errors"
	"testing"
	"time"
)

// pauseScript answers every Interest after 40 ms, and drops every
// Interest sent during [from, to): the producer is paused. The Data of
// the first Interest sent in the 40 ms before the pause carries a
// congestion mark.
func pauseScript(now func() time.Duration, from, to time.Duration) func(uint64, int) action {
	marked := false
	return func(seg uint64, _ int) action {
		t := now()
		if t >= from && t < to {
			return action{drop: true}
		}
		mark := !marked && t >= from-ms(40) && t < from
		marked = marked || mark
		return action{delay: ms(40), mark: mark}
	}
}

// intervals returns the gaps between a segment's transmissions.
func TestOutageAfterMarkSurvives(t *testing.T) {
	// A congestion mark at segment 5 takes the loss event of its RTT, so
	// recPoint lies past everything sent before the pause: during the
	// whole pause no timeout passes the conservative filter. The RTO
	// must still double at each unanswered retransmission (RFC 6298,
	// 5.5), so that 15 retries outlast a 10 s pause (with the RTO stuck
	// at its 200 ms floor they ran out after about 6 s).
	for _, pipeline := range []string{"aimd", "cubic"} {
		t.Run(pipeline, func(t *testing.T) {
			var f *fetch
			now := func() time.Duration { return f.s.Now() }
			f = newFetch(t, pipeline, map[string]string{"init-ssthresh": "8"}, 1999, pauseScript(now, ms(1000), ms(11000)))
			f.run(t)
			st := f.p.Stats()
			if len(f.done) != 1 || f.done[0] != nil || !st.Complete {
				t.Fatalf("fetch ended with %v (complete %v) at %v; want it to survive the 10 s pause", f.done, st.Complete, f.doneAt)
			}
			if st.Marks != 1 {
				t.Fatalf("%d marks, want 1", st.Marks)
			}
			// The first segment lost in the pause: each of its
			// retransmissions that went unanswered doubled the RTO, up to
			// max-rto, and the next went out when that RTO ran out (the
			// check runs every 10 ms).
			var lost uint64
			for _, s := range f.net.log {
				if s.at >= ms(1000) {
					lost = s.seg
					break
				}
			}
			tx := f.net.sendsOf(lost)
			maxRTO, tick := f.p.opt.RTT.MaxRTO, f.p.opt.CheckInterval
			doubled := 0
			for i := 1; i+1 < len(tx); i++ {
				if gap := tx[i+1].at - tx[i].at; gap < tx[i].rto || gap >= tx[i].rto+tick {
					t.Errorf("segment %d: transmission %d at %v, %v after the one sent with RTO %v", lost, i+1, tx[i+1].at, gap, tx[i].rto)
				}
				if want := min(2*tx[i].rto, maxRTO); tx[i+1].rto != want {
					t.Errorf("segment %d: transmission %d sent with RTO %v after one with %v went unanswered, want %v", lost, i+1, tx[i+1].rto, tx[i].rto, want)
				}
				doubled++
			}
			if doubled < 5 || tx[len(tx)-1].at < ms(11000) {
				t.Errorf("segment %d sent at %v: want at least 6 transmissions, the last answered after the pause", lost, tx)
			}
		})
	}
}

func TestGiveUpBudget(t *testing.T) {
	// The producer never answers (and no Nack comes): the fetch ends when
	// the budget is spent, not after 15 retries of an RTO doubling to 10
	// s (about two minutes) — whichever comes first ends it.
	tests := []struct {
		name    string
		params  map[string]string
		want    error
		wantEnd time.Duration
	}{
		{"default budget", nil, ErrGaveUp, 30 * time.Second},
		{"budget 5s", map[string]string{"timeout": "5s"}, ErrGaveUp, 5 * time.Second},
		{"retries first", map[string]string{"retries": "2"}, ErrRetriesExhausted, 4 * time.Second},
		{"no budget, no limit", map[string]string{"timeout": "0s", "retries": "-1"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetch(t, "aimd", tt.params, 9, func(uint64, int) action { return action{drop: true} })
			f.p.Start()
			f.s.run(10 * time.Minute)
			if tt.want == nil {
				if len(f.done) != 0 {
					t.Fatalf("fetch ended with %v; without budget or retry limit it must go on", f.done)
				}
				return
			}
			if len(f.done) != 1 || !errors.Is(f.done[0], tt.want) {
				t.Fatalf("OnDone(%v), want %v", f.done, tt.want)
			}
			// Segment 0 goes out at 0, 1 and 2 s (its first timeout, before
			// any Data, is no loss event and keeps the 1 s RTO; the
			// retransmission's doubles it): two retries are spent at 4 s.
			// A budget ends the fetch at the first check once it is spent.
			if f.doneAt < tt.wantEnd || f.doneAt > tt.wantEnd+f.p.opt.CheckInterval {
				t.Errorf("ended at %v, want %v", f.doneAt, tt.wantEnd)
			}
		})
	}
}

func TestGiveUpBudgetRestartsWithEachData(t *testing.T) {
	// Data arrive every 4 s (a 4 s budget would end a fetch that
	// waited longer); a budget of 5 s never runs out.
	f := newFetch(t, "fixed", map[string]string{"window": "1", "timeout": "5s", "fixed-rto": "10s"}, 5,
		func(uint64, int) action { return action{delay: 4 * time.Second} })
	f.run(t)
	if len(f.done) != 1 || f.done[0] != nil {
		t.Fatalf("OnDone(%v) at %v, want success", f.done, f.doneAt)
	}
}

func TestReissueAfterReconnect(t *testing.T) {
	// The connection is lost from 1 s to 3 s: every Interest sent then
	// is lost. At 3 s the caller knows the connection is back and calls
	// Reissue: the outstanding Interests go out at once, instead of when
	// their backed-off RTOs run out, and the window stays as it was.
	run := func(reissue bool) (sent int, before, after float64, end time.Duration) {
		var f *fetch
		now := func() time.Duration { return f.s.Now() }
		f = newFetch(t, "aimd", map[string]string{"init-ssthresh": "8"}, 1999, func(uint64, int) action {
			if t := now(); t >= ms(1000) && t < ms(3000) {
				return action{drop: true}
			}
			return action{delay: ms(40)}
		})
		f.p.Start()
		f.s.run(ms(3000) - 1)
		outstanding, n := f.p.inFlight, len(f.net.log)
		before = f.p.Algorithm().Cwnd()
		if reissue {
			f.s.After(ms(3000)-f.s.Now(), f.p.Reissue)
			f.s.run(ms(3000))
			if sent = len(f.net.log) - n; sent < outstanding || outstanding == 0 {
				t.Errorf("Reissue sent %d Interests, want the %d outstanding", sent, outstanding)
			}
		}
		after = f.p.Algorithm().Cwnd()
		f.s.run(time.Hour)
		if len(f.done) != 1 || f.done[0] != nil {
			t.Fatalf("fetch ended with %v", f.done)
		}
		return sent, before, after, f.doneAt
	}
	_, _, _, waited := run(false)
	_, before, after, reissued := run(true)
	if after != before {
		t.Errorf("window %v after Reissue, want %v as before", after, before)
	}
	if reissued >= waited {
		t.Errorf("with Reissue the fetch ended at %v, without at %v; want earlier", reissued, waited)
	}
}
