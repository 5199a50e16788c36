package live

import (
	"fmt"
	"io"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
)

// EventLog is the verbose report of a fetch: a line for every congestion
// mark, timeout and Nack the pipeline counted, with the window before and
// after it reacted. It wraps another tracer (which may be nil) and must be
// attached to its pipeline with Attach before the first Data arrives.
type EventLog struct {
	w     io.Writer
	next  consumer.Tracer
	pipe  *consumer.Pipeline
	last  consumer.Stats
	cwnd  float64
	start time.Duration
}

var _ consumer.Tracer = (*EventLog)(nil)

// NewEventLog returns an event log writing to w.
func NewEventLog(w io.Writer, next consumer.Tracer) *EventLog {
	return &EventLog{w: w, next: next}
}

// Attach starts following p (pass it FetchConfig.OnPipeline).
func (l *EventLog) Attach(p *consumer.Pipeline) {
	l.pipe = p
	l.last = p.Stats()
	l.start = l.last.Start
	l.cwnd = p.Algorithm().Cwnd()
}

// Cwnd implements consumer.Tracer.
func (l *EventLog) Cwnd(now time.Duration, cwnd, ssthresh float64) {
	if l.next != nil {
		l.next.Cwnd(now, cwnd, ssthresh)
	}
	if l.pipe == nil {
		return
	}
	st := l.pipe.Stats()
	at := (now - l.start).Seconds()
	report := func(what string, total, before, after uint64, cause cc.Cause) {
		if total == before {
			return
		}
		reaction := "window unchanged"
		if after > l.last.Decreases[cause] {
			reaction = fmt.Sprintf("window %.2f -> %.2f", l.cwnd, cwnd)
		}
		fmt.Fprintf(l.w, "[%.3fs] %s (total %d): %s\n", at, what, total, reaction)
	}
	report("congestion mark", st.Marks, l.last.Marks, st.Decreases[cc.CauseMark], cc.CauseMark)
	report("timeout", st.Timeouts, l.last.Timeouts, st.Decreases[cc.CauseTimeout], cc.CauseTimeout)
	report("Nack", st.Nacks, l.last.Nacks, st.Decreases[cc.CauseNack], cc.CauseNack)
	l.last, l.cwnd = st, cwnd
}

// RTT implements consumer.Tracer.
func (l *EventLog) RTT(now time.Duration, seg uint64, rtt, srtt, rttvar, rto time.Duration) {
	if l.next != nil {
		l.next.RTT(now, seg, rtt, srtt, rttvar, rto)
	}
}

// Rate implements consumer.Tracer.
func (l *EventLog) Rate(start time.Duration, payloadBytes uint64) {
	if l.next != nil {
		l.next.Rate(start, payloadBytes)
	}
}
