package cc

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// pdFeed drives a PacedDelay as a pipeline would: each Data releases
// one new Interest, so the Data of segment s arrives when segments up to
// s+W (W the window) have been sent. Rounds are Vegas': a round ends at
// the first Data of a segment sent after it began, so its decision comes
// one Data into the next window of Data.
type pdFeed struct {
	d   *PacedDelay
	now time.Duration
	seg uint64 // next segment to acknowledge
}

// ack acknowledges the next segment with RTT r.
func (f *pdFeed) ack(r time.Duration) {
	f.now += r / 64
	w := uint64(max(int(f.d.Cwnd()), 1))
	f.d.OnData(Ack{Now: f.now, Seg: f.seg, RTT: r, HighInterest: f.seg + w})
	f.seg++
}

// start acknowledges segment 0 with RTT r: it founds the first source.
func (f *pdFeed) start(r time.Duration) { f.ack(r) }

// round acknowledges Data with RTT samples from rtt until the algorithm
// has completed one more round, and returns the least window meanwhile.
func (f *pdFeed) round(rtt func(i int) time.Duration) float64 {
	least := f.d.Cwnd()
	for i, r0 := 0, f.d.Round(); f.d.Round() == r0; i++ {
		f.ack(rtt(i))
		least = min(least, f.d.Cwnd())
	}
	return least
}

func constRTT(r time.Duration) func(int) time.Duration { return func(int) time.Duration { return r } }

func newPD(t *testing.T, mod func(*PacedDelayConfig)) *PacedDelay {
	t.Helper()
	cfg := DefaultPacedDelayConfig()
	if mod != nil {
		mod(&cfg)
	}
	d, err := NewPacedDelay(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestPacedDelayConfigValidate(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*PacedDelayConfig)
	}{
		{"alpha 0", func(c *PacedDelayConfig) { c.Alpha = 0 }},
		{"beta below alpha", func(c *PacedDelayConfig) { c.Alpha, c.Beta = 3, 2 }},
		{"gamma 0", func(c *PacedDelayConfig) { c.SlowStartGamma = 0 }},
		{"mark-beta 1", func(c *PacedDelayConfig) { c.MarkBeta = 1 }},
		{"loss-beta 0", func(c *PacedDelayConfig) { c.LossBeta = 0 }},
		{"quiet-loss-beta above 1", func(c *PacedDelayConfig) { c.QuietLossBeta = 1.5 }},
		{"pacing gain below 1", func(c *PacedDelayConfig) { c.PacingGain = 0.5 }},
		{"ss pacing gain inf", func(c *PacedDelayConfig) { c.SlowStartPacingGain = math.Inf(1) }},
		{"min-rtt-window 0", func(c *PacedDelayConfig) { c.MinRTTWindow = 0 }},
		{"delay-floor negative", func(c *PacedDelayConfig) { c.DelayFloor = -1 }},
		{"host-delay-floor negative", func(c *PacedDelayConfig) { c.HostDelayFloor = -1 }},
		{"source ratio 1", func(c *PacedDelayConfig) { c.SourceRatio = 1 }},
		{"velocity 0", func(c *PacedDelayConfig) { c.MaxVelocity = 0 }},
		{"init-cwnd 0", func(c *PacedDelayConfig) { c.InitCwnd = 0 }},
		{"init-ssthresh 0", func(c *PacedDelayConfig) { c.InitSsthresh = 0 }},
		{"init-ssthresh NaN", func(c *PacedDelayConfig) { c.InitSsthresh = math.NaN() }},
	}
	if err := DefaultPacedDelayConfig().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, c := range cases {
		cfg := DefaultPacedDelayConfig()
		c.mod(&cfg)
		if _, err := NewPacedDelay(cfg); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if _, err := NewAlgorithm("paced-delay", Params{"min-rtt-window": "-1s"}); !errors.Is(err, ErrBadParam) {
		t.Errorf("min-rtt-window -1s: %v, want ErrBadParam", err)
	}
	a, err := NewAlgorithm("paced-delay", Params{"delay-alpha": "2", "delay-beta": "4", "min-rtt-window": "5s", "init-cwnd": "4"})
	if err != nil || a.Cwnd() != 4 {
		t.Fatalf("params: %v %v", a, err)
	}
}

// TestPacedDelayRounds replays the window through slow start, its exit
// and the congestion-avoidance rules, round by round.
func TestPacedDelayRounds(t *testing.T) {
	base := ms(100)
	cases := []struct {
		name  string
		init  float64       // initial window (the start's Data grows it by one in avoidance)
		slow  bool          // still in slow start before the round
		queue time.Duration // queueing delay of every sample in the round
		want  float64       // window after the round
	}{
		// Slow start doubles the window in a round without queue (and
		// the Data that ends the round adds one more).
		{"slow start doubles", 10, true, 0, 21},
		// Three samples in a row with cwnd*(q-1ms)/r > 1 end slow start
		// by removing the excess: cwnd*9/110 > 1 from cwnd 13 on, so the
		// samples at 13, 14 and 15 end it at 15 - 15*9/110 = 13.77; the
		// round's diff, 13.77*9/110 = 1.13, then holds it.
		{"slow start exit", 10, true, ms(10), 15 - 15*9.0/110},
		// After slow start: no queue grows by the velocity (1).
		{"grow", 19, false, 0, 21},
		// diff = 20*(2-1)/102 = 0.2 < alpha 0.75: grow (delay-floor 1 ms).
		{"grow under alpha", 19, false, ms(2), 21},
		// diff = 20*8/109 = 1.47 in [0.75, 1.75]: hold.
		{"hold", 19, false, ms(9), 20},
		// diff = 20*29/130 = 4.5 > beta 1.75: shrink by min(v=1, 3.7).
		{"shrink", 19, false, ms(30), 19},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = c.init })
			if !c.slow {
				d.slowStart, d.ssthresh = false, c.init
			}
			f := &pdFeed{d: d}
			f.start(base)
			if c.slow {
				d.cwnd = c.init // undo the start's Data
			}
			f.round(constRTT(base + c.queue))
			checkNear(t, c.name, "cwnd", d.Cwnd(), c.want)
			if d.InSlowStart() != (c.slow && c.queue == 0) {
				t.Errorf("in slow start %v", d.InSlowStart())
			}
		})
	}
}

