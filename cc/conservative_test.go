package cc

import "testing"

// consStep is one event of seed 000's scenario: send Interests first..last,
// receive the Data for seg, or a congestion signal (loss) and whether it
// was a loss event.
type consStep struct {
	name        string
	send        [2]uint64 // first, last (inclusive); used when op == "send"
	op          string    // "send", "data" or "loss"
	seg         uint64
	event       bool
	highData    uint64
	highInt     uint64
	recPoint    uint64
	hasLossEver bool
}

func runConservative(t *testing.T, c *Conservative, steps []consStep) {
	t.Helper()
	for _, s := range steps {
		switch s.op {
		case "send":
			for seg := s.send[0]; seg <= s.send[1]; seg++ {
				c.OnInterestSent(seg)
			}
		case "data":
			c.OnData(s.seg)
		case "loss":
			if got := c.TryLossEvent(); got != s.event {
				t.Errorf("%s: loss event %v, want %v", s.name, got, s.event)
			}
		}
		if c.HighData() != s.highData || c.HighInterest() != s.highInt || c.RecPoint() != s.recPoint || c.HasLossEvent() != s.hasLossEver {
			t.Errorf("%s: highData %d highInterest %d recPoint %d hasLoss %v, want %d %d %d %v",
				s.name, c.HighData(), c.HighInterest(), c.RecPoint(), c.HasLossEvent(), s.highData, s.highInt, s.recPoint, s.hasLossEver)
		}
	}
}

func TestConservativeSeed000(t *testing.T) {
	c := NewConservative(true)
	runConservative(t, c, []consStep{
		{name: "initially 0/0/0: no Data yet, not a loss event", op: "loss", event: false},
		{name: "send 0..9", op: "send", send: [2]uint64{0, 9}, highInt: 9},
		{name: "timeout before any Data", op: "loss", event: false, highInt: 9},
		{name: "data 0", op: "data", seg: 0, highData: 0, highInt: 9},
		{name: "data 4", op: "data", seg: 4, highData: 4, highInt: 9},
		{name: "first timeout of the burst reacts", op: "loss", event: true, highData: 4, highInt: 9, recPoint: 9, hasLossEver: true},
		{name: "second timeout, same RTT", op: "loss", event: false, highData: 4, highInt: 9, recPoint: 9, hasLossEver: true},
		{name: "third timeout, same RTT", op: "loss", event: false, highData: 4, highInt: 9, recPoint: 9, hasLossEver: true},
		{name: "retransmit 5..7 and send 10..14", op: "send", send: [2]uint64{5, 14}, highData: 4, highInt: 14, recPoint: 9, hasLossEver: true},
		{name: "data 9 (sent before the event)", op: "data", seg: 9, highData: 9, highInt: 14, recPoint: 9, hasLossEver: true},
		{name: "highData == recPoint: still the same event", op: "loss", event: false, highData: 9, highInt: 14, recPoint: 9, hasLossEver: true},
		{name: "data 10 (sent after the event)", op: "data", seg: 10, highData: 10, highInt: 14, recPoint: 9, hasLossEver: true},
		{name: "highData > recPoint: a new loss event", op: "loss", event: true, highData: 10, highInt: 14, recPoint: 14, hasLossEver: true},
		{name: "a late low Data does not lower highData", op: "data", seg: 3, highData: 10, highInt: 14, recPoint: 14, hasLossEver: true},
		{name: "filtered", op: "loss", event: false, highData: 10, highInt: 14, recPoint: 14, hasLossEver: true},
	})
	if !c.HasData() || !c.Enabled() {
		t.Errorf("HasData %v Enabled %v", c.HasData(), c.Enabled())
	}
}

func TestConservativeFirstSegmentCounts(t *testing.T) {
	// Seed 000 taken literally (recPoint 0, highData 0) would ignore this
	// loss; here the first loss after any Data is an event.
	c := NewConservative(true)
	runConservative(t, c, []consStep{
		{name: "send 0..1", op: "send", send: [2]uint64{0, 1}, highInt: 1},
		{name: "data 0", op: "data", seg: 0, highData: 0, highInt: 1},
		{name: "timeout of 1", op: "loss", event: true, highData: 0, highInt: 1, recPoint: 1, hasLossEver: true},
	})
}

func TestConservativeDisabled(t *testing.T) {
	// Seed 000's Designs #1 and #2: every timeout is a loss event.
	c := NewConservative(false)
	runConservative(t, c, []consStep{
		{name: "before anything", op: "loss", event: true, hasLossEver: true},
		{name: "send 0..9", op: "send", send: [2]uint64{0, 9}, highInt: 9, hasLossEver: true},
		{name: "data 4", op: "data", seg: 4, highData: 4, highInt: 9, hasLossEver: true},
		{name: "loss", op: "loss", event: true, highData: 4, highInt: 9, recPoint: 9, hasLossEver: true},
		{name: "loss again", op: "loss", event: true, highData: 4, highInt: 9, recPoint: 9, hasLossEver: true},
	})
}
