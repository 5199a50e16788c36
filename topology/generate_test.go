package topology

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestGenerateFamilies(t *testing.T) {
	for _, tc := range []struct {
		spec         GenSpec
		nodes, links int
		// a path the family promises, as node names, and its hop count
		from, to string
		hops     int
	}{
		{GenSpec{Family: FamilyDumbbell, Pairs: 3}, 8, 7, "s0", "d2", 3},
		{GenSpec{Family: FamilyParkingLot, Routers: 5}, 10, 9, "h0", "h4", 6},
		{GenSpec{Family: FamilyParkingLot, Routers: 5}, 10, 9, "h1", "h2", 3},
		{GenSpec{Family: FamilyTree, Fanout: 3, Depth: 2}, 13, 12, "t0", "t12", 2},
		{GenSpec{Family: FamilyTree}, 15, 14, "t7", "t14", 6},
		{GenSpec{Family: FamilyISP, Routers: 100}, 100, -1, "e0", "e84", -1},
		{GenSpec{Family: FamilyISP, Routers: 1000}, 1000, -1, "e0", "e883", -1},
		{GenSpec{Family: FamilyISP, Routers: 4}, 4, -1, "c0", "e0", -1},
	} {
		name := fmt.Sprintf("%s-%d-%d-%d-%d", tc.spec.Family, tc.spec.Routers, tc.spec.Pairs, tc.spec.Fanout, tc.spec.Depth)
		t.Run(name, func(t *testing.T) {
			top, err := Generate(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			if len(top.Nodes) != tc.nodes || (tc.links >= 0 && len(top.Links) != tc.links) {
				t.Errorf("%d nodes, %d links; want %d, %d", len(top.Nodes), len(top.Links), tc.nodes, tc.links)
			}
			if len(top.Components()) == 0 || !connectedAll(top) {
				t.Fatal("not connected")
			}
			hops := top.NextHops(tc.from, tc.to)
			if len(hops) == 0 {
				t.Fatalf("no route %s -> %s", tc.from, tc.to)
			}
			if tc.hops >= 0 && hops[0].Hops != tc.hops {
				t.Errorf("%s -> %s: %d hops, want %d", tc.from, tc.to, hops[0].Hops, tc.hops)
			}
			again, _ := Generate(tc.spec)
			if !reflect.DeepEqual(top, again) {
				t.Error("the same spec gave another topology")
			}
		})
	}
}

func connectedAll(t *Topology) bool {
	c := t.Components()
	for _, n := range t.Nodes {
		if c[n.Name] != c[t.Nodes[0].Name] {
			return false
		}
	}
	return true
}

// The isp family's tiers: core routers meshed beyond their ring, every
// aggregation router dual-homed on the core, every access router on one
// aggregation router, rates by tier, delays those of distances within the
// continent, and another seed another network.
func TestGenerateISPTiers(t *testing.T) {
	top, err := Generate(GenSpec{Family: FamilyISP, Routers: 1000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tier := func(n string) byte { return n[0] }
	count := map[byte]int{}
	for _, n := range top.Nodes {
		count[tier(n.Name)]++
	}
	if count['c'] != 16 || count['a'] != 100 || count['e'] != 884 {
		t.Errorf("tiers %v, want 16 core, 100 aggregation, 884 access", count)
	}
	degree := map[string]int{}
	coreLinks := 0
	for _, l := range top.Links {
		degree[l.A]++
		degree[l.B]++
		want := map[string]float64{"cc": 10e9, "ac": 1e9, "ea": 100e6}[string([]byte{tier(l.A), tier(l.B)})]
		if l.Bandwidth != want {
			t.Errorf("link %s: %v bit/s, want %v", l, l.Bandwidth, want)
		}
		if l.Delay < 100*time.Microsecond || l.Delay > 30*time.Millisecond {
			t.Errorf("link %s: delay %v outside 0.1–30 ms", l, l.Delay)
		}
		if tier(l.A) == 'c' {
			coreLinks++
		}
	}
	if coreLinks <= 16 {
		t.Errorf("%d core links: no more than the ring", coreLinks)
	}
	for _, n := range top.Nodes {
		want := map[byte]int{'a': 3, 'e': 1}[tier(n.Name)] // 'a': 2 core + its access routers
		switch tier(n.Name) {
		case 'a':
			if degree[n.Name] < want {
				t.Errorf("%s has degree %d", n.Name, degree[n.Name])
			}
		case 'e':
			if degree[n.Name] != want {
				t.Errorf("%s has degree %d, want 1", n.Name, degree[n.Name])
			}
		}
	}
	other, _ := Generate(GenSpec{Family: FamilyISP, Routers: 1000, Seed: 4})
	if reflect.DeepEqual(top.Links, other.Links) {
		t.Error("seeds 3 and 4 gave the same network")
	}
}

func TestGenerateRejectsBadSpecs(t *testing.T) {
	for _, tc := range []struct {
		spec GenSpec
		want string
	}{
		{GenSpec{Family: "mesh"}, "unknown topology family"},
		{GenSpec{Family: FamilyISP, Routers: 3}, "want 4 to"},
		{GenSpec{Family: FamilyISP, Routers: MaxNodes + 1}, "want 4 to"},
		{GenSpec{Family: FamilyParkingLot, Routers: 1}, "want 2 to"},
		{GenSpec{Family: FamilyDumbbell, Pairs: -1}, "want 1 to"},
		{GenSpec{Family: FamilyTree, Fanout: 10, Depth: 5}, "at most 10000 nodes"},
		{GenSpec{Family: FamilyTree, Bandwidth: -1}, "must be positive"},
		{GenSpec{Family: FamilyDumbbell, Delay: -time.Second}, "must not be negative"},
		{GenSpec{Family: FamilyDumbbell, QueuePackets: -1}, "want 1 to"},
	} {
		if _, err := Generate(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.spec, err, tc.want)
		}
	}
}
