package cc

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// PacedDelayConfig parameterises the paced-delay pipeline (docs/algorithms.md,
// "paced-delay"). Alpha, Beta and SlowStartGamma are in segments this flow
// keeps queued in the network, as Vegas' are.
type PacedDelayConfig struct {
	// InitCwnd is the initial window. Default 10 (RFC 6928's initial
	// window: a paced start from 10 costs a short path less than one from 2).
	InitCwnd float64
	// InitSsthresh ends slow start when the window reaches it, as Reno's
	// threshold does. Default +Inf: slow start ends only on a queue
	// (SlowStartGamma) or a decrease, which is what bounds it through a
	// forwarder that never marks or drops.
	InitSsthresh float64
	// Alpha: a standing queue of fewer segments than this grows the
	// window. Default 0.75.
	Alpha float64
	// Beta: a standing queue of more segments than this shrinks it.
	// Default 1.75. (Vegas' 1 and 3 keep twice the queue; 0.5 and 1.5
	// leave two flows on the dumbbell at Jain 0.975.)
	Beta float64
	// SlowStartGamma: slow start ends when the standing queue exceeds it.
	// Default 1.
	SlowStartGamma float64
	// MarkBeta is the multiplicative decrease on a congestion mark or a
	// congestion Nack. Default 0.8 (RFC 8511's for ECN).
	MarkBeta float64
	// LossBeta is the multiplicative decrease on a timeout or a hole
	// while this flow keeps more than Beta segments queued: it overflowed
	// the buffer. Default 0.5 (Reno's, as the conservative AIMD of seed
	// 000). A loss found before its RTO (rack) after slow start sheds the
	// flow's standing queue instead, to LossBeta of the window at most.
	LossBeta float64
	// QuietLossBeta is the decrease on a timeout or a hole while the
	// flow's standing queue was within Beta: no buffer it fills
	// overflowed, so the loss is random (a lossy link) or another flow's
	// overflow. Default 1: no decrease; then a loss found before its RTO
	// (rack) with no queue of this flow does not end slow start or
	// restart the window's growth either (randomLoss).
	QuietLossBeta float64
	// PacingGain multiplies the pacing rate cwnd/RTT in congestion
	// avoidance. Default 2: the window, not the pacer, bounds the rate;
	// pacing only spreads bursts. (BBR's 1.25 cost 8% of goodput through
	// ndnd fw on loopback, where timers are coarse; docs/tournament.md.)
	PacingGain float64
	// SlowStartPacingGain multiplies it in slow start. Default 2 (the
	// window doubles each round).
	SlowStartPacingGain float64
	// MinRTTWindow is how long a source's minimum RTT stands without a
	// sample near it before it is replaced by the least sample of that
	// span (BBR's min_rtt filter window). Default 10 s.
	MinRTTWindow time.Duration
	// SourceRatio: an RTT sample below SourceRatio times the least known
	// minimum is taken as a nearer source (a cache hit, a shorter path),
	// not as the old source's minimum falling. Default 0.7.
	SourceRatio float64
	// DelayFloor bounds the floor subtracted from every queueing delay
	// (at least 0 remains): delays below the floor are noise, not queue.
	// After slow start the floor is the RTT's measured noise (w, the
	// width of uniform noise with the median difference of the last 31
	// pairs of consecutive samples) over n+1, n the round's samples (the
	// least of n samples lies about w/(n+1) above the noise's bottom),
	// up to DelayFloor; in slow start, where consecutive samples differ
	// by the growing queue, it is DelayFloor.
	// Through a real forwarder on one host the RTT varies by hundreds of
	// microseconds with scheduling alone, and its minimum is a lucky
	// sample. Default 1 ms.
	DelayFloor time.Duration
	// HostDelayFloor replaces DelayFloor for a source whose minimum RTT
	// is below DelayFloor: a producer or cache on this host or next to
	// it, where the RTT is the processing of the hosts on the path, not
	// propagation. There the RTT grows with the batches every stage
	// reads and writes, which grow with the window, so a standing queue
	// of a few segments is as much batching as queue (Swift's separate
	// host delay target; docs/algorithms.md). Default 4 ms.
	HostDelayFloor time.Duration
	// Competitive enables competitive mode (Copa's idea, our detector):
	// when the standing queue keeps growing for competeRounds while this
	// flow's window has yielded to a few segments, a loss-based flow is
	// filling the buffer; the window then grows by one segment per round
	// whatever the queue and decreases by competeLossBeta on a loss, until
	// the queue is empty. Default true (docs/tournament.md: it changes
	// only the arenas with a TCP flow and a cache, and 16 flows' queue by
	// 2.3 ms).
	Competitive bool
	// MaxVelocity caps the window change per round that consecutive
	// rounds in one direction build up (Copa's velocity), segments.
	// Default 64.
	MaxVelocity float64
}

