package sim

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// The files of the ndnSIM trace format (Options.NDNSimTrace), named as
// ndnSIM's examples name them.
const (
	NDNSimRateFile  = "rate-trace.txt"
	NDNSimDelayFile = "app-delays-trace.txt"
	NDNSimCSFile    = "cs-trace.txt"
)

// The header lines of the ndnSIM trace files: ndnSIM's column names,
// tab-separated, as its L3RateTracer, AppDelayTracer and CsTracer print
// them (CsTracer ends its header with a tab).
const (
	NDNSimRateHeader  = "Time\tNode\tFaceId\tFaceDescr\tType\tPackets\tKilobytes\tPacketRaw\tKilobytesRaw"
	NDNSimDelayHeader = "Time\tNode\tAppId\tSeqNo\tType\tDelayS\tDelayUS\tRetxCount\tHopCount"
	NDNSimCSHeader    = "Time\tNode\tType\tPackets\t"
)

// NDNSimPeriod is the averaging period of the rate and Content Store
// traces: a line per face and type, and per node and type, every period
// (L3RateTracer's and CsTracer's default of one second).
const NDNSimPeriod = time.Second

// ndnsimAlpha weighs a period's rate against the previous average in the
// rate trace's Packets and Kilobytes columns (L3RateTracer's smoothing).
const ndnsimAlpha = 0.8

// ndnsimTypes are the packet types of the rate trace, in the order its
// lines list them.
var ndnsimTypes = [...]string{"InInterests", "OutInterests", "InData", "OutData", "InNacks", "OutNacks"}

// kindOf is the index of p's type among ndnsimTypes, for the way in
// (out: +1).
func kindOf(p *ndn.Packet) int {
	switch {
	case p.IsNack():
		return 4
	case p.Data != nil:
		return 2
	}
	return 0
}

// faceCount is one face's packets and bytes of each type, so far and as
// of the last period.
type faceCount struct {
	node  string
	id    fw.FaceID
	descr string
	pkts  [len(ndnsimTypes)]uint64
	bytes [len(ndnsimTypes)]uint64
	// last are the counts at the end of the last period; avgP, avgK the
	// smoothed rates.
	lastP, lastB [len(ndnsimTypes)]uint64
	avgP, avgK   [len(ndnsimTypes)]float64
}

// ndnsimTraces records a run in ndnSIM's trace formats: every face's
// packets and bytes by type (counted as the forwarder receives and sends
// them), every node's Content Store hits and misses, and every traffic
// application's delays.
type ndnsimTraces struct {
	sizer *ndn.Sizer
	faces []*faceCount // in the order they were made
	rate  []byte       // the rate trace's lines so far
	cs    []byte
	delay []byte
	// csLast are the hits and misses of each node at the last period.
	csLast map[string][2]uint64
	nodes  []string // sorted
}

func newNDNSimTraces(sizer *ndn.Sizer) *ndnsimTraces {
	return &ndnsimTraces{sizer: sizer, csLast: map[string][2]uint64{}}
}

// face starts counting a face of node, described as ndnSIM describes
// faces (netdev://NEIGHBOUR for a link, appFace:// for an application).
func (t *ndnsimTraces) face(node, descr string) *faceCount {
	fc := &faceCount{node: node, descr: descr}
	t.faces = append(t.faces, fc)
	return fc
}

// in counts a packet the forwarder receives on fc.
func (t *ndnsimTraces) in(fc *faceCount, p *ndn.Packet) {
	k := kindOf(p)
	fc.pkts[k]++
	fc.bytes[k] += uint64(t.sizer.PacketSize(p))
}

// out counts a packet the forwarder sends on fc.
func (t *ndnsimTraces) out(fc *faceCount, p *ndn.Packet) {
	k := kindOf(p) + 1
	fc.pkts[k]++
	fc.bytes[k] += uint64(t.sizer.PacketSize(p))
}

// countingFace is a forwarder's face that counts what the forwarder
// sends on it before passing it on.
type countingFace struct {
	next ndn.Face
	t    *ndnsimTraces
	fc   *faceCount
}

// Send implements ndn.Face.
func (c countingFace) Send(p ndn.Packet) {
	c.t.out(c.fc, &p)
	c.next.Send(p)
}

// ndnsimFloat formats a number as C++'s default stream output does: six
// significant digits, without trailing zeros.
func ndnsimFloat(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }

