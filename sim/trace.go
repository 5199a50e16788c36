package sim

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
)

// QueueSampleInterval is how often queue lengths are sampled for traces.
const QueueSampleInterval = 10 * time.Millisecond

// ForwardingSampleInterval is the interval over which a multipath router's
// forwarding percentages are measured for traces.
const ForwardingSampleInterval = 100 * time.Millisecond

// Traces holds the time series of one run, in memory until written:
// the simulator's, and the emulator's (package emu), so that both write
// the same files. A flow's tracer and a queue's trace are each used by
// one goroutine; Write runs after the run.
type Traces struct {
	flows      []*flowTracer
	queues     map[*Channel]*QueueTrace
	order      []*Channel
	forwarding []*ForwardingTrace
}

// ForwardingTrace is one multipath router's forwarding over time: per
// interval, the Interests it sent to each neighbour, and (pcon) the
// strategy's forwarding share of each prefix and neighbour.
type ForwardingTrace struct {
	node      Router
	strategy  string
	neighbors []string   // sorted
	last      []uint64   // Interests sent to each neighbour so far
	prefixes  []ndn.Name // the producers' prefixes (pcon's shares)
	samples   []forwardingSample
}

type forwardingSample struct {
	t         time.Duration
	interests []uint64    // in the interval, per neighbour
	shares    [][]float64 // per prefix, per neighbour (pcon; nil otherwise)
}

// multipathStrategies are the strategies whose forwarding split is traced.
func multipathStrategies() []string {
	return []string{fw.StrategyPCON, fw.StrategyPI, fw.StrategyCF}
}

// Router is what a forwarding trace reads from one node, on the goroutine
// that owns it: its forwarder, and per neighbour the link towards it and
// the forwarder's face on that link.
type Router struct {
	Name  string
	FW    *fw.Forwarder
	Out   map[string]*Channel
	Faces map[string]fw.FaceID
}

// Forwarding starts the forwarding trace of node r of scenario sc if it
// runs a multipath strategy (pcon, pi, cf) with more than one neighbour;
// nil otherwise. Sample it every ForwardingSampleInterval. Tracing reads
// counters and shares only: it changes no result.
func (ts *Traces) Forwarding(sc *scenario.Scenario, r Router) *ForwardingTrace {
	st := sc.RouterFor(r.Name).Strategy
	if !slices.Contains(multipathStrategies(), st) || len(r.Out) < 2 {
		return nil
	}
	ft := &ForwardingTrace{node: r, strategy: st, neighbors: slices.Sorted(maps.Keys(r.Out))}
	ft.last = make([]uint64, len(ft.neighbors))
	if st == fw.StrategyPCON {
		seen := map[string]bool{}
		for _, p := range sc.Producers {
			if name, err := ndn.ParseName(p.Prefix); err == nil && !seen[name.String()] {
				seen[name.String()] = true
				ft.prefixes = append(ft.prefixes, name)
			}
		}
	}
	ts.forwarding = append(ts.forwarding, ft)
	return ft
}

// startForwardingSampler records the forwarding of every node that runs a
// multipath strategy with more than one neighbour.
func (ts *Traces) startForwardingSampler(n *Network) {
	for _, nd := range n.Scenario.Topology.Nodes {
		node := n.Nodes[nd.Name]
		ts.Forwarding(n.Scenario, Router{Name: node.Name, FW: node.FW, Out: node.out, Faces: node.faces})
	}
	if len(ts.forwarding) == 0 {
		return
	}
	var tick func()
	tick = func() {
		for _, ft := range ts.forwarding {
			ft.Sample(n.Sched.Now())
		}
		if !n.allDone() {
			n.Sched.After(ForwardingSampleInterval, tick)
		}
	}
	n.Sched.After(ForwardingSampleInterval, tick)
}

// Sample records the Interests sent to each neighbour since the last
// sample, and pcon's shares, at now.
func (ft *ForwardingTrace) Sample(now time.Duration) {
	s := forwardingSample{t: now, interests: make([]uint64, len(ft.neighbors))}
	for i, nb := range ft.neighbors {
		total := ft.node.Out[nb].Stats().Interests
		s.interests[i] = total - ft.last[i]
		ft.last[i] = total
	}
	for _, p := range ft.prefixes {
		shares := ft.node.FW.ForwardingShares(p)
		row := make([]float64, len(ft.neighbors))
		for i, nb := range ft.neighbors {
			row[i] = shares[ft.node.Faces[nb]]
		}
		s.shares = append(s.shares, row)
	}
	ft.samples = append(ft.samples, s)
}

