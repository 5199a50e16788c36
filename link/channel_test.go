package link

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// seedData returns segment seg of /example/file/v=1700000000000000 shaped
// as seed 003 measured it (10 s freshness, RSA-2048 signature): 1405 bytes
// of NDN packet for segments 256..65535, 1449 on the wire with 44 bytes of
// headers.
func seedData(t testing.TB, seg uint64) *ndn.Data {
	t.Helper()
	prefix := name("/example/file").Append(enc.NewVersionComponent(1700000000000000))
	return &ndn.Data{
		Name:         prefix.Append(enc.NewSegmentComponent(seg)),
		Freshness:    10 * time.Second,
		FinalBlockID: enc.NewSegmentComponent(10239),
		HasFinal:     true,
		ContentLen:   1024,
		Sig:          ndn.RSASignature(ndn.DefaultSeedKeyName()),
	}
}

// arrival is one packet delivered by a channel.
type arrival struct {
	at  time.Duration
	pkt ndn.Packet
}

// testChannel returns a channel with a drop-tail queue of the given limits
// on a virtual clock, recording what it delivers.
func testChannel(t testing.TB, p Params, lim aqm.Limits, rng *rand.Rand) (*vclock.Scheduler, *Channel, *[]arrival) {
	t.Helper()
	s := &vclock.Scheduler{}
	q, err := aqm.NewDropTail(lim)
	if err != nil {
		t.Fatal(err)
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(1, 2))
	}
	c, err := NewChannel(s, p, q, ndn.NewSizer(), rng)
	if err != nil {
		t.Fatal(err)
	}
	got := &[]arrival{}
	c.OnDeliver(func(f *Frame) { *got = append(*got, arrival{s.Now(), f.Pkt}) })
	return s, c, got
}

func TestSeedDataIs1449BytesOnTheWire(t *testing.T) {
	sz := ndn.NewSizer()
	if got := sz.PacketSize(&ndn.Packet{Data: seedData(t, 1000)}) + 44; got != 1449 {
		t.Fatalf("seed-shaped Data on the wire = %d bytes, want 1449", got)
	}
}

func TestSerializationTime(t *testing.T) {
	tests := []struct {
		size int
		bw   float64
		want time.Duration
	}{
		{1449, 5e6, 2318400 * time.Nanosecond},  // 11592 bits at 5 Mbit/s
		{1449, 10e6, 1159200 * time.Nanosecond}, // at 10 Mbit/s
		{1449, 11e6, 1053819 * time.Nanosecond}, // 1053818.18 ns, rounded up
		{1000, 8e6, time.Millisecond},
		{1, 1e9, 8 * time.Nanosecond},
		{1449, 0, 0}, // unlimited bandwidth
		{0, 5e6, 0},
	}
	for _, tt := range tests {
		if got := SerializationTime(tt.size, tt.bw); got != tt.want {
			t.Errorf("SerializationTime(%d, %g) = %v, want %v", tt.size, tt.bw, got, tt.want)
		}
	}
}

func TestChannelDeliveryTimeIsSerializationPlusDelay(t *testing.T) {
	tests := []struct {
		name   string
		bw     float64
		delay  time.Duration
		sendAt time.Duration
		want   time.Duration
	}{
		{"5 Mbit/s 10 ms", 5e6, 10 * time.Millisecond, 0, 10*time.Millisecond + 2318400},
		{"10 Mbit/s 10 ms", 10e6, 10 * time.Millisecond, 0, 10*time.Millisecond + 1159200},
		{"sent at 3 ms", 5e6, 10 * time.Millisecond, 3 * time.Millisecond, 13*time.Millisecond + 2318400},
		{"rounded up", 11e6, 0, 0, 1053819},
		{"unlimited bandwidth", 0, 7 * time.Millisecond, 0, 7 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, got := testChannel(t, Params{Bandwidth: tt.bw, Delay: tt.delay, HeaderOverhead: 44}, aqm.Limits{Packets: 32}, nil)
			d := seedData(t, 1000)
			s.After(tt.sendAt, func() { c.Send(ndn.Packet{Data: d}) })
			s.RunUntil(time.Hour, nil)
			if len(*got) != 1 {
				t.Fatalf("delivered %d packets, want 1", len(*got))
			}
			if (*got)[0].at != tt.want {
				t.Errorf("delivered at %v (%d ns), want %v (%d ns)", (*got)[0].at, (*got)[0].at, tt.want, tt.want)
			}
			if (*got)[0].pkt.Data != d {
				t.Error("delivered a different packet")
			}
			st := c.Stats()
			if st.Packets != 1 || st.Bytes != 1449 || st.DataPkts != 1 || st.Drops() != 0 {
				t.Errorf("stats = %+v, want 1 Data packet of 1449 bytes, no drops", st)
			}
		})
	}
}

