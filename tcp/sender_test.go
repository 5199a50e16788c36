package tcp

import (
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/rtt"
)

// scriptedSender is a sender whose segments go to a list instead of a
// network; the test plays the receiver by calling OnAck.
type scriptedSender struct {
	*Sender
	clock *vclock.Scheduler
	sent  []uint64
	at    []time.Duration
}

func newScriptedSender(t *testing.T, segs uint64) *scriptedSender {
	t.Helper()
	s := &vclock.Scheduler{}
	alg, err := NewAlgorithm(Reno)
	if err != nil {
		t.Fatal(err)
	}
	ss := &scriptedSender{clock: s}
	ss.Sender = NewSender(s, alg, rtt.DefaultConfig(), segs, func(seq uint64) {
		ss.sent = append(ss.sent, seq)
		ss.at = append(ss.at, s.Now())
	})
	return ss
}

// advance runs the scheduler (the RTO timer) for d.
func (ss *scriptedSender) advance(d time.Duration) {
	end := ss.clock.Now() + d
	ss.clock.At(end, func() {})
	ss.clock.RunUntil(end, nil)
}

// take returns the segments sent since the last call.
func (ss *scriptedSender) take() []uint64 {
	out := ss.sent
	ss.sent, ss.at = nil, nil
	return out
}

func TestSenderSlowStart(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.TrySend()
	if got := ss.take(); !slices.Equal(got, []uint64{0}) {
		t.Fatalf("initial window sent %v, want [0]", got)
	}
	// Each ACK of new data adds one segment (slow start) and frees one:
	// two segments go out per ACK.
	for ack := uint64(1); ack <= 3; ack++ {
		ss.advance(10 * time.Millisecond)
		ss.OnAck(ack)
		want := []uint64{2*ack - 1, 2 * ack}
		if got := ss.take(); !slices.Equal(got, want) {
			t.Fatalf("after ack %d sent %v, want %v", ack, got, want)
		}
		if w := ss.Window(); w != float64(ack+1) {
			t.Fatalf("after ack %d window %v, want %d", ack, w, ack+1)
		}
	}
}

// growTo acknowledges one segment at a time until the window is w, with
// 10 ms between ACKs.
func (ss *scriptedSender) growTo(t *testing.T, w float64) {
	t.Helper()
	ss.TrySend()
	for ss.Window() < w {
		ss.advance(10 * time.Millisecond)
		ss.OnAck(ss.una + 1)
	}
	ss.take()
}

