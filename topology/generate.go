package topology

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// The families Generate builds.
const (
	// FamilyISP is a hierarchical ISP network in the manner of
	// Rocketfuel's measured maps and BRITE's top-down generator: a meshed
	// core spread over a continent, aggregation routers (points of
	// presence) each homed on the two nearest core routers, and access
	// routers each on its nearest aggregation router. Nodes: core c0..,
	// aggregation a0.., access e0.. (where hosts attach).
	FamilyISP = "isp"
	// FamilyDumbbell is Pairs sources s0.. on router "left" and Pairs
	// sinks d0.. on router "right", the two routers joined by the
	// bottleneck link.
	FamilyDumbbell = "dumbbell"
	// FamilyParkingLot is a chain of Routers routers r0..r{N-1} whose
	// N-1 links are all bottlenecks, with a host h{i} on every router: a
	// flow from h0 to h{N-1} crosses every bottleneck, one from h{i} to
	// h{i+1} only one.
	FamilyParkingLot = "parking-lot"
	// FamilyTree is a complete tree of Fanout children per node and
	// Depth levels below the root t0, nodes numbered breadth first (the
	// children of t{i} are t{Fanout*i+1} ..): producers at the root,
	// consumers at the leaves.
	FamilyTree = "tree"
)

// Families returns the names Generate accepts.
func Families() []string {
	return []string{FamilyISP, FamilyDumbbell, FamilyParkingLot, FamilyTree}
}

// GenSpec says what Generate builds. Zero fields take the defaults of
// DefaultGenSpec for the family.
type GenSpec struct {
	Family string
	// Routers is the number of routers: isp 4..MaxNodes (every node of an
	// isp network is a router), parking-lot 2..MaxNodes/2.
	Routers int
	// Pairs is the dumbbell's source–sink pairs, 1..(MaxNodes-2)/2.
	Pairs int
	// Fanout and Depth shape the tree, up to MaxNodes nodes.
	Fanout, Depth int
	// Bandwidth (bit/s) and Delay are those of the family's bottleneck
	// links (dumbbell, parking-lot) or every link (tree); access links of
	// the dumbbell and parking-lot are ten times faster with a 1 ms delay.
	// The isp family has its own tiers (see Generate).
	Bandwidth float64
	Delay     time.Duration
	// QueuePackets is every link's output-queue limit.
	QueuePackets int
	// Seed draws the isp family's router positions and extra core links:
	// the same seed, the same network.
	Seed uint64
}

// DefaultGenSpec returns the defaults of family: 100 isp routers, 2
// dumbbell pairs, 4 parking-lot routers, a binary tree of depth 3;
// 10 Mbit/s and 10 ms bottlenecks (5 ms for the tree); 1000-packet
// queues (DefaultQueuePackets); seed 1.
func DefaultGenSpec(family string) GenSpec {
	s := GenSpec{Family: family, Bandwidth: 10e6, Delay: 10 * time.Millisecond, QueuePackets: DefaultQueuePackets, Seed: 1}
	switch family {
	case FamilyISP:
		s.Routers = 100
	case FamilyDumbbell:
		s.Pairs = 2
	case FamilyParkingLot:
		s.Routers = 4
	case FamilyTree:
		s.Fanout, s.Depth, s.Delay = 2, 3, 5*time.Millisecond
	}
	return s
}

// withDefaults fills s's zero fields from DefaultGenSpec.
func (s GenSpec) withDefaults() GenSpec {
	d := DefaultGenSpec(s.Family)
	s.Routers = cmp.Or(s.Routers, d.Routers)
	s.Pairs = cmp.Or(s.Pairs, d.Pairs)
	s.Fanout = cmp.Or(s.Fanout, d.Fanout)
	s.Depth = cmp.Or(s.Depth, d.Depth)
	s.Bandwidth = cmp.Or(s.Bandwidth, d.Bandwidth)
	s.Delay = cmp.Or(s.Delay, d.Delay)
	s.QueuePackets = cmp.Or(s.QueuePackets, d.QueuePackets)
	s.Seed = cmp.Or(s.Seed, d.Seed)
	return s
}

