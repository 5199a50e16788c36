package emu

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// Catchunks is the program CatchunksConsumers puts in every consumer's
// place: ndn-tools' ndncatchunks.
const Catchunks = "ndncatchunks"

// ErrNotMappable reports a consumer whose pipeline or parameters
// ndncatchunks has no equivalent for.
var ErrNotMappable = errors.New("not mappable to ndncatchunks")

// CatchunksMapping is what CatchunksArgs made of one consumer's pipeline:
// the command line, and the parameters ndncatchunks has no option for
// (each with what the tool does instead), which the tables must name.
type CatchunksMapping struct {
	Args     []string
	Unmapped []string
}

// CatchunksConsumers returns a copy of sc in which ndncatchunks (24.07's
// options) fetches in place of every ndncc consumer, run with its
// pipeline and parameters mapped to ndncatchunks' options
// (CatchunksArgs), and the mapping of each consumer by ID. A consumer
// that already runs a program keeps it. An error wrapping ErrNotMappable
// names what ndncatchunks cannot do.
func CatchunksConsumers(sc *scenario.Scenario) (*scenario.Scenario, map[string]CatchunksMapping, error) {
	out := *sc
	out.Consumers = slices.Clone(sc.Consumers)
	mapping := map[string]CatchunksMapping{}
	for i, c := range out.Consumers {
		if c.Program != "" {
			continue
		}
		m, err := CatchunksArgs(sc, c)
		if err != nil {
			return nil, nil, fmt.Errorf("consumer %s: %w", c.ID, err)
		}
		out.Consumers[i].Program, out.Consumers[i].Args = Catchunks, m.Args
		mapping[c.ID] = m
	}
	return &out, mapping, nil
}

