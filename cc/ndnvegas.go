package cc

import (
	"fmt"
	"math"
	"time"
)

// SlowStart selects NDN-Vegas' slow start (seed 001, "slow start" options
// 1–3).
type SlowStart uint8

// Slow-start options.
const (
	// SlowStartVegas doubles the window every other RTT and ends when diff
	// exceeds the slow-start gamma (Vegas' own).
	SlowStartVegas SlowStart = iota
	// SlowStartReno adds 1 per Data until the first decrease (in NDN,
	// usually a timeout) or until cwnd reaches ssthresh.
	SlowStartReno
	// SlowStartHole adds 1 per Data until the pipeline reports an
	// out-of-order Data (OnOutOfOrder), a decrease, or cwnd reaching
	// ssthresh.
	SlowStartHole
)

// String is the name ParseSlowStart accepts.
func (s SlowStart) String() string {
	switch s {
	case SlowStartVegas:
		return "vegas"
	case SlowStartReno:
		return "reno"
	case SlowStartHole:
		return "hole"
	}
	return fmt.Sprintf("SlowStart(%d)", uint8(s))
}

// ParseSlowStart maps "vegas", "reno" and "hole" to a SlowStart.
func ParseSlowStart(s string) (SlowStart, error) {
	for _, v := range []SlowStart{SlowStartVegas, SlowStartReno, SlowStartHole} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("slow start %q: want vegas, reno or hole", s)
}

// NDNVegasConfig parameterises NDN-Vegas.
type NDNVegasConfig struct {
	VegasConfig
	// Gamma: in congestion avoidance, diff > Gamma means the Data now
	// come from a farther source, and baseRTT becomes the latest RTT
	// sample. It must exceed Beta. Default +Inf (seed 001's experiments:
	// the rule never fires).
	Gamma float64
	// SlowStart selects the slow start. Default SlowStartVegas.
	SlowStart SlowStart
}

// DefaultNDNVegasConfig returns the documented defaults.
func DefaultNDNVegasConfig() NDNVegasConfig {
	return NDNVegasConfig{
		VegasConfig: DefaultVegasConfig(),
		Gamma:       math.Inf(1),
		SlowStart:   SlowStartVegas,
	}
}

// Validate reports the first field that is out of range.
func (c NDNVegasConfig) Validate() error {
	if err := c.VegasConfig.validate(); err != nil {
		return fmt.Errorf("ndn-vegas: %w", err)
	}
	if !(c.Gamma > c.Beta) {
		return fmt.Errorf("ndn-vegas: vegas-gamma %v must be above vegas-beta %v", c.Gamma, c.Beta)
	}
	if c.SlowStart > SlowStartHole {
		return fmt.Errorf("ndn-vegas: unknown slow start %v", c.SlowStart)
	}
	return nil
}

// NDNVegas is seed 001's NDN-Vegas: Vegas (see Vegas for rounds, diff and
// decreases) with baseRTT adaptation to a changing data source and a choice
// of slow start. In congestion avoidance, at the end of each round:
//
//   - diff < 0 (actual above expected: a nearer source): the window holds.
//     baseRTT already follows the least sample, which is the seed's "latest,
//     smaller" RTT, so the next round compares against it.
//   - diff > Gamma (a farther source): baseRTT = the latest RTT sample and
//     the window holds.
//   - otherwise Vegas' Alpha/Beta rules.
//
// Postponed retransmission, seed 001's other change, is the pipeline's
// (consumer.Options.PostponeRetx, on by default for ndn-vegas).
type NDNVegas struct {
	core vegasCore
}

// NewNDNVegas returns an NDN-Vegas window in its initial state.
func NewNDNVegas(cfg NDNVegasConfig) (*NDNVegas, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &NDNVegas{
		core: newVegasCore(cfg.VegasConfig, cfg.Gamma, true, cfg.SlowStart),
	}, nil
}

// Name implements Algorithm.
func (*NDNVegas) Name() string { return "ndn-vegas" }

// OnData implements Algorithm.
func (n *NDNVegas) OnData(a Ack) { n.core.onData(a) }

// OnDecrease implements Algorithm.
func (n *NDNVegas) OnDecrease(time.Duration, Cause) { n.core.onDecrease() }

// OnOutOfOrder is called by the pipeline when a Data arrives while an
// Interest sent before it is still outstanding. With SlowStartHole it ends
// slow start (ssthresh = cwnd, the window is kept); otherwise it does
// nothing.
func (n *NDNVegas) OnOutOfOrder() {
	if n.core.ss == SlowStartHole && n.core.inSlowStart() {
		n.core.ssthresh = n.core.cwnd
	}
}

// Cwnd implements Algorithm.
func (n *NDNVegas) Cwnd() float64 { return n.core.cwnd }

// Ssthresh implements Algorithm.
func (n *NDNVegas) Ssthresh() float64 { return n.core.ssthresh }

// BaseRTT is the RTT the window is compared against (0 before a sample).
func (n *NDNVegas) BaseRTT() time.Duration { return n.core.baseRTT }

// Diff is diff at the end of the last round that had RTT samples (0 before).
func (n *NDNVegas) Diff() float64 { return n.core.diff }

// Round is the number of rounds completed.
func (n *NDNVegas) Round() uint64 { return n.core.round }