// TestPacedDelayHostFloor: a source whose minimum RTT is below
// delay-floor (1 ms) takes host-delay-floor (4 ms) as its floor; a
// farther one keeps delay-floor, whatever its queue.
func TestPacedDelayHostFloor(t *testing.T) {
	cases := []struct {
		name        string
		base, queue time.Duration
		want        float64 // window after one round from 20 in avoidance
	}{
		// diff = 20*max(3-4, 0)/3.3 = 0 < alpha: grow.
		{"host source under its floor", ms(0.3), ms(3), 21},
		// diff = 20*(6-4)/6.3 = 6.3 > beta: shrink by the velocity.
		{"host source over its floor", ms(0.3), ms(6), 19},
		// diff = 20*(3-1)/5 = 8 > beta: the same 3 ms of queue behind a
		// 2 ms path shrinks the window.
		{"farther source", ms(2), ms(3), 19},
		// At the boundary (base = delay-floor) the path is not the host's.
		{"base at delay-floor", ms(1), ms(3), 19},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 19 })
			d.slowStart, d.ssthresh = false, 19
			f := &pdFeed{d: d}
			f.start(c.base)
			f.round(constRTT(c.base + c.queue))
			checkNear(t, c.name, "cwnd", d.Cwnd(), c.want)
		})
	}
}

// TestPacedDelayInitSsthresh: a finite init-ssthresh ends slow start on
// the Data that brings the window to it, though no sample shows a queue;
// inf (the default) leaves the end to the queue.
func TestPacedDelayInitSsthresh(t *testing.T) {
	cases := []struct {
		name     string
		ssthresh string
		want     float64 // window when slow start ends (0: it does not, in 40 Data)
	}{
		{"threshold", "16", 16},
		{"threshold at the initial window: no slow start", "10", 10},
		{"fractional threshold", "12.5", 12.5},
		{"inf", "inf", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := NewAlgorithm("paced-delay", Params{"init-ssthresh": c.ssthresh})
			if err != nil {
				t.Fatal(err)
			}
			d := a.(*PacedDelay)
			f := &pdFeed{d: d}
			var ended float64
			if !d.InSlowStart() {
				ended = d.Cwnd()
			}
			for i := 0; i < 40 && ended == 0; i++ {
				f.ack(ms(100))
				if !d.InSlowStart() {
					ended = d.Cwnd()
				}
			}
			checkNear(t, c.name, "window at the end of slow start", ended, c.want)
			if c.want == 0 && d.Cwnd() != 50 {
				t.Errorf("window %v after 40 Data in slow start from 10, want 50", d.Cwnd())
			}
		})
	}
}

