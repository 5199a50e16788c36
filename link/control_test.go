package link

import (
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/ndn"
)

// TestChannelControl sends a 1449-byte Data (11592 bits) at 0, 100 and
// 200 ms over a 10 Mbit/s, 10 ms link, changing the link at 50 ms and
// back (or on) at 150 ms, and checks when each Data arrives.
func TestChannelControl(t *testing.T) {
	const tx = 1159200 * time.Nanosecond // at 10 Mbit/s
	for _, tc := range []struct {
		name        string
		at50, at150 func(c *Channel) error
		want        []time.Duration // arrivals, in order
		downDrops   uint64
		lossDrops   uint64
	}{
		{
			name: "unchanged",
			want: []time.Duration{tx + 10*time.Millisecond, 100*time.Millisecond + tx + 10*time.Millisecond, 200*time.Millisecond + tx + 10*time.Millisecond},
		},
		{
			name: "down drops, up restores",
			at50: func(c *Channel) error { c.SetUp(false); return nil }, at150: func(c *Channel) error { c.SetUp(true); return nil },
			want:      []time.Duration{tx + 10*time.Millisecond, 200*time.Millisecond + tx + 10*time.Millisecond},
			downDrops: 1,
		},
		{
			name: "rate halved",
			at50: func(c *Channel) error { return c.SetRate(5e6) },
			want: []time.Duration{tx + 10*time.Millisecond, 100*time.Millisecond + 2*tx + 10*time.Millisecond, 200*time.Millisecond + 2*tx + 10*time.Millisecond},
		},
		{
			name: "rate unlimited",
			at50: func(c *Channel) error { return c.SetRate(0) },
			want: []time.Duration{tx + 10*time.Millisecond, 110 * time.Millisecond, 210 * time.Millisecond},
		},
		{
			name: "delay raised",
			at50: func(c *Channel) error { return c.SetDelay(30 * time.Millisecond) },
			want: []time.Duration{tx + 10*time.Millisecond, 100*time.Millisecond + tx + 30*time.Millisecond, 200*time.Millisecond + tx + 30*time.Millisecond},
		},
		{
			name: "all lost, then none",
			at50: func(c *Channel) error { return c.SetLoss(1) }, at150: func(c *Channel) error { return c.SetLoss(0) },
			want:      []time.Duration{tx + 10*time.Millisecond, 200*time.Millisecond + tx + 10*time.Millisecond},
			lossDrops: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, c, got := testChannel(t, Params{Bandwidth: 10e6, Delay: 10 * time.Millisecond, HeaderOverhead: 44}, aqm.Limits{Packets: 10}, nil)
			for i, at := range []time.Duration{0, 100 * time.Millisecond, 200 * time.Millisecond} {
				s.At(at, func() { c.Send(ndn.Packet{Data: seedData(t, uint64(1000+i))}) })
			}
			for _, ch := range []struct {
				at time.Duration
				fn func(*Channel) error
			}{{50 * time.Millisecond, tc.at50}, {150 * time.Millisecond, tc.at150}} {
				if ch.fn != nil {
					s.At(ch.at, func() {
						if err := ch.fn(c); err != nil {
							t.Error(err)
						}
					})
				}
			}
			s.RunUntil(time.Second, nil)
			if len(*got) != len(tc.want) {
				t.Fatalf("%d arrivals, want %d", len(*got), len(tc.want))
			}
			for i, a := range *got {
				if a.at != tc.want[i] {
					t.Errorf("arrival %d at %v, want %v", i, a.at, tc.want[i])
				}
			}
			st := c.Stats()
			if st.DownDrops != tc.downDrops || st.LossDrops != tc.lossDrops || st.Drops() != tc.downDrops+tc.lossDrops {
				t.Errorf("down drops %d, loss drops %d, drops %d; want %d, %d", st.DownDrops, st.LossDrops, st.Drops(), tc.downDrops, tc.lossDrops)
			}
			if !c.Up() {
				t.Errorf("the channel is down at the end")
			}
		})
	}
}

// TestShorterDelayKeepsOrder shortens the delay while a frame is on the
// wire: the next frame arrives after it, not before.
func TestShorterDelayKeepsOrder(t *testing.T) {
	s, c, got := testChannel(t, Params{Delay: 100 * time.Millisecond}, aqm.Limits{Packets: 10}, nil)
	s.At(0, func() { c.Send(ndn.Packet{Data: seedData(t, 1)}) })
	s.At(10*time.Millisecond, func() {
		if err := c.SetDelay(time.Millisecond); err != nil {
			t.Error(err)
		}
		c.Send(ndn.Packet{Data: seedData(t, 2)})
	})
	s.At(200*time.Millisecond, func() { c.Send(ndn.Packet{Data: seedData(t, 3)}) })
	s.RunUntil(time.Second, nil)
	want := []time.Duration{100 * time.Millisecond, 100 * time.Millisecond, 201 * time.Millisecond}
	if len(*got) != 3 {
		t.Fatalf("%d arrivals, want 3", len(*got))
	}
	for i, a := range *got {
		seg, _ := ndn.SegmentOf(a.pkt.Data.Name)
		if a.at != want[i] || seg != uint64(i+1) {
			t.Errorf("arrival %d: segment %d at %v, want segment %d at %v", i, seg, a.at, i+1, want[i])
		}
	}
}

func TestControlRejectsBadValues(t *testing.T) {
	_, c, _ := testChannel(t, Params{}, aqm.Limits{Packets: 10}, nil)
	for _, tc := range []struct {
		err  error
		want string
	}{
		{c.SetRate(-1), "bandwidth"},
		{c.SetDelay(-time.Second), "delay"},
		{c.SetLoss(1.5), "loss"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want one about %s", tc.err, tc.want)
		}
	}
	s := c.s
	q, _ := aqm.NewDropTail(aqm.Limits{Packets: 1})
	noRand, err := NewChannel(s, Params{}, q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := noRand.SetLoss(0.1); err == nil || !strings.Contains(err.Error(), "random source") {
		t.Errorf("SetLoss without a random source: %v", err)
	}
}
