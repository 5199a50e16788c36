package cc

import (
	"fmt"
	"math"
	"time"
)

// BBRConfig parameterises the bbr pipeline (docs/algorithms.md, "bbr").
type BBRConfig struct {
	// InitCwnd is the initial window, segments. Default 10 (RFC 6928,
	// as BBR's initial window). From the first Data on the window is at
	// least 4 (BBR's minimum), whatever this is.
	InitCwnd float64
	// StartupGain is the pacing and window gain of Startup and the
	// inverse of Drain's pacing gain. Default 2/ln 2 ≈ 2.885, the least
	// gain that doubles the delivery rate each round.
	StartupGain float64
	// CwndGain is the window gain in ProbeBW: cwnd = CwndGain × BDP.
	// Default 2.
	CwndGain float64
	// BwRounds is the bottleneck bandwidth filter's window, rounds.
	// Default 10.
	BwRounds int
	// MinRTTWindow: ProbeRTT begins when the minimum RTT was not matched
	// or lowered for this long. Default 10 s.
	MinRTTWindow time.Duration
	// ProbeRTTTime is how long ProbeRTT holds the window at MinPipeCwnd
	// once the flight has drained to it. Default 200 ms.
	ProbeRTTTime time.Duration
	// LossResponse enables BBRv3's response to losses and marks: a round
	// whose loss rate exceeds LossThresh, or whose mark rate exceeds
	// ECNThresh, bounds the flight from above (inflight_hi) and the
	// bandwidth and flight from below (bw_lo, inflight_lo) by Beta, and
	// ends Startup or ProbeBW's up phase. Default false (BBRv1: losses
	// only conserve packets for a round, marks are ignored).
	LossResponse bool
	// LossThresh is the loss rate of a round above which it is
	// congestion (v3's BBRLossThresh). Default 0.02.
	LossThresh float64
	// ECNThresh is the mark rate of a round above which it is congestion
	// (v3's BBRECNThresh). Default 0.5.
	ECNThresh float64
	// Beta is v3's multiplicative decrease of the bounds. Default 0.7.
	Beta float64
}

// DefaultBBRConfig returns the documented defaults.
func DefaultBBRConfig() BBRConfig {
	return BBRConfig{
		InitCwnd: 10, StartupGain: 2 / math.Ln2, CwndGain: 2, BwRounds: 10,
		MinRTTWindow: 10 * time.Second, ProbeRTTTime: 200 * time.Millisecond,
		LossThresh: 0.02, ECNThresh: 0.5, Beta: 0.7,
	}
}

// Validate reports the first field that is out of range.
func (c BBRConfig) Validate() error {
	if err := c.validate(); err != nil {
		return fmt.Errorf("bbr: %w", err)
	}
	return nil
}

func (c BBRConfig) validate() error {
	switch {
	case !(c.InitCwnd >= 1 && c.InitCwnd <= MaxWindow):
		return fmt.Errorf("init-cwnd %v must be a number of segments from 1 to %d", c.InitCwnd, MaxWindow)
	case !(c.StartupGain > 1) || math.IsInf(c.StartupGain, 0):
		return fmt.Errorf("bbr-startup-gain %v must be a number above 1", c.StartupGain)
	case !(c.CwndGain >= 1) || math.IsInf(c.CwndGain, 0):
		return fmt.Errorf("bbr-cwnd-gain %v must be a number >= 1", c.CwndGain)
	case c.BwRounds < 1:
		return fmt.Errorf("bbr-bw-rounds %d must be at least 1", c.BwRounds)
	case c.MinRTTWindow <= 0:
		return fmt.Errorf("min-rtt-window %v must be positive", c.MinRTTWindow)
	case c.ProbeRTTTime <= 0:
		return fmt.Errorf("bbr-probe-rtt-time %v must be positive", c.ProbeRTTTime)
	}
	if err := checkFraction("bbr-loss-thresh", c.LossThresh); err != nil {
		return err
	}
	if err := checkFraction("bbr-ecn-thresh", c.ECNThresh); err != nil {
		return err
	}
	return checkFraction("bbr-beta", c.Beta)
}

