package cc

import (
	"fmt"
	"time"
)

// CopaConfig parameterises the copa pipeline (docs/algorithms.md,
// "copa").
type CopaConfig struct {
	// InitCwnd is the initial window, segments. Default 10.
	InitCwnd float64
	// Delta is δ of default mode: the target rate is 1/(δ·dq), so each
	// flow keeps about 1/δ segments queued. Default 0.5.
	Delta float64
	// MinRTTWindow is the window of RTTmin, the least RTT. Default 10 s.
	MinRTTWindow time.Duration
	// Competitive enables competitive mode: when the queue was never
	// nearly empty over 5 RTTs, a buffer-filling flow shares the
	// bottleneck, and 1/δ follows AIMD (+1 per RTT, halved on a loss)
	// until the queue empties again. Default true.
	Competitive bool
}

// DefaultCopaConfig returns the documented defaults.
func DefaultCopaConfig() CopaConfig {
	return CopaConfig{InitCwnd: 10, Delta: 0.5, MinRTTWindow: 10 * time.Second, Competitive: true}
}

// Validate reports the first field that is out of range.
func (c CopaConfig) Validate() error {
	switch {
	case !(c.InitCwnd >= 1 && c.InitCwnd <= MaxWindow):
		return fmt.Errorf("copa: init-cwnd %v must be a number of segments from 1 to %d", c.InitCwnd, MaxWindow)
	case !(c.Delta > 0 && c.Delta <= 1):
		return fmt.Errorf("copa: copa-delta %v not in (0,1]", c.Delta)
	case c.MinRTTWindow <= 0:
		return fmt.Errorf("copa: min-rtt-window %v must be positive", c.MinRTTWindow)
	}
	return nil
}

// Copa's constants (Arun and Balakrishnan, NSDI 2018).
const (
	copaSameDirRounds = 3   // rounds in one direction before the velocity doubles
	copaEmptyFrac     = 0.1 // the queue is nearly empty below this share of RTTmax - RTTmin
	copaEmptyRTTs     = 5   // competitive when it was not nearly empty for this many RTTs
	copaMaxRTTs       = 4   // RTTmax is the largest RTT of this many RTTs
	copaPacingGain    = 2   // Interests go at 2·cwnd/RTTstanding
)

// Copa is Copa's delay-based window (Arun and Balakrishnan, "Copa:
// Practical Delay-Based Congestion Control for the Internet", NSDI 2018)
// for a receiver that paces Interests. Per Data with an RTT sample:
//
//	RTTstanding = least RTT of the last srtt/2  (srtt: the pipeline's)
//	RTTmin      = least RTT of the last MinRTTWindow
//	dq          = RTTstanding - RTTmin
//	λ = cwnd / RTTstanding,  λt = 1 / (δ·dq)   (dq = 0: λt = ∞)
//	λ <= λt: cwnd += v/(δ·cwnd),  else cwnd -= v/(δ·cwnd)
//
// so that the window moves by about v/δ segments per RTT. Slow start
// adds 1 per Data (doubling per RTT) until the first Data with λ > λt.
// The velocity v is 1; once per round (rounds as Vegas', by segment
// numbers) the window is compared with the one at the round's start:
// after 3 rounds in the same direction v doubles each round, and it
// returns to 1 when the direction changes (or a Data moves the window
// against it). Interests are paced at 2·cwnd/RTTstanding. The window
// never falls below MinSsthresh.
//
// Competitive mode (Competitive): the queue is nearly empty when dq <
// 0.1·(RTTmax - RTTmin), RTTmax the largest RTT of the last 4 srtt, or
// when dq is below one segment's time at the flow's rate,
// RTTstanding/cwnd (the least queue a busy bottleneck shows; the paper
// has the 10% alone, see docs/algorithms.md). If it was not nearly empty
// for 5 srtt, 1/δ grows by 1 per round and halves on a loss event (not
// below 1/Delta); once it is nearly empty again δ returns to Delta. In
// default mode losses and marks do not change the window: the delay
// does.
type Copa struct {
	cfg CopaConfig

	cwnd      float64
	slowStart bool
	invDelta  float64 // 1/δ

	srtt      time.Duration
	standing  rttWindow // RTTstanding
	minFilter maxFilter // RTTmin, as the maximum of -RTT (ns) over time
	maxFilter maxFilter // RTTmax, RTT (ns) over time

	round      uint64
	mark       uint64
	roundCwnd  float64 // the window at the round's start
	velocity   float64
	dir        int // +1 up, -1 down, 0 not yet known
	sameDir    int // rounds in a row in dir
	competing  bool
	lastEmpty  time.Duration // when the queue was last nearly empty
	lossRound  bool          // a loss event in this round (competitive mode)
	hadSamples bool
}

