package report

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/plot/plotter"
)

// Trace file names, as package sim writes them (sim/trace.go).
const (
	cwndPrefix  = "cwnd-"  // time_s,cwnd,ssthresh
	rttPrefix   = "rtt-"   // time_s,segment,rtt_ms,srtt_ms,rttvar_ms,rto_ms
	ratePrefix  = "rate-"  // time_s,goodput_kbps
	queuePrefix = "queue-" // time_s,packets,bytes,drops,marks
	// forwarding-NODE.csv: time_s, then per neighbour the percentage of
	// the interval's Interests NODE sent to it ("" when it sent none);
	// shares-NODE.csv: time_s, prefix, then per neighbour pcon's share.
	forwardingPrefix = "forwarding-"
	sharesPrefix     = "shares-"
	csvSuffix        = ".csv"
)

// forwardingTraces is one multipath router's forwarding over time.
type forwardingTraces struct {
	node      string
	neighbors []string
	percent   []plotter.XYs // per neighbour: percent of the interval's Interests
	// shares are pcon's forwarding shares, by prefix, per neighbour.
	prefixes []string
	shares   map[string][]plotter.XYs
}

// flowTraces is one consumer's time series.
type flowTraces struct {
	id             string
	cwnd, ssthresh plotter.XYs // x: time (s)
	rtt, srtt, rto plotter.XYs // x: segment number, y: ms
	rate           plotter.XYs // x: time (s), y: kbit/s
}

// queueTraces is one link direction's queue samples.
type queueTraces struct {
	link                  string // "FROM-TO"
	packets, drops, marks plotter.XYs
	maxPackets            float64
}

// runTraces is everything one run directory holds.
type runTraces struct {
	flows      []*flowTraces // sorted by id
	queues     []*queueTraces
	forwarding []*forwardingTraces // sorted by node
	end        float64             // the latest time in any trace, in seconds
}

