package emu

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// A program flow is a consumer whose fetch another tool runs: the
// scenario's [[consumer]] program (with args), or an --exec whose command
// is a fetch tool on a node with one consumer. Its row in the result is
// what the tool printed about the transfer (parseSummary); what it did not
// print is null in the JSON document, never zero.

// isFetchTool reports whether command (a shell command line) runs a fetch
// tool whose summary parseSummary reads.
func isFetchTool(command string) bool {
	f := strings.Fields(command)
	if len(f) == 0 {
		return false
	}
	switch filepath.Base(f[0]) {
	case "ndncatchunks", "ndnget":
		return true
	case "ndnd":
		return len(f) > 1 && f[1] == "cat"
	}
	return false
}

// shellQuote is program and args as one /bin/sh command line.
func shellQuote(program string, args []string) string {
	q := func(s string) string {
		if s != "" && strings.IndexFunc(s, func(r rune) bool {
			return !(r == '/' || r == '-' || r == '_' || r == '.' || r == '=' || r == ':' || r == ',' ||
				r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		}) < 0 {
			return s
		}
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	parts := []string{q(program)}
	for _, a := range args {
		parts = append(parts, q(a))
	}
	return strings.Join(parts, " ")
}

// syncBuffer is a buffer that a program's standard output and error
// write into at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tee writes to w (if any) and to b.
func tee(w io.Writer, b *syncBuffer) io.Writer {
	if w == nil {
		return b
	}
	return io.MultiWriter(w, b)
}

// summary is what a fetch tool printed about its transfer; nil is what it
// did not print.
type summary struct {
	complete         bool
	timeS            *float64
	goodputKbps      *float64
	segments, bytes  *uint64
	marks, timeouts  *uint64
	markDecreases    *uint64
	timeoutDecreases *uint64
	retransmissions  *uint64
	rttMin, rttAvg   *float64
	rttMax           *float64
}

// The lines of ndncatchunks' summary (ndn-tools 24.07: PipelineInterests
// and PipelineInterestsAdaptive printSummary, on standard error unless
// -q; the fixed pipeline prints the first five) and of `ndnd cat`'s.
var (
	reAllReceived = regexp.MustCompile(`(?m)^All segments have been received\.`)
	reElapsed     = regexp.MustCompile(`(?m)^Time elapsed: ([0-9.eE+-]+) (seconds|s|ms|milliseconds)`)
	reSegments    = regexp.MustCompile(`(?m)^Segments received: ([0-9]+)`)
	reTransferred = regexp.MustCompile(`(?m)^Transferred size: ([0-9.eE+-]+) kB`)
	reGoodput     = regexp.MustCompile(`(?m)^Goodput: ([0-9.eE+-]+) (bit|kbit|Mbit|Gbit|Tbit)/s`)
	reMarks       = regexp.MustCompile(`(?m)^Congestion marks: ([0-9]+) \(caused ([0-9]+) window decreases\)`)
	reTimeouts    = regexp.MustCompile(`(?m)^Timeouts: ([0-9]+) \(caused ([0-9]+) window decreases\)`)
	reRetx        = regexp.MustCompile(`(?m)^Retransmitted segments: ([0-9]+)`)
	reRTT         = regexp.MustCompile(`(?m)^RTT min/avg/max = ([0-9.]+)/([0-9.]+)/([0-9.]+) ms`)

	reNdndFetched = regexp.MustCompile(`(?m)^Object fetched `)
	reNdndContent = regexp.MustCompile(`(?m)^Content: ([0-9]+) bytes`)
	reNdndTime    = regexp.MustCompile(`(?m)^Time taken: (\S+)`)
	reNdndRate    = regexp.MustCompile(`(?m)^Throughput: ([0-9.eE+-]+) Mbit/s`)
)

// parseSummary reads a fetch tool's summary out of its output.
func parseSummary(out string) summary {
	var s summary
	f := func(re *regexp.Regexp, i int) *float64 {
		m := re.FindStringSubmatch(out)
		if m == nil {
			return nil
		}
		v, err := strconv.ParseFloat(m[i], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	u := func(re *regexp.Regexp, i int) *uint64 {
		m := re.FindStringSubmatch(out)
		if m == nil {
			return nil
		}
		v, err := strconv.ParseUint(m[i], 10, 64)
		if err != nil {
			return nil
		}
		return &v
	}
	ptr := func(v float64) *float64 { return &v }
	s.complete = reAllReceived.MatchString(out) || reNdndFetched.MatchString(out)
	if t := f(reElapsed, 1); t != nil {
		if m := reElapsed.FindStringSubmatch(out); m[2] == "ms" || m[2] == "milliseconds" {
			*t /= 1000
		}
		s.timeS = t
	}
	s.segments = u(reSegments, 1)
	if kb := f(reTransferred, 1); kb != nil {
		b := uint64(math.Round(*kb * 1000))
		s.bytes = &b
	}
	if g := f(reGoodput, 1); g != nil {
		scale := map[string]float64{"bit": 1e-3, "kbit": 1, "Mbit": 1e3, "Gbit": 1e6, "Tbit": 1e9}
		s.goodputKbps = ptr(sim.Round(*g*scale[reGoodput.FindStringSubmatch(out)[2]], 3))
	}
	s.marks, s.markDecreases = u(reMarks, 1), u(reMarks, 2)
	s.timeouts, s.timeoutDecreases = u(reTimeouts, 1), u(reTimeouts, 2)
	s.retransmissions = u(reRetx, 1)
	s.rttMin, s.rttAvg, s.rttMax = f(reRTT, 1), f(reRTT, 2), f(reRTT, 3)
	// ndnd cat
	if b := u(reNdndContent, 1); b != nil && s.bytes == nil {
		s.bytes = b
	}
	if m := reNdndTime.FindStringSubmatch(out); m != nil && s.timeS == nil {
		if d, err := time.ParseDuration(m[1]); err == nil {
			s.timeS = ptr(d.Seconds())
		}
	}
	if r := f(reNdndRate, 1); r != nil && s.goodputKbps == nil {
		s.goodputKbps = ptr(sim.Round(*r*1e3, 3))
	}
	return s
}

// row is the flow's result from what the tool printed, and the JSON keys
// of the fields it did not print (null in the document).
func (s summary) row(base sim.FlowResult) (sim.FlowResult, []string) {
	fr := base
	var absent []string
	setF := func(key string, v *float64, dst *float64) {
		if v == nil {
			absent = append(absent, key)
			return
		}
		*dst = sim.Round(*v, 6)
	}
	setU := func(key string, v *uint64, dst *uint64) {
		if v == nil {
			absent = append(absent, key)
			return
		}
		*dst = *v
	}
	fr.Complete = s.complete
	setF("download_time_s", s.timeS, &fr.DownloadTimeS)
	setF("goodput_kbps", s.goodputKbps, &fr.GoodputKbps)
	setU("segments", s.segments, &fr.Segments)
	setU("bytes", s.bytes, &fr.Bytes)
	setU("marks", s.marks, &fr.Marks)
	setU("timeouts", s.timeouts, &fr.Timeouts)
	setU("retransmissions", s.retransmissions, &fr.Retransmissions)
	setF("rtt_min_ms", s.rttMin, &fr.RTTMinMs)
	setF("rtt_avg_ms", s.rttAvg, &fr.RTTAvgMs)
	setF("rtt_max_ms", s.rttMax, &fr.RTTMaxMs)
	if s.segments != nil && s.timeoutDecreases != nil && *s.segments > 0 {
		fr.TimeoutPct = sim.Round(float64(*s.timeoutDecreases)/float64(*s.segments)*100, 4)
	} else {
		absent = append(absent, "timeout_pct")
	}
	if s.segments != nil && s.timeouts != nil && *s.segments > 0 {
		fr.TimeoutsPerSegmentPct = sim.Round(float64(*s.timeouts)/float64(*s.segments)*100, 4)
	} else {
		absent = append(absent, "timeouts_per_segment_pct")
	}
	fr.Decreases = map[string]int64{}
	if s.markDecreases != nil {
		fr.Decreases["mark"] = int64(*s.markDecreases)
	}
	if s.timeoutDecreases != nil {
		fr.Decreases["timeout"] = int64(*s.timeoutDecreases)
	}
	// Never printed by these tools.
	absent = append(absent, "throughput_kbps", "effective_throughput_kbps", "interests", "loss_rate_pct",
		"loss_events", "nacks", "duplicates", "late_data")
	return fr, absent
}

// Absent returns the JSON keys of flow i's row that its program did not
// print (null in the document; 0 in the row), nil for ndncc's flows.
func (r *Result) Absent(i int) []string {
	if i < 0 || i >= len(r.absent) {
		return nil
	}
	return r.absent[i]
}

// MarshalJSON writes the result as sim.Result's document with the mode,
// exec and lateness, and null for every field a program flow's tool did
// not print.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	b, err := json.Marshal(plain(r))
	if err != nil || len(r.absent) == 0 {
		return b, err
	}
	return rewriteObject(b, func(key string, v json.RawMessage) (json.RawMessage, error) {
		if key != "flows" {
			return v, nil
		}
		var flows []json.RawMessage
		if err := json.Unmarshal(v, &flows); err != nil {
			return nil, err
		}
		for i, keys := range r.absent {
			if i >= len(flows) || len(keys) == 0 {
				continue
			}
			nulls := map[string]bool{}
			for _, k := range keys {
				nulls[k] = true
			}
			var err error
			flows[i], err = rewriteObject(flows[i], func(k string, v json.RawMessage) (json.RawMessage, error) {
				if nulls[k] {
					return json.RawMessage("null"), nil
				}
				return v, nil
			})
			if err != nil {
				return nil, err
			}
		}
		return json.Marshal(flows)
	})
}

// rewriteObject re-encodes the JSON object b, key order kept, with each
// value replaced by fn's.
func rewriteObject(b []byte, fn func(key string, v json.RawMessage) (json.RawMessage, error)) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("emu: rewrite JSON: not an object")
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for i := 0; dec.More(); i++ {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if v, err = fn(key, v); err != nil {
			return nil, err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(key)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// waitForLine waits up to d for a line of out matching re; it reports
// whether one came.
func waitForLine(out *syncBuffer, re *regexp.Regexp, d time.Duration, done <-chan struct{}) bool {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		sc := bufio.NewScanner(strings.NewReader(out.String()))
		for sc.Scan() {
			if re.MatchString(sc.Text()) {
				return true
			}
		}
		select {
		case <-done:
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return false
}

// runProgram runs program flow f's tool from its start time (after t0)
// on its node until it exits or ctx ends (then it is stopped).
func (r *run) runProgram(ctx context.Context, f *flow, t0 time.Time) {
	select {
	case <-time.After(time.Until(t0.Add(f.start))):
	case <-ctx.Done():
		f.err, f.ended = ctx.Err(), since(t0)
		return
	}
	started := since(t0)
	f.proc = r.startProc(*f.program, r.byName[f.c.Node])
	r.addProc(f.proc)
	select {
	case <-f.proc.done:
	case <-ctx.Done():
		f.proc.kill()
		<-f.proc.done
		f.err = ctx.Err()
	}
	f.ended = since(t0)
	if f.start == 0 {
		f.start = started
	}
}

// programResult is program flow f's row: what its tool printed, with the
// flow's names; an error if it did not start or exited with a non-zero
// status, or "time limit reached".
func (f *flow) programResult(end time.Duration, limit, interrupted bool) (sim.FlowResult, []string) {
	tool := filepath.Base(strings.Fields(f.program.Command + " ?")[0])
	base := sim.FlowResult{ID: f.c.ID, Consumer: f.c.Node, Producer: f.producer, Pipeline: tool}
	var s summary
	if f.program.output != nil {
		s = parseSummary(f.program.output.String())
	}
	fr, absent := s.row(base)
	switch {
	case f.proc == nil:
		fr.Error = "did not start"
		if f.err != nil {
			fr.Error = f.err.Error()
		}
	case limit && errors.Is(f.err, context.DeadlineExceeded):
		fr.Error = "time limit reached"
	case interrupted:
		fr.Error = errInterrupted.Error()
	case f.proc.res.Error != "":
		fr.Error = fmt.Sprintf("%s: %s", tool, f.proc.res.Error)
	case f.check != nil && f.check.diff >= 0:
		fr.Error = fmt.Sprintf("the object %s wrote differs from the producer's at byte %d", tool, f.check.diff)
	}
	if fr.Error != "" {
		fr.Complete = false
	}
	if s.timeS == nil && !fr.Complete && f.proc != nil {
		// No time printed: an incomplete flow's time runs to its end, as
		// the simulator's does.
		fr.DownloadTimeS = sim.Round(max(end-f.start, 0).Seconds(), 6)
		absent = slices.DeleteFunc(absent, func(k string) bool { return k == "download_time_s" })
	}
	return fr, absent
}

// producerReady are the lines serving tools print once they serve:
// ndnputchunks' "Published N Data packets with prefix ..." (unless -q)
// and `ndnd put`'s "Object produced" log line.
var producerReady = regexp.MustCompile(`^Published [0-9]+ Data packet|Object produced`)

// producerReadyTimeout bounds how long a serving tool may take to say it
// serves (it segments and signs the whole object first).
const producerReadyTimeout = 2 * time.Minute

// startProducerProgram starts producer p's program on its node with the
// object's bytes (Content) on its standard input, and waits until it says
// it serves.
func (r *run) startProducerProgram(ctx context.Context, p scenario.Producer) error {
	file := filepath.Join(r.dir, fmt.Sprintf("object-%d.bin", len(r.allProcs())))
	w, err := os.Create(file)
	if err != nil {
		return err
	}
	// The tools read all of it before they say they serve; an open file
	// outlives its name.
	defer os.Remove(file)
	_, err = io.Copy(w, io.NewSectionReader(Content(r.seed, p.Prefix, p.FileSize), 0, p.FileSize))
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	e := Exec{Node: p.Node, Command: shellQuote(p.Program, p.Args) + " < " + shellQuote(file, nil), output: &syncBuffer{}}
	pr := r.startProc(e, r.byName[p.Node])
	r.addProc(pr)
	if !waitForLine(e.output, producerReady, producerReadyTimeout, pr.done) {
		select {
		case <-pr.done:
			return fmt.Errorf("%q exited (%s) before it served: %s", e.Command, pr.res.Error, tail(e.output.String(), 1000))
		default:
			return fmt.Errorf("%q did not say it serves (%q) within %v", e.Command, producerReady, producerReadyTimeout)
		}
	}
	// ndnputchunks says it serves before its prefix registration is
	// confirmed: the consumers start once the node's FIB has the route.
	prefix, err := ndn.ParseName(p.Prefix)
	if err != nil {
		return err
	}
	if err := r.waitRegistered(ctx, r.byName[p.Node], prefix, producerReadyTimeout); err != nil {
		return fmt.Errorf("%q said it serves, but: %w", e.Command, err)
	}
	return nil
}

// tail is the end of s, at most n bytes.
func tail(s string, n int) string {
	if len(s) > n {
		s = s[len(s)-n:]
	}
	return strings.TrimSpace(s)
}

// checkPrograms reports the programs of sc's consumers and producers that
// cannot be found.
func checkPrograms(sc *scenario.Scenario) []error {
	var errs []error
	look := func(pos fmt.Stringer, who, program string) {
		if program == "" {
			return
		}
		if _, err := exec.LookPath(program); err != nil {
			errs = append(errs, fmt.Errorf("%s: emu: %s: program %q: %w", pos, who, program, err))
		}
	}
	for _, c := range sc.Consumers {
		look(c.Pos, "consumer "+c.ID, c.Program)
	}
	for _, p := range sc.Producers {
		look(p.Pos, "producer "+p.Prefix, p.Program)
	}
	return errs
}