// BBR's constants (draft-cardwell-iccrg-bbr-congestion-control).
const (
	bbrMinPipeCwnd   = 4    // the least window, segments; ProbeRTT's window
	bbrFullBwGrowth  = 1.25 // Startup goes on while the bandwidth grows by this per round...
	bbrFullBwRounds  = 3    // ...within this many rounds
	bbrCycleLen      = 8    // ProbeBW's pacing-gain cycle
	bbrMaxQuantum    = 64   // the largest send quantum, segments
	bbrStartupLosses = 6    // v3: losses in a round that may end Startup
)

// bbrCycle is ProbeBW's pacing-gain cycle: probe up, drain what the probe
// queued, cruise.
var bbrCycle = [bbrCycleLen]float64{1.25, 0.75, 1, 1, 1, 1, 1, 1}

// BBRState is a state of BBR's state machine.
type BBRState uint8

// BBR's states.
const (
	BBRStartup BBRState = iota
	BBRDrain
	BBRProbeBW
	BBRProbeRTT
)

// String names the state.
func (s BBRState) String() string {
	switch s {
	case BBRStartup:
		return "startup"
	case BBRDrain:
		return "drain"
	case BBRProbeBW:
		return "probe-bw"
	case BBRProbeRTT:
		return "probe-rtt"
	}
	return "unknown"
}

// BBR is BBRv1's model-based controller (Cardwell et al., ACM Queue
// 2016; draft-cardwell-iccrg-bbr-congestion-control-00) driven by a
// receiver that paces Interests: the Interest rate is the pacing rate,
// each Data is one segment delivered (deliveryRate), and a round trip
// ends when the Data of a segment sent after it began arrives.
//
// The model: BtlBw is the largest delivery-rate sample of the last
// BwRounds rounds, RTprop the least RTT of the last MinRTTWindow, BDP =
// BtlBw × RTprop. The pacing rate is pacing_gain × BtlBw (in Startup it
// only rises); the window is cwnd_gain × BDP + 3 send quanta (a quantum
// is the pacer's 1 ms of Interests, 1 to 64 segments), reached by +1 per
// Data, never below 4:
//
//	Startup   pacing and window gain StartupGain, until three rounds
//	          in a row fail to raise BtlBw by 25% (the pipe is full);
//	Drain     pacing gain 1/StartupGain until the flight is within BDP;
//	ProbeBW   window gain CwndGain, pacing gain cycling 1.25, 0.75, then
//	          1 for six phases, each phase one RTprop long (1.25 also
//	          until the flight reaches 1.25 BDP or a loss, 0.75 ending
//	          early once the flight is within BDP);
//	ProbeRTT  when RTprop was not renewed for MinRTTWindow: window 4
//	          until the flight is 4, then for ProbeRTTTime and a round;
//	          RTprop's timestamp renews and the window is restored.
//
// A loss (timeout, hole, congestion Nack) conserves packets for a round
// (the window is the flight plus one, growing by one per Data) and then
// restores the window it had; a mark is ignored unless LossResponse.
type BBR struct {
	cfg BBRConfig

	rate deliveryRate
	bw   maxFilter

	state      BBRState
	cwnd       float64
	pacingRate float64 // segments/s; 0 before the first RTT sample
	pacingGain float64
	cwndGain   float64

	round      uint64 // rounds begun
	roundMark  uint64 // the first segment of the next round
	roundStart bool   // this Data began a round
	// The largest RTT sample of this round and of the last: the
	// delivery history keeps twice their maximum.
	roundMaxRTT, lastMaxRTT time.Duration

	minRTT, minRTTStamp time.Duration

	filledPipe  bool
	fullBw      float64
	fullBwCount int

	cycleIdx   int
	cycleStamp time.Duration

	probeRTTDone      time.Duration // 0: the flight has not drained yet
	probeRTTRoundDone bool
	priorCwnd         float64

	inRecovery   bool
	recoveryMark uint64 // the Data of this segment (or a later one) ends recovery
	lossInRound  bool

	lastInFlight int    // the flight after the last Data
	lastHigh     uint64 // the highest segment sent, at the last Data

	// BBRv3's loss and mark response (LossResponse): this round's
	// signals and largest rate sample, the bounds, and the growth of
	// inflight_hi per round while probing up.
	roundDelivered, roundLost, roundMarked int
	roundMaxBw                             float64
	inflightHi, inflightLo, bwLo           float64 // +Inf: no bound
	probeUp                                float64
}