// TestPacedDelayVelocity: rounds in one direction speed the change up
// (Copa's velocity), a change of direction resets it.
func TestPacedDelayVelocity(t *testing.T) {
	d := newPD(t, func(c *PacedDelayConfig) { c.InitCwnd = 19 })
	d.slowStart = false // the start's Data then grows it to 20
	f := &pdFeed{d: d}
	f.start(ms(100))
	var got []float64
	for range 6 {
		f.round(constRTT(ms(100)))
		got = append(got, d.Cwnd())
	}
	// The start's round grew 19 to 20; then +1 +1, and from the fourth
	// round in a row the velocity doubles, capped at cwnd/8: +2, then
	// min(4, 24/8) = 3, min(6, 27/8), min(6.75, 30.375/8).
	want := []float64{21, 22, 24, 27, 30.375, 30.375 + 30.375/8}
	for i := range want {
		checkNear(t, "round", "cwnd", got[i], want[i])
	}
	f.round(constRTT(ms(140))) // diff = 34*40/140 = 9.8: shrink by 1
	checkNear(t, "reverse", "cwnd", d.Cwnd(), 30.375+30.375/8-1)
}

func TestPacedDelayDecrease(t *testing.T) {
	cases := []struct {
		name  string
		cause Cause
		diff  float64 // queue estimate of the last round
		want  float64
	}{
		{"mark", CauseMark, 0, 80},
		{"nack", CauseNack, 5, 80},
		// A loss while the flow kept more than Beta (1.75) queued: its own
		// overflow.
		{"timeout, own queue", CauseTimeout, 5, 50},
		{"hole, own queue", CauseHole, 2.5, 50},
		// Within Beta: a random loss or another flow's overflow.
		{"timeout, quiet", CauseTimeout, 1, 100},
		{"hole, quiet", CauseHole, 1.75, 100},
	}
	for _, c := range cases {
		d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 100 })
		d.slowStart, d.diff = false, c.diff
		d.OnDecrease(0, c.cause)
		d.OnDecrease(0, c.cause) // a second one in the same round is ignored
		if d.Cwnd() != c.want || d.Ssthresh() != c.want || d.InSlowStart() {
			t.Errorf("%s: cwnd %v ssthresh %v slow start %v, want %v", c.name, d.Cwnd(), d.Ssthresh(), d.InSlowStart(), c.want)
		}
	}
	// In slow start every loss is the flow's own overshoot.
	d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 40 })
	d.OnDecrease(0, CauseTimeout)
	if d.Cwnd() != 20 || d.InSlowStart() {
		t.Errorf("slow start loss: cwnd %v, want 20", d.Cwnd())
	}
	d = newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 2 })
	d.OnDecrease(0, CauseTimeout)
	if d.Cwnd() != MinSsthresh {
		t.Errorf("floor: cwnd %v, want %v", d.Cwnd(), MinSsthresh)
	}
}

// TestPacedDelayRandomLoss: a loss found by later Data (CauseLoss) while
// the flow keeps no queue to overflow leaves the window, slow start and
// the growth's velocity as they were; with a queue of its own after slow
// start it sheds that queue (at most loss-beta of the window); in slow
// start with a queue building, in competitive mode, or with a
// quiet-loss-beta below 1 it decreases as any loss.
func TestPacedDelayRandomLoss(t *testing.T) {
	cases := []struct {
		name      string
		slowStart bool
		ssAbove   int
		diff      float64
		competing bool
		quietBeta float64
		want      float64
		wantSS    bool
		keepsVel  bool
	}{
		{name: "slow start, no queue", slowStart: true, quietBeta: 1, want: 100, wantSS: true, keepsVel: true},
		{name: "slow start, queue building", slowStart: true, ssAbove: 1, quietBeta: 1, want: 50},
		{name: "after slow start, within beta", diff: 1.5, quietBeta: 1, want: 100, keepsVel: true},
		// Its own queue of 3 segments: it sheds that queue (more than
		// half the window left).
		{name: "after slow start, own queue", diff: 3, quietBeta: 1, want: 97},
		{name: "after slow start, own queue past half the window", diff: 70, quietBeta: 1, want: 50},
		{name: "competitive", diff: 1, competing: true, quietBeta: 1, want: 100 * competeLossBeta},
		{name: "quiet-loss-beta below 1", diff: 1, quietBeta: 0.9, want: 90},
	}
	for _, c := range cases {
		d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd, cfg.QuietLossBeta = 100, c.quietBeta })
		d.slowStart, d.ssAbove, d.diff, d.competing = c.slowStart, c.ssAbove, c.diff, c.competing
		d.dir, d.sameDir, d.velocity = 1, 4, 8
		d.OnDecrease(0, CauseLoss)
		if d.Cwnd() != c.want || d.InSlowStart() != c.wantSS {
			t.Errorf("%s: cwnd %v slow start %v, want %v and %v", c.name, d.Cwnd(), d.InSlowStart(), c.want, c.wantSS)
		}
		if kept := d.velocity == 8; kept != c.keepsVel {
			t.Errorf("%s: velocity %v, want it kept: %v", c.name, d.velocity, c.keepsVel)
		}
		// After slow start a random loss is the round's event: the
		// round decides nothing more.
		if c.keepsVel && d.decreased == c.slowStart {
			t.Errorf("%s: round marked decreased %v", c.name, d.decreased)
		}
	}
	// A timeout is no random loss: a quiet one still ends slow start.
	d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 40 })
	d.OnDecrease(0, CauseTimeout)
	if d.InSlowStart() {
		t.Error("a timeout in slow start left slow start on")
	}
}

