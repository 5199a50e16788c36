package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// Runner runs one run of a variant in place of the simulator: the
// emulator, for `ndncc experiment --live` (this package does not import
// the live runtime; the command supplies it). It runs sc with random seed
// seed and, when traceDir is not "", writes the run's traces there as
// sim.Network.WriteTraces does. It returns the result and how late the
// run's real-time links ran. An error wrapping ErrNotRunnable says the
// runner cannot run sc at all (and started nothing): the report then
// lists the variant as not run, with the reason.
type Runner func(sc *scenario.Scenario, seed uint64, traceDir string) (LiveRun, error)

// LiveRun is one run of a Runner.
type LiveRun struct {
	Result *sim.Result
	// Lateness is how late its emulated links' timers ran; nil when it
	// had none to measure (every link a TCP tunnel or kernel link between
	// external forwarders, whose delay the kernel or a proxy applies).
	Lateness *Lateness
	// NotPrinted are, per flow, the JSON keys of the fields its consumer
	// program did not print (nil for ndncc's consumers): they are 0 in
	// Result, and the tables show them as not printed.
	NotPrinted [][]string
	// Programs are the programs that fetched in place of ndncc's
	// consumers, with what their options could not say.
	Programs []FlowProgram
	// SignedOnDemand counts the Data its producers signed when asked for,
	// past what they had presigned: Interests that waited for a
	// signature.
	SignedOnDemand uint64
}

// FlowProgram is the program that ran flow ID: its command line, and the
// consumer's parameters the program has no option for, with what it does
// instead.
type FlowProgram struct {
	ID       string   `json:"id"`
	Command  string   `json:"command"`
	Unmapped []string `json:"unmapped,omitempty"`
}

// NotPrintedCell is what a table shows for a figure the consumer program
// did not print.
const NotPrintedCell = "n/p"

// ErrNotRunnable reports a scenario a Runner cannot run (the emulator
// refuses what only the simulator models).
var ErrNotRunnable = errors.New("cannot run live")

// Lateness summarises how late a real-time run's emulated links ran: its
// timers' mean and largest lateness over every link direction, and the
// frames that left more than their own serialisation time after their
// turn (Overruns: the link was burstier than its rate then). A run whose
// links ran late was short of CPU; its figures say more about the
// machine than about the protocol.
type Lateness struct {
	MeanMs   float64 `json:"mean_ms"`
	MaxMs    float64 `json:"max_ms"`
	Overruns uint64  `json:"overruns"`
}

// String is the lateness as the tables print it.
func (l Lateness) String() string {
	return fmt.Sprintf("%d late, max %.1f ms", l.Overruns, l.MaxMs)
}

// LiveMode is a live report's Mode.
const LiveMode = "live"

// RunLive runs e in the simulator (opt.Jobs runs at a time) and then with
// live, one run after another (real-time runs must not share the CPU),
// and returns the simulator's report with the live one as its Live: the
// tables then show both side by side. liveTraceDir, if set, takes the
// live runs' traces as opt.TraceDir takes the simulator's.
func (e *Experiment) RunLive(opt Options, live Runner, liveTraceDir string) (*Report, error) {
	if live == nil {
		return nil, errors.New("experiment: RunLive needs a runner")
	}
	if opt.Shard.Count > 1 {
		return nil, fmt.Errorf("experiment %s: live runs cannot be sharded", e.Name)
	}
	simOpt := opt
	simOpt.live = nil
	rep, err := e.Run(simOpt)
	if err != nil {
		return nil, err
	}
	liveOpt := opt
	liveOpt.live, liveOpt.TraceDir, liveOpt.Jobs = live, liveTraceDir, 1
	lrep, err := e.Run(liveOpt)
	if err != nil {
		return nil, err
	}
	lrep.Mode = LiveMode
	rep.Live = lrep
	return rep, nil
}

// liveVariant is the live report's variant called name, if it ran.
func (r *Report) liveVariant(name string) *VariantResult {
	if r.Live == nil {
		return nil
	}
	for i := range r.Live.Variants {
		if v := &r.Live.Variants[i]; v.Name == name && v.NotRun == "" {
			return v
		}
	}
	return nil
}

// LiveCell is the live figure of column c of flow of variant v, marked as
// MarkedCell marks ours, or "-" when the variant did not run live.
func (r *Report) LiveCell(v VariantResult, c Column, flow int) string {
	lv := r.liveVariant(v.Name)
	if lv == nil || flow >= len(lv.Flows) {
		return "-"
	}
	if lv.NotPrintedKey(c.Key, flow) {
		return NotPrintedCell
	}
	return lv.MarkedCell(c, flow, r.Live.Runs)
}

// NotPrintedKey reports whether flow's field key (a FlowResult JSON key)
// was left out by the program that ran the flow in any of v's runs.
func (v *VariantResult) NotPrintedKey(key string, flow int) bool {
	for _, r := range v.Runs {
		if flow < len(r.NotPrinted) && slices.Contains(r.NotPrinted[flow], key) {
			return true
		}
	}
	return false
}

// LiveLateness is the lateness cell of variant v's live runs, or "not
// run".
func (r *Report) LiveLateness(v VariantResult) string {
	lv := r.liveVariant(v.Name)
	if lv == nil || lv.Lateness == nil {
		return "not run"
	}
	return lv.Lateness.String()
}

// writeLiveNotes says, under a table with live figures, which variants
// did not run live and why, and what the lateness column means.
func (r *Report) writeLiveNotes(w io.Writer) {
	if r.Live == nil {
		return
	}
	fwd := ""
	switch r.Live.Forwarder {
	case "", "ndncc":
	case "nfd":
		fwd = ", every node an NFD process"
	case "ndnd":
		fwd = ", every node an ndnd fw process"
	default:
		fwd = ", every node a " + r.Live.Forwarder + " process"
	}
	fmt.Fprintf(w, "\nlive: the same runs in real time (ndncc emu%s), %d run(s) per variant (one emulator runs them one after another; runs made apart are merged); \"late\" counts frames\n", fwd, r.Live.Runs)
	fmt.Fprintf(w, "that left an emulated link over a serialisation time after their turn (the machine was short of CPU).\n")
	for _, v := range r.Live.Variants {
		if v.NotRun != "" {
			fmt.Fprintf(w, "- %s did not run live: %s\n", v.Name, strings.TrimSpace(v.NotRun))
		}
	}
}

// aggregateLateness is the lateness of a variant's runs: the mean of
// their means and overruns, the largest lateness of any.
func aggregateLateness(runs []RunResult) *Lateness {
	var ls []Lateness
	for _, r := range runs {
		if r.Lateness != nil {
			ls = append(ls, *r.Lateness)
		}
	}
	if len(ls) == 0 {
		return nil
	}
	mean, _, hi := aggregate(ls)
	mean.MaxMs = hi.MaxMs
	return &mean
}

// DecodeReport reads a report written by WriteJSON (with its live report,
// if any) and restores what the JSON holds only per run: the variants'
// means and ranges of their extra metrics.
func DecodeReport(rd io.Reader) (*Report, error) {
	var r Report
	if err := json.NewDecoder(rd).Decode(&r); err != nil {
		return nil, fmt.Errorf("experiment report: %w", err)
	}
	for _, rep := range []*Report{&r, r.Live} {
		if rep == nil {
			continue
		}
		for i := range rep.Variants {
			if rep.Variants[i].NotRun == "" {
				rep.Variants[i].finish()
			}
		}
	}
	return &r, nil
}
