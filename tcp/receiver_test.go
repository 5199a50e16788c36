package tcp

import (
	"testing"
	"time"
)

func TestReceiverBuffersOutOfOrder(t *testing.T) {
	r := NewReceiver(40)
	steps := []struct{ seq, ack uint64 }{
		{0, 1}, {2, 1}, {3, 1}, {2, 1}, {1, 4},
		{30, 4}, // beyond the initial bitmap: it grows
		{4, 5}, {0, 5},
	}
	for i, st := range steps {
		if ack := r.OnSegment(st.seq, 100, time.Duration(i)); ack != st.ack {
			t.Errorf("segment %d: ack %d, want %d", st.seq, ack, st.ack)
		}
	}
	if got, want := r.Stats(), (ReceiverStats{Received: 8, Unique: 6, Duplicates: 2, WireBytes: 800, UniqueWire: 600}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
	for s := uint64(5); s < 40; s++ {
		r.OnSegment(s, 100, time.Second)
	}
	if !r.Complete() || r.End() != time.Second || r.Next() != 40 {
		t.Errorf("complete %v at %v, next %d; want true at 1s, 40", r.Complete(), r.End(), r.Next())
	}
}