// NewBBR returns a BBR controller in Startup.
func NewBBR(cfg BBRConfig) (*BBR, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	inf := math.Inf(1)
	return &BBR{
		cfg: cfg, rate: newDeliveryRate(), state: BBRStartup, cwnd: cfg.InitCwnd,
		pacingGain: cfg.StartupGain, cwndGain: cfg.StartupGain,
		inflightHi: inf, inflightLo: inf, bwLo: inf, probeUp: 1,
	}, nil
}

// Name implements Algorithm.
func (*BBR) Name() string { return "bbr" }

// Cwnd implements Algorithm.
func (b *BBR) Cwnd() float64 { return b.cwnd }

// Ssthresh implements Algorithm. BBR has no slow-start threshold; it
// reports the window so that traces stay finite.
func (b *BBR) Ssthresh() float64 { return b.cwnd }

// State is the state machine's state.
func (b *BBR) State() BBRState { return b.state }

// BtlBw is the bottleneck bandwidth estimate, segments per second.
func (b *BBR) BtlBw() float64 { return b.bw.best() }

// MinRTT is the round-trip propagation estimate (0 before a sample).
func (b *BBR) MinRTT() time.Duration { return b.minRTT }

// PacingRate is the Interest rate, segments per second (0: not paced).
func (b *BBR) PacingRate() float64 { return b.pacingRate }

// PacingGain is the current pacing gain.
func (b *BBR) PacingGain() float64 { return b.pacingGain }

// Round is the number of rounds begun.
func (b *BBR) Round() uint64 { return b.round }

// FilledPipe reports whether Startup found the bottleneck bandwidth.
func (b *BBR) FilledPipe() bool { return b.filledPipe }

// InflightHi is v3's upper bound on the flight (+Inf: none).
func (b *BBR) InflightHi() float64 { return b.inflightHi }

// PacingInterval implements Paced: the time between two Interests at the
// pacing rate, or 0 (not paced) before the first RTT sample.
func (b *BBR) PacingInterval() time.Duration {
	if b.pacingRate <= 0 {
		return 0
	}
	return time.Duration(float64(time.Second) / b.pacingRate)
}

// OnData implements Algorithm (BBRUpdateOnACK: the model and the state
// first, then the pacing rate and the window).
func (b *BBR) OnData(a Ack) {
	b.lastInFlight, b.lastHigh = a.InFlight, a.HighInterest
	b.updateRound(a)
	if b.inRecovery && a.Seg >= b.recoveryMark {
		// A round trip since the loss: restore the window it had.
		b.inRecovery = false
		b.cwnd = max(b.cwnd, b.priorCwnd)
	}
	bw := b.rate.onData(a.Now, a.RTT, 2*max(b.roundMaxRTT, b.lastMaxRTT))
	if bw > 0 {
		b.bw.update(bw, b.round, uint64(b.cfg.BwRounds))
	}
	if b.cfg.LossResponse {
		b.roundDelivered++
		if a.Marked {
			b.roundMarked++
		}
		b.roundMaxBw = max(b.roundMaxBw, bw)
	}
	b.updateMinRTT(a.Now, a.RTT)
	if b.state == BBRProbeBW && b.cycleDone(a.Now, a.InFlight+1) {
		b.advanceCycle(a.Now)
	}
	b.checkFullPipe()
	b.checkDrain(a.Now, a.InFlight)
	b.checkProbeRTT(a)
	b.setPacingRate()
	b.setCwnd(a.InFlight)
}

