package consumer

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/rtt"
)

// Options configure a pipeline. Every field has a documented default,
// applied by DefaultOptions: ndn-tools' ndnget's where ndnget has the same
// option, so that `ndncc sim` and `ndncc fetch` start from the same values
// (a Profile selects a paper's instead). ParseParams sets them by name.
type Options struct {
	// Pipeline is the window algorithm: fixed, aimd, cubic, bic, vegas,
	// ndn-vegas.
	Pipeline string
	// AlgParams are the algorithm's own parameters (see package cc).
	AlgParams cc.Params
	// Conservative enables paper 000's conservative window adaptation: at
	// most one window decrease per RTT (recPoint). Default true.
	Conservative bool
	// RTTSampling selects the RTO estimator's sampling (paper 000's
	// Designs #1-#2 sample every Data, #3 once per RTT). Default
	// every-data.
	RTTSampling cc.SampleMode
	// HoleDetection enables paper 003's sequence-hole detection.
	HoleDetection bool
	// HoleThreshold is the out-of-order count above which the window is
	// halved. Default 5.
	HoleThreshold int
	// IgnoreMarks makes the pipeline count congestion marks but not react.
	IgnoreMarks bool
	// KeepPending models an application on ndn-cxx's Face that expresses
	// a retransmission as a new Interest without cancelling the earlier
	// one (paper 003's consumer): the face keeps every Interest pending
	// until its lifetime ends and hands a Data to each pending Interest
	// of its name, so each counts as a Data received (paper 003's "actual
	// throughput"). The forwarder still sees one PIT entry per name.
	KeepPending bool
	// RTT configures the RFC 6298 estimator: DefaultRTT.
	RTT rtt.Config
	// FixedRTO, when positive, replaces the estimator's RTO (PCON's fixed,
	// higher RTO). Default 0 (use the estimator).
	FixedRTO time.Duration
	// CheckInterval is the period of the timeout check. Default 10 ms.
	CheckInterval time.Duration
	// MaxRetries is how often one segment may be retransmitted before the
	// fetch fails; negative means unlimited. Default 15 (ndnget's default).
	MaxRetries int
	// Timeout is the give-up budget: the fetch fails (ErrGaveUp) when no
	// Data has arrived for this long, since the last one or the start,
	// whatever retries are left. 0 disables it. Default 30 s, so that a
	// producer that went away is reported within half a minute even when
	// the network sends no Nack.
	Timeout time.Duration
	// Lifetime is the InterestLifetime, raised to an Interest's RTO where
	// that is longer. Default 4 s.
	Lifetime time.Duration
	// MustBeFresh sets MustBeFresh on every Interest.
	MustBeFresh bool
	// LinkLossNacks makes an unmarked Congestion Nack mean "lost on a
	// lossy link": retransmit without decreasing the window (PCON's local
	// link-loss detection). A marked one still decreases. Default false:
	// every Congestion Nack is congestion, as ndn-tools' consumers treat it.
	LinkLossNacks bool
	// PostponeRetx holds retransmissions back until no new segment is
	// left to send or the lost Interest's lifetime has run out (paper 001's
	// NDN-Vegas). Default true for ndn-vegas, false otherwise.
	PostponeRetx bool
	// SpanWindows bounds the segments between the oldest missing one and
	// the newest requested to this many windows (never fewer than
	// MinSpan segments): while a lost segment is outstanding the pipeline
	// requests no new segment past that span, as a TCP sender stops at
	// the receive window. It bounds per-flow state by the window, and it
	// releases a postponed retransmission once the span is full.
	// Default 64 (paper 003's fixed windows with a 1 s RTO floor need
	// about 30: a lost segment stays missing for 1-3 s).
	SpanWindows int
	// Rack enables time-based loss detection (RFC 8985's RACK; see rack):
	// an Interest is lost once Data for Interests sent after it have
	// arrived and a reorder window has passed, and it is retransmitted
	// then, not after its RTO. The window adapts to the reordering the
	// path shows (docs/algorithms.md, "Loss detection before the RTO").
	// Default true for the paced pipelines (paced-delay, bbr, copa),
	// false for ndnget's and the seeds', whose consumers waited for the
	// RTO.
	Rack bool
}