// DefaultPacedDelayConfig returns the documented defaults.
func DefaultPacedDelayConfig() PacedDelayConfig {
	return PacedDelayConfig{
		InitCwnd: 10, InitSsthresh: math.Inf(1), Alpha: 0.75, Beta: 1.75, SlowStartGamma: 1,
		MarkBeta: 0.8, LossBeta: 0.5, QuietLossBeta: 1,
		PacingGain: 2, SlowStartPacingGain: 2,
		MinRTTWindow: 10 * time.Second, SourceRatio: 0.7, MaxVelocity: 64, DelayFloor: time.Millisecond,
		HostDelayFloor: 4 * time.Millisecond,
		Competitive:    true,
	}
}

// Validate reports the first field that is out of range.
func (c PacedDelayConfig) Validate() error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("paced-delay: %w", err)
	}
	return nil
}

func (c PacedDelayConfig) validate() error {
	if err := checkInit(c.InitCwnd, c.InitSsthresh); err != nil {
		return err
	}
	switch {
	case !(c.Alpha > 0) || math.IsInf(c.Alpha, 0):
		return fmt.Errorf("delay-alpha %v must be a positive number", c.Alpha)
	case !(c.Beta >= c.Alpha) || math.IsInf(c.Beta, 0):
		return fmt.Errorf("delay-beta %v must be a number not below delay-alpha %v", c.Beta, c.Alpha)
	case !(c.SlowStartGamma > 0) || math.IsInf(c.SlowStartGamma, 0):
		return fmt.Errorf("delay-ss-gamma %v must be a positive number", c.SlowStartGamma)
	case !(c.PacingGain >= 1) || math.IsInf(c.PacingGain, 0):
		return fmt.Errorf("pacing-gain %v must be a number >= 1", c.PacingGain)
	case !(c.SlowStartPacingGain >= 1) || math.IsInf(c.SlowStartPacingGain, 0):
		return fmt.Errorf("ss-pacing-gain %v must be a number >= 1", c.SlowStartPacingGain)
	case c.DelayFloor < 0:
		return fmt.Errorf("delay-floor %v must not be negative", c.DelayFloor)
	case c.HostDelayFloor < 0:
		return fmt.Errorf("host-delay-floor %v must not be negative", c.HostDelayFloor)
	case c.MinRTTWindow <= 0:
		return fmt.Errorf("min-rtt-window %v must be positive", c.MinRTTWindow)
	case !(c.MaxVelocity >= 1) || math.IsInf(c.MaxVelocity, 0):
		return fmt.Errorf("max-velocity %v must be a number >= 1", c.MaxVelocity)
	}
	if err := checkFraction("mark-beta", c.MarkBeta); err != nil {
		return err
	}
	if err := checkFraction("loss-beta", c.LossBeta); err != nil {
		return err
	}
	if !(c.QuietLossBeta > 0 && c.QuietLossBeta <= 1) {
		return fmt.Errorf("quiet-loss-beta %v not in (0,1]", c.QuietLossBeta)
	}
	return checkFraction("source-ratio", c.SourceRatio)
}

// maxSources bounds the RTT levels (sources) PacedDelay keeps apart.
const maxSources = 4