// TestPacedDelayHostPathTimeout: a timeout on a host path (the nearest
// source's minimum RTT below delay-floor) sets the window to the loss window,
// whatever the queue estimate or the phase; elsewhere the queue estimate
// decides as before, and marks and holes keep their decreases.
func TestPacedDelayHostPathTimeout(t *testing.T) {
	cases := []struct {
		name      string
		sources   []time.Duration // RTT samples that found the sources, in order
		cause     Cause
		slowStart bool
		want      float64
	}{
		{"host source, timeout", []time.Duration{ms(0.3)}, CauseTimeout, false, MinSsthresh},
		{"host source, timeout in slow start", []time.Duration{ms(0.3)}, CauseTimeout, true, MinSsthresh},
		{"host source, mark", []time.Duration{ms(0.3)}, CauseMark, false, 80},
		{"host source, hole", []time.Duration{ms(0.3)}, CauseHole, false, 100},
		{"farther source, timeout", []time.Duration{ms(2)}, CauseTimeout, false, 100},
		{"base at delay-floor, timeout", []time.Duration{ms(1)}, CauseTimeout, false, 100},
		// A farther level beside a host source (a slow first sample on
		// loopback, or a local cache in front of a remote producer): this
		// host's forwarder is still on every Interest's path.
		{"host and farther sources, timeout", []time.Duration{ms(5), ms(0.3)}, CauseTimeout, false, MinSsthresh},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newPD(t, nil)
			f := &pdFeed{d: d}
			for _, r := range c.sources {
				f.ack(r)
			}
			if got := len(d.Sources()); got != len(c.sources) {
				t.Fatalf("%d sources, want %d", got, len(c.sources))
			}
			d.cwnd, d.slowStart, d.diff = 100, c.slowStart, 1 // a quiet queue
			d.OnDecrease(f.now, c.cause)
			if d.Cwnd() != c.want || d.Ssthresh() != c.want || d.InSlowStart() {
				t.Errorf("cwnd %v ssthresh %v slow start %v, want %v", d.Cwnd(), d.Ssthresh(), d.InSlowStart(), c.want)
			}
		})
	}
}

// TestPacedDelayOnTimeout: OnTimeout brings a host path's window to the
// loss window also after a mark's decrease in the same round (which
// OnDecrease would ignore); elsewhere it changes nothing.
func TestPacedDelayOnTimeout(t *testing.T) {
	for _, c := range []struct {
		name string
		base time.Duration
		want float64
	}{
		{"host path", ms(0.3), MinSsthresh},
		{"farther path", ms(2), 80},
	} {
		d := newPD(t, nil)
		f := &pdFeed{d: d}
		f.start(c.base)
		d.cwnd, d.slowStart, d.diff = 100, false, 1
		d.OnDecrease(f.now, CauseMark)
		d.OnTimeout(f.now)
		if d.Cwnd() != c.want || d.Ssthresh() != c.want {
			t.Errorf("%s: cwnd %v ssthresh %v, want %v", c.name, d.Cwnd(), d.Ssthresh(), c.want)
		}
	}
}