// MinSpan is the least span SpanWindows allows, in segments.
const MinSpan = 64

// MaxSpanWindows is the largest SpanWindows: with cc.MaxWindow it bounds a
// pipeline's span (and ring) to 2^26 segments.
const MaxSpanWindows = 1024

// DefaultRTT is the pipelines' RTO estimator: ndn-cxx's as ndnget runs
// it (RFC 6298's gains, RTTVAR multiplier 8, RTO from 200 ms to 60 s).
// rtt.DefaultConfig is RFC 6298's multiplier 4 with paper 003's 10 s
// ceiling, which the simulator's TCP uses.
func DefaultRTT() rtt.Config {
	r := rtt.DefaultConfig()
	r.K, r.MaxRTO = 8, 60*time.Second
	return r
}

// PacedVarFloor is the default rto-var-floor of the pipelines that pace
// their Interests (paced-delay, bbr, copa).
const PacedVarFloor = 200 * time.Millisecond

// paced reports whether a pipeline paces its Interests (its algorithm is
// a cc.Paced).
func paced(pipeline string) bool {
	a, err := cc.NewAlgorithm(pipeline, nil)
	if err != nil {
		return false
	}
	_, ok := a.(cc.Paced)
	return ok
}

// DefaultOptions returns the documented defaults for a pipeline.
func DefaultOptions(pipeline string) Options {
	rtt := DefaultRTT()
	if paced(pipeline) {
		// A paced flow's RTT samples barely vary: without a floor under
		// the variance term its RTO falls to SRTT and the first queue
		// that builds times it out spuriously (Linux's rto_min).
		rtt.VarFloor = PacedVarFloor
	}
	return Options{
		Pipeline:      pipeline,
		AlgParams:     cc.Params{},
		Conservative:  true,
		RTTSampling:   cc.SampleEveryData,
		HoleThreshold: 5,
		RTT:           rtt,
		CheckInterval: 10 * time.Millisecond,
		MaxRetries:    15,
		Timeout:       30 * time.Second,
		Lifetime:      4 * time.Second,
		PostponeRetx:  pipeline == "ndn-vegas",
		SpanWindows:   64,
		Rack:          paced(pipeline),
	}
}

// param is one pipeline-level parameter: its name, default, doc and setter.
type param struct {
	name, def, doc string
	set            func(o *Options, v string) error
	duration       bool // a time.Duration (cc.ParamDoc.Duration)
}

func durationParam(name, def, doc string, f func(o *Options) *time.Duration) param {
	return param{name: name, def: def, doc: doc, duration: true, set: func(o *Options, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return fmt.Errorf("want a non-negative duration like 200ms, got %q", v)
		}
		*f(o) = d
		return nil
	}}
}

func floatParam(name, def, doc string, f func(o *Options) *float64) param {
	return param{name: name, def: def, doc: doc, set: func(o *Options, v string) error {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || x < 0 {
			return fmt.Errorf("want a non-negative number, got %q", v)
		}
		*f(o) = x
		return nil
	}}
}

func boolParam(name, def, doc string, f func(o *Options) *bool) param {
	return param{name: name, def: def, doc: doc, set: func(o *Options, v string) error {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return fmt.Errorf("want true or false, got %q", v)
		}
		*f(o) = b
		return nil
	}}
}

func intParam(name, def, doc string, f func(o *Options) *int) param {
	return param{name: name, def: def, doc: doc, set: func(o *Options, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", v)
		}
		*f(o) = n
		return nil
	}}
}