// rttSource is one source's RTT level: the least RTT of the Data it sends.
type rttSource struct {
	base time.Duration // its minimum RTT
	near time.Duration // when a sample last came within nearTolerance of base
	cand time.Duration // least sample since then (the base once it expires)
}

// nearTolerance is how close to a source's minimum a sample must be to
// confirm it: an eighth of the minimum, at least 1 ms.
func nearTolerance(base time.Duration) time.Duration {
	return max(base/8, time.Millisecond)
}

// PacedDelay is a paced, delay-based window: Vegas' queue estimate taken
// from the standing RTT of each round (Copa), against a minimum RTT kept
// per source (so a cache hit or a shorter path reads as neither relief
// nor congestion), Copa's velocity for growth, BBR's pacing and min-RTT
// expiry, and multiplicative decreases on marks, Nacks, holes and
// timeouts. Rounds are as Vegas': one per RTT, from segment numbers.
//
// Per RTT sample r the source is the level with the largest minimum b <=
// r (a sample below every level within SourceRatio lowers the least
// level; further below it founds a new, nearer level; a step above it
// that the window's own queue cannot explain founds a farther one, and
// the window takes the rate it was delivered at over the new round trip:
// farther); its queueing delay is q = r - b. At the end of a round, with
// (q, r) the sample of the round with the least q and f the floor of its
// source (HostDelayFloor if b < DelayFloor; else, after slow start, the
// width of the RTT's measured noise over the round's samples plus one,
// the least sample's expected share of it, up to DelayFloor, and
// DelayFloor in slow start):
//
//	diff = cwnd * max(q - f, 0) / r     segments this flow keeps queued
//
// Slow start adds 1 per Data. It ends at the first decrease, when the
// window reaches InitSsthresh, or when three samples in a row show
// cwnd*q/r > SlowStartGamma, by removing that excess: cwnd -= cwnd*q/r.
// Then, per
// round: diff < Alpha → cwnd += v; diff > Beta → cwnd -= min(v, diff -
// Alpha); else hold. Once a congestion mark has arrived (a router on the
// path marks: CoDel's, PCON's), every round grows the window by 1
// instead, whatever diff, as Reno's avoidance does, and the marks'
// decrease bounds it: a window held below the marking point draws no
// marks, and PCON's forwarding moves Interests to another path only on
// marks; two consumers fetching one object through a cache read
// different queues from their delays (the one whose Interests wait in
// the router's PIT behind the other's reads that wait as its own), but
// draw the same marks, so equal growth and the marks' decrease bring
// their windows together. Not on a host path (hostPath): there the marks
// come from a forwarder's socket queue on this host, whose batching the
// host floor already allows for. v starts at 1 and doubles after three rounds in the
// same direction (up to MaxVelocity and cwnd/8: the queue estimate lags
// a round, so one round's change must not overflow a buffer); it returns
// to 1 when the direction changes or the window holds.
//
// A mark or congestion Nack multiplies the window by MarkBeta; a timeout
// on a host path (the nearest source's minimum RTT below DelayFloor) sets it to
// MinSsthresh (the loss window: no link there loses packets, so the
// Interests in flight are late behind a stopped process, not lost); a
// timeout or hole elsewhere multiplies it by LossBeta when the last
// round's diff exceeded Beta (this flow's queue overflowed) or in slow
// start, else by QuietLossBeta (a random loss, or another flow's
// overflow); at most once per round, never below MinSsthresh. A loss
// found before its RTO (CauseLoss) with QuietLossBeta 1 and no queue of
// the flow's own changes nothing, slow start and velocity included
// (randomLoss); after slow start with a queue it sheds that queue, to
// LossBeta of the window at most.
// PacingInterval spaces Interests at gain * cwnd / rmin, where rmin is
// the least RTT of the last round.
type PacedDelay struct {
	cfg PacedDelayConfig

	cwnd, ssthresh float64
	slowStart      bool

	src  [maxSources]rttSource
	nsrc int

	round     uint64
	mark      uint64
	roundQ    time.Duration // least queueing delay in this round (-1: none)
	roundR    time.Duration // the RTT of that sample
	roundMin  time.Duration // least RTT in this round
	roundN    int           // RTT samples in this round
	lastMin   time.Duration // least RTT of the last round with a sample
	diff      float64
	decreased bool

	ssAbove int // samples in a row above SlowStartGamma in slow start

	// Competitive mode (Config.Competitive): competing, and the rounds
	// in a row (riseRounds) whose standing queue did not fall while the
	// window did not grow, from streakQ; lastQ is the last round's.
	competing      bool
	lastQ, streakQ time.Duration
	riseRounds     int

	// marking: a congestion mark has arrived, so a router on the path
	// marks, and every round grows the window by one (decide).
	marking bool

	velocity float64
	dir      int // +1 growing, -1 shrinking, 0 holding
	sameDir  int // rounds in a row in dir

	// roundStart and roundData are when the round began and the Data it
	// has delivered; rate is the largest delivery rate (Data/s) of the
	// last rateRounds rounds (farther).
	roundStart time.Duration
	roundData  int
	rate       maxFilter

	// The RTT's noise (noiseFloor): the last noiseSamples differences
	// between consecutive samples after slow start (jumps, a ring from
	// jumpAt; njump in it), lastR the last sample.
	jumps      [noiseSamples]time.Duration
	jumpAt     int
	njump      int
	lastR      time.Duration
	noiseFloor time.Duration // -1: not measured yet
}