// TestPacedDelayCacheHitHalvesRTT pins issue 15's "a cache hit halving the
// RTT mid-transfer costs no window collapse": once a nearer source answers
// some or all Data at half the RTT, no round decreases the window, where
// a single minimum RTT (Vegas) reads the far source's Data as a queue.
func TestPacedDelayCacheHitHalvesRTT(t *testing.T) {
	far, near := ms(100), ms(50)
	cases := []struct {
		name string
		rtt  func(i int) time.Duration
	}{
		{"all Data from the cache", constRTT(near)},
		{"alternate cache and producer", func(i int) time.Duration {
			if i%2 == 0 {
				return near
			}
			return far
		}},
		{"one in four from the cache", func(i int) time.Duration {
			if i%4 == 0 {
				return near
			}
			return far
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newPD(t, nil)
			f := &pdFeed{d: d}
			f.start(far)
			d.slowStart, d.cwnd, d.ssthresh = false, 30, 30
			for range 3 {
				f.round(constRTT(far + ms(5))) // diff 30*4/105 = 1.14: hold at 30
			}
			before := d.Cwnd()
			for r := range 20 {
				if least := f.round(c.rtt); least < before {
					t.Fatalf("round %d after the shift: window fell to %v from %v (sources %v, diff %v)", r, least, before, d.Sources(), d.Diff())
				}
			}
			if got := d.Sources(); len(got) != 2 || got[0] != near || got[1] != far {
				t.Errorf("sources %v, want [%v %v]", got, near, far)
			}
		})
	}
	// The control: Vegas with one minimum shrinks on the mixed samples.
	v, err := NewVegas(VegasConfig{InitCwnd: 30, InitSsthresh: 30, Alpha: 1, Beta: 3, SlowStartGamma: 1})
	if err != nil {
		t.Fatal(err)
	}
	var seg uint64
	for r := range 10 {
		hi := seg + 29
		for i := range 30 {
			rtt := far
			if r >= 3 && i%2 == 0 {
				rtt = near
			}
			v.OnData(Ack{Seg: seg, RTT: rtt, HighInterest: hi})
			seg++
		}
	}
	if v.Cwnd() >= 30 {
		t.Errorf("control: vegas window %v did not fall below 30 on mixed RTTs", v.Cwnd())
	}
}

// TestPacedDelayMinRTTExpiry: a path that got longer for good is taken
// as the new minimum after MinRTTWindow, not as a standing queue forever.
func TestPacedDelayMinRTTExpiry(t *testing.T) {
	d := newPD(t, func(c *PacedDelayConfig) { c.MinRTTWindow = time.Second })
	f := &pdFeed{d: d}
	f.start(ms(50))
	d.slowStart, d.cwnd = false, 10
	for f.now < 3*time.Second {
		f.round(constRTT(ms(80)))
	}
	if got := d.Sources(); len(got) != 1 || got[0] != ms(80) {
		t.Errorf("sources %v, want [80ms]", got)
	}
}

func TestPacedDelayPacingInterval(t *testing.T) {
	d := newPD(t, nil)
	if got := d.PacingInterval(); got != 0 {
		t.Errorf("before a sample: %v, want 0", got)
	}
	f := &pdFeed{d: d}
	f.start(ms(100))
	// Slow start: 100 ms / (2 * 11).
	if got, want := d.PacingInterval(), time.Duration(float64(ms(100))/22); got != want {
		t.Errorf("slow start: %v, want %v", got, want)
	}
	d.slowStart, d.cwnd = false, 40
	f.round(constRTT(ms(110)))
	// The least RTT of the last round over 2 * cwnd (41 after growing).
	if got, want := d.PacingInterval(), time.Duration(float64(ms(110))/(2*d.Cwnd())); got != want {
		t.Errorf("avoidance: %v, want %v", got, want)
	}
}