// Validate reports the first parameter out of range (after defaults).
func (s GenSpec) Validate() error {
	s = s.withDefaults()
	switch {
	case !slices.Contains(Families(), s.Family):
		return fmt.Errorf("unknown topology family %q (want one of %v)", s.Family, Families())
	case s.Family == FamilyISP && (s.Routers < 4 || s.Routers > MaxNodes):
		return fmt.Errorf("isp: %d routers, want 4 to %d", s.Routers, MaxNodes)
	case s.Family == FamilyParkingLot && (s.Routers < 2 || s.Routers > MaxNodes/2):
		return fmt.Errorf("parking-lot: %d routers, want 2 to %d", s.Routers, MaxNodes/2)
	case s.Family == FamilyDumbbell && (s.Pairs < 1 || s.Pairs > (MaxNodes-2)/2):
		return fmt.Errorf("dumbbell: %d pairs, want 1 to %d", s.Pairs, (MaxNodes-2)/2)
	case s.Family == FamilyTree && (s.Fanout < 1 || s.Depth < 1 || treeSize(s.Fanout, s.Depth) > MaxNodes):
		return fmt.Errorf("tree: fanout %d, depth %d: want both at least 1 and at most %d nodes", s.Fanout, s.Depth, MaxNodes)
	case !(s.Bandwidth > 0) || math.IsInf(s.Bandwidth, 0):
		return fmt.Errorf("bandwidth %v bit/s must be positive", s.Bandwidth)
	case s.Delay < 0:
		return fmt.Errorf("delay %v must not be negative", s.Delay)
	case s.QueuePackets < 1 || s.QueuePackets > MaxQueuePackets:
		return fmt.Errorf("queue %d packets, want 1 to %d", s.QueuePackets, MaxQueuePackets)
	}
	return nil
}

// treeSize is the number of nodes of a complete tree, or MaxNodes+1 if it
// has more.
func treeSize(fanout, depth int) int {
	n, level := 1, 1
	for range depth {
		level *= fanout
		n += level
		if n > MaxNodes {
			return MaxNodes + 1
		}
	}
	return n
}

// Generate builds the topology s describes (see the Family constants). The
// result is deterministic: the same spec gives the same nodes and links in
// the same order.
//
// The isp family has three tiers. Core routers (√N/2 rounded, at least 4)
// are placed uniformly on a 4000 km square and joined in a ring (in angle
// around their centre) plus Waxman links (probability 0.5·e^(-d/(0.2·L)),
// L the square's diagonal), at 10 Gbit/s. Aggregation routers (N/10, at
// least as many as the core) sit within 200 km of a core router, taken in
// turn, and link to the two nearest core routers at 1 Gbit/s. Access
// routers, the rest, are spread evenly over the aggregation routers, each
// within 20 km of its own and linked to it at 100 Mbit/s. A network too
// small for that (core and aggregation over half of it) has N/4 of each
// (at least 2 core routers and 1 aggregation router). Every delay is the
// distance at 200,000 km/s (light in fibre), at least 0.1 ms.
func Generate(s GenSpec) (*Topology, error) {
	s = s.withDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	g := &generator{spec: s, t: &Topology{}}
	switch s.Family {
	case FamilyISP:
		g.isp()
	case FamilyDumbbell:
		g.dumbbell()
	case FamilyParkingLot:
		g.parkingLot()
	case FamilyTree:
		g.tree()
	}
	if err := g.t.Validate(); err != nil {
		return nil, errors.Join(fmt.Errorf("%s: generated topology is invalid", s.Family), err)
	}
	return g.t, nil
}

type generator struct {
	spec GenSpec
	t    *Topology
}

func (g *generator) node(name string) { g.t.Nodes = append(g.t.Nodes, Node{Name: name}) }

func (g *generator) link(a, b string, bw float64, delay time.Duration) {
	l := NewLink(a, b)
	l.Bandwidth, l.Delay, l.QueuePackets = bw, delay, g.spec.QueuePackets
	g.t.Links = append(g.t.Links, l)
}

// access is the rate and delay of the hosts' links of the dumbbell and the
// parking lot: ten times the bottleneck's rate, 1 ms.
func (g *generator) access() (float64, time.Duration) { return 10 * g.spec.Bandwidth, time.Millisecond }

func (g *generator) dumbbell() {
	g.node("left")
	g.node("right")
	bw, d := g.access()
	for i := range g.spec.Pairs {
		g.node(fmt.Sprintf("s%d", i))
		g.node(fmt.Sprintf("d%d", i))
		g.link(fmt.Sprintf("s%d", i), "left", bw, d)
		g.link("right", fmt.Sprintf("d%d", i), bw, d)
	}
	g.link("left", "right", g.spec.Bandwidth, g.spec.Delay)
}

func (g *generator) parkingLot() {
	bw, d := g.access()
	for i := range g.spec.Routers {
		g.node(fmt.Sprintf("r%d", i))
		g.node(fmt.Sprintf("h%d", i))
		g.link(fmt.Sprintf("h%d", i), fmt.Sprintf("r%d", i), bw, d)
		if i > 0 {
			g.link(fmt.Sprintf("r%d", i-1), fmt.Sprintf("r%d", i), g.spec.Bandwidth, g.spec.Delay)
		}
	}
}