// sample writes a period's lines at now: every face's rates, every node's
// Content Store hits and misses.
func (t *ndnsimTraces) sample(now time.Duration, nodes map[string]*Node) {
	tm := ndnsimFloat(now.Seconds())
	period := NDNSimPeriod.Seconds()
	for _, fc := range t.faces {
		for k, typ := range ndnsimTypes {
			dp, db := fc.pkts[k]-fc.lastP[k], fc.bytes[k]-fc.lastB[k]
			fc.avgP[k] = ndnsimAlpha*float64(dp)/period + (1-ndnsimAlpha)*fc.avgP[k]
			fc.avgK[k] = ndnsimAlpha*float64(db)/period/1024 + (1-ndnsimAlpha)*fc.avgK[k]
			t.rate = fmt.Appendf(t.rate, "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\n", tm, fc.node, fc.id, fc.descr, typ,
				ndnsimFloat(fc.avgP[k]), ndnsimFloat(fc.avgK[k]), dp, ndnsimFloat(float64(db)/1024))
		}
		fc.lastP, fc.lastB = fc.pkts, fc.bytes
	}
	if t.nodes == nil {
		for name := range nodes {
			t.nodes = append(t.nodes, name)
		}
		slices.Sort(t.nodes)
	}
	for _, name := range t.nodes {
		c := nodes[name].FW.Counters()
		last := t.csLast[name]
		t.cs = fmt.Appendf(t.cs, "%s\t%s\tCacheHits\t%d\n%s\t%s\tCacheMisses\t%d\n", tm, name, c.CSHits-last[0], tm, name, c.CSMisses-last[1])
		t.csLast[name] = [2]uint64{c.CSHits, c.CSMisses}
	}
}

// appDelays is the AppDelay tracer of one traffic application: AppId is
// its index among its node's applications.
type appDelays struct {
	t    *ndnsimTraces
	node string
	id   int
}

// app returns the delay tracer of application id on node.
func (t *ndnsimTraces) app(node string, id int) *appDelays {
	return &appDelays{t: t, node: node, id: id}
}

// AppDelay writes the Data's two lines, as ndnSIM's AppDelayTracer does:
// LastDelay (from the last Interest; RetxCount 1) and FullDelay (from the
// first; RetxCount the Interests sent). The simulator does not count hops:
// HopCount is -1, ndnSIM's value for a Data that carries no hop count.
func (a *appDelays) AppDelay(now time.Duration, seq uint64, full, last time.Duration, sent int) {
	tm := ndnsimFloat(now.Seconds())
	for _, r := range [2]struct {
		typ  string
		d    time.Duration
		retx int
	}{{"LastDelay", last, 1}, {"FullDelay", full, sent}} {
		a.t.delay = fmt.Appendf(a.t.delay, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%d\t-1\n", tm, a.node, a.id, seq, r.typ,
			ndnsimFloat(r.d.Seconds()), ndnsimFloat(float64(r.d)/float64(time.Microsecond)), r.retx)
	}
}

// startSampler samples every NDNSimPeriod while flows run.
func (t *ndnsimTraces) startSampler(n *Network) {
	var tick func()
	tick = func() {
		t.sample(n.Sched.Now(), n.Nodes)
		if !n.allDone() {
			n.Sched.After(NDNSimPeriod, tick)
		}
	}
	n.Sched.After(NDNSimPeriod, tick)
}

// write writes the three files under dir.
func (t *ndnsimTraces) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create trace directory: %w", err)
	}
	for _, f := range []struct {
		name, header string
		body         []byte
	}{
		{NDNSimRateFile, NDNSimRateHeader, t.rate},
		{NDNSimDelayFile, NDNSimDelayHeader, t.delay},
		{NDNSimCSFile, NDNSimCSHeader, t.cs},
	} {
		if err := writeCSV(filepath.Join(dir, f.name), f.header, func(w *bufio.Writer) { w.Write(f.body) }); err != nil {
			return err
		}
	}
	return nil
}

// WriteNDNSimTraces writes the run's traces in ndnSIM's formats under
// dir: rate-trace.txt (L3RateTracer's columns), app-delays-trace.txt
// (AppDelayTracer's) and cs-trace.txt (CsTracer's).
func (n *Network) WriteNDNSimTraces(dir string) error {
	if n.ndnsim == nil {
		return fmt.Errorf("run was not traced in ndnSIM's format (Options.NDNSimTrace)")
	}
	return n.ndnsim.write(dir)
}