// updateRound counts round trips by segment numbers: a round begins with
// the Data of the first segment sent after the last one began. At a
// round's start the last round's signals are judged.
func (b *BBR) updateRound(a Ack) {
	b.roundStart = a.Seg >= b.roundMark
	if a.RTT > b.roundMaxRTT {
		b.roundMaxRTT = a.RTT
	}
	if !b.roundStart {
		return
	}
	b.round++
	b.roundMark = a.HighInterest + 1
	b.lastMaxRTT, b.roundMaxRTT = b.roundMaxRTT, a.RTT
	if b.cfg.LossResponse {
		b.endLossRound(a.Now)
	}
	b.lossInRound = false
}

// updateMinRTT renews RTprop with a sample at or below it, or with any
// sample once it is older than MinRTTWindow (then ProbeRTT begins).
func (b *BBR) updateMinRTT(now, rtt time.Duration) {
	if rtt <= 0 {
		return
	}
	expired := b.minRTT > 0 && now > b.minRTTStamp+b.cfg.MinRTTWindow
	if b.minRTT == 0 || rtt <= b.minRTT || expired {
		b.minRTT, b.minRTTStamp = rtt, now
	}
	if expired && b.state != BBRProbeRTT {
		b.enterProbeRTT()
	}
}

// bdp is BtlBw × RTprop, segments (InitCwnd before a sample of both).
func (b *BBR) bdp() float64 {
	bw := b.bw.best()
	if b.cfg.LossResponse {
		bw = min(bw, b.bwLo)
	}
	if bw == 0 || b.minRTT == 0 {
		return b.cfg.InitCwnd
	}
	return bw * b.minRTT.Seconds()
}

// quantum is the send quantum: the Interests the pacer lets go back to
// back in 1 ms at the pacing rate, 1 to bbrMaxQuantum segments.
func (b *BBR) quantum() float64 {
	return min(max(b.pacingRate*pacingQuantumSeconds, 1), bbrMaxQuantum)
}

// pacingQuantumSeconds is the sending time the consumer's pacer lets go
// in one burst (its pacingQuantum), seconds.
const pacingQuantumSeconds = 0.001

// inflight is the flight gain × BDP plus three send quanta.
func (b *BBR) inflight(gain float64) float64 {
	return gain*b.bdp() + 3*b.quantum()
}

// cycleDone reports whether ProbeBW's phase has run its course, with
// priorInflight the flight before this Data.
func (b *BBR) cycleDone(now time.Duration, priorInflight int) bool {
	full := now-b.cycleStamp > b.minRTT
	switch g := b.pacingGain; {
	case g > 1:
		return full && (b.lossInRound || float64(priorInflight) >= b.inflight(g))
	case g < 1:
		return full || float64(priorInflight) <= b.inflight(1)
	}
	return full
}

func (b *BBR) advanceCycle(now time.Duration) {
	b.setCycle((b.cycleIdx+1)%bbrCycleLen, now)
}

// setCycle begins ProbeBW's phase i; with LossResponse, probing up lets
// the lower bounds go (v3's refill).
func (b *BBR) setCycle(i int, now time.Duration) {
	b.cycleIdx, b.cycleStamp = i, now
	b.pacingGain = bbrCycle[i]
	if b.cfg.LossResponse && b.pacingGain > 1 {
		b.inflightLo, b.bwLo = math.Inf(1), math.Inf(1)
	}
}

// checkFullPipe ends Startup when three rounds in a row did not raise
// the bandwidth by 25%.
func (b *BBR) checkFullPipe() {
	if b.filledPipe || !b.roundStart {
		return
	}
	if bw := b.bw.best(); bw >= b.fullBw*bbrFullBwGrowth {
		b.fullBw, b.fullBwCount = bw, 0
		return
	}
	b.fullBwCount++
	if b.fullBwCount >= bbrFullBwRounds {
		b.filledPipe = true
	}
}

