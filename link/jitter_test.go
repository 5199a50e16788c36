package link

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/ndn"
)

// TestChannelJitter: on a link with jitter every frame's propagation delay
// is the delay varied by a uniform draw in [-jitter, +jitter] from the
// channel's random source (the exact draws a replayed stream predicts),
// frames arrive in the order they left, and the draws spread over the
// whole range.
func TestChannelJitter(t *testing.T) {
	const (
		n      = 2000
		delay  = 10 * time.Millisecond
		jitter = 2 * time.Millisecond
	)
	tests := []struct {
		name string
		bw   float64
	}{
		{"frames far apart", 1e6},    // 11.6 ms apart: never held back by the one ahead
		{"frames back to back", 1e7}, // 1.16 ms apart at 10 Mbit/s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seed := func() *rand.Rand { return rand.New(rand.NewPCG(3, 5)) }
			s, c, got := testChannel(t, Params{Bandwidth: tt.bw, Delay: delay, Jitter: jitter}, aqm.Limits{}, seed())
			d := seedData(t, 1000)
			var left []time.Duration // when each frame's last bit leaves
			tx := SerializationTime(c.sizer.PacketSize(&ndn.Packet{Data: d}), tt.bw)
			for i := range n {
				c.Send(ndn.Packet{Data: d})
				left = append(left, time.Duration(i+1)*tx)
			}
			s.RunUntil(time.Hour, nil)
			if len(*got) != n {
				t.Fatalf("delivered %d of %d", len(*got), n)
			}
			r := seed()
			var prev, lo, hi time.Duration
			lo = time.Hour
			for i, a := range *got {
				want := max(left[i]+delay+time.Duration((2*r.Float64()-1)*float64(jitter)), prev)
				if a.at != want {
					t.Fatalf("frame %d arrived at %v, want %v", i, a.at, want)
				}
				if a.at < prev {
					t.Fatalf("frame %d arrived at %v, before frame %d at %v", i, a.at, i-1, prev)
				}
				prev = a.at
				lo, hi = min(lo, a.at-left[i]), max(hi, a.at-left[i])
			}
			if lo < delay-jitter || hi > delay+jitter+tx || hi-lo < jitter {
				t.Errorf("delays from %v to %v, want a spread over [%v, %v]", lo, hi, delay-jitter, delay+jitter)
			}
		})
	}
	if err := (Params{Jitter: -time.Millisecond}).Validate(); err == nil {
		t.Error("a negative jitter is valid")
	}
	q, _ := aqm.NewDropTail(aqm.Limits{})
	if _, err := NewChannel(nil, Params{Jitter: time.Millisecond}, q, ndn.NewSizer(), nil); err == nil {
		t.Error("jitter without a random source: no error")
	}
}