// NewCopa returns a Copa window in slow start, in default mode.
func NewCopa(cfg CopaConfig) (*Copa, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Copa{
		cfg: cfg, cwnd: cfg.InitCwnd, slowStart: true, invDelta: 1 / cfg.Delta,
		standing: newRTTWindow(), velocity: 1, roundCwnd: cfg.InitCwnd,
	}, nil
}

// Name implements Algorithm.
func (*Copa) Name() string { return "copa" }

// Cwnd implements Algorithm.
func (c *Copa) Cwnd() float64 { return c.cwnd }

// Ssthresh implements Algorithm. Copa has no slow-start threshold; it
// reports the window so that traces stay finite.
func (c *Copa) Ssthresh() float64 { return c.cwnd }

// Delta is the current δ.
func (c *Copa) Delta() float64 { return 1 / c.invDelta }

// Velocity is the current velocity v.
func (c *Copa) Velocity() float64 { return c.velocity }

// InSlowStart reports whether the window is still in slow start.
func (c *Copa) InSlowStart() bool { return c.slowStart }

// Competing reports whether Copa is in competitive mode.
func (c *Copa) Competing() bool { return c.competing }

// Round is the number of rounds completed.
func (c *Copa) Round() uint64 { return c.round }

// Standing is RTTstanding (0 before a sample).
func (c *Copa) Standing() time.Duration { return c.standing.min() }

// MinRTT is RTTmin (0 before a sample).
func (c *Copa) MinRTT() time.Duration { return time.Duration(-c.minFilter.best()) }

// PacingInterval implements Paced: RTTstanding/(2·cwnd), or 0 (not paced)
// before the first RTT sample.
func (c *Copa) PacingInterval() time.Duration {
	rs := c.standing.min()
	if rs == 0 {
		return 0
	}
	return time.Duration(float64(rs) / (copaPacingGain * c.cwnd))
}

// OnData implements Algorithm.
func (c *Copa) OnData(a Ack) {
	if a.RTT > 0 {
		c.sample(a)
	}
	if a.Seg >= c.mark {
		c.endRound(a.HighInterest)
	}
}

// sample applies the per-Data rule to an RTT sample.
func (c *Copa) sample(a Ack) {
	now, r := a.Now, a.RTT
	c.srtt = a.SRTT
	if c.srtt <= 0 {
		c.srtt = r
	}
	rs := c.standing.add(now, r, c.srtt/2)
	t := uint64(now)
	if !c.hadSamples {
		c.minFilter.reset(-float64(r), t)
		c.maxFilter.reset(float64(r), t)
		c.hadSamples = true
	}
	rmin := time.Duration(-c.minFilter.update(-float64(r), t, uint64(c.cfg.MinRTTWindow)))
	rmax := time.Duration(c.maxFilter.update(float64(r), t, uint64(copaMaxRTTs*c.srtt)))
	dq := rs - rmin
	if c.cfg.Competitive {
		c.checkMode(now, dq, max(copaEmptyFrac*float64(rmax-rmin), float64(rs)/c.cwnd))
	}
	// λ <= λt  ⟺  cwnd/rs <= 1/(δ·dq)  ⟺  cwnd·dq <= rs/δ = rs·invDelta.
	up := c.cwnd*float64(dq) <= float64(rs)*c.invDelta
	if c.slowStart {
		if up {
			c.cwnd = min(c.cwnd+1, MaxWindow)
			return
		}
		c.slowStart = false
	}
	step := c.velocity * c.invDelta / c.cwnd
	if dir := sign(up); c.dir != 0 && dir != c.dir && c.velocity > 1 {
		// A Data moves the window against the velocity's direction.
		c.velocity, c.sameDir = 1, 0
		step = c.invDelta / c.cwnd
	}
	if up {
		c.cwnd = min(c.cwnd+step, MaxWindow)
	} else {
		c.cwnd = max(c.cwnd-step, MinSsthresh)
	}
}