// checkDrain moves Startup to Drain once the pipe is full, and Drain to
// ProbeBW once the flight is within the BDP.
func (b *BBR) checkDrain(now time.Duration, inFlight int) {
	if b.state == BBRStartup && b.filledPipe {
		b.state = BBRDrain
		b.pacingGain, b.cwndGain = 1/b.cfg.StartupGain, b.cfg.StartupGain
	}
	if b.state == BBRDrain && float64(inFlight) <= b.inflight(1) {
		b.enterProbeBW(now)
	}
}

// enterProbeBW starts the cycle at a phase other than the draining one,
// chosen from the arrival time's microseconds (BBR draws it at random; a
// pure function of the inputs keeps runs reproducible and still spreads
// flows over the cycle).
func (b *BBR) enterProbeBW(now time.Duration) {
	b.state = BBRProbeBW
	b.cwndGain = b.cfg.CwndGain
	i := int(uint64(now/time.Microsecond) % (bbrCycleLen - 1))
	if i == 1 {
		i = bbrCycleLen - 1
	}
	b.setCycle(i, now)
}

func (b *BBR) enterProbeRTT() {
	b.saveCwnd()
	b.state = BBRProbeRTT
	b.pacingGain, b.cwndGain = 1, 1
	b.probeRTTDone, b.probeRTTRoundDone = 0, false
}

// checkProbeRTT runs ProbeRTT: once the flight is down to the least
// window, it holds for ProbeRTTTime and at least a round, then renews
// RTprop's timestamp and leaves for ProbeBW (or Startup, if the pipe was
// never filled), restoring the window.
func (b *BBR) checkProbeRTT(a Ack) {
	if b.state != BBRProbeRTT {
		return
	}
	now := a.Now
	switch {
	case b.probeRTTDone == 0 && float64(a.InFlight) <= bbrMinPipeCwnd:
		// The flight has drained: hold for ProbeRTTTime and a round
		// that begins now.
		b.probeRTTDone = now + b.cfg.ProbeRTTTime
		b.probeRTTRoundDone = false
		b.roundMark = a.HighInterest + 1
	case b.probeRTTDone != 0:
		if b.roundStart {
			b.probeRTTRoundDone = true
		}
		if b.probeRTTRoundDone && now > b.probeRTTDone {
			b.minRTTStamp = now
			b.cwnd = max(b.cwnd, b.priorCwnd)
			if b.filledPipe {
				b.enterProbeBW(now)
			} else {
				b.state = BBRStartup
				b.pacingGain, b.cwndGain = b.cfg.StartupGain, b.cfg.StartupGain
			}
		}
	}
}

// saveCwnd remembers the window to restore after recovery or ProbeRTT
// (the larger one, if both overlap).
func (b *BBR) saveCwnd() {
	if !b.inRecovery && b.state != BBRProbeRTT {
		b.priorCwnd = b.cwnd
		return
	}
	b.priorCwnd = max(b.priorCwnd, b.cwnd)
}

// setPacingRate paces at pacing_gain × BtlBw, only upwards until the pipe
// is full; before a bandwidth sample, at StartupGain × InitCwnd / RTT.
func (b *BBR) setPacingRate() {
	bw := b.bw.best()
	if b.cfg.LossResponse {
		bw = min(bw, b.bwLo)
	}
	if bw == 0 {
		if b.minRTT > 0 {
			b.pacingRate = b.cfg.StartupGain * b.cfg.InitCwnd / b.minRTT.Seconds()
		}
		return
	}
	if r := b.pacingGain * bw; b.filledPipe || r > b.pacingRate {
		b.pacingRate = r
	}
}

// setCwnd moves the window towards its target by one segment per Data
// (in Startup without a ceiling), conserving packets in recovery.
func (b *BBR) setCwnd(inFlight int) {
	target := b.inflight(b.cwndGain)
	switch {
	case b.inRecovery:
		// Packet conservation: one Interest per Data.
		b.cwnd = max(b.cwnd, float64(inFlight+1))
	case b.filledPipe:
		b.cwnd = min(b.cwnd+1, target)
	case b.cwnd < target || b.rate.delivered < uint64(b.cfg.InitCwnd):
		b.cwnd++
	}
	if b.cfg.LossResponse {
		b.cwnd = min(b.cwnd, b.inflightLo, b.inflightCap())
	}
	b.cwnd = min(max(b.cwnd, bbrMinPipeCwnd), MaxWindow)
	if b.state == BBRProbeRTT {
		b.cwnd = min(b.cwnd, bbrMinPipeCwnd)
	}
}