func TestChannelSerialisesBackToBackPackets(t *testing.T) {
	s, c, got := testChannel(t, Params{Bandwidth: 5e6, Delay: 10 * time.Millisecond, HeaderOverhead: 44}, aqm.Limits{Packets: 32}, nil)
	const tx = 2318400 * time.Nanosecond
	for seg := uint64(1000); seg < 1003; seg++ {
		c.Send(ndn.Packet{Data: seedData(t, seg)})
	}
	// Sent on an idle link again, well after the burst has left.
	s.After(50*time.Millisecond, func() { c.Send(ndn.Packet{Data: seedData(t, 1003)}) })
	s.RunUntil(time.Hour, nil)
	want := []time.Duration{
		10*time.Millisecond + tx,
		10*time.Millisecond + 2*tx,
		10*time.Millisecond + 3*tx,
		60*time.Millisecond + tx,
	}
	var at []time.Duration
	for i, a := range *got {
		at = append(at, a.at)
		if seg, _ := ndn.SegmentOf(a.pkt.Data.Name); seg != 1000+uint64(i) {
			t.Errorf("packet %d is segment %d, want %d (FIFO)", i, seg, 1000+i)
		}
	}
	if !reflect.DeepEqual(at, want) {
		t.Fatalf("arrivals %v, want %v", at, want)
	}
	if st := c.Stats(); st.MaxQueue != 2 || st.Bytes != 4*1449 {
		t.Errorf("MaxQueue = %d, Bytes = %d; want 2 and %d", st.MaxQueue, st.Bytes, 4*1449)
	}
}

func TestChannelQueueOverflowTailDrops(t *testing.T) {
	tests := []struct {
		name          string
		lim           aqm.Limits
		send          int
		wantDelivered int
		wantMaxQueue  int
	}{
		// One packet goes straight to the transmitter; the queue holds the
		// limit; the rest are dropped on arrival.
		{"packet limit", aqm.Limits{Packets: 4}, 10, 5, 4},
		{"packet limit 32", aqm.Limits{Packets: 32}, 100, 33, 32},
		{"byte limit", aqm.Limits{Bytes: 3*1449 + 100}, 10, 4, 3},
		{"under the limit", aqm.Limits{Packets: 32}, 20, 20, 19},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, got := testChannel(t, Params{Bandwidth: 5e6, Delay: time.Millisecond, HeaderOverhead: 44}, tt.lim, nil)
			for i := 0; i < tt.send; i++ {
				c.Send(ndn.Packet{Data: seedData(t, 1000+uint64(i))})
			}
			s.RunUntil(time.Hour, nil)
			if len(*got) != tt.wantDelivered {
				t.Errorf("delivered %d, want %d", len(*got), tt.wantDelivered)
			}
			for i, a := range *got {
				if seg, _ := ndn.SegmentOf(a.pkt.Data.Name); seg != 1000+uint64(i) {
					t.Errorf("delivered segment %d at position %d: the tail, not the head, must be dropped", seg, i)
				}
			}
			st := c.Stats()
			wantDrops := uint64(tt.send - tt.wantDelivered)
			if st.TailDrops != wantDrops || st.Drops() != wantDrops || st.AQMDrops != 0 || st.LossDrops != 0 {
				t.Errorf("drops: tail %d aqm %d loss %d, want tail %d only", st.TailDrops, st.AQMDrops, st.LossDrops, wantDrops)
			}
			if st.Packets != uint64(tt.wantDelivered) {
				t.Errorf("Packets = %d, want %d", st.Packets, tt.wantDelivered)
			}
			if st.MaxQueue != tt.wantMaxQueue {
				t.Errorf("MaxQueue = %d, want %d", st.MaxQueue, tt.wantMaxQueue)
			}
		})
	}
}