// Two segments lost in one window: the third duplicate ACK retransmits the
// first and halves the window; the partial ACK retransmits the second and
// deflates the window; the full ACK ends recovery at ssthresh. No RTO.
func TestSenderNewRenoFastRecovery(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.growTo(t, 8)
	if ss.una != 7 || ss.nxt != 15 {
		t.Fatalf("una %d nxt %d, want 7 and 15", ss.una, ss.nxt)
	}
	// Segments 7 and 9 are lost; 8, 10, 11, ... arrive.
	steps := []struct {
		name     string
		ack      uint64
		sent     []uint64
		window   float64
		recovers bool
	}{
		{"8 arrives: dup 1", 7, nil, 8, false},
		{"10 arrives: dup 2", 7, nil, 8, false},
		{"11 arrives: dup 3, fast retransmit", 7, []uint64{7}, 4 + 3, true},
		{"12 arrives: dup 4, window inflates", 7, nil, 4 + 4, true},
		{"13 arrives: dup 5", 7, []uint64{15}, 4 + 5, true},
		{"14 arrives: dup 6", 7, []uint64{16}, 4 + 6, true},
		{"7 arrives: partial ACK of 2", 9, []uint64{9, 17}, 4 + 6 + 1 - 2, true},
		{"15 arrives: dup 1", 9, []uint64{18}, 4 + 6, true},
		{"16 arrives: dup 2", 9, []uint64{19}, 4 + 7, true},
		{"9 arrives: full ACK", 17, []uint64{20}, 4, false},
	}
	for _, st := range steps {
		ss.advance(time.Millisecond)
		ss.OnAck(st.ack)
		if got := ss.take(); !slices.Equal(got, st.sent) {
			t.Errorf("%s: sent %v, want %v", st.name, got, st.sent)
		}
		if w := ss.Window(); w != st.window {
			t.Errorf("%s: window %v, want %v", st.name, w, st.window)
		}
		if ss.recovering != st.recovers {
			t.Errorf("%s: recovering %v, want %v", st.name, ss.recovering, st.recovers)
		}
	}
	if ss.alg.Ssthresh() != 4 {
		t.Errorf("ssthresh %v, want 4 (half of 8)", ss.alg.Ssthresh())
	}
	want := SenderStats{SegmentsSent: 23, Retransmissions: 2, FastRetransmits: 1, DupAcks: 8}
	if got := ss.stats; got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// With nothing acknowledged, the RTO doubles at every expiry up to the
// 10 s maximum; the first expiry halves ssthresh (to its floor of 2 from a
// window of 1) and restarts the window at 1, later ones keep ssthresh.
func TestSenderRTOBackoff(t *testing.T) {
	ss := newScriptedSender(t, 10)
	ss.TrySend()
	ss.advance(30 * time.Second)
	wantAt := []time.Duration{0, 1 * time.Second, 3 * time.Second, 7 * time.Second, 15 * time.Second, 25 * time.Second}
	if !slices.Equal(ss.at, wantAt) {
		t.Errorf("segment 0 sent at %v, want %v", ss.at, wantAt)
	}
	if got := ss.take(); !slices.Equal(got, []uint64{0, 0, 0, 0, 0, 0}) {
		t.Errorf("sent %v, want segment 0 six times", got)
	}
	if ss.stats.Timeouts != 5 || ss.stats.TimeoutDecreases != 1 {
		t.Errorf("timeouts %d, decreases %d; want 5 and 1", ss.stats.Timeouts, ss.stats.TimeoutDecreases)
	}
	if ss.Window() != 1 || ss.alg.Ssthresh() != 2 {
		t.Errorf("window %v ssthresh %v, want 1 and 2", ss.Window(), ss.alg.Ssthresh())
	}
	// Karn's rule: the ACK of a retransmitted segment gives no sample, so
	// the backed-off RTO stays until a segment sent once is acknowledged.
	ss.OnAck(1)
	if rto := ss.rtt.RTO(); rto != 10*time.Second {
		t.Errorf("RTO after the ACK of a retransmission %v, want 10s (no sample)", rto)
	}
	ss.take()
	ss.advance(50 * time.Millisecond)
	ss.OnAck(2)
	if rto := ss.rtt.RTO(); rto != 200*time.Millisecond {
		t.Errorf("RTO after a 50 ms sample %v, want the 200ms minimum", rto)
	}
}

// An RTO after a burst of losses halves the window through the algorithm,
// restarts it at 1 and goes back to snd.una.
func TestSenderRTOGoesBackN(t *testing.T) {
	ss := newScriptedSender(t, 100)
	ss.growTo(t, 8)                    // una 7, segments 7..14 outstanding
	ss.advance(250 * time.Millisecond) // RTO: the 200 ms minimum
	if ss.stats.Timeouts != 1 {
		t.Fatalf("%d timeouts, want 1", ss.stats.Timeouts)
	}
	if got := ss.take(); !slices.Equal(got, []uint64{7}) {
		t.Fatalf("after the RTO sent %v, want [7]", got)
	}
	if ss.Window() != 1 || ss.alg.Ssthresh() != 4 {
		t.Errorf("window %v ssthresh %v, want 1 and 4", ss.Window(), ss.alg.Ssthresh())
	}
	// The receiver had 8 and 9: the ACK jumps to 10; slow start resends
	// from there, and 10..14 count as retransmissions.
	ss.advance(10 * time.Millisecond)
	ss.OnAck(10)
	if got := ss.take(); !slices.Equal(got, []uint64{10, 11}) {
		t.Errorf("after ACK 10 sent %v, want [10 11]", got)
	}
	if ss.stats.Retransmissions != 3 {
		t.Errorf("%d retransmissions, want 3 (7, 10, 11)", ss.stats.Retransmissions)
	}
}