// pipelineParams are the parameters that belong to the pipeline rather
// than to the window algorithm.
func pipelineParams() []param {
	return []param{
		boolParam("conservative", "true", "at most one window decrease per RTT (paper 000's recPoint)", func(o *Options) *bool { return &o.Conservative }),
		{name: "rtt-sampling", def: "every-data", doc: "RTO estimator samples: every-data or once-per-rtt", set: func(o *Options, v string) error {
			m, err := cc.ParseSampleMode(v)
			o.RTTSampling = m
			return err
		}},
		boolParam("hole-detection", "false", "halve the window after too many out-of-order Data (paper 003)", func(o *Options) *bool { return &o.HoleDetection }),
		intParam("hole-threshold", "5", "out-of-order Data tolerated before hole detection fires", func(o *Options) *int { return &o.HoleThreshold }),
		boolParam("keep-pending", "false", "retransmissions leave earlier Interests pending in the application's face; a Data answers each (ndn-cxx Face, paper 003)", func(o *Options) *bool { return &o.KeepPending }),
		boolParam("ignore-marks", "false", "count congestion marks but do not react to them", func(o *Options) *bool { return &o.IgnoreMarks }),
		floatParam("rto-alpha", "0.125", "RFC 6298 SRTT gain", func(o *Options) *float64 { return &o.RTT.Alpha }),
		floatParam("rto-beta", "0.25", "RFC 6298 RTTVAR gain", func(o *Options) *float64 { return &o.RTT.Beta }),
		floatParam("rto-k", "8", "RTTVAR multiplier (RFC 6298: 4)", func(o *Options) *float64 { return &o.RTT.K }),
		durationParam("rto-var-floor", "0s (200ms for paced-delay, bbr, copa)", "least variance term: RTO = SRTT + max(floor, rto-k*RTTVAR), as Linux TCP's minimum RTO", func(o *Options) *time.Duration { return &o.RTT.VarFloor }),
		floatParam("rto-backoff", "2", "RTO multiplier at each backoff (a round of unanswered retransmissions, or a timeout loss event)", func(o *Options) *float64 { return &o.RTT.BackoffMultiplier }),
		durationParam("initial-rto", "1s", "RTO before the first sample", func(o *Options) *time.Duration { return &o.RTT.InitialRTO }),
		durationParam("min-rto", "200ms", "lower bound of the RTO", func(o *Options) *time.Duration { return &o.RTT.MinRTO }),
		durationParam("max-rto", "60s", "upper bound of the RTO", func(o *Options) *time.Duration { return &o.RTT.MaxRTO }),
		durationParam("fixed-rto", "0s", "use this RTO instead of the estimator's (PCON); 0 disables", func(o *Options) *time.Duration { return &o.FixedRTO }),
		durationParam("rto-check-interval", "10ms", "period of the timeout check", func(o *Options) *time.Duration { return &o.CheckInterval }),
		intParam("retries", "15", "retransmissions of one segment before the fetch fails (-1: unlimited)", func(o *Options) *int { return &o.MaxRetries }),
		durationParam("timeout", "30s", "give up when no Data has arrived for this long (0: never), whatever retries are left", func(o *Options) *time.Duration { return &o.Timeout }),
		durationParam("lifetime", "4s", "InterestLifetime", func(o *Options) *time.Duration { return &o.Lifetime }),
		boolParam("must-be-fresh", "false", "set MustBeFresh on Interests", func(o *Options) *bool { return &o.MustBeFresh }),
		boolParam("link-loss-nacks", "false", "unmarked Congestion Nacks report link losses: retransmit without a decrease (PCON)", func(o *Options) *bool { return &o.LinkLossNacks }),
		boolParam("postpone-retx", "false (true for ndn-vegas)", "send new segments before retransmissions (paper 001)", func(o *Options) *bool { return &o.PostponeRetx }),
		boolParam("rack", "false (true for paced-delay, bbr, copa)", "time-based loss detection (RFC 8985 RACK): retransmit an Interest once Data for later-sent ones arrived more than a reorder window ago (min RTT/4; on a path that reorders, the range of its RTTs), not after its RTO", func(o *Options) *bool { return &o.Rack }),
		intParam("span-windows", "64", "request no segment more than this many windows (and 64 segments) past the oldest missing one", func(o *Options) *int { return &o.SpanWindows }),
	}
}

