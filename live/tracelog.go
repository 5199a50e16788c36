package live

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/ndncc/ndncc/consumer"
)

// TraceLogs writes a pipeline's traces in the tab-separated formats of
// ndn-tools' ndnget (--log-cwnd, --log-rtt), so that existing plotting
// scripts read them:
//
//	cwnd log: "time\tcwndsize" then one row per window change, time in
//	          seconds since the fetch started, with a fraction (as
//	          ndnget writes it: six significant digits)
//	RTT log:  "segment\trtt\trttvar\tsrtt\trto" then one row per RTT
//	          sample, in milliseconds
//
// Either writer may be nil. It implements consumer.Tracer; call Flush at
// the end and check its error.
type TraceLogs struct {
	cwnd, rtt *bufio.Writer
	start     time.Duration
	started   bool
	lastCwnd  float64
	err       error
}

var _ consumer.Tracer = (*TraceLogs)(nil)

// NewTraceLogs writes the headers and returns the tracer.
func NewTraceLogs(cwnd, rtt io.Writer) *TraceLogs {
	t := &TraceLogs{lastCwnd: -1}
	if cwnd != nil {
		t.cwnd = bufio.NewWriter(cwnd)
		t.write(t.cwnd, "time\tcwndsize\n")
	}
	if rtt != nil {
		t.rtt = bufio.NewWriter(rtt)
		t.write(t.rtt, "segment\trtt\trttvar\tsrtt\trto\n")
	}
	return t
}

func (t *TraceLogs) write(w *bufio.Writer, s string) {
	if _, err := w.WriteString(s); err != nil && t.err == nil {
		t.err = err
	}
}

// Cwnd implements consumer.Tracer: one row per change of the window.
func (t *TraceLogs) Cwnd(now time.Duration, cwnd, _ float64) {
	if !t.started {
		t.start, t.started = now, true
	}
	if t.cwnd == nil || cwnd == t.lastCwnd {
		return
	}
	t.lastCwnd = cwnd
	s := (now - t.start).Seconds()
	t.write(t.cwnd, strconv.FormatFloat(s, 'g', 6, 64)+"\t"+strconv.FormatFloat(cwnd, 'g', 6, 64)+"\n")
}

// RTT implements consumer.Tracer: one row per unambiguous sample.
func (t *TraceLogs) RTT(_ time.Duration, seg uint64, rtt, srtt, rttvar, rto time.Duration) {
	if t.rtt == nil || rtt <= 0 {
		return
	}
	t.write(t.rtt, fmt.Sprintf("%d\t%s\t%s\t%s\t%s\n", seg, ms(rtt), ms(rttvar), ms(srtt), ms(rto)))
}

// Rate implements consumer.Tracer (ndnget has no rate log).
func (t *TraceLogs) Rate(time.Duration, uint64) {}

// Flush writes what is buffered and returns the first write error.
func (t *TraceLogs) Flush() error {
	for _, w := range []*bufio.Writer{t.cwnd, t.rtt} {
		if w != nil {
			if err := w.Flush(); err != nil && t.err == nil {
				t.err = err
			}
		}
	}
	return t.err
}

// ms formats a duration in milliseconds as ndnget does (a plain decimal).
func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', -1, 64)
}