// used returns the indexes of the neighbours the node ever sent an
// Interest to, or gave a forwarding share: the columns worth writing.
func (ft *ForwardingTrace) used() []int {
	var out []int
	for i := range ft.neighbors {
		for _, s := range ft.samples {
			hit := s.interests[i] > 0
			for _, row := range s.shares {
				hit = hit || row[i] > 0
			}
			if hit {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// write writes forwarding-NODE.csv (time_s, then per neighbour
// the percentage of the interval's Interests sent to it; empty when the
// node sent none) and, for pcon, shares-NODE.csv (time_s, prefix, then per
// neighbour pcon's forwarding share in percent).
func (ft *ForwardingTrace) write(dir string) error {
	name := ft.node.Name
	used := ft.used()
	var names []string
	for _, i := range used {
		names = append(names, ft.neighbors[i])
	}
	header := "time_s," + strings.Join(names, ",")
	if err := writeCSV(filepath.Join(dir, "forwarding-"+name+".csv"), header, func(w *bufio.Writer) {
		for _, s := range ft.samples {
			var sum uint64
			for _, x := range s.interests {
				sum += x
			}
			fmt.Fprintf(w, "%.3f", s.t.Seconds())
			for _, i := range used {
				if sum == 0 {
					w.WriteString(",")
					continue
				}
				fmt.Fprintf(w, ",%.2f", float64(s.interests[i])*100/float64(sum))
			}
			w.WriteString("\n")
		}
	}); err != nil {
		return err
	}
	if len(ft.prefixes) == 0 {
		return nil
	}
	return writeCSV(filepath.Join(dir, "shares-"+name+".csv"), "time_s,prefix,"+strings.Join(names, ","), func(w *bufio.Writer) {
		for _, s := range ft.samples {
			for i, p := range ft.prefixes {
				fmt.Fprintf(w, "%.3f,%s", s.t.Seconds(), p)
				for _, j := range used {
					fmt.Fprintf(w, ",%.2f", s.shares[i][j]*100)
				}
				w.WriteString("\n")
			}
		}
	})
}

// NewTraces returns an empty set of time series.
func NewTraces() *Traces { return &Traces{queues: map[*Channel]*QueueTrace{}} }

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

// Flow returns the tracer of flow id's pipeline (consumer.Config.Tracer).
func (ts *Traces) Flow(id string) consumer.Tracer { return ts.flow(id) }

func (ts *Traces) flow(id string) *flowTracer {
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

// QueueTrace is the sampled queue of one link direction.
type QueueTrace struct{ samples []queueSample }

// Queue starts the trace of channel c's queue (call it for each channel
// in the order the files should list them, before the run).
func (ts *Traces) Queue(c *Channel) *QueueTrace {
	q := &QueueTrace{}
	ts.order = append(ts.order, c)
	ts.queues[c] = q
	return q
}

// Sample records c's queue length, bytes, drops and marks at now (on the
// goroutine that owns c).
func (q *QueueTrace) Sample(now time.Duration, c *Channel) {
	st := c.Stats()
	q.samples = append(q.samples, queueSample{now, c.Queue().Len(), c.Queue().Bytes(), st.Drops(), st.Marks})
}

// startQueueSampler samples every channel's queue periodically.
func (ts *Traces) startQueueSampler(n *Network) {
	for _, c := range n.sortedChannels() {
		ts.Queue(c)
	}
	var tick func()
	tick = func() {
		for _, c := range ts.order {
			ts.queues[c].Sample(n.Sched.Now(), c)
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
// cwnd-ID.csv, rtt-ID.csv, rate-ID.csv per flow, queue-FROM-TO.csv per
// link direction that ever queued a packet, and forwarding-NODE.csv (and
// shares-NODE.csv for pcon) per router running a multipath strategy.
func (n *Network) WriteTraces(dir string) error {
	if n.trace == nil {
		return fmt.Errorf("run was not traced")
	}
	return n.trace.Write(dir)
}

// Write writes the time series as CSV files under dir (see
// Network.WriteTraces).
func (ts *Traces) Write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create trace directory: %w", err)
	}
	for _, f := range ts.flows {
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
	for _, c := range ts.order {
		if c.Stats().MaxQueue == 0 {
			continue
		}
		q := ts.queues[c]
		if err := writeCSV(filepath.Join(dir, "queue-"+c.From+"-"+c.To+".csv"), "time_s,packets,bytes,drops,marks", func(w *bufio.Writer) {
			for _, s := range q.samples {
				fmt.Fprintf(w, "%.3f,%d,%d,%d,%d\n", s.t.Seconds(), s.packets, s.bytes, s.drops, s.marks)
			}
		}); err != nil {
			return err
		}
	}
	for _, ft := range ts.forwarding {
		if err := ft.write(dir); err != nil {
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