func (g *generator) tree() {
	n := treeSize(g.spec.Fanout, g.spec.Depth)
	for i := range n {
		g.node(fmt.Sprintf("t%d", i))
		if i > 0 {
			g.link(fmt.Sprintf("t%d", (i-1)/g.spec.Fanout), fmt.Sprintf("t%d", i), g.spec.Bandwidth, g.spec.Delay)
		}
	}
}

// point is a router's position on the plane, in km.
type point struct{ x, y float64 }

func (p point) dist(q point) float64 { return math.Hypot(p.x-q.x, p.y-q.y) }

// fibre is the propagation delay over d km of fibre (200,000 km/s), at
// least 0.1 ms.
func fibre(d float64) time.Duration {
	return max(time.Duration(d/200_000*float64(time.Second)), 100*time.Microsecond)
}

// ISP tiers: the side of the square the core spans (km), how far an
// aggregation router and an access router sit from their parent (km), and
// each tier's rate (bit/s).
const (
	ispSide       = 4000.0
	ispAggRadius  = 200.0
	ispEdgeRadius = 20.0
	ispCoreBW     = 10e9
	ispAggBW      = 1e9
	ispAccessBW   = 100e6
)

func (g *generator) isp() {
	rng := rand.New(rand.NewPCG(g.spec.Seed, 0x15b))
	n := g.spec.Routers
	nCore := max(4, int(math.Round(math.Sqrt(float64(n))/2)))
	nAgg := max(nCore, n/10)
	if nCore+nAgg > n/2 { // a small network
		nCore, nAgg = max(2, n/4), max(1, n/4)
	}
	nEdge := n - nCore - nAgg
	near := func(c point, r float64) point {
		a, d := rng.Float64()*2*math.Pi, r*math.Sqrt(rng.Float64())
		return point{c.x + d*math.Cos(a), c.y + d*math.Sin(a)}
	}

	core := make([]point, nCore)
	for i := range core {
		core[i] = point{rng.Float64() * ispSide, rng.Float64() * ispSide}
		g.node(fmt.Sprintf("c%d", i))
	}
	g.coreLinks(core, rng)

	agg := make([]point, nAgg)
	for i := range agg {
		agg[i] = near(core[i%nCore], ispAggRadius)
		g.node(fmt.Sprintf("a%d", i))
		for _, c := range nearest(core, agg[i], 2) {
			g.link(fmt.Sprintf("a%d", i), fmt.Sprintf("c%d", c), ispAggBW, fibre(agg[i].dist(core[c])))
		}
	}
	for i := range nEdge {
		parent := i % nAgg
		p := near(agg[parent], ispEdgeRadius)
		g.node(fmt.Sprintf("e%d", i))
		g.link(fmt.Sprintf("e%d", i), fmt.Sprintf("a%d", parent), ispAccessBW, fibre(p.dist(agg[parent])))
	}
}

// coreLinks joins the core routers in a ring, in angle around their
// centre, and adds Waxman links between the others.
func (g *generator) coreLinks(core []point, rng *rand.Rand) {
	var c point
	for _, p := range core {
		c.x += p.x / float64(len(core))
		c.y += p.y / float64(len(core))
	}
	ring := make([]int, len(core))
	for i := range ring {
		ring[i] = i
	}
	slices.SortFunc(ring, func(a, b int) int {
		return cmp.Compare(math.Atan2(core[a].y-c.y, core[a].x-c.x), math.Atan2(core[b].y-c.y, core[b].x-c.x))
	})
	linked := map[[2]int]bool{}
	add := func(a, b int) {
		if a > b {
			a, b = b, a
		}
		if a == b || linked[[2]int{a, b}] {
			return
		}
		linked[[2]int{a, b}] = true
		g.link(fmt.Sprintf("c%d", a), fmt.Sprintf("c%d", b), ispCoreBW, fibre(core[a].dist(core[b])))
	}
	for i := range ring {
		add(ring[i], ring[(i+1)%len(ring)])
	}
	const alpha, beta = 0.5, 0.2
	diag := ispSide * math.Sqrt2
	for a := range core {
		for b := a + 1; b < len(core); b++ {
			if rng.Float64() < alpha*math.Exp(-core[a].dist(core[b])/(beta*diag)) {
				add(a, b)
			}
		}
	}
}

// nearest returns the indexes of the k points of ps nearest to p, nearest
// first (ties by index).
func nearest(ps []point, p point, k int) []int {
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(ps[a].dist(p), ps[b].dist(p)) })
	return idx[:min(k, len(idx))]
}