// CatchunksArgs maps consumer c of sc (its pipeline, profile and
// parameters as the simulator reads them) to ndncatchunks' command line:
//
//   - fixed: -p fixed -s WINDOW; ndncatchunks' fixed pipeline retransmits a
//     segment when its Interest's lifetime ends, not on an RTO, so the RTO
//     parameters have no equivalent (listed in Unmapped);
//   - aimd, cubic: -p aimd|cubic with --init-cwnd, --init-ssthresh,
//     --aimd-step, --aimd-beta, --reset-cwnd-to-init, --cubic-beta,
//     --fast-conv, --rto-alpha, --rto-beta, --rto-k, --min-rto, --max-rto,
//     --ignore-marks, and --disable-cwa for conservative = false;
//   - every pipeline: -r (retries), -l (lifetime), -f (must-be-fresh).
//
// A parameter whose value ndncatchunks fixes (ndn-cxx's 1 s initial RTO
// and backoff of 2, its 10 ms timeout check, every-Data RTT sampling, no
// hole detection, no HyStart, CUBIC's C of 0.4, ...) must have that value,
// or the consumer is refused (ErrNotMappable), as is every other
// pipeline.
func CatchunksArgs(sc *scenario.Scenario, c scenario.Consumer) (CatchunksMapping, error) {
	o, err := sim.ConsumerOptions(sc, c)
	if err != nil {
		return CatchunksMapping{}, err
	}
	alg := func(name string) string {
		if v, ok := o.AlgParams[name]; ok {
			return strings.TrimSpace(v)
		}
		for _, d := range cc.Describe(c.Pipeline) {
			if d.Name == name {
				return d.Default
			}
		}
		return ""
	}
	var m CatchunksMapping
	var refuse []string
	must := func(what string, ok bool, tool string) {
		if !ok {
			refuse = append(refuse, what+" (ndncatchunks: "+tool+")")
		}
	}
	ms := func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }
	switch c.Pipeline {
	case "fixed":
		m.Args = append(m.Args, "-p", "fixed", "-s", alg("window"))
		m.Unmapped = append(m.Unmapped,
			"the RTO (rto-*, min-rto, max-rto, initial-rto): ndncatchunks' fixed pipeline retransmits a segment when its Interest's lifetime ends")
	case "aimd", "cubic":
		m.Args = append(m.Args, "-p", c.Pipeline, "--init-cwnd", alg("init-cwnd"))
		if s := alg("init-ssthresh"); s != "inf" {
			m.Args = append(m.Args, "--init-ssthresh", s)
		}
		if c.Pipeline == "aimd" {
			m.Args = append(m.Args, "--aimd-step", alg("aimd-step"), "--aimd-beta", alg("aimd-beta"))
			if b, _ := strconv.ParseBool(alg("reset-cwnd-to-init")); b {
				m.Args = append(m.Args, "--reset-cwnd-to-init")
			}
			mb := alg("aimd-mark-beta")
			must("aimd-mark-beta = "+mb, mb == "0" || mb == alg("aimd-beta"), "one decrease factor for marks and losses")
		} else {
			m.Args = append(m.Args, "--cubic-beta", alg("cubic-beta"))
			if b, _ := strconv.ParseBool(alg("fast-conv")); b {
				m.Args = append(m.Args, "--fast-conv")
			}
			cubicC := alg("cubic-c")
			must("cubic-c = "+cubicC, cubicC == "0.4", "C = 0.4")
			m.Unmapped = append(m.Unmapped, "cubic-reno-friendly = "+alg("cubic-reno-friendly")+": ndncatchunks has no option for CUBIC's Reno-friendly region")
		}
		hy := alg("hystart")
		must("hystart = "+hy, hy == "false", "no HyStart")
		if !o.Conservative {
			m.Args = append(m.Args, "--disable-cwa")
		}
		if o.IgnoreMarks {
			m.Args = append(m.Args, "--ignore-marks")
		}
		m.Args = append(m.Args,
			"--rto-alpha", fmtFloat(o.RTT.Alpha), "--rto-beta", fmtFloat(o.RTT.Beta), "--rto-k", fmtFloat(o.RTT.K),
			"--min-rto", ms(o.RTT.MinRTO), "--max-rto", ms(o.RTT.MaxRTO))
		must("initial-rto = "+o.RTT.InitialRTO.String(), o.RTT.InitialRTO == time.Second, "ndn-cxx's 1s")
		must("rto-backoff = "+fmtFloat(o.RTT.BackoffMultiplier), o.RTT.BackoffMultiplier == 2, "ndn-cxx's 2")
		must("rto-var-floor = "+o.RTT.VarFloor.String(), o.RTT.VarFloor == 0, "none")
		must("rtt-sampling = "+o.RTTSampling.String(), o.RTTSampling == cc.SampleEveryData, "a sample from every Data not retransmitted")
		must("rto-check-interval = "+o.CheckInterval.String(), o.CheckInterval == 10*time.Millisecond, "10ms")
	default:
		return CatchunksMapping{}, fmt.Errorf("%w: pipeline %s (ndncatchunks has fixed, aimd and cubic)", ErrNotMappable, c.Pipeline)
	}
	must("hole-detection = true", !o.HoleDetection, "no hole detection")
	must("fixed-rto = "+o.FixedRTO.String(), o.FixedRTO == 0, "the estimator's RTO")
	must("postpone-retx = true", !o.PostponeRetx, "retransmits first")
	must("rack = true", !o.Rack, "RTO-based loss detection only")
	must("link-loss-nacks = true", !o.LinkLossNacks, "every Nack is congestion")
	if len(refuse) > 0 {
		return CatchunksMapping{}, fmt.Errorf("%w: %s", ErrNotMappable, strings.Join(refuse, "; "))
	}
	m.Args = append(m.Args, "-r", strconv.Itoa(max(o.MaxRetries, -1)), "-l", ms(o.Lifetime))
	if o.MustBeFresh {
		m.Args = append(m.Args, "-f")
	}
	m.Args = append(m.Args, c.Prefix)
	if !o.KeepPending {
		m.Unmapped = append(m.Unmapped, "keep-pending = false: ndn-cxx's Face keeps a retransmitted segment's earlier Interest pending")
	}
	if o.Timeout > 0 {
		m.Unmapped = append(m.Unmapped, "timeout = "+o.Timeout.String()+": ndncatchunks gives up only after its retries")
	}
	m.Unmapped = append(m.Unmapped, fmt.Sprintf("span-windows = %d: ndncatchunks does not bound how far past a missing segment it requests", o.SpanWindows))
	return m, nil
}

// fmtFloat is x as ndncatchunks' options take it, the shortest decimal.
func fmtFloat(x float64) string {
	if math.IsInf(x, 1) {
		return "inf"
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}