// ParamDocs describes the pipeline-level parameters (those every pipeline
// takes), in display order.
func ParamDocs() []cc.ParamDoc {
	var out []cc.ParamDoc
	for _, p := range pipelineParams() {
		out = append(out, cc.ParamDoc{Name: p.name, Default: p.def, Doc: p.doc, Duration: p.duration})
	}
	return out
}

// HasParam reports whether pipeline takes the parameter name: a
// pipeline-level one or its algorithm's.
func HasParam(pipeline, name string) bool {
	for _, p := range pipelineParams() {
		if p.name == name {
			return true
		}
	}
	return slices.Contains(cc.ParamNames(pipeline), name)
}

// ParseParams builds Options for pipeline from named parameters. Keys that
// are not pipeline-level go to the algorithm, which rejects unknown ones.
// The error names the offending key.
func ParseParams(pipeline string, params map[string]string) (Options, error) {
	o := DefaultOptions(pipeline)
	byName := map[string]param{}
	for _, p := range pipelineParams() {
		byName[p.name] = p
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := strings.TrimSpace(params[k])
		if p, ok := byName[k]; ok {
			if err := p.set(&o, v); err != nil {
				return o, &ParamError{Key: k, Err: err}
			}
			continue
		}
		o.AlgParams[k] = v
	}
	if _, err := cc.NewAlgorithm(pipeline, o.AlgParams); err != nil {
		// Name the offending key, so that callers can point at its line.
		if errors.Is(err, cc.ErrUnknownParam) || errors.Is(err, cc.ErrBadParam) {
			for _, k := range keys {
				if v, ok := o.AlgParams[k]; ok {
					if _, kerr := cc.NewAlgorithm(pipeline, cc.Params{k: v}); kerr != nil {
						return o, &ParamError{Key: k, Err: kerr}
					}
				}
			}
		}
		return o, err
	}
	if err := o.Validate(); err != nil {
		return o, err
	}
	return o, nil
}

// ParamError is an invalid pipeline parameter.
type ParamError struct {
	Key string
	Err error
}

func (e *ParamError) Error() string { return fmt.Sprintf("parameter %s: %v", e.Key, e.Err) }
func (e *ParamError) Unwrap() error { return e.Err }

// Validate checks the options for consistency.
func (o Options) Validate() error {
	if err := o.RTT.Validate(); err != nil {
		return &ParamError{"rto", err}
	}
	switch {
	case o.CheckInterval <= 0:
		return &ParamError{"rto-check-interval", fmt.Errorf("must be positive")}
	case o.RTT.MinRTO > o.RTT.MaxRTO:
		return &ParamError{"min-rto", fmt.Errorf("%v exceeds max-rto %v", o.RTT.MinRTO, o.RTT.MaxRTO)}
	case o.HoleThreshold < 0:
		return &ParamError{"hole-threshold", fmt.Errorf("must not be negative")}
	case o.Lifetime <= 0:
		return &ParamError{"lifetime", fmt.Errorf("must be positive")}
	case o.MaxRetries < -1:
		return &ParamError{"retries", fmt.Errorf("%d: want -1 (no limit) or more", o.MaxRetries)}
	case o.SpanWindows < 2:
		return &ParamError{"span-windows", fmt.Errorf("%d is below 2: a lost segment would stop the window", o.SpanWindows)}
	case o.SpanWindows > MaxSpanWindows:
		return &ParamError{"span-windows", fmt.Errorf("%d is above %d", o.SpanWindows, MaxSpanWindows)}
	case o.Timeout < 0:
		return &ParamError{"timeout", fmt.Errorf("must not be negative")}
	}
	return nil
}
