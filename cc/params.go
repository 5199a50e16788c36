package cc

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Params are an algorithm's parameters by kebab-case name, as scenario
// files and the CLI give them. Pipeline-level parameters (RTT sampling,
// conservative filtering, hole detection, marks, RTO) are not the
// algorithm's: strip them before calling NewAlgorithm.
type Params map[string]string

// ParamDoc documents one parameter for help texts and docs.
type ParamDoc struct {
	Name    string
	Default string
	Doc     string
	// Duration says the value is a duration (Go syntax, such as 200ms);
	// the command line also takes it in milliseconds, as ndnget does.
	Duration bool
}

// Errors NewAlgorithm wraps, for errors.Is.
var (
	ErrUnknownPipeline = errors.New("unknown pipeline")
	ErrUnknownParam    = errors.New("unknown parameter")
	ErrBadParam        = errors.New("bad parameter value")
)

// Pipelines lists the algorithm names NewAlgorithm accepts.
func Pipelines() []string {
	var names []string
	for _, s := range allSpecs {
		names = append(names, s.name)
	}
	return names
}

// NewAlgorithm builds the named algorithm (Pipelines lists them) from its defaults and the given parameters. An unknown
// pipeline, an unknown parameter or a bad value is an error that names it
// and lists what is accepted.
func NewAlgorithm(pipeline string, p Params) (Algorithm, error) {
	s, err := lookup(pipeline)
	if err != nil {
		return nil, err
	}
	return s.build(p)
}

// ParamNames lists the parameters of a pipeline (nil if it is unknown).
func ParamNames(pipeline string) []string {
	var names []string
	for _, d := range Describe(pipeline) {
		names = append(names, d.Name)
	}
	return names
}

// Describe documents each parameter of a pipeline with its default (nil if
// the pipeline is unknown).
func Describe(pipeline string) []ParamDoc {
	s, err := lookup(pipeline)
	if err != nil {
		return nil
	}
	return s.docs()
}

// PipelineDoc is a one-line description of a pipeline ("" if unknown).
func PipelineDoc(pipeline string) string {
	s, err := lookup(pipeline)
	if err != nil {
		return ""
	}
	return s.doc
}

type pipelineSpec struct {
	name, doc string
	docs      func() []ParamDoc
	build     func(Params) (Algorithm, error)
}

func lookup(pipeline string) (pipelineSpec, error) {
	for _, s := range allSpecs {
		if s.name == pipeline {
			return s, nil
		}
	}
	return pipelineSpec{}, fmt.Errorf("cc: pipeline %q: %w (accepted: %s)", pipeline, ErrUnknownPipeline, strings.Join(Pipelines(), ", "))
}

// field is one named parameter of a config type C.
type field[C any] struct {
	name, doc string
	get       func(*C) string
	set       func(*C, string) error
	duration  bool // the value is a duration (ParamDoc.Duration)
}

// spec assembles a pipeline from its default config, its fields and its
// constructor.
func spec[C any](name, doc string, def func() C, fields []field[C], mk func(C) (Algorithm, error)) pipelineSpec {
	docs := func() []ParamDoc {
		d := def()
		out := make([]ParamDoc, len(fields))
		for i, f := range fields {
			out[i] = ParamDoc{Name: f.name, Default: f.get(&d), Doc: f.doc, Duration: f.duration}
		}
		return out
	}
	build := func(p Params) (Algorithm, error) {
		cfg := def()
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			i := slices.IndexFunc(fields, func(f field[C]) bool { return f.name == k })
			if i < 0 {
				var names []string
				for _, f := range fields {
					names = append(names, f.name)
				}
				return nil, fmt.Errorf("cc: %s: parameter %q: %w (accepted: %s)", name, k, ErrUnknownParam, strings.Join(names, ", "))
			}
			if err := fields[i].set(&cfg, strings.TrimSpace(p[k])); err != nil {
				return nil, fmt.Errorf("cc: %s: parameter %s: %w: %w", name, k, ErrBadParam, err)
			}
		}
		a, err := mk(cfg)
		if err != nil {
			return nil, fmt.Errorf("cc: %s: %w: %w", name, ErrBadParam, err)
		}
		return a, nil
	}
	return pipelineSpec{name: name, doc: doc, docs: docs, build: build}
}

