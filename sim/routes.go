package sim

import (
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// Route is one FIB entry the simulator installs toward a producer: at
// Node, Prefix through the face to Neighbor, with Cost.
type Route struct {
	Node, Prefix, Neighbor string
	Cost                   uint64
}

// RoutePlanner computes the routes a scenario's producers get, as the
// simulator installs them (the emulator, package emu, installs the same):
// toward each producer's node over the topology's ranked next hops, for
// the prefix it announces, once per (node, prefix).
type RoutePlanner struct {
	sc        *scenario.Scenario
	routes    *topology.Routes
	announced map[[2]string]bool
}

// NewRoutePlanner computes the next hops toward every producer's node.
func NewRoutePlanner(sc *scenario.Scenario) *RoutePlanner {
	var pnodes []string
	for _, p := range sc.Producers {
		pnodes = append(pnodes, p.Node)
	}
	return &RoutePlanner{sc: sc, routes: sc.Topology.RoutesTo(pnodes), announced: map[[2]string]bool{}}
}

// Announce returns the routes every other node gets toward producer p: its
// announce prefix (its prefix if it sets none) through each next hop
// toward p's node, in the topology's node order; none if that node already
// announced that prefix. The producer's own node routes p's prefix to the
// producer itself, which is not among them.
func (rp *RoutePlanner) Announce(p scenario.Producer) []Route {
	prefix := p.Prefix
	if p.Announce != "" {
		prefix = p.Announce
	}
	prefix = canonical(prefix)
	key := [2]string{p.Node, prefix}
	if rp.announced[key] {
		return nil
	}
	rp.announced[key] = true
	var out []Route
	for _, nd := range rp.sc.Topology.Nodes {
		if nd.Name == p.Node {
			continue
		}
		for _, hop := range rp.routes.NextHops(nd.Name, p.Node) {
			out = append(out, Route{Node: nd.Name, Prefix: prefix, Neighbor: hop.Neighbor, Cost: uint64(hop.Cost)})
		}
	}
	return out
}

// canonical returns a prefix as its parsed name prints (the scenario
// validated it), so that spellings of one name announce it once.
func canonical(prefix string) string {
	name, err := ndn.ParseName(prefix)
	if err != nil {
		return prefix
	}
	return name.String()
}