// NewPacedDelay returns a paced-delay window in its initial state.
func NewPacedDelay(cfg PacedDelayConfig) (*PacedDelay, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &PacedDelay{cfg: cfg, cwnd: cfg.InitCwnd, ssthresh: cfg.InitSsthresh, slowStart: cfg.InitCwnd < cfg.InitSsthresh, roundQ: -1, velocity: 1, noiseFloor: -1}, nil
}

// Name implements Algorithm.
func (*PacedDelay) Name() string { return "paced-delay" }

// Cwnd implements Algorithm.
func (d *PacedDelay) Cwnd() float64 { return d.cwnd }

// Ssthresh implements Algorithm.
func (d *PacedDelay) Ssthresh() float64 { return d.ssthresh }

// Diff is the queue estimate of the last round with samples, segments.
func (d *PacedDelay) Diff() float64 { return d.diff }

// Round is the number of rounds completed.
func (d *PacedDelay) Round() uint64 { return d.round }

// Sources returns the minimum RTT of each source level, least first.
func (d *PacedDelay) Sources() []time.Duration {
	out := make([]time.Duration, d.nsrc)
	for i := range out {
		out[i] = d.src[i].base
	}
	return out
}

// InSlowStart reports whether the window is still in slow start.
func (d *PacedDelay) InSlowStart() bool { return d.slowStart }

// PacingInterval implements Paced: the time between two Interests, or 0
// (no pacing) before the first RTT sample.
func (d *PacedDelay) PacingInterval() time.Duration {
	r := d.lastMin
	if r == 0 {
		r = d.roundMin
	}
	if r == 0 {
		return 0
	}
	gain := d.cfg.PacingGain
	if d.slowStart {
		gain = d.cfg.SlowStartPacingGain
	}
	return time.Duration(float64(r) / (gain * max(d.cwnd, 1)))
}

// OnData implements Algorithm.
func (d *PacedDelay) OnData(a Ack) {
	if a.RTT > 0 {
		d.sample(a.Now, a.RTT)
	}
	if d.slowStart {
		d.cwnd++
		if d.cwnd >= d.ssthresh {
			// Reno's end of slow start; the rounds' rules take over.
			d.cwnd, d.slowStart = min(d.ssthresh, MaxWindow), false
		}
	}
	d.roundData++
	if a.Seg >= d.mark {
		d.endRound(a.Now, a.HighInterest)
	}
}