// loadRun reads every trace CSV in dir.
func loadRun(dir string) (*runTraces, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read traces: %w", err)
	}
	run := &runTraces{}
	flows := map[string]*flowTraces{}
	flow := func(id string) *flowTraces {
		if f, ok := flows[id]; ok {
			return f
		}
		f := &flowTraces{id: id}
		flows[id] = f
		run.flows = append(run.flows, f)
		return f
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, csvSuffix) {
			continue
		}
		path := filepath.Join(dir, name)
		base := strings.TrimSuffix(name, csvSuffix)
		var err error
		switch {
		case strings.HasPrefix(base, cwndPrefix):
			err = loadCwnd(path, flow(strings.TrimPrefix(base, cwndPrefix)), run)
		case strings.HasPrefix(base, rttPrefix):
			err = loadRTT(path, flow(strings.TrimPrefix(base, rttPrefix)), run)
		case strings.HasPrefix(base, ratePrefix):
			err = loadRate(path, flow(strings.TrimPrefix(base, ratePrefix)), run)
		case strings.HasPrefix(base, queuePrefix):
			var q *queueTraces
			q, err = loadQueue(path, strings.TrimPrefix(base, queuePrefix), run)
			if q != nil {
				run.queues = append(run.queues, q)
			}
		case strings.HasPrefix(base, forwardingPrefix):
			var ft *forwardingTraces
			node := strings.TrimPrefix(base, forwardingPrefix)
			ft, err = loadForwarding(path, node, run)
			if err == nil {
				err = loadShares(filepath.Join(dir, sharesPrefix+node+csvSuffix), ft)
			}
			if ft != nil {
				run.forwarding = append(run.forwarding, ft)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if len(run.flows) == 0 && len(run.queues) == 0 && len(run.forwarding) == 0 {
		return nil, fmt.Errorf("no traces in %s (want cwnd-ID.csv, rtt-ID.csv, rate-ID.csv or queue-FROM-TO.csv as `ndncc sim --out` writes)", dir)
	}
	sort.Slice(run.flows, func(i, j int) bool { return run.flows[i].id < run.flows[j].id })
	sort.Slice(run.queues, func(i, j int) bool { return run.queues[i].link < run.queues[j].link })
	sort.Slice(run.forwarding, func(i, j int) bool { return run.forwarding[i].node < run.forwarding[j].node })
	return run, nil
}

// loadForwarding reads forwarding-NODE.csv.
func loadForwarding(path, node string, run *runTraces) (*forwardingTraces, error) {
	header, recs, err := readRecords(path)
	if err != nil {
		return nil, err
	}
	if len(header) < 2 || header[0] != "time_s" {
		return nil, fmt.Errorf("%s:1: header %q: want time_s and a column per neighbour", path, strings.Join(header, ","))
	}
	ft := &forwardingTraces{node: node, neighbors: header[1:], percent: make([]plotter.XYs, len(header)-1)}
	for i, rec := range recs {
		t, err := number(path, i+2, "time_s", rec[0])
		if err != nil {
			return nil, err
		}
		run.seeTimes([]float64{t})
		for j := range ft.neighbors {
			x, err := number(path, i+2, header[j+1], rec[j+1])
			if err != nil {
				return nil, err
			}
			if !math.IsNaN(x) {
				ft.percent[j] = append(ft.percent[j], plotter.XY{X: t, Y: x})
			}
		}
	}
	return ft, nil
}

// loadShares reads shares-NODE.csv into ft, if the file exists (pcon).
func loadShares(path string, ft *forwardingTraces) error {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	header, recs, err := readRecords(path)
	if err != nil {
		return err
	}
	if len(header) < 3 || header[0] != "time_s" || header[1] != "prefix" {
		return fmt.Errorf("%s:1: header %q: want time_s, prefix and a column per neighbour", path, strings.Join(header, ","))
	}
	ft.shares = map[string][]plotter.XYs{}
	neighbors := header[2:]
	for i, rec := range recs {
		t, err := number(path, i+2, "time_s", rec[0])
		if err != nil {
			return err
		}
		prefix := rec[1]
		if _, ok := ft.shares[prefix]; !ok {
			ft.prefixes = append(ft.prefixes, prefix)
			ft.shares[prefix] = make([]plotter.XYs, len(ft.neighbors))
		}
		for j, nb := range neighbors {
			k := slices.Index(ft.neighbors, nb)
			if k < 0 {
				continue // a neighbour with a share but no Interest: not plotted
			}
			x, err := number(path, i+2, nb, rec[j+2])
			if err != nil {
				return err
			}
			if !math.IsNaN(x) {
				ft.shares[prefix][k] = append(ft.shares[prefix][k], plotter.XY{X: t, Y: x})
			}
		}
	}
	return nil
}

func (r *runTraces) seeTimes(ts []float64) {
	for _, t := range ts {
		if t > r.end {
			r.end = t
		}
	}
}

func loadCwnd(path string, f *flowTraces, run *runTraces) error {
	c, err := readColumns(path, map[string]bool{"ssthresh": true}, "time_s", "cwnd", "ssthresh")
	if err != nil {
		return err
	}
	f.cwnd, f.ssthresh = zipXY(c[0], c[1]), zipXY(c[0], c[2])
	run.seeTimes(c[0])
	return nil
}

// loadRTT keeps the samples ordered by segment number (stable, so samples
// of one segment stay in time order).
func loadRTT(path string, f *flowTraces, run *runTraces) error {
	c, err := readCSV(path, "time_s", "segment", "rtt_ms", "srtt_ms", "rto_ms")
	if err != nil {
		return err
	}
	order := make([]int, len(c[0]))
	for i := range order {
		order[i] = i
	}
	seg := c[1]
	sort.SliceStable(order, func(a, b int) bool { return seg[order[a]] < seg[order[b]] })
	f.rtt, f.srtt, f.rto = make(plotter.XYs, len(order)), make(plotter.XYs, len(order)), make(plotter.XYs, len(order))
	for k, i := range order {
		f.rtt[k] = plotter.XY{X: seg[i], Y: c[2][i]}
		f.srtt[k] = plotter.XY{X: seg[i], Y: c[3][i]}
		f.rto[k] = plotter.XY{X: seg[i], Y: c[4][i]}
	}
	run.seeTimes(c[0])
	return nil
}

func loadRate(path string, f *flowTraces, run *runTraces) error {
	c, err := readCSV(path, "time_s", "goodput_kbps")
	if err != nil {
		return err
	}
	f.rate = zipXY(c[0], c[1])
	run.seeTimes(c[0])
	return nil
}

func loadQueue(path, link string, run *runTraces) (*queueTraces, error) {
	c, err := readCSV(path, "time_s", "packets", "drops", "marks")
	if err != nil {
		return nil, err
	}
	q := &queueTraces{link: link, packets: zipXY(c[0], c[1]), drops: zipXY(c[0], c[2]), marks: zipXY(c[0], c[3])}
	for _, p := range c[1] {
		if p > q.maxPackets {
			q.maxPackets = p
		}
	}
	run.seeTimes(c[0])
	return q, nil
}

func zipXY(x, y []float64) plotter.XYs {
	out := make(plotter.XYs, len(x))
	for i := range x {
		out[i] = plotter.XY{X: x[i], Y: y[i]}
	}
	return out
}
