package topology

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

const ms = time.Millisecond

// build returns a topology from "a:b:delayMs" link specs; nodes are
// declared in order of first appearance.
func build(t testing.TB, specs ...string) *Topology {
	t.Helper()
	topo := &Topology{}
	for _, s := range specs {
		var a, b string
		var d int
		if _, err := fmt.Sscanf(s, "%s %s %d", &a, &b, &d); err != nil {
			t.Fatalf("spec %q: %v", s, err)
		}
		for _, n := range []string{a, b} {
			if !topo.HasNode(n) {
				topo.Nodes = append(topo.Nodes, Node{Name: n})
			}
		}
		l := NewLink(a, b)
		l.Delay = time.Duration(d) * ms
		topo.Links = append(topo.Links, l)
	}
	if err := topo.Validate(); err != nil {
		t.Fatal(err)
	}
	return topo
}

func TestNextHops(t *testing.T) {
	linear := loadExample(t, "linear.conf")
	dumbbell := loadExample(t, "dumbbell.conf")
	// Two paths of different delay from s to d.
	diamond := build(t, "s a 10", "a d 10", "s b 5", "b d 30")
	// Equal delays: fewer hops first, then names.
	ties := build(t, "s y 10", "y d 10", "s x 10", "x d 10", "s z 5", "z w 5", "w d 10", "s d 20")
	tests := []struct {
		name     string
		topo     *Topology
		src, dst string
		want     []NextHop
	}{
		{"linear consumer to producer", linear, "consumer1", "producer1", []NextHop{{"router1", 30 * ms, 3}}},
		{"linear router1 to producer", linear, "router1", "producer1", []NextHop{{"router2", 20 * ms, 2}}},
		{"linear router2 to producer", linear, "router2", "producer1", []NextHop{{"producer1", 10 * ms, 1}}},
		{"linear producer to consumer", linear, "producer1", "consumer1", []NextHop{{"router2", 30 * ms, 3}}},
		{"linear router2 to consumer", linear, "router2", "consumer1", []NextHop{{"router1", 20 * ms, 2}}},
		{"linear to itself", linear, "router1", "router1", nil},
		{"unknown source", linear, "nobody", "router1", nil},
		{"unknown destination", linear, "router1", "nobody", nil},
		{"dumbbell consumer1 to producer2", dumbbell, "consumer1", "producer2", []NextHop{{"router1", 30 * ms, 3}}},
		{"dumbbell router1 to producer1", dumbbell, "router1", "producer1", []NextHop{{"router2", 20 * ms, 2}}},
		{"dumbbell router1 to consumer2", dumbbell, "router1", "consumer2", []NextHop{{"consumer2", 10 * ms, 1}}},
		{"dumbbell producer2 to consumer1", dumbbell, "producer2", "consumer1", []NextHop{{"router2", 30 * ms, 3}}},
		{"dumbbell consumer2 to consumer1", dumbbell, "consumer2", "consumer1", []NextHop{{"router1", 20 * ms, 2}}},
		{"diamond both paths", diamond, "s", "d", []NextHop{{"a", 20 * ms, 2}, {"b", 35 * ms, 2}}},
		{"diamond reverse", diamond, "d", "s", []NextHop{{"a", 20 * ms, 2}, {"b", 35 * ms, 2}}},
		{"diamond around", diamond, "a", "b", []NextHop{{"s", 15 * ms, 2}, {"d", 40 * ms, 2}}},
		{"diamond never back through src", diamond, "b", "s", []NextHop{{"s", 5 * ms, 1}, {"d", 50 * ms, 3}}},
		{"ties", ties, "s", "d", []NextHop{{"d", 20 * ms, 1}, {"x", 20 * ms, 2}, {"y", 20 * ms, 2}, {"z", 20 * ms, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.topo.NextHops(tt.src, tt.dst); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Topology.NextHops = %v, want %v", got, tt.want)
			}
			if got := tt.topo.Routes().NextHops(tt.src, tt.dst); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Routes.NextHops = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNextHopsDisconnected(t *testing.T) {
	topo := build(t, "a b 1", "c d 1")
	if got := topo.NextHops("a", "d"); got != nil {
		t.Errorf("NextHops across components = %v, want nil", got)
	}
	if topo.Connected("a", "d") || !topo.Connected("d", "c") || !topo.Connected("a", "a") || topo.Connected("a", "x") {
		t.Errorf("Connected is wrong")
	}
}

func TestRoutesCopy(t *testing.T) {
	r := build(t, "a b 1", "b c 1").Routes()
	hops := r.NextHops("a", "c")
	hops[0].Neighbor = "changed"
	if got := r.NextHops("a", "c")[0].Neighbor; got != "b" {
		t.Errorf("caller's change leaked into Routes: %q", got)
	}
}

// TestNextHopsBruteForce checks the definition on random small graphs by
// enumerating every simple path.
func TestNextHopsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		topo := randomTopology(rng, 2+rng.IntN(6), 0.5)
		routes := topo.Routes()
		for _, src := range topo.Nodes {
			for _, dst := range topo.Nodes {
				want := bruteNextHops(topo, src.Name, dst.Name)
				if got := topo.NextHops(src.Name, dst.Name); !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d %s->%s: NextHops %v, brute force %v\n%+v", trial, src.Name, dst.Name, got, want, topo.Links)
				}
				if got := routes.NextHops(src.Name, dst.Name); !reflect.DeepEqual(got, want) {
					t.Fatalf("trial %d %s->%s: Routes %v, brute force %v", trial, src.Name, dst.Name, got, want)
				}
			}
		}
	}
}

func randomTopology(rng *rand.Rand, n int, p float64) *Topology {
	topo := &Topology{}
	for i := range n {
		topo.Nodes = append(topo.Nodes, Node{Name: fmt.Sprintf("n%02d", i)})
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if rng.Float64() < p {
				l := NewLink(topo.Nodes[i].Name, topo.Nodes[j].Name)
				l.Delay = time.Duration(rng.IntN(4)) * ms // small range: many ties
				topo.Links = append(topo.Links, l)
			}
		}
	}
	return topo
}