// OnDecrease implements Algorithm. A loss starts packet conservation for
// a round; a mark or a congestion Nack's decrease is BBRv1's to ignore
// (with LossResponse the marks are counted in OnData instead).
func (b *BBR) OnDecrease(_ time.Duration, cause Cause) {
	if cause == CauseMark {
		return
	}
	b.lossInRound = true
	if b.inRecovery {
		return
	}
	b.saveCwnd()
	b.inRecovery = true
	b.recoveryMark = b.lastHigh + 1
	b.cwnd = max(float64(b.lastInFlight+1), bbrMinPipeCwnd)
	if b.state == BBRProbeRTT {
		b.cwnd = min(b.cwnd, bbrMinPipeCwnd)
	}
}

// OnLost implements SignalCounter: with LossResponse, each lost Interest
// counts towards the round's loss rate.
func (b *BBR) OnLost(time.Duration, uint64) {
	b.lossInRound = true
	if b.cfg.LossResponse {
		b.roundLost++
	}
}

// bbrHeadroom is the share of inflight_hi v3 leaves to other flows
// while it does not probe.
const bbrHeadroom = 0.15

// inflightCap is v3's ceiling on the window: inflight_hi while probing
// up, (1 - bbrHeadroom) of it otherwise.
func (b *BBR) inflightCap() float64 {
	if b.state == BBRProbeBW && b.pacingGain > 1 || math.IsInf(b.inflightHi, 1) {
		return b.inflightHi
	}
	return max((1-bbrHeadroom)*b.inflightHi, bbrMinPipeCwnd)
}

// endLossRound judges the round that just ended (LossResponse). A loss
// rate above LossThresh or a mark rate above ECNThresh is congestion:
// inflight_hi becomes max(the flight then, Beta × min(BDP, cwnd)),
// bw_lo and inflight_lo fall to max(the round's own, Beta × theirs),
// Startup ends on 6 losses or any mark-rate breach, and ProbeBW stops
// probing up. A round without congestion while probing up raises
// inflight_hi by 1, 2, 4, ... segments.
func (b *BBR) endLossRound(now time.Duration) {
	lost, marked, delivered, latestBw := b.roundLost, b.roundMarked, b.roundDelivered, b.roundMaxBw
	b.roundLost, b.roundMarked, b.roundDelivered, b.roundMaxBw = 0, 0, 0, 0
	lossHigh := float64(lost) > b.cfg.LossThresh*float64(lost+delivered)
	markHigh := delivered > 0 && float64(marked) > b.cfg.ECNThresh*float64(delivered)
	if !lossHigh && !markHigh {
		if b.state == BBRProbeBW && b.pacingGain > 1 && !math.IsInf(b.inflightHi, 1) {
			b.inflightHi = min(b.inflightHi+b.probeUp, MaxWindow)
			b.probeUp = min(2*b.probeUp, MaxWindow)
		}
		return
	}
	b.probeUp = 1
	b.inflightHi = max(float64(b.lastInFlight+lost), b.cfg.Beta*min(b.bdp(), b.cwnd), bbrMinPipeCwnd)
	if math.IsInf(b.inflightLo, 1) {
		b.inflightLo = b.cwnd
	}
	b.inflightLo = max(float64(delivered), b.cfg.Beta*b.inflightLo, bbrMinPipeCwnd)
	if math.IsInf(b.bwLo, 1) {
		b.bwLo = b.bw.best()
	}
	b.bwLo = max(latestBw, b.cfg.Beta*b.bwLo)
	switch {
	case b.state == BBRStartup && (lost >= bbrStartupLosses || markHigh):
		b.filledPipe = true
	case b.state == BBRProbeBW && b.pacingGain > 1:
		b.advanceCycle(now) // stop probing up
	}
}
