package topology

import (
	"cmp"
	"slices"
	"time"
)

// NextHop is one way out of a node toward a destination.
type NextHop struct {
	// Neighbor is the adjacent node to forward to.
	Neighbor string
	// Cost is the propagation delay of the best path through Neighbor:
	// delay(src, Neighbor) + the shortest-delay distance from Neighbor to
	// the destination in the graph without src.
	Cost time.Duration
	// Hops is the number of links on that path (the fewest among the paths
	// of that delay).
	Hops int
}

// NextHops returns every neighbor of src that can reach dst without going
// back through src, best first.
//
// The cost of neighbor n is delay(src,n) + d(n,dst), where d is the
// shortest total propagation delay in the topology with src removed; paths
// are compared by delay, then by hop count, then by neighbor name, so the
// order is deterministic. It returns nil when src == dst, when either node
// is unknown, or when dst is unreachable.
//
// Each call runs one Dijkstra search (from dst, without src), O(E log V).
// To ask for many pairs, compute Routes once instead.
func (t *Topology) NextHops(src, dst string) []NextHop {
	g := newGraph(t)
	s, oks := g.index[src]
	d, okd := g.index[dst]
	if !oks || !okd || s == d {
		return nil
	}
	dist := g.shortestFrom(d, s)
	return g.rank(s, func(n int) (pathLen, bool) {
		return dist[n], dist[n].hops >= 0
	})
}

// Routes holds the next hops of every (source, destination) pair of a
// topology, as NextHops defines them, or of every source toward some
// destinations (RoutesTo). It is immutable and safe for concurrent use.
type Routes struct {
	index map[string]int
	dst   map[int]int   // destination node -> column of hops
	hops  [][][]NextHop // [src][column]
}

// Routes precomputes NextHops for every pair of nodes. For every node s and
// every neighbor n of s it runs one Dijkstra search from n in the graph
// without s, which yields d(n, x) for every destination x at once: 2E
// searches in all, O(E² log V), instead of one per pair. t must be valid
// (see Validate); links naming unknown nodes are ignored.
func (t *Topology) Routes() *Routes {
	names := make([]string, len(t.Nodes))
	for i, n := range t.Nodes {
		names[i] = n.Name
	}
	return t.RoutesTo(names)
}

// RoutesTo precomputes NextHops from every node to each of dsts (unknown
// names are left out), with the searches Routes makes but keeping only
// those destinations: what a network with many nodes and a few producer
// nodes needs.
func (t *Topology) RoutesTo(dsts []string) *Routes {
	g := newGraph(t)
	v := len(g.names)
	r := &Routes{index: g.index, dst: map[int]int{}, hops: make([][][]NextHop, v)}
	var cols []int // node of each column
	for _, name := range dsts {
		if d, ok := g.index[name]; ok {
			if _, dup := r.dst[d]; !dup {
				r.dst[d] = len(cols)
				cols = append(cols, d)
			}
		}
	}
	for s := range v {
		dists := make(map[int][]pathLen, len(g.adj[s]))
		for _, e := range g.adj[s] {
			dists[e.to] = g.shortestFrom(e.to, s)
		}
		r.hops[s] = make([][]NextHop, len(cols))
		for c, d := range cols {
			if d == s {
				continue
			}
			r.hops[s][c] = g.rank(s, func(n int) (pathLen, bool) {
				p := dists[n][d]
				return p, p.hops >= 0
			})
		}
	}
	return r
}

// NextHops returns the next hops from src toward dst, best first (see
// Topology.NextHops). The slice is a copy the caller may keep.
func (r *Routes) NextHops(src, dst string) []NextHop {
	s, oks := r.index[src]
	d, okd := r.index[dst]
	if !oks || !okd {
		return nil
	}
	c, ok := r.dst[d]
	if !ok {
		return nil
	}
	return slices.Clone(r.hops[s][c])
}

// graph is the adjacency-list form of a Topology, nodes numbered in
// declaration order.
type graph struct {
	names []string
	index map[string]int
	adj   [][]edge // sorted by neighbor name
}

type edge struct {
	to    int
	delay time.Duration
}

func newGraph(t *Topology) *graph {
	g := &graph{index: make(map[string]int, len(t.Nodes))}
	for _, n := range t.Nodes {
		if _, dup := g.index[n.Name]; dup {
			continue
		}
		g.index[n.Name] = len(g.names)
		g.names = append(g.names, n.Name)
	}
	g.adj = make([][]edge, len(g.names))
	for _, l := range t.Links {
		a, oka := g.index[l.A]
		b, okb := g.index[l.B]
		if !oka || !okb || a == b {
			continue
		}
		g.adj[a] = append(g.adj[a], edge{b, l.Delay})
		g.adj[b] = append(g.adj[b], edge{a, l.Delay})
	}
	for _, es := range g.adj {
		slices.SortFunc(es, func(x, y edge) int { return cmp.Compare(g.names[x.to], g.names[y.to]) })
	}
	return g
}

// pathLen is the length of a path: total delay, then hop count. hops < 0
// marks an unreachable node.
type pathLen struct {
	delay time.Duration
	hops  int
}

func (a pathLen) less(b pathLen) bool {
	return a.delay < b.delay || (a.delay == b.delay && a.hops < b.hops)
}

// rank lists the neighbors of s through which dist reports a path, sorted
// by total length, then by name.
func (g *graph) rank(s int, dist func(n int) (pathLen, bool)) []NextHop {
	var out []NextHop
	for _, e := range g.adj[s] {
		p, ok := dist(e.to)
		if !ok {
			continue
		}
		out = append(out, NextHop{Neighbor: g.names[e.to], Cost: e.delay + p.delay, Hops: 1 + p.hops})
	}
	slices.SortStableFunc(out, func(a, b NextHop) int {
		if c := cmp.Compare(a.Cost, b.Cost); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Hops, b.Hops); c != 0 {
			return c
		}
		return cmp.Compare(a.Neighbor, b.Neighbor)
	})
	return out
}

// shortestFrom runs Dijkstra from node from over the graph without node
// without (which may be -1), and returns the (delay, hops) length of the
// shortest path to every node; unreachable nodes have hops -1.
func (g *graph) shortestFrom(from, without int) []pathLen {
	dist := make([]pathLen, len(g.names))
	for i := range dist {
		dist[i] = pathLen{hops: -1}
	}
	done := make([]bool, len(g.names))
	dist[from] = pathLen{}
	q := pathQueue{{node: from}}
	for len(q) > 0 {
		it := q.pop()
		if done[it.node] {
			continue
		}
		done[it.node] = true
		for _, e := range g.adj[it.node] {
			if e.to == without || done[e.to] {
				continue
			}
			cand := pathLen{it.len.delay + e.delay, it.len.hops + 1}
			if dist[e.to].hops < 0 || cand.less(dist[e.to]) {
				dist[e.to] = cand
				q.push(queued{node: e.to, len: cand})
			}
		}
	}
	return dist
}

type queued struct {
	node int
	len  pathLen
}

// pathQueue is a binary min-heap of queued nodes by path length (typed, so
// that pushing does not box).
type pathQueue []queued

func (q *pathQueue) push(it queued) {
	*q = append(*q, it)
	h := *q
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h[i].len.less(h[parent].len) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (q *pathQueue) pop() queued {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		small, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h[l].len.less(h[small].len) {
			small = l
		}
		if r < len(h) && h[r].len.less(h[small].len) {
			small = r
		}
		if small == i {
			break
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
	*q = h
	return top
}