// TestPacedDelayCompetitive: with competitive on, a standing queue that
// grows for six rounds while the window has yielded to a few segments
// starts competitive mode (Reno's growth, CUBIC's decrease on a loss);
// an empty queue ends it. Off (the default), the same rounds only shrink
// the window.
func TestPacedDelayCompetitive(t *testing.T) {
	for _, on := range []bool{false, true} {
		d := newPD(t, func(c *PacedDelayConfig) { c.InitCwnd, c.Competitive = 4, on })
		d.slowStart = false
		f := &pdFeed{d: d}
		f.start(ms(50))
		// A competitor's queue grows 2 ms a round, from 10 ms.
		for i := range 8 {
			f.round(constRTT(ms(60 + 2*float64(i))))
		}
		if d.Competing() != on {
			t.Fatalf("competitive %v: competing %v after a growing queue (cwnd %v)", on, d.Competing(), d.Cwnd())
		}
		if !on {
			continue
		}
		w := d.Cwnd()
		f.round(constRTT(ms(80)))
		if d.Cwnd() != w+1 {
			t.Errorf("competing: cwnd %v after a round, want %v", d.Cwnd(), w+1)
		}
		w = d.Cwnd()
		d.OnDecrease(f.now, CauseTimeout)
		checkNear(t, "competing loss", "cwnd", d.Cwnd(), max(w*0.7, MinSsthresh))
		f.round(constRTT(ms(50))) // the queue is empty
		f.round(constRTT(ms(50)))
		if d.Competing() {
			t.Error("still competing with an empty queue")
		}
	}
}

// TestPacedDelayFartherSource: an RTT that steps up within a round by far
// more than the window could queue (a path switch from 22 to 102 ms with
// a window of 20) founds a farther source, against whose minimum the
// window keeps growing; one that rises a few milliseconds a round (a
// queue) does not, and the window shrinks.
func TestPacedDelayFartherSource(t *testing.T) {
	newAt := func() (*PacedDelay, *pdFeed) {
		d := newPD(t, func(c *PacedDelayConfig) { c.InitCwnd = 20 })
		d.slowStart = false
		f := &pdFeed{d: d}
		f.start(ms(22))
		for range 3 {
			f.round(constRTT(ms(22)))
		}
		return d, f
	}
	d, f := newAt()
	before := d.Cwnd()
	for range 4 {
		f.round(constRTT(ms(102)))
	}
	if got := d.Sources(); len(got) != 2 || got[1] != ms(102) {
		t.Errorf("sources %v after the step to 102 ms, want 22ms and 102ms", got)
	}
	if d.Cwnd() <= before {
		t.Errorf("window %v after the step, want it grown from %v", d.Cwnd(), before)
	}

	d, f = newAt()
	before = d.Cwnd()
	for i := range 6 {
		f.round(constRTT(ms(float64(22 + 4*(i+1)))))
	}
	if got := d.Sources(); len(got) != 1 {
		t.Errorf("sources %v after a rise of 4 ms a round, want only 22ms", got)
	}
	if d.Cwnd() >= before {
		t.Errorf("window %v after a rise of 4 ms a round, want it shrunk from %v", d.Cwnd(), before)
	}
}

// TestPacedDelayMarkingPath: once a congestion mark has arrived, a
// router on the path marks, and every round grows the window by one,
// whatever its queue: above beta, so that the queue reaches the marking
// point (PCON's forwarding moves Interests to other paths only on
// marks), and below alpha without velocity, so that two flows that draw
// the same marks grow alike. A mark's decrease bounds the window. A
// congestion Nack, a hole or no decrease at all leaves the delay rules
// as they are.
func TestPacedDelayMarkingPath(t *testing.T) {
	base := ms(100)
	cases := []struct {
		name    string
		cause   Cause         // the decrease in the round after the start
		none    bool          // no decrease
		base    time.Duration // minimum RTT; 100 ms if 0
		queue   time.Duration
		rounds  int     // rounds with queue queue after the decrease's
		want    float64 // window after them
		marking bool
	}{
		// 20 after the start; a round at the minimum grows to 21; the
		// queue's round (diff 21*29/130 = 4.7 > beta) shrinks by 1.
		{name: "queue, no decrease", none: true, queue: ms(30), rounds: 1, want: 20},
		// 20*0.8 = 16 (the decrease's round decides nothing more);
		// diff 16*29/130 = 3.6 > beta, yet it grows by 1.
		{name: "queue, mark", cause: CauseMark, queue: ms(30), rounds: 1, want: 17, marking: true},
		// 16, then shrinks by 1: a Nack is no mark.
		{name: "queue, nack", cause: CauseNack, queue: ms(30), rounds: 1, want: 15},
		// A hole with no queue of its own leaves 20; it shrinks by 1.
		{name: "queue, hole", cause: CauseHole, queue: ms(30), rounds: 1, want: 19},
		// No queue: 21, then the velocity doubles from the third round
		// up on, capped at cwnd/8: 22, 24, 27, 30.375, 34.17, 38.44.
		{name: "no queue, no decrease", none: true, rounds: 6, want: 38.443359375},
		// After a mark one a round: 16 + 6.
		{name: "no queue, mark", cause: CauseMark, rounds: 6, want: 22, marking: true},
		// A host path (minimum 0.5 ms, host floor 4 ms) keeps the delay
		// rules after a mark: 16, then diff 16*(30-4)/30.5 = 13.6 >
		// beta shrinks by 1.
		{name: "host path, mark", cause: CauseMark, base: 500 * time.Microsecond, queue: ms(30), rounds: 1, want: 15, marking: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := base
			if c.base > 0 {
				base = c.base
			}
			d := newPD(t, func(cfg *PacedDelayConfig) { cfg.InitCwnd = 19 })
			d.slowStart, d.ssthresh = false, 19
			f := &pdFeed{d: d}
			f.start(base)
			if !c.none {
				d.OnDecrease(f.now, c.cause)
			}
			f.round(constRTT(base))
			for range c.rounds {
				f.round(constRTT(base + c.queue))
			}
			checkNear(t, c.name, "cwnd", d.Cwnd(), c.want)
			if d.marking != c.marking {
				t.Errorf("marking %v, want %v", d.marking, c.marking)
			}
		})
	}
}

