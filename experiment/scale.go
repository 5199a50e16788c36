package experiment

import (
	"cmp"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// ScaleOptions configure the scale experiment (Scale): every combination
// of Routers and Flows is one point; a zero field takes its default.
type ScaleOptions struct {
	// Routers are the isp topologies' sizes (default 100 and 1,000).
	Routers []int
	// Flows are the numbers of concurrent flows (default 100, 1,000 and
	// 10,000).
	Flows []int
	// FileSize is each flow's object, in bytes (default 256 KiB). Other
	// sizes run as extra points with the FileSizes field.
	FileSize int64
	// FileSizes are the object sizes of the points that show what the
	// object size costs in memory: the smallest topology, the middle
	// number of flows, every flow with the same fixed window
	// (ObjectWindow), so that only the object changes (default FileSize
	// and 4 × FileSize).
	FileSizes []int64
	// ObjectWindow is the fixed window of those points (default 32,
	// paper 000's).
	ObjectWindow int
	// Pipeline is every consumer's pipeline (default "cubic", ndncc
	// fetch's).
	Pipeline string
	// StartWithin spreads the flows' starts uniformly over [0,
	// StartWithin) (default 1 ms; the simulator adds its own start jitter,
	// up to 10 ms), so that they all run at once.
	StartWithin time.Duration
	// Seed draws the topology, the flows' ends and starts, and the run.
	Seed uint64
	// SampleEvery is how often, in simulated time, memory is sampled
	// during a run (default 10 ms).
	SampleEvery time.Duration
	// ProcessingJitter bounds each forwarder's per-packet processing time
	// (sim.Options; default 10 µs, a forwarder that handles some 200,000
	// packets per second: the simulator's default of 200 µs, the papers'
	// testbed PCs, would make every core router a 10,000-packet/s
	// bottleneck).
	ProcessingJitter time.Duration
	// OnPoint is told of each point as it starts.
	OnPoint func(p ScalePoint)
}

// ScalePoint is one size of the scale experiment.
type ScalePoint struct {
	Routers  int    `json:"routers"`
	Flows    int    `json:"flows"`
	FileSize int64  `json:"file_size"`
	Pipeline string `json:"pipeline"`
	// Window is the fixed pipeline's window; 0 for another pipeline.
	Window int `json:"window,omitempty"`
}

// ScaleResult is what one point cost.
type ScaleResult struct {
	ScalePoint
	Nodes    int `json:"nodes"`
	Links    int `json:"links"`
	Servers  int `json:"servers"`  // nodes the producers run on
	Complete int `json:"complete"` // flows that fetched their object
	// PeakConcurrent is the most flows running at one time (started and
	// not finished).
	PeakConcurrent int     `json:"peak_concurrent_flows"`
	SimTimeS       float64 `json:"sim_time_s"`
	// BuildS is the wall time to build the network; WallS to run it.
	BuildS     float64 `json:"build_s"`
	WallS      float64 `json:"wall_s"`
	Events     uint64  `json:"events"`
	EventsPerS float64 `json:"events_per_s"`
	Speedup    float64 `json:"speedup"` // simulated seconds per wall second
	// Memory, in bytes. NetworkBytes is the live heap of the network with
	// a single flow (forwarders, links, tables); PeakLiveBytes the most
	// live heap a garbage collection found during the run (memory is
	// sampled every SampleEvery of simulated time, with a collection
	// forced if none ran for ten samples); PeakHeapBytes
	// the most heap in use (live and not yet collected); PeakTotalBytes
	// the most memory the Go runtime held from the system (heap, stacks,
	// metadata), the process's footprint.
	NetworkBytes   uint64 `json:"network_bytes"`
	PeakLiveBytes  uint64 `json:"peak_live_bytes"`
	PeakHeapBytes  uint64 `json:"peak_heap_bytes"`
	PeakTotalBytes uint64 `json:"peak_total_bytes"`
	// BytesPerNode is NetworkBytes per node; BytesPerFlow what the flows
	// added to the live heap at its peak, per flow: consumer, producer,
	// their faces, and what is in flight for them.
	BytesPerNode float64 `json:"bytes_per_node"`
	BytesPerFlow float64 `json:"bytes_per_flow"`
}

// ScaleReport is the scale experiment's result.
type ScaleReport struct {
	Experiment string        `json:"experiment"`
	Pipeline   string        `json:"pipeline"`
	Seed       uint64        `json:"seed"`
	GoVersion  string        `json:"go_version"`
	Points     []ScaleResult `json:"points"`
}

// DefaultScaleOptions returns the defaults of every ScaleOptions field.
func DefaultScaleOptions() ScaleOptions {
	return ScaleOptions{
		Routers: []int{100, 1000}, Flows: []int{100, 1000, 10000},
		FileSize: 256 << 10, Pipeline: "cubic", ObjectWindow: 32, StartWithin: time.Millisecond,
		Seed: 1, SampleEvery: 10 * time.Millisecond, ProcessingJitter: 10 * time.Microsecond,
	}
}

func (o ScaleOptions) withDefaults() ScaleOptions {
	d := DefaultScaleOptions()
	if len(o.Routers) == 0 {
		o.Routers = d.Routers
	}
	if len(o.Flows) == 0 {
		o.Flows = d.Flows
	}
	o.FileSize = cmp.Or(o.FileSize, d.FileSize)
	if len(o.FileSizes) == 0 {
		o.FileSizes = []int64{o.FileSize, 4 * o.FileSize}
	}
	o.Pipeline = cmp.Or(o.Pipeline, d.Pipeline)
	o.ObjectWindow = cmp.Or(o.ObjectWindow, d.ObjectWindow)
	o.StartWithin = cmp.Or(o.StartWithin, d.StartWithin)
	o.Seed = cmp.Or(o.Seed, d.Seed)
	o.SampleEvery = cmp.Or(o.SampleEvery, d.SampleEvery)
	o.ProcessingJitter = cmp.Or(o.ProcessingJitter, d.ProcessingJitter)
	return o
}

// Points returns the points Scale runs, in order: every (routers, flows)
// pair at FileSize with Pipeline, smallest first, then the FileSizes with
// a fixed window.
func (o ScaleOptions) Points() []ScalePoint {
	o = o.withDefaults()
	var out []ScalePoint
	for _, r := range o.Routers {
		for _, f := range o.Flows {
			out = append(out, ScalePoint{Routers: r, Flows: f, FileSize: o.FileSize, Pipeline: o.Pipeline})
		}
	}
	mid := o.Flows[len(o.Flows)/2]
	for _, s := range o.FileSizes {
		out = append(out, ScalePoint{Routers: slices.Min(o.Routers), Flows: mid, FileSize: s, Pipeline: "fixed", Window: o.ObjectWindow})
	}
	return out
}

// Scale runs the scale experiment: for every point, Flows consumers at
// random access routers of an isp topology of Routers routers
// (topology.Generate), each fetching its own object of FileSize bytes from
// a producer on a random aggregation router (the servers: every
// producer on one announces that router's prefix, so a FIB holds a route
// per server, not per object), all starting within StartWithin. It
// reports, per point, what building and running the network cost in wall
// time, events and memory. Points run one after another, each alone, so
// that the memory measured is its own.
func Scale(opt ScaleOptions) (*ScaleReport, error) {
	opt = opt.withDefaults()
	rep := &ScaleReport{Experiment: "scale", Pipeline: opt.Pipeline, Seed: opt.Seed, GoVersion: runtime.Version()}
	for _, pt := range opt.Points() {
		if opt.OnPoint != nil {
			opt.OnPoint(pt)
		}
		r, err := runScalePoint(pt, opt)
		if err != nil {
			return rep, fmt.Errorf("scale: %d routers, %d flows: %w", pt.Routers, pt.Flows, err)
		}
		rep.Points = append(rep.Points, r)
	}
	return rep, nil
}

// ScaleScenario returns the scenario of point pt (see Scale).
func ScaleScenario(pt ScalePoint, opt ScaleOptions) (*scenario.Scenario, error) {
	opt = opt.withDefaults()
	if pt.Flows < 1 || pt.FileSize < 1 {
		return nil, fmt.Errorf("scale: %d flows of %d bytes: want at least one of at least a byte", pt.Flows, pt.FileSize)
	}
	topo, err := topology.Generate(topology.GenSpec{Family: topology.FamilyISP, Routers: pt.Routers, Seed: opt.Seed})
	if err != nil {
		return nil, err
	}
	var servers, access []string
	for _, n := range topo.Nodes {
		switch n.Name[0] {
		case 'a':
			servers = append(servers, n.Name)
		case 'e':
			access = append(access, n.Name)
		}
	}
	sc := newScenario(fmt.Sprintf("scale-%dr-%df", pt.Routers, pt.Flows), topo, scenario.DefaultDuration)
	sc.Seed = opt.Seed
	rng := rand.New(rand.NewPCG(opt.Seed, uint64(pt.Routers)<<32|uint64(pt.Flows)))
	for i := range pt.Flows {
		server := servers[rng.IntN(len(servers))]
		prefix := fmt.Sprintf("/%s/f%d", server, i)
		p := scenario.NewProducer(server, prefix, pt.FileSize)
		p.Announce = "/" + server
		sc.Producers = append(sc.Producers, p)
		c := scenario.NewConsumer(access[rng.IntN(len(access))], prefix, cmp.Or(pt.Pipeline, opt.Pipeline))
		if pt.Window > 0 {
			c.Params["window"] = fmt.Sprint(pt.Window)
		}
		c.ID = fmt.Sprintf("f%d", i)
		c.Start = time.Duration(rng.Int64N(int64(opt.StartWithin)))
		sc.Consumers = append(sc.Consumers, c)
	}
	return sc, sc.Validate()
}

// memory is what the Go runtime reports of its memory.
type memory struct{ live, heap, total uint64 }

var memoryMetrics = []string{"/gc/heap/live:bytes", "/memory/classes/heap/objects:bytes", "/memory/classes/total:bytes", "/gc/cycles/total:gc-cycles"}

func readMemory(s []metrics.Sample) memory {
	metrics.Read(s)
	return memory{s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()}
}

// gcCycles returns the garbage collections completed so far.
func gcCycles(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[3].Value.Uint64()
}

// liveAfterGC collects garbage and returns the live heap.
func liveAfterGC(s []metrics.Sample) uint64 {
	runtime.GC()
	return readMemory(s).live
}

func runScalePoint(pt ScalePoint, opt ScaleOptions) (ScaleResult, error) {
	res := ScaleResult{ScalePoint: pt}
	samples := make([]metrics.Sample, len(memoryMetrics))
	for i, name := range memoryMetrics {
		samples[i].Name = name
	}
	sc, err := ScaleScenario(pt, opt)
	if err != nil {
		return res, err
	}
	onePt := pt
	onePt.Flows = 1
	one, err := ScaleScenario(onePt, opt)
	if err != nil {
		return res, err
	}
	res.Nodes, res.Links = len(sc.Topology.Nodes), len(sc.Topology.Links)
	servers := map[string]bool{}
	for _, p := range sc.Producers {
		servers[p.Node] = true
	}
	res.Servers = len(servers)

	base := liveAfterGC(samples)
	simOpt := sim.Options{ProcessingJitter: opt.ProcessingJitter}
	small, err := sim.Build(one, simOpt)
	if err != nil {
		return res, err
	}
	if live := liveAfterGC(samples); live > base {
		res.NetworkBytes = live - base
	}
	runtime.KeepAlive(small)
	small = nil
	base = liveAfterGC(samples)

	t0 := time.Now()
	n, err := sim.Build(sc, simOpt)
	if err != nil {
		return res, err
	}
	res.BuildS = time.Since(t0).Seconds()
	// The live heap is known at each garbage collection: a run that
	// allocates too little to collect for ten samples gets one (cheap, as
	// its heap is small), so that its peak is seen.
	var peak memory
	var sample func()
	lastGC, quiet := gcCycles(samples), 0
	sample = func() {
		if c := gcCycles(samples); c != lastGC {
			lastGC, quiet = c, 0
		} else if quiet++; quiet >= 10 {
			runtime.GC()
			lastGC, quiet = gcCycles(samples), 0
		}
		m := readMemory(samples)
		peak.live, peak.heap, peak.total = max(peak.live, m.live), max(peak.heap, m.heap), max(peak.total, m.total)
		n.Sched.After(opt.SampleEvery, sample)
	}
	n.Sched.After(0, sample)
	t1 := time.Now()
	r := n.Run()
	res.WallS = time.Since(t1).Seconds()
	sample()

	res.Events = n.Sched.Events()
	res.SimTimeS = n.Sched.Now().Seconds()
	if res.WallS > 0 {
		res.EventsPerS = float64(res.Events) / res.WallS
		res.Speedup = res.SimTimeS / res.WallS
	}
	res.PeakLiveBytes, res.PeakHeapBytes, res.PeakTotalBytes = peak.live, peak.heap, peak.total
	res.BytesPerNode = float64(res.NetworkBytes) / float64(res.Nodes)
	if peak.live > base+res.NetworkBytes {
		res.BytesPerFlow = float64(peak.live-base-res.NetworkBytes) / float64(pt.Flows)
	}
	for _, f := range r.Flows {
		if f.Complete {
			res.Complete++
		}
	}
	type edge struct {
		t     time.Duration
		delta int
	}
	var edges []edge
	for _, f := range n.Flows {
		st := f.P.Stats()
		end := st.End
		if done, _ := f.P.Done(); !done {
			end = n.Sched.Now()
		}
		edges = append(edges, edge{st.Start, 1}, edge{end, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return a.delta - b.delta // ends before starts at the same instant
	})
	running := 0
	for _, e := range edges {
		running += e.delta
		res.PeakConcurrent = max(res.PeakConcurrent, running)
	}
	return res, nil
}

// PrintTable writes the report as a table.
func (r *ScaleReport) PrintTable(w io.Writer) {
	fmt.Fprintf(w, "scale — isp topologies, every flow its own object (seed %d, %s)\n\n", r.Seed, r.GoVersion)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "routers\tflows\tobject\tpipeline\tcomplete\tconcurrent\tsim (s)\tbuild (s)\twall (s)\tevents\tevents/s\tx real time\tKB/node\tKB/flow\tpeak live (MB)\tpeak total (MB)\t")
	for _, p := range r.Points {
		pipeline := p.Pipeline
		if p.Window > 0 {
			pipeline += fmt.Sprintf(" %d", p.Window)
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%d\t%d\t%.1f\t%.1f\t%.1f\t%d\t%.2fM\t%.2f\t%.1f\t%.1f\t%.0f\t%.0f\t\n",
			p.Routers, p.Flows, SizeText(p.FileSize), pipeline, p.Complete, p.PeakConcurrent, p.SimTimeS, p.BuildS, p.WallS,
			p.Events, p.EventsPerS/1e6, p.Speedup, p.BytesPerNode/1e3, p.BytesPerFlow/1e3,
			float64(p.PeakLiveBytes)/1e6, float64(p.PeakTotalBytes)/1e6)
	}
	tw.Flush()
}

// SizeText writes n bytes with a binary unit (GiB, MiB, KiB) when it has
// one exactly, else in bytes: the size of an object in tables and labels.
func SizeText(n int64) string {
	for _, u := range []struct {
		s string
		b int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.b && n%u.b == 0 {
			return fmt.Sprintf("%d %s", n/u.b, u.s)
		}
	}
	return fmt.Sprintf("%d B", n)
}
