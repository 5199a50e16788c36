package sim

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/ndncc/ndncc/consumer"
)

// QueueSampleInterval is how often queue lengths are sampled for traces.
const QueueSampleInterval = 10 * time.Millisecond

// traceSet holds the time series of one run, in memory until written.
type traceSet struct {
	flows  []*flowTracer
	queues map[*Channel]*queueTrace
	order  []*Channel
}

func newTraceSet() *traceSet { return &traceSet{queues: map[*Channel]*queueTrace{}} }

type cwndPoint struct {
	t              time.Duration
	cwnd, ssthresh float64
}

type rttPoint struct {
	t                     time.Duration
	seg                   uint64
	rtt, srtt, rttvar, ro time.Duration
}

type ratePoint struct {
	t     time.Duration
	bytes uint64
}

// flowTracer implements consumer.Tracer.
type flowTracer struct {
	id   string
	cwnd []cwndPoint
	rtt  []rttPoint
	rate []ratePoint
}

func (ts *traceSet) flow(id string) *flowTracer {
	f := &flowTracer{id: id}
	ts.flows = append(ts.flows, f)
	return f
}

func (f *flowTracer) Cwnd(now time.Duration, cwnd, ssthresh float64) {
	if n := len(f.cwnd); n > 0 && f.cwnd[n-1].cwnd == cwnd && f.cwnd[n-1].ssthresh == ssthresh {
		return
	}
	f.cwnd = append(f.cwnd, cwndPoint{now, cwnd, ssthresh})
}

func (f *flowTracer) RTT(now time.Duration, seg uint64, rtt, srtt, rttvar, rto time.Duration) {
	f.rtt = append(f.rtt, rttPoint{now, seg, rtt, srtt, rttvar, rto})
}

func (f *flowTracer) Rate(start time.Duration, bytes uint64) {
	f.rate = append(f.rate, ratePoint{start, bytes})
}

type queueSample struct {
	t              time.Duration
	packets, bytes int
	drops, marks   uint64
}

type queueTrace struct{ samples []queueSample }

// startQueueSampler samples every channel's queue periodically.
func (ts *traceSet) startQueueSampler(n *Network) {
	ts.order = n.sortedChannels()
	for _, c := range ts.order {
		ts.queues[c] = &queueTrace{}
	}
	var tick func()
	tick = func() {
		for _, c := range ts.order {
			st := c.Stats()
			q := ts.queues[c]
			q.samples = append(q.samples, queueSample{n.Sched.Now(), c.Queue().Len(), c.Queue().Bytes(), st.Drops(), st.Marks})
		}
		if !n.allDone() {
			n.Sched.After(QueueSampleInterval, tick)
		}
	}
	n.Sched.After(0, tick)
}

// HasTraces reports whether the run recorded traces.
func (n *Network) HasTraces() bool { return n.trace != nil }

// WriteTraces writes the run's time series as CSV files under dir:
// cwnd-ID.csv, rtt-ID.csv, rate-ID.csv per flow and queue-FROM-TO.csv per
// link direction that ever queued a packet.
func (n *Network) WriteTraces(dir string) error {
	if n.trace == nil {
		return fmt.Errorf("run was not traced")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create trace directory: %w", err)
	}
	for _, f := range n.trace.flows {
		if err := writeCSV(filepath.Join(dir, "cwnd-"+f.id+".csv"), "time_s,cwnd,ssthresh", func(w *bufio.Writer) {
			for _, p := range f.cwnd {
				fmt.Fprintf(w, "%.6f,%.4f,%.4f\n", p.t.Seconds(), p.cwnd, p.ssthresh)
			}
		}); err != nil {
			return err
		}
		if err := writeCSV(filepath.Join(dir, "rtt-"+f.id+".csv"), "time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms", func(w *bufio.Writer) {
			for _, p := range f.rtt {
				fmt.Fprintf(w, "%.6f,%d,%.3f,%.3f,%.3f,%.3f\n", p.t.Seconds(), p.seg, ms(p.rtt), ms(p.srtt), ms(p.rttvar), ms(p.ro))
			}
		}); err != nil {
			return err
		}
		if err := writeCSV(filepath.Join(dir, "rate-"+f.id+".csv"), "time_s,goodput_kbps", func(w *bufio.Writer) {
			for _, p := range f.rate {
				fmt.Fprintf(w, "%.3f,%.3f\n", p.t.Seconds(), float64(p.bytes)*8/consumer.RateInterval.Seconds()/1000)
			}
		}); err != nil {
			return err
		}
	}
	for _, c := range n.trace.order {
		if c.Stats().MaxQueue == 0 {
			continue
		}
		q := n.trace.queues[c]
		if err := writeCSV(filepath.Join(dir, "queue-"+c.From+"-"+c.To+".csv"), "time_s,packets,bytes,drops,marks", func(w *bufio.Writer) {
			for _, s := range q.samples {
				fmt.Fprintf(w, "%.3f,%d,%d,%d,%d\n", s.t.Seconds(), s.packets, s.bytes, s.drops, s.marks)
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

func writeCSV(path, header string, body func(w *bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write trace: %w", err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, header)
	body(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write trace %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write trace %s: %w", path, err)
	}
	return nil
}
