package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/sim"
)

// ScenarioParams describes a scenario for a report page: the run's
// limits, every link, the forwarders' settings, every producer, consumer
// and TCP flow.
func ScenarioParams(sc *scenario.Scenario) []Param {
	ps := []Param{
		{Key: "duration limit", Value: sc.Duration.String()},
		{Key: "header overhead", Value: fmt.Sprintf("%d bytes", sc.HeaderOverhead)},
	}
	if sc.Profile != "" {
		ps = append(ps, Param{Key: "profile", Value: sc.Profile})
	}
	r := sc.Routers
	ps = append(ps, Param{Key: "routers", Value: fmt.Sprintf("strategy %s, Content Store %d, queue %s%s", r.Strategy, r.CSCapacity, r.Queue, paramText(r.QueueParams))})
	for _, n := range slices.Sorted(maps.Keys(sc.NodeRouters)) {
		o := sc.RouterFor(n)
		ps = append(ps, Param{Key: "router " + n, Value: fmt.Sprintf("strategy %s, Content Store %d, queue %s%s", o.Strategy, o.CSCapacity, o.Queue, paramText(o.QueueParams))})
	}
	if sc.Topology != nil {
		for _, l := range sc.Topology.Links {
			ps = append(ps, Param{Key: "link " + l.A + "—" + l.B, Value: strings.Join(linkLabel(sc, l), "; ")})
		}
	}
	for i, p := range sc.Producers {
		ps = append(ps, Param{Key: fmt.Sprintf("producer %d (%s)", i, p.Node),
			Value: fmt.Sprintf("%s, %d bytes in %d-byte segments, %s, freshness %v", p.Prefix, p.FileSize, p.SegmentSize, p.Signature, p.Freshness)})
	}
	for _, c := range sc.Consumers {
		v := fmt.Sprintf("%s on %s from %v: %s", c.Prefix, c.Node, c.Start, c.Pipeline)
		if c.App != "" {
			v = fmt.Sprintf("%s on %s from %v: app %s", c.Prefix, c.Node, c.Start, c.App)
		}
		if pr := sc.ProfileOf(c); pr != "" && c.App == "" {
			v += ", profile " + pr
		}
		ps = append(ps, Param{Key: "consumer " + c.ID, Value: v + paramText(c.Params)})
	}
	for _, e := range sc.SortedEvents() {
		ps = append(ps, Param{Key: "event at " + e.At.String(), Value: e.Target() + " " + e.Change()})
	}
	for _, f := range sc.TCP {
		ps = append(ps, Param{Key: "tcp " + f.ID, Value: fmt.Sprintf("%s -> %s, %d bytes, %s, MSS %d, from %v", f.From, f.To, f.Size, f.Algorithm, f.MSS, f.Start)})
	}
	return ps
}

// paramText formats parameters as " {k=v, ...}", sorted; "" when empty.
func paramText(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	var kv []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		kv = append(kv, k+"="+m[k])
	}
	return " {" + strings.Join(kv, ", ") + "}"
}

// SplitParams separates the parameters every variant has with the same
// value (in the first variant's order) from those that differ, listed per
// variant.
func SplitParams(names []string, params [][]Param) (common []Param, per []VariantParams) {
	if len(params) == 0 {
		return nil, nil
	}
	same := func(p Param) bool {
		for _, ps := range params {
			if !slices.Contains(ps, p) {
				return false
			}
		}
		return true
	}
	for _, p := range params[0] {
		if same(p) {
			common = append(common, p)
		}
	}
	for i, ps := range params {
		vp := VariantParams{Variant: names[i]}
		for _, p := range ps {
			if !same(p) {
				vp.Params = append(vp.Params, p)
			}
		}
		if len(vp.Params) > 0 {
			per = append(per, vp)
		}
	}
	return common, per
}

// ResultTables are a run's flows and links as tables, as `ndncc sim`
// prints them (links that carried no packet are left out).
func ResultTables(r *sim.Result) []Table {
	flows := Table{Title: "Flows", Caption: fmt.Sprintf("Seed %d; %.3f s simulated. docs/results.md defines every metric.", r.Seed, r.SimTimeS),
		Header: []string{"flow", "consumer", "producer", "pipeline", "complete", "time (s)", "goodput (kbps)", "throughput (kbps)",
			"timeouts", "timeout %", "retx", "decreases", "marks", "nacks", "RTT min/avg/max (ms)"}}
	for _, f := range r.Flows {
		row := []string{f.ID, f.Consumer, f.Producer, f.Pipeline, fmt.Sprint(f.Complete), fmt.Sprintf("%.2f", f.DownloadTimeS),
			fmt.Sprintf("%.0f", f.GoodputKbps), fmt.Sprintf("%.0f", f.ThroughputKbps), fmt.Sprint(f.Timeouts),
			fmt.Sprintf("%.2f", f.TimeoutPct), fmt.Sprint(f.Retransmissions), fmt.Sprint(f.LossEvents), fmt.Sprint(f.Marks),
			fmt.Sprint(f.Nacks), fmt.Sprintf("%.1f/%.1f/%.1f", f.RTTMinMs, f.RTTAvgMs, f.RTTMaxMs)}
		if f.Error != "" {
			row[4] += " (" + f.Error + ")"
		}
		flows.Rows = append(flows.Rows, row)
	}
	links := Table{Title: "Links", Caption: "One row per link direction that carried a packet.",
		Header: []string{"link", "packets", "Interests", "Data", "Nacks", "drops (tail/AQM/loss)", "marks", "max queue", "mean queue", "utilization"}}
	for _, l := range r.Links {
		if l.Packets == 0 {
			continue
		}
		links.Rows = append(links.Rows, []string{l.From + " → " + l.To, fmt.Sprint(l.Packets), fmt.Sprint(l.Interests), fmt.Sprint(l.Data),
			fmt.Sprint(l.Nacks), fmt.Sprintf("%d (%d/%d/%d)", l.Drops, l.TailDrops, l.AQMDrops, l.LossDrops), fmt.Sprint(l.Marks),
			fmt.Sprint(l.MaxQueue), fmt.Sprintf("%.2f", l.MeanQueue), fmt.Sprintf("%.1f%%", l.Utilization*100)})
	}
	return []Table{flows, links}
}
