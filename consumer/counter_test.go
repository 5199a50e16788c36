package consumer

import (
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/ndn"
)

// counting is a window of 4 that counts signals itself (cc.SignalCounter)
// and records what the pipeline told it.
type counting struct {
	srtt         []time.Duration
	data, marked []uint64
	lost         []uint64
	decreases    []cc.Cause
}

func (*counting) Name() string      { return "counting" }
func (*counting) Cwnd() float64     { return 4 }
func (*counting) Ssthresh() float64 { return 4 }
func (c *counting) OnData(a cc.Ack) {
	c.data = append(c.data, a.Seg)
	c.srtt = append(c.srtt, a.SRTT)
	if a.Marked {
		c.marked = append(c.marked, a.Seg)
	}
}
func (c *counting) OnDecrease(_ time.Duration, cause cc.Cause) {
	c.decreases = append(c.decreases, cause)
}
func (c *counting) OnLost(_ time.Duration, seg uint64) { c.lost = append(c.lost, seg) }

// TestSignalCounter: an algorithm that counts signals gets every Data
// through OnData, marked ones included (no decrease on a mark), and
// every Interest lost to a timeout or a congestion Nack through OnLost,
// also when the conservative filter takes no loss event for it.
func TestSignalCounter(t *testing.T) {
	script := func(seg uint64, attempt int) action {
		switch {
		case seg == 3 || seg == 4:
			return action{delay: ms(10), mark: true}
		case (seg == 5 || seg == 6) && attempt == 0:
			return action{drop: true}
		case seg == 8 && attempt == 0:
			return action{delay: ms(10), nack: ndn.NackCongestion}
		}
		return action{delay: ms(10)}
	}
	f := newFetch(t, "fixed", map[string]string{"window": "4"}, 11, script)
	alg := &counting{}
	f.p.alg, f.p.counter = alg, alg
	f.run(t)
	st := f.p.Stats()
	if !st.Complete || st.Marks != 2 {
		t.Fatalf("complete %v, %d marks; want true, 2", st.Complete, st.Marks)
	}
	if len(alg.data) != 12 || !slices.Equal(alg.marked, []uint64{3, 4}) {
		t.Errorf("OnData for %v (marked %v), want all 12 segments, 3 and 4 marked", alg.data, alg.marked)
	}
	// Every answer takes 10 ms: the smoothed RTT is 10 ms from the first.
	for i, srtt := range alg.srtt {
		if srtt != ms(10) {
			t.Errorf("Data %d: Ack.SRTT %v, want 10ms", alg.data[i], srtt)
		}
	}
	slices.Sort(alg.lost)
	if !slices.Equal(alg.lost, []uint64{5, 6, 8}) {
		t.Errorf("OnLost for %v, want 5, 6 (timeouts) and 8 (congestion Nack)", alg.lost)
	}
	if slices.Contains(alg.decreases, cc.CauseMark) || len(alg.decreases) == 0 {
		t.Errorf("decreases %v: want loss events, none for a mark", alg.decreases)
	}
}
