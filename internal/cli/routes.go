package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/ndncc/ndncc/report"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// routeEntry is the next hops one node's FIB has toward one producer's
// prefix, best first, as the simulator and the emulator install them
// (sim.RoutePlanner: shortest propagation delay, docs/scenario.md,
// "Routes").
type routeEntry struct {
	Node     string    `json:"node"`
	Prefix   string    `json:"prefix"`
	NextHops []nextHop `json:"next_hops"`
}

// nextHop is one FIB next hop and its cost: the propagation delay of the
// best path through it.
type nextHop struct {
	Neighbor string  `json:"neighbor"`
	CostMs   float64 `json:"cost_ms"`
}

// scenarioRoutes returns the routes sc's producers get, in the
// topology's node order, then the producers' order.
func scenarioRoutes(sc *scenario.Scenario) []routeEntry {
	rp := sim.NewRoutePlanner(sc)
	var out []routeEntry
	at := map[[2]string]int{}
	for _, p := range sc.Producers {
		for _, r := range rp.Announce(p) {
			k := [2]string{r.Node, r.Prefix}
			i, ok := at[k]
			if !ok {
				i = len(out)
				at[k] = i
				out = append(out, routeEntry{Node: r.Node, Prefix: r.Prefix})
			}
			out[i].NextHops = append(out[i].NextHops, nextHop{Neighbor: r.Neighbor, CostMs: sim.Round(float64(r.Cost)/1e6, 3)})
		}
	}
	order := map[string]int{}
	for i, n := range sc.Topology.Nodes {
		order[n.Name] = i
	}
	slices.SortStableFunc(out, func(a, b routeEntry) int { return order[a.Node] - order[b.Node] })
	return out
}

// maxRouteRows is the most route rows the text output prints; --json has
// them all.
const maxRouteRows = 40

// printRoutes prints each node's next hops toward each prefix, best
// first, with the path delay through each.
func printRoutes(w io.Writer, routes []routeEntry) {
	if len(routes) == 0 {
		return
	}
	fmt.Fprintln(w, "\nroutes (shortest propagation delay; best next hop first, with the path's delay):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  node\tprefix\tnext hops")
	for i, r := range routes {
		if i == maxRouteRows {
			break
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Node, r.Prefix, nextHopsText(r.NextHops))
	}
	tw.Flush()
	if len(routes) > maxRouteRows {
		fmt.Fprintf(w, "  ... %d more (--json's \"routes\")\n", len(routes)-maxRouteRows)
	}
}

// routesTable is the page's table of routes: a row per node and prefix.
func routesTable(routes []routeEntry) report.Table {
	t := report.Table{Title: "Routes", Caption: "Each node's next hops toward each producer's prefix, best first, " +
		"with the propagation delay of the best path through each (routes follow delay only: docs/scenario.md, \"Routes\").",
		Header: []string{"node", "prefix", "next hops"}}
	for _, r := range routes {
		t.Rows = append(t.Rows, []string{r.Node, r.Prefix, nextHopsText(r.NextHops)})
	}
	return t
}

// nextHopsText lists next hops as "a (10 ms), b (12 ms)".
func nextHopsText(hops []nextHop) string {
	var b bytes.Buffer
	for j, h := range hops {
		if j > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s (%g ms)", h.Neighbor, h.CostMs)
	}
	return b.String()
}

// withRoutes is a result document (a JSON object) with a "routes" key
// added last.
type withRoutes struct {
	doc    any
	routes []routeEntry
}

// MarshalJSON writes the document's object with "routes" appended.
func (d withRoutes) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(d.doc)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("result document %.20s...: not a JSON object", b)
	}
	routes := d.routes
	if routes == nil {
		routes = []routeEntry{}
	}
	r, err := json.Marshal(routes)
	if err != nil {
		return nil, err
	}
	sep := ","
	if bytes.Equal(b, []byte("{}")) {
		sep = ""
	}
	out := append(b[:len(b)-1:len(b)-1], []byte(sep+`"routes":`)...)
	out = append(out, r...)
	return append(out, '}'), nil
}