// sample attributes an RTT sample to a source and records its queueing
// delay for this round.
func (d *PacedDelay) sample(now, r time.Duration) {
	if d.roundMin == 0 || r < d.roundMin {
		d.roundMin = r
	}
	d.roundN++
	d.noteJump(r)
	i := d.attribute(now, r)
	s := &d.src[i]
	if r <= s.base+nearTolerance(s.base) {
		s.near = now
		s.cand = r
	} else if s.cand == 0 || r < s.cand {
		s.cand = r
	}
	if now-s.near > d.cfg.MinRTTWindow {
		// No sample near the minimum for a whole window: the path got
		// longer (or a competitor keeps a standing queue); the least
		// sample of that window becomes the minimum.
		s.base, s.near, s.cand = s.cand, now, r
	}
	q := r - s.base
	if d.roundQ < 0 || q < d.roundQ {
		d.roundQ, d.roundR = q, r
	}
	if d.slowStart {
		d.slowStartSample(q, r)
	}
}

// queued is the segments this flow keeps queued by a sample of RTT r
// with queueing delay q: cwnd * (q - floor) / r, at least 0, with the
// floor of the sample's source (floor).
func (d *PacedDelay) queued(q, r time.Duration) float64 {
	return d.cwnd * float64(max(q-d.floor(r-q), 0)) / float64(r)
}

// floor is the delay floor of a source whose minimum RTT is base:
// HostDelayFloor below DelayFloor (a source on this host or next to it),
// else the noise the round's least queueing delay carries, up to
// DelayFloor, or DelayFloor before the noise is measured. That delay is
// the least of the round's roundN samples: with noise uniform on [0, w]
// (w the measured noiseFloor) the least of n samples lies w/(n+1) above
// the noise's bottom on average, as the minimum RTT, the least of many
// more, does; the whole width would leave the rest of it, queue the
// window does not see, standing on top of its alpha-beta segments. In
// the many-flow arenas the width is mostly the other flows' queue
// changing between a flow's samples (1-4 ms), which the whole width
// took for noise (docs/algorithms.md).
func (d *PacedDelay) floor(base time.Duration) time.Duration {
	switch {
	case base < d.cfg.DelayFloor:
		return d.cfg.HostDelayFloor
	case d.noiseFloor >= 0:
		return min(d.noiseFloor/time.Duration(d.roundN+1), d.cfg.DelayFloor)
	}
	return d.cfg.DelayFloor
}

// noiseSamples is how many differences between consecutive RTT samples
// the noise estimate takes the median of: an odd number, so that the
// median is one of them, and about three rounds of the initial window.
const noiseSamples = 31

// noiseWidth is the width of uniform noise over the median difference of
// two of its samples: for X, Y uniform on [0, w], |X - Y| has median
// w(1 - 1/sqrt 2), and 1/(1 - 1/sqrt 2) = 2 + sqrt 2.
const noiseWidth = 2 + math.Sqrt2

// noteJump records the difference between RTT sample r and the one
// before, after slow start: there two consecutive Data left the
// bottleneck one after the other behind nearly the same queue, so what
// differs is noise (forwarders' processing, a host's scheduling), while
// in slow start the queue grows from one sample to the next.
func (d *PacedDelay) noteJump(r time.Duration) {
	last := d.lastR
	d.lastR = r
	if d.slowStart || last == 0 {
		return
	}
	j := r - last
	if j < 0 {
		j = -j
	}
	d.jumps[d.jumpAt] = j
	d.jumpAt = (d.jumpAt + 1) % noiseSamples
	d.njump = min(d.njump+1, noiseSamples)
}

// measureNoise sets noiseFloor, at the end of a round, to the width of
// the RTT's noise: noiseWidth times the median of the last noiseSamples
// jumps (a median, so that a queue's step now and then does not count).
func (d *PacedDelay) measureNoise() {
	if d.njump < noiseSamples {
		return
	}
	j := d.jumps
	slices.Sort(j[:])
	d.noiseFloor = time.Duration(float64(j[noiseSamples/2]) * noiseWidth)
}

// slowStartSamples is how many samples in a row must show a queue above
// SlowStartGamma to end slow start (one could be noise).
const slowStartSamples = 3