// TestPacedDelayNoiseFloor: after slow start the delay floor at the start
// of a round (no sample in it yet, so the floor is the whole width) is the
// width of the RTT's measured noise (the median difference of
// consecutive samples over that of uniform noise), at most delay-floor;
// in slow start it is delay-floor, and on a host path host-delay-floor.
func TestPacedDelayNoiseFloor(t *testing.T) {
	cases := []struct {
		name      string
		base      time.Duration
		noise     time.Duration // width of the uniform noise on every sample
		slowStart bool
		want, tol time.Duration
	}{
		{"quiet path: no floor", ms(50), 0, false, 0, 0},
		{"noise of 0.4 ms", ms(50), ms(0.4), false, ms(0.4), ms(0.1)},
		{"noise above delay-floor", ms(50), ms(4), false, ms(1), 0},
		{"slow start", ms(50), ms(0.4), true, ms(1), 0},
		{"host path", ms(0.5), ms(0.1), false, ms(4), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := newPD(t, nil)
			rng := rand.New(rand.NewPCG(1, 2))
			f := &pdFeed{d: d}
			f.start(c.base)
			if !c.slowStart {
				d.slowStart, d.cwnd = false, 20
			}
			rtt := func(int) time.Duration { return c.base + time.Duration(rng.Float64()*float64(c.noise)) }
			for range 4 {
				f.round(rtt)
			}
			if d.InSlowStart() != c.slowStart {
				t.Fatalf("slow start %v, want %v", d.InSlowStart(), c.slowStart)
			}
			if got := d.floor(c.base); got < c.want-c.tol || got > c.want+c.tol {
				t.Errorf("floor %v, want %v ± %v", got, c.want, c.tol)
			}
		})
	}
}

// TestPacedDelayNoiseFloorHoldsQueue: a standing queue of 1.5 ms is what
// a window of 40 keeps (its diff within alpha and beta: it holds), whether
// the RTT does not vary or varies by up to 0.8 or 4 ms: the round's least
// sample, of about 40, lies about a 41st of the noise's width above the
// standing queue, and that is the floor subtracted from it. The whole width
// (0.8 ms, or delay-floor's 1 ms) would read half of the queue or less and
// grow the window.
func TestPacedDelayNoiseFloorHoldsQueue(t *testing.T) {
	for _, noise := range []time.Duration{0, ms(0.8), ms(4)} {
		d := newPD(t, nil)
		rng := rand.New(rand.NewPCG(1, 2))
		f := &pdFeed{d: d}
		f.start(ms(50))
		d.slowStart, d.cwnd = false, 40
		rtt := func(int) time.Duration { return ms(51.5) + time.Duration(rng.Float64()*float64(noise)) }
		// Two rounds measure the noise (the first still reads with the
		// 1 ms floor), four more show what the window does.
		f.round(rtt)
		f.round(rtt)
		w := d.Cwnd()
		for range 4 {
			f.round(rtt)
		}
		if d.Cwnd() != w {
			t.Errorf("noise %v: window %v -> %v (diff %.2f), want it to hold", noise, w, d.Cwnd(), d.Diff())
		}
	}
}