// algorithm converts a constructor's typed result, keeping a nil
// Algorithm on error.
func algorithm[T Algorithm](a T, err error) (Algorithm, error) {
	if err != nil {
		return nil, err
	}
	return a, nil
}

// lift makes fields of an embedded config usable on the outer config.
func lift[In, Out any](fs []field[In], inner func(*Out) *In) []field[Out] {
	out := make([]field[Out], len(fs))
	for i, f := range fs {
		out[i] = field[Out]{
			name: f.name, doc: f.doc,
			get: func(c *Out) string { return f.get(inner(c)) },
			set: func(c *Out, v string) error { return f.set(inner(c), v) },
		}
	}
	return out
}

// floatCheck validates a parsed number and says what is accepted.
type floatCheck struct {
	ok   func(float64) bool
	want string
}

func atLeast1OrInf() floatCheck {
	return floatCheck{func(v float64) bool { return v >= 1 }, "a number >= 1, or inf (no threshold)"}
}

// windowSize accepts a window of 1 to MaxWindow segments.
func windowSize() floatCheck {
	return floatCheck{func(v float64) bool { return v >= 1 && v <= MaxWindow }, fmt.Sprintf("a number of segments from 1 to %d", MaxWindow)}
}

func atLeast1() floatCheck {
	return floatCheck{func(v float64) bool { return v >= 1 && !math.IsInf(v, 0) }, "a number >= 1"}
}

func positive() floatCheck {
	return floatCheck{func(v float64) bool { return v > 0 && !math.IsInf(v, 0) }, "a positive number"}
}

func nonNegative() floatCheck {
	return floatCheck{func(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }, "a non-negative number"}
}

func fraction() floatCheck {
	return floatCheck{func(v float64) bool { return v > 0 && v < 1 }, "a number in (0,1)"}
}

func fractionOrOne() floatCheck {
	return floatCheck{func(v float64) bool { return v > 0 && v <= 1 }, "a number in (0,1]"}
}

func fractionOrZero() floatCheck {
	return floatCheck{func(v float64) bool { return v >= 0 && v < 1 }, "0 or a number in (0,1)"}
}

func positiveOrInf() floatCheck {
	return floatCheck{func(v float64) bool { return v > 0 }, "a positive number or inf"}
}

func floatField[C any](name, doc string, ptr func(*C) *float64, chk floatCheck) field[C] {
	return field[C]{
		name: name, doc: doc,
		get: func(c *C) string { return formatFloat(*ptr(c)) },
		set: func(c *C, v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || !chk.ok(x) {
				return fmt.Errorf("want %s, got %q", chk.want, v)
			}
			*ptr(c) = x
			return nil
		},
	}
}

// durationField is a duration parameter: positive, or with zeroOK
// non-negative.
func durationField[C any](name, doc string, ptr func(*C) *time.Duration, zeroOK bool) field[C] {
	return field[C]{
		name: name, doc: doc, duration: true,
		get: func(c *C) string { return ptr(c).String() },
		set: func(c *C, v string) error {
			d, err := time.ParseDuration(v)
			switch {
			case err != nil || d < 0:
				return fmt.Errorf("want a non-negative duration like 1ms, got %q", v)
			case d == 0 && !zeroOK:
				return fmt.Errorf("want a positive duration like 10s, got %q", v)
			}
			*ptr(c) = d
			return nil
		},
	}
}

func intField[C any](name, doc string, ptr func(*C) *int) field[C] {
	return field[C]{
		name: name, doc: doc,
		get: func(c *C) string { return strconv.Itoa(*ptr(c)) },
		set: func(c *C, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("want an integer, got %q", v)
			}
			*ptr(c) = n
			return nil
		},
	}
}