// slowStartSample ends slow start as soon as the queue builds (HyStart's
// delay-increase test, on every sample rather than once a round: the
// window doubles each round, so a round late is a whole window of excess).
func (d *PacedDelay) slowStartSample(q, r time.Duration) {
	diff := d.queued(q, r)
	if diff <= d.cfg.SlowStartGamma {
		d.ssAbove = 0
		return
	}
	d.ssAbove++
	if d.ssAbove < slowStartSamples {
		return
	}
	d.diff = diff
	d.slowStart = false
	d.cwnd = max(d.cwnd-diff, MinSsthresh)
	d.ssthresh = d.cwnd
}

// attribute returns the index of the source level r belongs to, creating
// or lowering a level as the rules of PacedDelay say.
func (d *PacedDelay) attribute(now, r time.Duration) int {
	if d.nsrc == 0 || r < d.src[0].base {
		if d.nsrc > 0 && float64(r) >= d.cfg.SourceRatio*float64(d.src[0].base) {
			d.src[0].base = r
			return 0
		}
		// A nearer source: a new least level (the farthest is forgotten
		// when all are in use).
		n := min(d.nsrc+1, maxSources)
		copy(d.src[1:n], d.src[:n-1])
		d.src[0] = rttSource{base: r, near: now, cand: r}
		d.nsrc = n
		return 0
	}
	i := d.nsrc - 1
	for d.src[i].base > r {
		i--
	}
	if d.farther(i, r) {
		// The bottleneck still delivers what it did: the window keeps
		// that rate over the longer round trip (BBR's bandwidth times
		// its round trip), rather than climbing to it round by round.
		d.cwnd = min(max(d.cwnd, d.rate.best()*r.Seconds()), MaxWindow)
		return d.addFarther(now, i, r)
	}
	return i
}

// rateRounds is how many rounds the delivery rate farther divides by
// is the largest of: the last round and this one.
const rateRounds = 2

// farther reports whether RTT sample r, attributed to level i, is a
// farther source (a longer path, a producer behind a cache that answered
// until now) rather than a queue: the last round's least RTT was still
// at the level's minimum (the RTT stepped up within a round, as a path
// switch does and a queue building up does not), the window is more than
// the few segments of one that has yielded to others (competeWindow), and
// the rise is more than twice what the window could have built: with all
// of its cwnd Data queued at a bottleneck that sends at least the largest
// rate the flow was delivered at in the last rounds, they wait cwnd/rate,
// and a window that grew in the last round may be twice the rate
// measured over it. NDN-Vegas takes any sample far above its minimum for
// a new source (its γ); this takes only one that the flow's own queue
// cannot explain. Never in slow start, whose rate lags its window, nor
// from a level whose minimum RTT is below HostDelayFloor (processes on
// this host or next to it): the rule takes the bottleneck to send at a
// steady rate, and a forwarder that waits for a CPU sends nothing
// meanwhile, so there the RTT steps up with the host's scheduling
// (through ndnd fw on a loaded host, by 10-40 ms from a minimum of
// 0.4-1.3 ms).
func (d *PacedDelay) farther(i int, r time.Duration) bool {
	rate := d.rate.best()
	b := d.src[i].base
	if d.slowStart || rate <= 0 || d.cwnd <= competeWindow || b < d.cfg.HostDelayFloor || d.lastMin <= 0 || d.lastMin > b+nearTolerance(b) {
		return false
	}
	return (r - b).Seconds() > 2*d.cwnd/rate
}

// addFarther makes r the minimum of a farther source above level i: the
// next level up if r is within SourceRatio of it (r lowers it), else a
// new level (replacing the farthest when all are in use).
func (d *PacedDelay) addFarther(now time.Duration, i int, r time.Duration) int {
	if i+1 < d.nsrc && float64(r) >= d.cfg.SourceRatio*float64(d.src[i+1].base) {
		d.src[i+1].base, d.src[i+1].near = r, now
		return i + 1
	}
	n := min(d.nsrc+1, maxSources)
	j := min(i+1, n-1)
	copy(d.src[j+1:n], d.src[j:n-1])
	d.src[j] = rttSource{base: r, near: now, cand: r}
	d.nsrc = n
	return j
}