func sign(up bool) int {
	if up {
		return +1
	}
	return -1
}

// checkMode enters competitive mode when the queue was not nearly empty
// (dq below empty, ns) for 5 srtt, and leaves it (δ back to Delta) once
// it is.
func (c *Copa) checkMode(now, dq time.Duration, empty float64) {
	if c.lastEmpty == 0 || float64(dq) < empty {
		c.lastEmpty = now
	}
	competing := now-c.lastEmpty > copaEmptyRTTs*c.srtt
	if c.competing && !competing {
		c.invDelta = 1 / c.cfg.Delta
	}
	c.competing = competing
}

// endRound updates the velocity and, in competitive mode, 1/δ.
func (c *Copa) endRound(highInterest uint64) {
	c.round++
	c.mark = highInterest + 1
	if !c.hadSamples {
		return
	}
	if !c.slowStart {
		dir := -1
		if c.cwnd > c.roundCwnd {
			dir = +1
		}
		if dir == c.dir {
			c.sameDir++
			if c.sameDir >= copaSameDirRounds {
				c.velocity = min(2*c.velocity, MaxWindow)
			}
		} else {
			c.dir, c.sameDir, c.velocity = dir, 0, 1
		}
	}
	if c.competing && !c.lossRound {
		c.invDelta++
	}
	c.roundCwnd = c.cwnd
	c.lossRound = false
}

// OnDecrease implements Algorithm: in competitive mode a loss event
// halves 1/δ (not below 1/Delta); in default mode the window does not
// respond to losses or marks, the delay it measures does.
func (c *Copa) OnDecrease(time.Duration, Cause) {
	if !c.competing {
		return
	}
	c.lossRound = true
	c.invDelta = max(c.invDelta/2, 1/c.cfg.Delta)
}

// rttWindow is the least RTT of a sliding time window: a queue of
// samples with increasing RTTs (a sample removes the larger ones before
// it), oldest first.
type rttWindow struct {
	ring    []rttSample // capacity a power of two
	head, n int
}

type rttSample struct{ at, rtt time.Duration }

func newRTTWindow() rttWindow { return rttWindow{ring: make([]rttSample, 64)} }

// min is the least RTT in the window (0 if empty).
func (w *rttWindow) min() time.Duration {
	if w.n == 0 {
		return 0
	}
	return w.ring[w.head].rtt
}

// add records r at now, forgets samples older than span before now, and
// returns the least RTT of the window.
func (w *rttWindow) add(now, r, span time.Duration) time.Duration {
	mask := len(w.ring) - 1
	for w.n > 0 && w.ring[(w.head+w.n-1)&mask].rtt >= r {
		w.n--
	}
	if w.n == len(w.ring) {
		grown := make([]rttSample, 2*len(w.ring))
		for i := 0; i < w.n; i++ {
			grown[i] = w.ring[(w.head+i)&mask]
		}
		w.ring, w.head, mask = grown, 0, len(grown)-1
	}
	w.ring[(w.head+w.n)&mask] = rttSample{now, r}
	w.n++
	for w.ring[w.head].at < now-span {
		w.head = (w.head + 1) & mask
		w.n--
	}
	return w.ring[w.head].rtt
}
