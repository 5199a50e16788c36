package report

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ndncc/ndncc/internal/atomicfile"
	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// Geometry of a topology drawing, in SVG user units (CSS pixels).
const (
	topoColumn = 250 // between columns
	topoRow    = 120 // between nodes of a column
	topoMargin = 70
	topoRadius = 18
	// topoMaxLabels is the most links that get a label; a larger network
	// is drawn without them (the page's links table has the figures).
	topoMaxLabels = 60
)

// node roles, for their colour.
const (
	roleRouter = iota
	roleConsumer
	roleProducer
	roleBoth
)

// DrawTopology writes an SVG drawing of sc's network to path: every node
// (consumers, producers and routers in their own colours, with the
// forwarding strategy where it is not best-route) and every link labelled
// with its rate, delay, queue limit, its queue disciplines other than
// drop-tail, loss and link-loss detection. Nodes are laid out in columns
// by hop distance from the consumers, so that a transfer reads from left
// to right.
func DrawTopology(path string, sc *scenario.Scenario) error {
	if sc.Topology == nil || len(sc.Topology.Nodes) == 0 {
		return fmt.Errorf("draw topology: the scenario has no topology")
	}
	b, err := topologySVG(sc)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, b)
}

func topologySVG(sc *scenario.Scenario) ([]byte, error) {
	t := sc.Topology
	roles := nodeRoles(sc)
	cols := layers(t, roles)
	pos := map[string][2]float64{}
	rows := 0
	for c, col := range cols {
		rows = max(rows, len(col))
		for r, n := range col {
			pos[n] = [2]float64{float64(topoMargin + c*topoColumn), float64(topoMargin + r*topoRow)}
		}
	}
	// Centre short columns vertically.
	for _, col := range cols {
		shift := float64(rows-len(col)) * topoRow / 2
		for _, n := range col {
			p := pos[n]
			pos[n] = [2]float64{p[0], p[1] + shift}
		}
	}
	width := 2*topoMargin + (len(cols)-1)*topoColumn + 120 // room for the last column's labels
	height := 2*topoMargin + (rows-1)*topoRow + 20
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Liberation Sans, Arial, sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	labels := len(t.Links) <= topoMaxLabels
	for _, l := range t.Links {
		a, z := pos[l.A], pos[l.B]
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#777" stroke-width="%.1f"/>`+"\n",
			a[0], a[1], z[0], z[1], linkWidth(l))
		if !labels {
			continue
		}
		mx, my := (a[0]+z[0])/2, (a[1]+z[1])/2
		lines := linkLabel(sc, l)
		y := my - float64(len(lines)-1)*7
		for _, text := range lines {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#333" stroke="#fff" stroke-width="4" paint-order="stroke">%s</text>`+"\n",
				mx, y, html.EscapeString(text))
			y += 14
		}
	}
	colors := [...]string{roleRouter: "#dde3ea", roleConsumer: "#56b4e9", roleProducer: "#e69f00", roleBoth: "#009e73"}
	for _, nd := range t.Nodes {
		p := pos[nd.Name]
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="%d" fill="%s" stroke="#333" stroke-width="1.2"/>`+"\n", p[0], p[1], topoRadius, colors[roles[nd.Name]])
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-weight="bold">%s</text>`+"\n", p[0], p[1]+topoRadius+15, html.EscapeString(nd.Name))
		if st := sc.RouterFor(nd.Name).Strategy; st != scenario.DefaultStrategy {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#555">%s</text>`+"\n", p[0], p[1]+topoRadius+29, html.EscapeString(st))
		}
	}
	legend := []struct{ color, text string }{{colors[roleConsumer], "consumer"}, {colors[roleProducer], "producer"}, {colors[roleRouter], "router"}}
	for i, e := range legend {
		x := 12 + i*100
		fmt.Fprintf(&b, `<circle cx="%d" cy="14" r="6" fill="%s" stroke="#333"/><text x="%d" y="18">%s</text>`+"\n", x+6, e.color, x+16, e.text)
	}
	if !labels {
		fmt.Fprintf(&b, `<text x="%d" y="18" fill="#555">%d links: labels left out (see the links table)</text>`+"\n", 12+len(legend)*100, len(t.Links))
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// nodeRoles marks the nodes that run consumers (NDN or TCP receivers) and
// producers (or TCP senders).
func nodeRoles(sc *scenario.Scenario) map[string]int {
	roles := map[string]int{}
	mark := func(node string, role int) {
		if r := roles[node]; r != roleRouter && r != role {
			role = roleBoth
		}
		roles[node] = role
	}
	for _, c := range sc.Consumers {
		mark(c.Node, roleConsumer)
	}
	for _, f := range sc.TCP {
		mark(f.To, roleConsumer)
		mark(f.From, roleProducer)
	}
	for _, p := range sc.Producers {
		mark(p.Node, roleProducer)
	}
	return roles
}

// layers puts the nodes into columns by hop distance from the consumers
// (from the first node when there is none); nodes that cannot be reached
// form a last column. Within a column, nodes are ordered by the mean row
// of their neighbours in the previous column, which keeps links from
// crossing in the common cases (a line, a dumbbell, parallel paths).
func layers(t *topology.Topology, roles map[string]int) [][]string {
	dist := map[string]int{}
	var queue []string
	for _, nd := range t.Nodes {
		if r := roles[nd.Name]; r == roleConsumer || r == roleBoth {
			dist[nd.Name] = 0
			queue = append(queue, nd.Name)
		}
	}
	if len(queue) == 0 {
		dist[t.Nodes[0].Name] = 0
		queue = append(queue, t.Nodes[0].Name)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, nb := range t.Neighbors(n) {
			if _, ok := dist[nb]; !ok {
				dist[nb] = dist[n] + 1
				queue = append(queue, nb)
			}
		}
	}
	last := 0
	for _, d := range dist {
		last = max(last, d)
	}
	var cols [][]string
	for _, nd := range t.Nodes {
		d, ok := dist[nd.Name]
		if !ok {
			d = last + 1
		}
		for len(cols) <= d {
			cols = append(cols, nil)
		}
		cols[d] = append(cols[d], nd.Name)
	}
	row := map[string]float64{}
	for c, col := range cols {
		if c > 0 {
			key := map[string]float64{}
			for _, n := range col {
				var sum, k float64
				for _, nb := range t.Neighbors(n) {
					if r, ok := row[nb]; ok && slices.Contains(cols[c-1], nb) {
						sum, k = sum+r, k+1
					}
				}
				key[n] = math.Inf(1)
				if k > 0 {
					key[n] = sum / k
				}
			}
			sort.SliceStable(col, func(i, j int) bool { return key[col[i]] < key[col[j]] })
		}
		for r, n := range col {
			row[n] = float64(r)
		}
	}
	return cols
}

// linkWidth draws faster links thicker: 1 px up to 1 Mbit/s, growing with
// the logarithm of the rate, 5 px for an unlimited link.
func linkWidth(l topology.Link) float64 {
	if l.Bandwidth <= 0 {
		return 5
	}
	return min(5, 1+math.Max(0, math.Log10(l.Bandwidth/1e6)))
}

// linkLabel describes a link in up to three short lines.
func linkLabel(sc *scenario.Scenario, l topology.Link) []string {
	rate := "unlimited"
	if l.Bandwidth > 0 {
		rate = fmt.Sprintf("%g Mbit/s", l.Bandwidth/1e6)
	}
	first := fmt.Sprintf("%s, %v, q %d", rate, l.Delay, l.QueuePackets)
	if l.QueueBytes > 0 {
		first += fmt.Sprintf(" / %d B", l.QueueBytes)
	}
	out := []string{first}
	qa, _ := sc.QueueFor(l.A, l.B)
	qb, _ := sc.QueueFor(l.B, l.A)
	switch {
	case qa == qb && qa != scenario.DefaultQueue:
		out = append(out, qa)
	case qa != qb:
		out = append(out, fmt.Sprintf("%s→: %s, ←: %s", l.A, qa, qb))
	}
	la, lb := sc.LossFor(l.A, l.B), sc.LossFor(l.B, l.A)
	var extra []string
	switch {
	case la == lb && la > 0:
		extra = append(extra, fmt.Sprintf("loss %g%%", la*100))
	case la != lb:
		extra = append(extra, fmt.Sprintf("loss %g%% → %g%% ←", la*100, lb*100))
	}
	if sc.LossDetection(l.A, l.B) {
		extra = append(extra, "link-loss detection")
	}
	if len(extra) > 0 {
		out = append(out, strings.Join(extra, ", "))
	}
	return out
}