func (d *PacedDelay) endRound(now time.Duration, highInterest uint64) {
	if span := now - d.roundStart; span > 0 && d.round > 0 {
		d.rate.update(float64(d.roundData)/span.Seconds(), d.round, rateRounds)
	}
	d.roundStart, d.roundData = now, 0
	d.measureNoise()
	if !d.decreased && d.roundQ >= 0 {
		d.diff = d.queued(d.roundQ, d.roundR)
		d.compete()
		d.decide()
	}
	if d.roundMin > 0 {
		d.lastMin = d.roundMin
	}
	d.round++
	d.mark = highInterest + 1
	d.roundQ, d.roundR, d.roundMin, d.roundN = -1, 0, 0, 0
	d.decreased = false
}

// Competitive mode's thresholds: a standing queue that rose by
// competeRise over competeRounds rounds in a row, none of them lower than
// the one before, while the window did not grow and is at most
// competeWindow segments, is another flow's growing queue.
const (
	competeRounds = 6
	competeRise   = 5 * time.Millisecond
	competeWindow = 6
)

// compete updates competitive mode at the end of a round with samples,
// before decide: with Config.Competitive it starts when a loss-based
// competitor's queue grows while this window has yielded, and ends when
// the standing queue is empty (within DelayFloor).
func (d *PacedDelay) compete() {
	if !d.cfg.Competitive {
		return
	}
	q := d.roundQ
	defer func() { d.lastQ = q }()
	if d.competing {
		d.competing = q > d.floor(d.roundR-q)
		return
	}
	if d.slowStart || q < d.lastQ || d.dir > 0 {
		d.riseRounds = 0
		return
	}
	if d.riseRounds == 0 {
		d.streakQ = d.lastQ
	}
	d.riseRounds++
	if d.riseRounds >= competeRounds && q-d.streakQ >= competeRise && d.cwnd <= competeWindow {
		d.competing, d.riseRounds = true, 0
	}
}

// Competing reports whether the window is in competitive mode.
func (d *PacedDelay) Competing() bool { return d.competing }

// decide applies the once-per-round rules.
func (d *PacedDelay) decide() {
	if d.slowStart {
		return // ended by slowStartSample
	}
	switch {
	case d.competing:
		d.move(0)
		d.cwnd = min(d.cwnd+1, MaxWindow)
	case d.marking && !d.hostPath():
		d.move(0)
		d.cwnd = min(d.cwnd+1, MaxWindow)
	case d.diff < d.cfg.Alpha:
		d.move(+1)
		d.cwnd = min(d.cwnd+d.velocity, MaxWindow)
	case d.diff > d.cfg.Beta:
		d.move(-1)
		d.cwnd = max(d.cwnd-min(d.velocity, d.diff-d.cfg.Alpha), MinSsthresh)
	default:
		d.move(0)
	}
	d.ssthresh = d.cwnd
}

// move updates Copa's velocity for a round that went in direction dir.
func (d *PacedDelay) move(dir int) {
	if dir == 0 || dir != d.dir {
		d.dir, d.sameDir, d.velocity = dir, 0, 1
		return
	}
	d.sameDir++
	if d.sameDir >= 3 {
		d.velocity = min(2*d.velocity, d.cfg.MaxVelocity, max(1, d.cwnd/8))
	}
}

