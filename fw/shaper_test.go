package fw

import (
	"testing"
	"time"
)

// TestInterestShaper: with 1250-byte Data at 1 Mbit/s the shaper lets one
// Interest out every 10 ms; two wait, and the fourth, finding the queue
// full, is dropped and Nacked (Congestion, marked) to its downstream.
func TestInterestShaper(t *testing.T) {
	r := newRig(t, Config{Name: "r1"})
	r.face("down", FaceNetwork)
	up := r.face("up", FaceNetwork)
	r.route("/a", "up", 1)
	if err := r.f.SetInterestShaper(up, ShaperConfig{Rate: 1e6, DataSize: 1250, Queue: 2}); err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	r.run([]step{
		{at: 0, on: "down", pkt: interest("/a/1", 1), want: map[string][]string{"up": {"I /a/1 nonce=1"}}, pit: 1},
		{at: 1 * ms, on: "down", pkt: interest("/a/2", 2), pit: 2},
		{at: 2 * ms, on: "down", pkt: interest("/a/3", 3), pit: 3},
		{at: 3 * ms, on: "down", pkt: interest("/a/4", 4), want: map[string][]string{"down": {"N:Congestion /a/4 nonce=4 mark=1"}}, pit: 3},
		{at: 9 * ms, pit: 3},
		{at: 10 * ms, want: map[string][]string{"up": {"I /a/2 nonce=2"}}, pit: 3},
		{at: 19 * ms, pit: 3},
		{at: 20 * ms, want: map[string][]string{"up": {"I /a/3 nonce=3"}}, pit: 3},
		// Idle long enough: the next Interest leaves at once.
		{at: 45 * ms, on: "down", pkt: interest("/a/5", 5), want: map[string][]string{"up": {"I /a/5 nonce=5"}}, pit: 4},
	})
	if c := r.f.ShaperCounters(up); c != (ShaperCounters{Delayed: 2, Dropped: 1}) {
		t.Errorf("shaper counters %+v, want 2 delayed, 1 dropped", c)
	}
}

func TestInterestShaperBadConfig(t *testing.T) {
	r := newRig(t, Config{Name: "r1"})
	up := r.face("up", FaceNetwork)
	for _, c := range []ShaperConfig{{Rate: 0, DataSize: 1000}, {Rate: 1e6, DataSize: 0}, {Rate: 1e6, DataSize: 1000, Queue: -1}} {
		if err := r.f.SetInterestShaper(up, c); err == nil {
			t.Errorf("SetInterestShaper(%+v): no error", c)
		}
	}
	if err := r.f.SetInterestShaper(99, ShaperConfig{Rate: 1e6, DataSize: 1000}); err == nil {
		t.Error("SetInterestShaper on no face: no error")
	}
}