func boolField[C any](name, doc string, ptr func(*C) *bool) field[C] {
	return field[C]{
		name: name, doc: doc,
		get: func(c *C) string { return strconv.FormatBool(*ptr(c)) },
		set: func(c *C, v string) error {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("want true or false, got %q", v)
			}
			*ptr(c) = b
			return nil
		},
	}
}

func initFields[C any](cwnd, ssthresh func(*C) *float64) []field[C] {
	return []field[C]{
		floatField("init-cwnd", "initial congestion window, segments (paper 003)", cwnd, windowSize()),
		floatField("init-ssthresh", "initial slow-start threshold, segments; inf: none (slow start ends at the first decrease, or by the pipeline's delay test)", ssthresh, atLeast1OrInf()),
	}
}

// hyStartDoc documents the hystart parameter of aimd and cubic.
const hyStartDoc = "end slow start when the RTT grows by clamp(minRTT/8, 4 ms, 16 ms) (HyStart, as Linux's CUBIC)"

// fixedConfig is the fixed pipeline's one parameter.
type fixedConfig struct{ window float64 }

// allSpecs is specs, built once: a spec holds no state of its own (its
// docs and build make what they return on each call), and NewAlgorithm,
// called for every fetch and every simulated flow, need not build the
// parameter tables of every pipeline again (about 300 allocations).
var allSpecs = specs()

