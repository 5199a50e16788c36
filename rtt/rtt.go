// Package rtt is RFC 6298's round-trip-time and retransmission-timeout
// estimator, shared by the consumer pipelines, the link layer's NDNLPv2
// reliability and the simulator's TCP baseline.
//
// It is a leaf of the sans-IO core: it imports no ndncc package, reads no
// clock (callers hand it samples) and keeps no goroutine.
package rtt

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Config parameterises an Estimator. The defaults are seed 003's
// parameter list (§3.2), which is RFC 6298's mean-deviation estimator.
type Config struct {
	// Alpha is the SRTT gain (RFC 6298's alpha). Default 1/8.
	Alpha float64
	// Beta is the RTTVAR gain (RFC 6298's beta). Default 1/4.
	Beta float64
	// K multiplies RTTVAR in RTO = SRTT + K*RTTVAR. Default 4.
	K float64
	// InitialRTO is the RTO before the first sample. Default 1 s
	// (RFC 6298 §2.1).
	InitialRTO time.Duration
	// MinRTO is the RTO's lower bound. Default 200 ms: RFC 6298 asks for
	// 1 s, but 200 ms is what ndn-cxx's estimator (and Linux TCP) use, and
	// seed 000's one-RTT-sample design needs an RTO near the 73 ms RTT.
	MinRTO time.Duration
	// MaxRTO is the RTO's upper bound. Default 10 s (seed 003, MaxRTO).
	MaxRTO time.Duration
	// VarFloor is the least the variance term may add to SRTT: RTO =
	// SRTT + max(VarFloor, K*RTTVAR). RFC 6298 has the clock granularity
	// G there; Linux TCP puts its 200 ms minimum there, so that a paced
	// flow whose RTT samples barely vary (RTTVAR near 0) does not time
	// out spuriously when a queue starts to build. Default 0.
	VarFloor time.Duration
	// BackoffMultiplier multiplies the RTO on Backoff. Default 2 (seed
	// 003, "RTO backoff multiplier").
	BackoffMultiplier float64
}

// DefaultConfig returns the documented defaults.
func DefaultConfig() Config {
	return Config{
		Alpha:             1.0 / 8,
		Beta:              1.0 / 4,
		K:                 4,
		InitialRTO:        time.Second,
		MinRTO:            200 * time.Millisecond,
		MaxRTO:            10 * time.Second,
		BackoffMultiplier: 2,
	}
}

// Validate reports the first field that is out of range.
func (c Config) Validate() error {
	switch {
	case !(c.Alpha > 0 && c.Alpha <= 1):
		return fmt.Errorf("rtt: Alpha %v not in (0,1]", c.Alpha)
	case !(c.Beta > 0 && c.Beta <= 1):
		return fmt.Errorf("rtt: Beta %v not in (0,1]", c.Beta)
	case !(c.K >= 0) || math.IsInf(c.K, 0):
		return fmt.Errorf("rtt: K %v must be a non-negative number", c.K)
	case c.VarFloor < 0:
		return errors.New("rtt: VarFloor must not be negative")
	case c.MinRTO <= 0:
		return errors.New("rtt: MinRTO must be positive")
	case c.MaxRTO < c.MinRTO:
		return fmt.Errorf("rtt: MaxRTO %v is below MinRTO %v", c.MaxRTO, c.MinRTO)
	case c.InitialRTO < c.MinRTO || c.InitialRTO > c.MaxRTO:
		return fmt.Errorf("rtt: InitialRTO %v not in [MinRTO %v, MaxRTO %v]", c.InitialRTO, c.MinRTO, c.MaxRTO)
	case !(c.BackoffMultiplier >= 1) || math.IsInf(c.BackoffMultiplier, 0):
		return fmt.Errorf("rtt: BackoffMultiplier %v must be a number >= 1", c.BackoffMultiplier)
	}
	return nil
}

// Estimator is RFC 6298's retransmission-timeout estimator, plus
// min/avg/max statistics of the samples it was given.
//
// The clock granularity G of RFC 6298 is taken as zero: time here is exact
// (virtual time in the simulator, nanoseconds in the live runtime).
type Estimator struct {
	cfg    Config
	srtt   float64 // nanoseconds
	rttvar float64 // nanoseconds
	rto    time.Duration

	n        int64
	min, max time.Duration
	sum      time.Duration
}

// NewEstimator returns an estimator with RTO = cfg.InitialRTO. It does
// not check cfg; call cfg.Validate first.
func NewEstimator(cfg Config) *Estimator {
	return &Estimator{cfg: cfg, rto: cfg.InitialRTO}
}

// AddSample feeds one RTT measurement and recomputes the RTO (RFC 6298
// §2.2 for the first sample, §2.3 afterwards); this also undoes any
// Backoff. Non-positive samples are ignored (Ack uses 0 for "no sample").
func (e *Estimator) AddSample(rtt time.Duration) {
	if rtt <= 0 {
		return
	}
	r := float64(rtt)
	if e.n == 0 {
		e.srtt = r
		e.rttvar = r / 2
		e.min, e.max = rtt, rtt
	} else {
		// RTTVAR first: it uses the SRTT from before this sample.
		e.rttvar = (1-e.cfg.Beta)*e.rttvar + e.cfg.Beta*math.Abs(e.srtt-r)
		e.srtt = (1-e.cfg.Alpha)*e.srtt + e.cfg.Alpha*r
		e.min = min(e.min, rtt)
		e.max = max(e.max, rtt)
	}
	e.n++
	e.sum += rtt
	e.rto = e.clamp(e.srtt + max(float64(e.cfg.VarFloor), e.cfg.K*e.rttvar))
}

// Backoff multiplies the RTO by BackoffMultiplier, up to MaxRTO (RFC 6298
// §5.5). The next AddSample recomputes the RTO from SRTT and RTTVAR.
func (e *Estimator) Backoff() {
	e.rto = e.clamp(float64(e.rto) * e.cfg.BackoffMultiplier)
}

func (e *Estimator) clamp(ns float64) time.Duration {
	switch {
	case ns >= float64(e.cfg.MaxRTO):
		return e.cfg.MaxRTO
	case ns <= float64(e.cfg.MinRTO):
		return e.cfg.MinRTO
	}
	return time.Duration(math.Round(ns))
}

// RTO is the current retransmission timeout.
func (e *Estimator) RTO() time.Duration { return e.rto }

// SRTT is the smoothed RTT, or 0 before the first sample.
func (e *Estimator) SRTT() time.Duration { return time.Duration(math.Round(e.srtt)) }

// RTTVar is the RTT variation, or 0 before the first sample.
func (e *Estimator) RTTVar() time.Duration { return time.Duration(math.Round(e.rttvar)) }

// Samples is the number of samples taken.
func (e *Estimator) Samples() int64 { return e.n }

// MinRTT is the smallest sample, or 0 before the first sample.
func (e *Estimator) MinRTT() time.Duration { return e.min }

// MaxRTT is the largest sample, or 0 before the first sample.
func (e *Estimator) MaxRTT() time.Duration { return e.max }

// AvgRTT is the mean of all samples, or 0 before the first sample.
func (e *Estimator) AvgRTT() time.Duration {
	if e.n == 0 {
		return 0
	}
	return e.sum / time.Duration(e.n)
}