// OnDecrease implements Algorithm.
func (d *PacedDelay) OnDecrease(_ time.Duration, cause Cause) {
	if cause == CauseMark {
		d.marking = true
	}
	if d.decreased {
		return
	}
	if d.randomLoss(cause) {
		// The round's event, as a decrease would be: after slow start
		// the round makes no further change (its queue estimate spans
		// the hole), but the window and its velocity stand.
		d.decreased = !d.slowStart
		return
	}
	d.decreased = true
	beta := d.cfg.LossBeta
	switch {
	case cause == CauseMark || cause == CauseNack:
		beta = d.cfg.MarkBeta
	case cause == CauseTimeout && d.hostPath():
		// No link to lose it: a process on the path stopped (or a
		// socket on this host overflowed), and the Interests in flight
		// are late, not lost. The loss window
		// (RFC 5681's after an RTO) keeps the pipeline from sending the
		// whole flight again while their Data come in.
		beta = 0
	case d.competing:
		beta = competeLossBeta
	case !d.slowStart && d.diff <= d.cfg.Beta:
		beta = d.cfg.QuietLossBeta
	case !d.slowStart && cause == CauseLoss:
		// Found by later Data, so the path delivers: what may have
		// overflowed is this flow's standing queue, which the window
		// sheds (as slow start's end does), down to loss-beta of it at
		// most; a random loss where the flow keeps a queue costs it no
		// more than that queue.
		beta = max(beta, 1-d.diff/d.cwnd)
	}
	target := d.cwnd * beta
	d.slowStart = false
	d.cwnd = max(target, MinSsthresh)
	d.ssthresh = d.cwnd
	d.dir, d.sameDir, d.velocity = 0, 0, 1
}

// randomLoss reports whether a decrease for cause is a random loss the
// window leaves alone: with QuietLossBeta 1, a loss found by the Data of
// later Interests (CauseLoss: the path delivers) while this flow keeps
// no queue to overflow, in slow start (the latest sample's queue within
// SlowStartGamma) or after it (the round's within Beta), and not in
// competitive mode. Slow start goes on, and the window's growth keeps its
// velocity: on a lossy link every round or two has a loss, and a
// window that restarted its growth at each would climb to the
// bandwidth-delay product one segment per round. Not on a host path,
// where no link loses packets at random: a loss there is a socket's
// overflow.
func (d *PacedDelay) randomLoss(cause Cause) bool {
	if cause != CauseLoss || d.cfg.QuietLossBeta != 1 || d.competing || d.hostPath() {
		return false
	}
	if d.slowStart {
		return d.ssAbove == 0
	}
	return d.diff <= d.cfg.Beta
}

// OnTimeout implements TimeoutObserver: on a host path every timeout
// brings the window to the loss window, also one the pipeline's
// conservative filter does not count as a loss event (a mark's decrease
// less than an RTT before the stop) and one in a round that already
// decreased: the flight is late behind a stopped process whatever came
// before.
func (d *PacedDelay) OnTimeout(time.Duration) {
	if d.hostPath() {
		d.lossWindow()
	}
}

// lossWindow sets the window to MinSsthresh and ends slow start.
func (d *PacedDelay) lossWindow() {
	d.decreased, d.slowStart = true, false
	d.cwnd, d.ssthresh = MinSsthresh, MinSsthresh
	d.dir, d.sameDir, d.velocity = 0, 0, 1
}

// hostPath reports whether the nearest source known is on this host or
// next to it (its minimum RTT below DelayFloor: the host floor's
// sources). Then this host's forwarder is on the path of every Interest,
// whichever source answers, and on loopback a slow sample founds farther
// levels from noise alone (a first sample of 1.2-2.5 ms before the
// 0.2-0.4 ms ones, in 4 of 20 fetches through ndnd fw at load 6.5), so
// the farther levels do not decide.
func (d *PacedDelay) hostPath() bool {
	return d.nsrc > 0 && d.src[0].base < d.cfg.DelayFloor
}

// competeLossBeta is the decrease on a loss in competitive mode: CUBIC's
// (RFC 9438), so that against it the window keeps an even share.
const competeLossBeta = 0.7

// TimeoutObserver is implemented by an algorithm that hears of every check
// that found Interests timed out, whether or not the pipeline's
// conservative filter made one of them a loss event (OnDecrease, called
// before it).
type TimeoutObserver interface {
	OnTimeout(now time.Duration)
}

// Paced is implemented by an algorithm that paces its Interests.
type Paced interface {
	// PacingInterval is the least time between two Interests; 0 means
	// send as the window allows.
	PacingInterval() time.Duration
}