func specs() []pipelineSpec {
	return []pipelineSpec{
		spec("fixed", "constant window (paper 000 Design #0, paper 003)",
			func() fixedConfig { return fixedConfig{window: DefaultFixedWindow} },
			[]field[fixedConfig]{
				floatField("window", "window size, segments (paper 000: 32 linear, 16 dumbbell)", func(c *fixedConfig) *float64 { return &c.window }, windowSize()),
			},
			func(c fixedConfig) (Algorithm, error) { return algorithm(NewFixed(c.window)) }),

		spec("aimd", "Reno AIMD (papers 000, 003)", DefaultAIMDConfig,
			append(initFields(func(c *AIMDConfig) *float64 { return &c.InitCwnd }, func(c *AIMDConfig) *float64 { return &c.InitSsthresh }),
				floatField("aimd-step", "additive increase per RTT in congestion avoidance, segments", func(c *AIMDConfig) *float64 { return &c.Step }, positive()),
				floatField("aimd-beta", "multiplicative decrease factor: ssthresh = cwnd*beta", func(c *AIMDConfig) *float64 { return &c.Beta }, fraction()),
				floatField("aimd-mark-beta", "decrease factor on a congestion mark (RFC 8511 suggests 0.8); 0 means aimd-beta", func(c *AIMDConfig) *float64 { return &c.MarkBeta }, fractionOrZero()),
				boolField("reset-cwnd-to-init", "after a decrease set cwnd to init-cwnd (paper 003) instead of ssthresh (paper 000)", func(c *AIMDConfig) *bool { return &c.ResetToInit }),
				boolField("hystart", hyStartDoc, func(c *AIMDConfig) *bool { return &c.HyStart }),
			),
			func(c AIMDConfig) (Algorithm, error) { return algorithm(NewAIMD(c)) }),

		spec("cubic", "CUBIC, RFC 9438 (paper 001)", DefaultCubicConfig,
			append(initFields(func(c *CubicConfig) *float64 { return &c.InitCwnd }, func(c *CubicConfig) *float64 { return &c.InitSsthresh }),
				floatField("cubic-c", "CUBIC's C, segments/s^3", func(c *CubicConfig) *float64 { return &c.C }, positive()),
				floatField("cubic-beta", "multiplicative decrease factor beta_cubic", func(c *CubicConfig) *float64 { return &c.Beta }, fraction()),
				boolField("fast-conv", "fast convergence: lower W_max after a decrease below it", func(c *CubicConfig) *bool { return &c.FastConvergence }),
				boolField("cubic-reno-friendly", "never grow slower than Reno's estimate W_est", func(c *CubicConfig) *bool { return &c.RenoFriendly }),
				boolField("hystart", hyStartDoc, func(c *CubicConfig) *bool { return &c.HyStart }),
			),
			func(c CubicConfig) (Algorithm, error) { return algorithm(NewCubic(c)) }),

		spec("bic", "BIC, as PCON's consumer (paper 004)", DefaultBICConfig,
			append(initFields(func(c *BICConfig) *float64 { return &c.InitCwnd }, func(c *BICConfig) *float64 { return &c.InitSsthresh }),
				floatField("bic-max-increment", "largest growth per RTT (S_max), segments", func(c *BICConfig) *float64 { return &c.MaxIncrement }, positive()),
				floatField("bic-min-increment", "least growth per RTT below W_max (S_min), segments", func(c *BICConfig) *float64 { return &c.MinIncrement }, positive()),
				floatField("bic-low-window", "at or below this window behave as Reno, segments", func(c *BICConfig) *float64 { return &c.LowWindow }, positive()),
				floatField("bic-beta", "multiplicative decrease factor above the low window", func(c *BICConfig) *float64 { return &c.Beta }, fraction()),
				boolField("fast-conv", "fast convergence: lower W_max after a decrease below it", func(c *BICConfig) *bool { return &c.FastConvergence }),
			),
			func(c BICConfig) (Algorithm, error) { return algorithm(NewBIC(c)) }),

		spec("vegas", "TCP Vegas (paper 001)", DefaultVegasConfig, vegasFields(),
			func(c VegasConfig) (Algorithm, error) { return algorithm(NewVegas(c)) }),

		spec("ndn-vegas", "NDN-Vegas: Vegas with baseRTT adaptation (paper 001)", DefaultNDNVegasConfig,
			append(lift(vegasFields(), func(c *NDNVegasConfig) *VegasConfig { return &c.VegasConfig }),
				floatField("vegas-gamma", "diff above it means a farther source: baseRTT = latest RTT (inf: never)", func(c *NDNVegasConfig) *float64 { return &c.Gamma }, positiveOrInf()),
				field[NDNVegasConfig]{
					name: "slow-start", doc: "vegas (double every other RTT), reno (until a decrease) or hole (until out-of-order Data)",
					get: func(c *NDNVegasConfig) string { return c.SlowStart.String() },
					set: func(c *NDNVegasConfig, v string) error {
						s, err := ParseSlowStart(v)
						if err != nil {
							return err
						}
						c.SlowStart = s
						return nil
					},
				},
			),
			func(c NDNVegasConfig) (Algorithm, error) { return algorithm(NewNDNVegas(c)) }),

		spec("raaqm", "ICP's RAAQM: delay-driven probabilistic decrease (paper 004's baseline)", DefaultRAAQMConfig,
			[]field[RAAQMConfig]{
				floatField("init-cwnd", "initial congestion window, segments", func(c *RAAQMConfig) *float64 { return &c.InitCwnd }, windowSize()),
				floatField("raaqm-step", "additive increase per RTT, segments", func(c *RAAQMConfig) *float64 { return &c.Step }, positive()),
				floatField("raaqm-beta", "multiplicative decrease factor", func(c *RAAQMConfig) *float64 { return &c.Beta }, fraction()),
				floatField("raaqm-pmin", "decrease probability at the least recent RTT", func(c *RAAQMConfig) *float64 { return &c.PMin }, nonNegative()),
				floatField("raaqm-pmax", "decrease probability at the largest recent RTT", func(c *RAAQMConfig) *float64 { return &c.PMax }, nonNegative()),
				intField("raaqm-samples", "recent RTT samples that define Rmin and Rmax", func(c *RAAQMConfig) *int { return &c.Samples }),
			},
			func(c RAAQMConfig) (Algorithm, error) { return algorithm(NewRAAQM(c)) }),

		spec("paced-delay", "paced, delay-based: per-source minimum RTT, standing-queue target, multiplicative decrease on marks and losses", DefaultPacedDelayConfig,
			append(initFields(func(c *PacedDelayConfig) *float64 { return &c.InitCwnd }, func(c *PacedDelayConfig) *float64 { return &c.InitSsthresh }),
				floatField("delay-alpha", "standing queue below it (segments of this flow): grow the window", func(c *PacedDelayConfig) *float64 { return &c.Alpha }, positive()),
				floatField("delay-beta", "standing queue above it (segments of this flow): shrink the window", func(c *PacedDelayConfig) *float64 { return &c.Beta }, positive()),
				floatField("delay-ss-gamma", "standing queue above it ends slow start, segments", func(c *PacedDelayConfig) *float64 { return &c.SlowStartGamma }, positive()),
				floatField("mark-beta", "multiplicative decrease on a congestion mark or Nack", func(c *PacedDelayConfig) *float64 { return &c.MarkBeta }, fraction()),
				floatField("loss-beta", "multiplicative decrease on a timeout or a hole while the flow keeps more than delay-beta segments queued (a loss found before its RTO sheds that queue instead, to this much of the window at most)", func(c *PacedDelayConfig) *float64 { return &c.LossBeta }, fraction()),
				floatField("quiet-loss-beta", "decrease on a timeout or a hole while the flow's queue was within delay-beta (random loss, another flow's overflow); 1: none, and a loss found before its RTO with no queue of the flow's own leaves slow start and the growth as they were", func(c *PacedDelayConfig) *float64 { return &c.QuietLossBeta }, fractionOrOne()),
				floatField("pacing-gain", "pacing rate = gain * cwnd / least RTT of the last round, after slow start", func(c *PacedDelayConfig) *float64 { return &c.PacingGain }, atLeast1()),
				floatField("ss-pacing-gain", "pacing gain in slow start", func(c *PacedDelayConfig) *float64 { return &c.SlowStartPacingGain }, atLeast1()),
				durationField("min-rtt-window", "a source's minimum RTT expires after this long without a sample near it", func(c *PacedDelayConfig) *time.Duration { return &c.MinRTTWindow }, false),
				durationField("delay-floor", "queueing delays count only above the noise the round's least RTT carries (the measured noise's width over the round's samples plus one), at most this (this in slow start): the noise of RTT samples through real forwarders", func(c *PacedDelayConfig) *time.Duration { return &c.DelayFloor }, true),
				durationField("host-delay-floor", "the delay floor of a source whose minimum RTT is below delay-floor (a producer or cache on this host: the RTT is processing, which batches grow)", func(c *PacedDelayConfig) *time.Duration { return &c.HostDelayFloor }, true),
				floatField("source-ratio", "a sample below this fraction of the least minimum RTT is a nearer source", func(c *PacedDelayConfig) *float64 { return &c.SourceRatio }, fraction()),
				boolField("competitive", "against a loss-based flow that fills the buffer, grow as Reno until the queue empties (Copa's competitive mode; docs/algorithms.md)", func(c *PacedDelayConfig) *bool { return &c.Competitive }),
				floatField("max-velocity", "largest window change per round, segments (Copa's velocity)", func(c *PacedDelayConfig) *float64 { return &c.MaxVelocity }, atLeast1()),
			),
			func(c PacedDelayConfig) (Algorithm, error) { return algorithm(NewPacedDelay(c)) }),

		spec("bbr", "BBRv1's model (bottleneck bandwidth and min RTT, pacing-gain cycle, ProbeRTT) pacing Interests; BBRv3's loss and mark response as an option", DefaultBBRConfig,
			[]field[BBRConfig]{
				floatField("init-cwnd", "initial congestion window, segments (the window is at least 4 from the first Data on)", func(c *BBRConfig) *float64 { return &c.InitCwnd }, windowSize()),
				floatField("bbr-startup-gain", "pacing and window gain of Startup (2/ln 2); Drain paces at its inverse", func(c *BBRConfig) *float64 { return &c.StartupGain }, atLeast1()),
				floatField("bbr-cwnd-gain", "window = gain * BDP in ProbeBW", func(c *BBRConfig) *float64 { return &c.CwndGain }, atLeast1()),
				intField("bbr-bw-rounds", "rounds of the bottleneck bandwidth's max filter", func(c *BBRConfig) *int { return &c.BwRounds }),
				durationField("min-rtt-window", "ProbeRTT begins when the min RTT was not renewed for this long", func(c *BBRConfig) *time.Duration { return &c.MinRTTWindow }, false),
				durationField("bbr-probe-rtt-time", "how long ProbeRTT holds the window at 4 segments", func(c *BBRConfig) *time.Duration { return &c.ProbeRTTTime }, false),
				boolField("bbr-loss-response", "BBRv3's response: a round over bbr-loss-thresh losses or bbr-ecn-thresh marks bounds the flight and bandwidth by bbr-beta (BBRv1 ignores marks)", func(c *BBRConfig) *bool { return &c.LossResponse }),
				floatField("bbr-loss-thresh", "loss rate of a round above which it is congestion (with bbr-loss-response)", func(c *BBRConfig) *float64 { return &c.LossThresh }, fraction()),
				floatField("bbr-ecn-thresh", "mark rate of a round above which it is congestion (with bbr-loss-response)", func(c *BBRConfig) *float64 { return &c.ECNThresh }, fraction()),
				floatField("bbr-beta", "multiplicative decrease of the bounds (with bbr-loss-response)", func(c *BBRConfig) *float64 { return &c.Beta }, fraction()),
			},
			func(c BBRConfig) (Algorithm, error) { return algorithm(NewBBR(c)) }),

		spec("copa", "Copa: target rate 1/(delta*dq), velocity, competitive mode (Arun and Balakrishnan, NSDI 2018)", DefaultCopaConfig,
			[]field[CopaConfig]{
				floatField("init-cwnd", "initial congestion window, segments", func(c *CopaConfig) *float64 { return &c.InitCwnd }, windowSize()),
				floatField("copa-delta", "delta of default mode: each flow keeps about 1/delta segments queued", func(c *CopaConfig) *float64 { return &c.Delta }, fractionOrOne()),
				durationField("min-rtt-window", "window of the least RTT (RTTmin)", func(c *CopaConfig) *time.Duration { return &c.MinRTTWindow }, false),
				boolField("competitive", "when the queue was not nearly empty for 5 RTTs, AIMD on 1/delta (+1 per RTT, halved on a loss) until it is", func(c *CopaConfig) *bool { return &c.Competitive }),
			},
			func(c CopaConfig) (Algorithm, error) { return algorithm(NewCopa(c)) }),
	}
}

func vegasFields() []field[VegasConfig] {
	return append(initFields(func(c *VegasConfig) *float64 { return &c.InitCwnd }, func(c *VegasConfig) *float64 { return &c.InitSsthresh }),
		floatField("vegas-alpha", "diff below it: cwnd+1 per RTT, segments", func(c *VegasConfig) *float64 { return &c.Alpha }, nonNegative()),
		floatField("vegas-beta", "diff above it: cwnd-1 per RTT, segments", func(c *VegasConfig) *float64 { return &c.Beta }, positive()),
		floatField("vegas-ss-gamma", "diff above it ends slow start, segments", func(c *VegasConfig) *float64 { return &c.SlowStartGamma }, nonNegative()),
		boolField("vegas-diff-per-second", "compare vegas-alpha, -beta (and -gamma) with diff in segments per second, expected - actual, as paper 001 and its ndncatchunks pipeline do (false: segments, Brakmo and Peterson)", func(c *VegasConfig) *bool { return &c.DiffPerSecond }),
	)
}

// formatFloat formats a parameter's value: "inf" for +Inf (as the parser
// reads it), else the shortest decimal.
func formatFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