func TestChannelBernoulliLoss(t *testing.T) {
	const (
		n = 10000
		p = 0.1
	)
	seed := func() *rand.Rand { return rand.New(rand.NewPCG(7, 11)) }
	// The channel draws one number per transmitted packet; replaying the
	// same stream gives the exact count this seed must lose.
	want := 0
	r := seed()
	for i := 0; i < n; i++ {
		if r.Float64() < p {
			want++
		}
	}
	if want < 900 || want > 1100 {
		t.Fatalf("replayed stream loses %d of %d; the seed is unrepresentative", want, n)
	}
	s, c, got := testChannel(t, Params{Bandwidth: 1e9, Loss: p}, aqm.Limits{}, seed())
	d := seedData(t, 1000)
	for i := 0; i < n; i++ {
		c.Send(ndn.Packet{Data: d})
	}
	s.RunUntil(time.Hour, nil)
	st := c.Stats()
	if st.LossDrops != uint64(want) {
		t.Errorf("LossDrops = %d, want %d", st.LossDrops, want)
	}
	if len(*got) != n-want {
		t.Errorf("delivered %d, want %d", len(*got), n-want)
	}
	// A lost packet still occupied the transmitter.
	if st.Packets != n || st.TailDrops != 0 {
		t.Errorf("Packets = %d, TailDrops = %d; want %d and 0", st.Packets, st.TailDrops, n)
	}
}

func TestChannelQueueLengthCounters(t *testing.T) {
	// A bandwidth at which one seed-shaped Data takes exactly 1 ms.
	const size = 1449
	s, c, _ := testChannel(t, Params{Bandwidth: size * 8 * 1000, HeaderOverhead: 44}, aqm.Limits{Packets: 32}, nil)
	for i := 0; i < 5; i++ {
		c.Send(ndn.Packet{Data: seedData(t, 1000+uint64(i))})
	}
	s.RunUntil(time.Hour, nil)
	if s.Now() != 5*time.Millisecond {
		t.Fatalf("last event at %v, want 5ms", s.Now())
	}
	st := c.Stats()
	// Queue length 4, 3, 2, 1 for 1 ms each, then empty: 10 packet-ms
	// over 5 ms.
	if st.MeanQueue != 2 {
		t.Errorf("MeanQueue = %v, want 2", st.MeanQueue)
	}
	if st.MaxQueue != 4 {
		t.Errorf("MaxQueue = %d, want 4", st.MaxQueue)
	}
	// Later, with the queue empty, the mean decays with time.
	s.After(5*time.Millisecond, func() {})
	s.RunUntil(time.Hour, nil)
	if st := c.Stats(); st.MeanQueue != 1 {
		t.Errorf("MeanQueue at 10 ms = %v, want 1", st.MeanQueue)
	}
}

func TestChannelCountsPacketKinds(t *testing.T) {
	s, c, got := testChannel(t, Params{Bandwidth: 10e6, Delay: time.Millisecond, HeaderOverhead: 44}, aqm.Limits{Packets: 32}, nil)
	prefix := name("/example/file").Append(enc.NewVersionComponent(1700000000000000))
	in := ndn.NewSegmentInterest(prefix, 1000)
	sz := ndn.NewSizer()
	inSize := sz.PacketSize(&ndn.Packet{Interest: in}) + 44
	nack := ndn.Packet{Interest: in, Nack: ndn.NackCongestion}
	nackSize := sz.PacketSize(&nack) + 44
	if nackSize <= inSize {
		t.Fatalf("a Nack (%d bytes) must be larger than its Interest (%d)", nackSize, inSize)
	}
	c.Send(ndn.Packet{Interest: in})
	c.Send(ndn.Packet{Data: seedData(t, 1000)})
	c.Send(nack)
	s.RunUntil(time.Hour, nil)
	st := c.Stats()
	if st.Interests != 1 || st.DataPkts != 1 || st.NackPkts != 1 || st.Packets != 3 {
		t.Errorf("kinds: %d Interests, %d Data, %d Nacks of %d; want 1, 1, 1 of 3", st.Interests, st.DataPkts, st.NackPkts, st.Packets)
	}
	if want := uint64(inSize + 1449 + nackSize); st.Bytes != want {
		t.Errorf("Bytes = %d, want %d", st.Bytes, want)
	}
	if len(*got) != 3 || !(*got)[2].pkt.IsNack() {
		t.Errorf("delivered %d packets, the last a Nack: want 3 ending with the Nack", len(*got))
	}
}