func bruteNextHops(topo *Topology, src, dst string) []NextHop {
	if src == dst {
		return nil
	}
	var out []NextHop
	for _, n := range topo.Neighbors(src) {
		l, _ := topo.Link(src, n)
		best, found := pathLen{}, false
		var walk func(at string, visited map[string]bool, p pathLen)
		walk = func(at string, visited map[string]bool, p pathLen) {
			if at == dst {
				if !found || p.less(best) {
					best, found = p, true
				}
				return
			}
			for _, next := range topo.Neighbors(at) {
				if visited[next] {
					continue
				}
				nl, _ := topo.Link(at, next)
				visited[next] = true
				walk(next, visited, pathLen{p.delay + nl.Delay, p.hops + 1})
				delete(visited, next)
			}
		}
		walk(n, map[string]bool{src: true, n: true}, pathLen{l.Delay, 1})
		if found {
			out = append(out, NextHop{Neighbor: n, Cost: best.delay, Hops: best.hops})
		}
	}
	slices.SortFunc(out, func(a, b NextHop) int {
		switch {
		case a.Cost != b.Cost:
			return int(a.Cost - b.Cost)
		case a.Hops != b.Hops:
			return a.Hops - b.Hops
		case a.Neighbor < b.Neighbor:
			return -1
		default:
			return 1
		}
	})
	return out
}

func BenchmarkRoutes(b *testing.B) {
	// A 10x10 grid: 100 nodes, 180 links.
	topo := &Topology{}
	name := func(i, j int) string { return fmt.Sprintf("r%d_%d", i, j) }
	for i := range 10 {
		for j := range 10 {
			topo.Nodes = append(topo.Nodes, Node{Name: name(i, j)})
			if i > 0 {
				l := NewLink(name(i-1, j), name(i, j))
				l.Delay = time.Duration(1+(i*j)%7) * ms
				topo.Links = append(topo.Links, l)
			}
			if j > 0 {
				l := NewLink(name(i, j-1), name(i, j))
				l.Delay = time.Duration(1+(i+j)%5) * ms
				topo.Links = append(topo.Links, l)
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		topo.Routes()
	}
}

func TestPathQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var q pathQueue
	var want []pathLen
	for i := range 500 {
		p := pathLen{time.Duration(rng.IntN(20)), rng.IntN(5)}
		q.push(queued{node: i, len: p})
		want = append(want, p)
	}
	slices.SortFunc(want, func(a, b pathLen) int {
		if a.less(b) {
			return -1
		}
		if b.less(a) {
			return 1
		}
		return 0
	})
	for i, w := range want {
		if got := q.pop().len; got != w {
			t.Fatalf("pop %d = %v, want %v", i, got, w)
		}
	}
}

// RoutesTo keeps Routes' next hops toward the destinations it is given,
// and none toward the others.
func TestRoutesToSomeDestinations(t *testing.T) {
	topo, err := Generate(GenSpec{Family: FamilyISP, Routers: 60, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	all := topo.Routes()
	some := topo.RoutesTo([]string{"e3", "c1", "nowhere", "e3"})
	for _, src := range topo.Nodes {
		for _, dst := range topo.Nodes {
			got := some.NextHops(src.Name, dst.Name)
			if dst.Name != "e3" && dst.Name != "c1" {
				if got != nil {
					t.Fatalf("%s -> %s: routes toward a destination not asked for", src.Name, dst.Name)
				}
				continue
			}
			if want := all.NextHops(src.Name, dst.Name); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s -> %s: %v, Routes: %v", src.Name, dst.Name, got, want)
			}
		}
	}
}