func TestChannelMaxQueueIgnoresPacketSentStraightAway(t *testing.T) {
	s, c, _ := testChannel(t, Params{Bandwidth: 10e6, Delay: time.Millisecond, HeaderOverhead: 44}, aqm.Limits{Packets: 32}, nil)
	c.Send(ndn.Packet{Data: seedData(t, 1000)})
	s.RunUntil(time.Hour, nil)
	if st := c.Stats(); st.MaxQueue != 0 {
		t.Errorf("MaxQueue = %d after one packet on an idle link, want 0", st.MaxQueue)
	}
}

// TestChannelReportsEveryQueueDrop: every packet the output queue drops,
// by tail drop at enqueue or by the AQM at dequeue, reaches the channel's
// drop report (which link-loss detection turns into a marked Nack), and
// every packet sent is either delivered or reported.
func TestChannelReportsEveryQueueDrop(t *testing.T) {
	codel := func() aqm.Queue {
		q, err := aqm.NewCoDel(aqm.Drop, aqm.DefaultCoDelParams(), aqm.Limits{Packets: 1000})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	tail := func() aqm.Queue {
		q, err := aqm.NewDropTail(aqm.Limits{Packets: 20})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	tests := []struct {
		name    string
		queue   func() aqm.Queue
		wantAQM bool // AQM drops expected, not only tail drops
	}{
		{"drop-tail", tail, false},
		{"codel-drop", codel, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &vclock.Scheduler{}
			// 5 Mbit/s takes a 1449-byte Data every 2.32 ms; one is sent
			// every ms for 2 s, so the queue builds and must drop.
			c, err := NewChannel(s, Params{Bandwidth: 5e6, Delay: time.Millisecond, HeaderOverhead: 44}, tt.queue(), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			sent := map[*ndn.Data]bool{}
			c.OnDeliver(func(f *Frame) { delete(sent, f.Pkt.Data) })
			var reported []*ndn.Data
			c.OnDrop(func(p ndn.Packet) { reported = append(reported, p.Data) })
			for i := range 2000 {
				d := seedData(t, uint64(i))
				sent[d] = true
				s.At(time.Duration(i)*time.Millisecond, func() { c.Send(ndn.Packet{Data: d}) })
			}
			s.RunUntil(time.Hour, nil)
			st := c.Stats()
			if st.TailDrops+st.AQMDrops == 0 || (st.AQMDrops > 0) != tt.wantAQM {
				t.Fatalf("tail drops %d, AQM drops %d: the scenario does not exercise the drops it tests", st.TailDrops, st.AQMDrops)
			}
			if uint64(len(reported)) != st.TailDrops+st.AQMDrops {
				t.Errorf("reported %d drops, the queue dropped %d (tail %d, AQM %d)", len(reported), st.TailDrops+st.AQMDrops, st.TailDrops, st.AQMDrops)
			}
			for _, d := range reported {
				if !sent[d] {
					t.Errorf("reported %s, which was delivered or reported before", d.Name)
				}
				delete(sent, d)
			}
			if len(sent) != 0 {
				t.Errorf("%d packets neither delivered nor reported", len(sent))
			}
		})
	}
}

// coarseClock is a scheduler whose timers run late, as real timers do: it
// fires each timer at the next multiple of tick at or after its due time
// (a loop that wakes once per tick). It offers no At, like the live
// event loop, so the Channel schedules through After.
type coarseClock struct {
	v      vclock.Scheduler
	tick   time.Duration
	timers int // After calls
}

func (c *coarseClock) Now() time.Duration { return c.v.Now() }

func (c *coarseClock) After(d time.Duration, fn func()) sched.Timer {
	c.timers++
	due := c.v.Now() + max(d, 0)
	wake := (due + c.tick - 1) / c.tick * c.tick
	return c.v.After(wake-c.v.Now(), fn)
}

// segOf returns the segment number of the Data an arrival carried.
func segOf(a arrival) uint64 {
	seg, _ := ndn.SegmentOf(a.pkt.Data.Name)
	return seg
}

// runBurst sends n seed-shaped Data at time 0 on a 100 Mbit/s, 5 ms
// channel of scheduler s (a vclock or a coarseClock over v) and returns
// the channel and the arrivals.
func runBurst(t *testing.T, s sched.Scheduler, v *vclock.Scheduler, n int, loss float64) (*Channel, []arrival) {
	t.Helper()
	q, err := aqm.NewDropTail(aqm.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChannel(s, Params{Bandwidth: 100e6, Delay: 5 * time.Millisecond, Loss: loss, HeaderOverhead: 44}, q, nil, rand.New(rand.NewPCG(3, 4)))
	if err != nil {
		t.Fatal(err)
	}
	var got []arrival
	c.OnDeliver(func(f *Frame) { got = append(got, arrival{s.Now(), f.Pkt}) })
	for i := range n {
		c.Send(ndn.Packet{Data: seedData(t, uint64(1000+i))})
	}
	v.RunUntil(time.Hour, nil)
	return c, got
}

// TestChannelKeepsItsRateWhenTimersRunLate: with timers that fire up to
// 1 ms late (8.6 frame times at 100 Mbit/s), the channel still moves a
// burst at its rate, because departures come from the busy-until clock
// and each late wake releases every frame whose turn has passed; each
// frame arrives at most one tick after it would in virtual time, in
// order, and the lateness counters say the link was bursty.
func TestChannelKeepsItsRateWhenTimersRunLate(t *testing.T) {
	const n = 1000
	const tick = time.Millisecond
	tx := SerializationTime(1449, 100e6) // 115920 ns
	var exact vclock.Scheduler
	_, want := runBurst(t, &exact, &exact, n, 0)
	coarse := &coarseClock{tick: tick}
	c, got := runBurst(t, coarse, &coarse.v, n, 0)
	if len(want) != n || len(got) != n {
		t.Fatalf("delivered %d exactly and %d with late timers, want %d", len(want), len(got), n)
	}
	if last := want[n-1].at; last != 5*time.Millisecond+n*tx {
		t.Fatalf("virtual time: last arrival at %v, want %v", last, 5*time.Millisecond+n*tx)
	}
	for i := range got {
		if segOf(got[i]) != segOf(want[i]) {
			t.Fatalf("arrival %d is segment %d, want %d", i, segOf(got[i]), segOf(want[i]))
		}
		if d := got[i].at - want[i].at; d < 0 || d > tick {
			t.Fatalf("frame %d arrived at %v with late timers, %v in virtual time: want at most %v later", i, got[i].at, want[i].at, tick)
		}
	}
	// One timer per arrival, and the transmitter's: one per wake, not one
	// per frame (n*tx is 116 ms: 116 ticks).
	if transmitter := coarse.timers - n; transmitter > 2*int(n*tx/tick) {
		t.Errorf("the transmitter set %d timers for %d frames: a late wake must release every frame whose turn has passed", transmitter, n)
	}
	late := c.Stats().Lateness
	if late.Max <= tx || late.Max > tick || late.Overruns == 0 || late.Mean() <= 0 {
		t.Errorf("lateness %+v (mean %v): want a maximum in (%v, %v] and overruns", late, late.Mean(), tx, tick)
	}
	if st := c.Stats(); st.Packets != n || st.Bytes != n*1449 {
		t.Errorf("sent %d frames, %d bytes; want %d and %d", st.Packets, st.Bytes, n, n*1449)
	}
}

// TestChannelLossIsTheSameInRealTime: the random loss is one draw per
// frame, in transmission order, from the channel's seeded source, so late
// timers lose exactly the frames virtual time loses.
func TestChannelLossIsTheSameInRealTime(t *testing.T) {
	var exact vclock.Scheduler
	ce, want := runBurst(t, &exact, &exact, 500, 0.1)
	coarse := &coarseClock{tick: time.Millisecond}
	cc, got := runBurst(t, coarse, &coarse.v, 500, 0.1)
	if ce.Stats().LossDrops == 0 || ce.Stats().LossDrops != cc.Stats().LossDrops || len(got) != len(want) {
		t.Fatalf("lost %d in virtual time and %d with late timers (delivered %d and %d)",
			ce.Stats().LossDrops, cc.Stats().LossDrops, len(want), len(got))
	}
	for i := range got {
		if segOf(got[i]) != segOf(want[i]) {
			t.Fatalf("arrival %d: segment %d survived with late timers, %d in virtual time", i, segOf(got[i]), segOf(want[i]))
		}
	}
	if l := ce.Stats().Lateness; l.Max != 0 || l.Overruns != 0 || l.Wakes == 0 {
		t.Errorf("virtual time lateness %+v, want wakes and no lateness", l)
	}
}

// TestChannelWithoutAtMatchesVirtualTime: on a scheduler that only has
// After (the live loop), a channel behaves exactly as on the simulator's
// At: same arrivals at the same instants.
func TestChannelWithoutAtMatchesVirtualTime(t *testing.T) {
	var exact vclock.Scheduler
	_, want := runBurst(t, &exact, &exact, 200, 0.05)
	plain := &coarseClock{tick: 1} // every instant is a tick: timers on time
	_, got := runBurst(t, plain, &plain.v, 200, 0.05)
	if len(got) != len(want) {
		t.Fatalf("delivered %d, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i].at != want[i].at || segOf(got[i]) != segOf(want[i]) {
			t.Fatalf("arrival %d: segment %d at %v, want %d at %v", i, segOf(got[i]), got[i].at, segOf(want[i]), want[i].at)
		}
	}
}

// TestChannelWithReliabilityReportsExactlyTheWireLosses wires a link A—B
// as the simulator does: a Reliability at each end, numbering frames as
// they start transmission, its IDLE frames queued on the reverse channel.
// A sends 2000 Interests over a channel losing 5% of frames; B's acks
// come back on a loss-free channel. A must report exactly the frames the
// wire lost, each once, and nothing B received.
func TestChannelWithReliabilityReportsExactlyTheWireLosses(t *testing.T) {
	s := &vclock.Scheduler{}
	newCh := func(loss float64) *Channel {
		q, err := aqm.NewDropTail(aqm.Limits{Packets: 100})
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewChannel(s, Params{Bandwidth: 10e6, Delay: 2 * time.Millisecond, Loss: loss, HeaderOverhead: 44}, q, nil, rand.New(rand.NewPCG(5, 6)))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a2b, b2a := newCh(0.05), newCh(0)
	var lost []uint32
	ra, err := NewReliability(DefaultReliabilityConfig(), s, a2b.SendFrame, func(p ndn.Packet) { lost = append(lost, p.Interest.Nonce) })
	if err != nil {
		t.Fatal(err)
	}
	rb, err := NewReliability(DefaultReliabilityConfig(), s, b2a.SendFrame, func(p ndn.Packet) { t.Errorf("B reports a loss: %v", p.Name()) })
	if err != nil {
		t.Fatal(err)
	}
	a2b.SetReliability(ra)
	b2a.SetReliability(rb)
	received := map[uint32]bool{}
	a2b.OnDeliver(func(f *Frame) {
		if rb.OnReceive(*f) {
			received[f.Pkt.Interest.Nonce] = true
		}
	})
	b2a.OnDeliver(func(f *Frame) {
		if ra.OnReceive(*f) {
			t.Error("A got a packet from B, which sent only IDLE frames")
		}
	})
	const n = 2000
	for i := range n {
		s.At(time.Duration(i)*time.Millisecond, func() {
			a2b.Send(ndn.Packet{Interest: &ndn.Interest{Name: name("/x"), Nonce: uint32(i)}})
		})
	}
	s.RunUntil(time.Hour, nil)
	wire := a2b.Stats().LossDrops
	if wire == 0 || uint64(len(lost)) != wire || len(received)+len(lost) != n {
		t.Fatalf("wire lost %d, A reported %d, B received %d of %d", wire, len(lost), len(received), n)
	}
	for _, nonce := range lost {
		if received[nonce] {
			t.Fatalf("frame %d reported lost but received", nonce)
		}
	}
	if st := rb.Stats(); st.IdleFrames == 0 || st.AcksSent != n-wire {
		t.Errorf("B: %d IDLE frames, %d acks sent; want some, and %d acks", st.IdleFrames, st.AcksSent, n-wire)
	}
	if got, want := b2a.Stats().Packets, rb.Stats().IdleFrames; got != want {
		t.Errorf("B's channel sent %d frames, B's Reliability %d IDLE frames", got, want)
	}
}

func TestNewChannelRejects(t *testing.T) {
	q, err := aqm.NewDropTail(aqm.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	s := &vclock.Scheduler{}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		p    Params
		q    aqm.Queue
		rng  *rand.Rand
		want string
	}{
		{"negative bandwidth", Params{Bandwidth: -1}, q, rng, "bandwidth"},
		{"infinite bandwidth", Params{Bandwidth: math.Inf(1)}, q, rng, "bandwidth"},
		{"NaN bandwidth", Params{Bandwidth: math.NaN()}, q, rng, "bandwidth"},
		{"negative delay", Params{Delay: -time.Millisecond}, q, rng, "delay"},
		{"loss above 1", Params{Loss: 1.5}, q, rng, "loss"},
		{"NaN loss", Params{Loss: math.NaN()}, q, rng, "loss"},
		{"negative overhead", Params{HeaderOverhead: -1}, q, rng, "overhead"},
		{"no queue", Params{}, nil, rng, "queue"},
		{"loss without a random source", Params{Loss: 0.1}, q, nil, "random source"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewChannel(s, tc.p, tc.q, nil, tc.rng)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one about %s", err, tc.want)
			}
		})
	}
}

// TestChannelCarriesLinkFieldsWithoutReliability checks a channel that
// emulates the way in (no Reliability of its own): a frame's TxSequence
// and Acks arrive with it, an IDLE frame arrives as one, a marking queue
// still marks the packet, and a dropped packet is reported.
func TestChannelCarriesLinkFieldsWithoutReliability(t *testing.T) {
	s := &vclock.Scheduler{}
	q, err := aqm.NewCoDel(aqm.Mark, aqm.DefaultCoDelParams(), aqm.Limits{Packets: 2})
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewChannel(s, Params{Bandwidth: 1e6, Delay: time.Millisecond}, q, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []Frame
	c.OnDeliver(func(f *Frame) { got = append(got, *f) })
	var dropped []ndn.Packet
	c.OnDrop(func(p ndn.Packet) { dropped = append(dropped, p) })
	data := ndn.Packet{Data: seedData(t, 7)}
	c.SendFrame(Frame{Pkt: data, LinkFields: ndn.LinkFields{TxSeq: 9, Acks: []uint64{3, 4}}})
	c.SendFrame(Frame{LinkFields: ndn.LinkFields{Acks: []uint64{5}}})
	c.SendFrame(Frame{Pkt: data})                                        // no fields: as Send
	c.SendFrame(Frame{Pkt: data, LinkFields: ndn.LinkFields{TxSeq: 10}}) // the queue (2) is full: dropped
	s.RunUntil(time.Hour, nil)
	if len(got) != 3 || got[0].TxSeq != 9 || !reflect.DeepEqual(got[0].Acks, []uint64{3, 4}) || got[0].Pkt.Data == nil {
		t.Fatalf("delivered %+v", got)
	}
	if !got[1].IsIdle() || !reflect.DeepEqual(got[1].Acks, []uint64{5}) || !got[2].LinkFields.IsZero() {
		t.Errorf("IDLE frame %+v, plain frame %+v", got[1], got[2])
	}
	if len(dropped) != 1 || dropped[0].Data == nil {
		t.Errorf("dropped %v, want the fourth Data reported", dropped)
	}
	if st := c.Stats(); st.DataPkts != 2 || st.ExtPkts != 0 {
		t.Errorf("counted %d Data and %d non-NDN frames, want 2 and 0", st.DataPkts, st.ExtPkts)
	}
}

// TestChannelSendsAMarkWithItsHeader checks that a packet its queue marks
// at dequeue occupies the wire for its marked size: the NDNLPv2 header
// that carries the CongestionMark is measured when the packet leaves, not
// when it was queued unmarked.
func TestChannelSendsAMarkWithItsHeader(t *testing.T) {
	sz := ndn.NewSizer()
	d := seedData(t, 1000)
	plain := sz.PacketSize(&ndn.Packet{Data: d}) + 44
	marked := sz.PacketSize(&ndn.Packet{Data: d, CongestionMark: 1}) + 44
	if marked <= plain {
		t.Fatalf("a marked Data is %d bytes on the wire, unmarked %d: want more", marked, plain)
	}
	const bw = 5e6
	tests := []struct {
		name   string
		params map[string]string // threshold-mark's; nil: drop-tail
		second int               // the second packet's wire size
	}{
		{"drop-tail marks nothing", nil, plain},
		// NFD's rule marks only a backlog that has lasted the interval:
		// this one lasts one packet time.
		{"threshold-mark, NFD's spacing: too short to mark", map[string]string{"threshold-bytes": "0"}, plain},
		{"threshold-mark, every packet", map[string]string{"threshold-bytes": "0", "marking": "every"}, marked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &vclock.Scheduler{}
			var q aqm.Queue
			var err error
			if tt.params == nil {
				q, err = aqm.NewDropTail(aqm.Limits{})
			} else {
				q, err = aqm.New("threshold-mark", tt.params, aqm.Limits{})
			}
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewChannel(s, Params{Bandwidth: bw, Delay: 10 * time.Millisecond, HeaderOverhead: 44}, q, ndn.NewSizer(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []arrival
			c.OnDeliver(func(f *Frame) { got = append(got, arrival{s.Now(), f.Pkt}) })
			// The first leaves at once; the second leaves with the third
			// queued behind it (a backlog above 0 bytes), the third with
			// nothing behind it.
			for seg := uint64(1000); seg < 1003; seg++ {
				c.Send(ndn.Packet{Data: seedData(t, seg)})
			}
			s.RunUntil(time.Hour, nil)
			sizes := []int{plain, tt.second, plain}
			var end time.Duration
			for i, a := range got {
				end += SerializationTime(sizes[i], bw)
				if want := end + 10*time.Millisecond; a.at != want {
					t.Errorf("packet %d (mark %d) arrived at %v, want %v", i, a.pkt.CongestionMark, a.at, want)
				}
			}
			if len(got) != 3 || (got[1].pkt.CongestionMark != 0) != (tt.second == marked) {
				t.Fatalf("delivered %d packets, the second marked %v; want 3, marked %v", len(got), len(got) > 1 && got[1].pkt.CongestionMark != 0, tt.second == marked)
			}
			if st := c.Stats(); st.Bytes != uint64(2*plain+tt.second) {
				t.Errorf("sent %d bytes, want %d", st.Bytes, 2*plain+tt.second)
			}
		})
	}
}

// TestTransmitterWakesOnlyWithFramesWaiting checks the events a channel
// spends: a frame alone on the transmitter takes one, its arrival; a frame
// that waits behind another takes a wake at the end of that one's
// transmission too. Frames given while the last one is still in
// transmission, or the instant it ends, still leave back to back.
func TestTransmitterWakesOnlyWithFramesWaiting(t *testing.T) {
	// 2000-byte frames (with headers) at 16 Mbit/s: 1 ms each, 10 ms delay.
	d := seedData(t, 1000)
	size := ndn.NewSizer().PacketSize(&ndn.Packet{Data: d})
	p := Params{Bandwidth: 16e6, Delay: 10 * time.Millisecond, HeaderOverhead: 2000 - size}
	tests := []struct {
		name   string
		sends  []time.Duration // when each frame is given to the channel
		arrive []time.Duration
		events uint64
	}{
		{"spaced: no wakes", []time.Duration{0, 5 * ms, 20 * ms}, []time.Duration{11 * ms, 16 * ms, 31 * ms}, 3},
		{"the instant the last ends", []time.Duration{0, 1 * ms}, []time.Duration{11 * ms, 12 * ms}, 2},
		{"one behind another", []time.Duration{0, 500 * time.Microsecond}, []time.Duration{11 * ms, 12 * ms}, 3},
		{"three in a burst", []time.Duration{0, 0, 0}, []time.Duration{11 * ms, 12 * ms, 13 * ms}, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, c, got := testChannel(t, p, aqm.Limits{}, nil)
			for _, at := range tt.sends {
				s.At(at, func() { c.Send(ndn.Packet{Data: d}) })
			}
			s.RunUntil(time.Second, nil)
			var at []time.Duration
			for _, a := range *got {
				at = append(at, a.at)
			}
			if !reflect.DeepEqual(at, tt.arrive) {
				t.Errorf("arrivals at %v, want %v", at, tt.arrive)
			}
			// The sends' own events are not the channel's.
			if n := s.Events() - uint64(len(tt.sends)); n != tt.events {
				t.Errorf("the channel took %d events, want %d", n, tt.events)
			}
			if st := c.Stats(); st.Packets != uint64(len(tt.sends)) || st.Lateness.Wakes != tt.events {
				t.Errorf("stats %+v, want %d frames and %d wakes", st, len(tt.sends), tt.events)
			}
		})
	}
}
