package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ndncc/ndncc/topology"
)

// MaxEvents bounds a scenario's [[event]] entries.
const MaxEvents = 100_000

// Event is a scheduled change to the network ([[event]]): at At, a link
// (both directions) goes down or up or takes a new rate, delay or loss, or
// a node fails (all its links down) or recovers (all up). Exactly one of
// Link and Node is set, and exactly one change.
type Event struct {
	At time.Duration
	// Link names a topology link as "A-B" (or "B-A"); Node a node.
	Link, Node string
	// Down and Up take the link, or every link of the node, down or up.
	Down, Up bool
	// Bandwidth, if set, is the link's new rate in bit/s (0: unlimited).
	Bandwidth *float64
	// Delay, if set, is the link's new one-way delay.
	Delay *time.Duration
	// Loss, if set, is the link's new random loss, a probability 0..1
	// (written in percent, as the topology's).
	Loss *float64
	Pos  topology.Pos
}

// Change describes what the event does, for messages and logs: "down",
// "up", "bw=5Mbps", "delay=20ms" or "loss=5%".
func (e Event) Change() string {
	switch {
	case e.Down:
		return "down"
	case e.Up:
		return "up"
	case e.Bandwidth != nil:
		if *e.Bandwidth == 0 {
			return "bw=unlimited"
		}
		return "bw=" + strconv.FormatFloat(*e.Bandwidth/1e6, 'g', -1, 64) + "Mbps"
	case e.Delay != nil:
		return "delay=" + e.Delay.String()
	case e.Loss != nil:
		return "loss=" + strconv.FormatFloat(*e.Loss*100, 'g', -1, 64) + "%"
	}
	return "nothing"
}

// Target is what the event changes: "link A-B" or "node N".
func (e Event) Target() string {
	if e.Node != "" {
		return "node " + e.Node
	}
	return "link " + e.Link
}

// EventLink returns the topology link an event's Link names ("A-B" or
// "B-A"); ok is false if none does.
func (s *Scenario) EventLink(e Event) (topology.Link, bool) {
	if s.Topology == nil || e.Link == "" {
		return topology.Link{}, false
	}
	for _, l := range s.Topology.Links {
		if e.Link == l.A+"-"+l.B || e.Link == l.B+"-"+l.A {
			return l, true
		}
	}
	return topology.Link{}, false
}

// EventLinks returns the links an event changes: its link, or every link
// of its node, in topology order.
func (s *Scenario) EventLinks(e Event) []topology.Link {
	if e.Node == "" {
		if l, ok := s.EventLink(e); ok {
			return []topology.Link{l}
		}
		return nil
	}
	var out []topology.Link
	if s.Topology != nil {
		for _, l := range s.Topology.Links {
			if l.A == e.Node || l.B == e.Node {
				out = append(out, l)
			}
		}
	}
	return out
}

// SortedEvents returns the events in time order (file order at one time).
func (s *Scenario) SortedEvents() []Event {
	out := slices.Clone(s.Events)
	slices.SortStableFunc(out, func(a, b Event) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	return out
}

// eventKeys are the keys of an [[event]] entry.
func eventKeys() []string {
	return []string{"at", "link", "node", "down", "up", "bw", "delay", "loss"}
}

// event decodes one [[event]] entry.
func (d *decoder) event(m map[string]any, path string) Event {
	d.known(m, path, eventKeys()...)
	e := Event{At: -1, Pos: d.at(path)}
	d.duration(m, path, "at", &e.At)
	d.str(m, path, "link", &e.Link)
	d.str(m, path, "node", &e.Node)
	d.boolean(m, path, "down", &e.Down)
	d.boolean(m, path, "up", &e.Up)
	if v, ok := m["bw"]; ok {
		bw, err := parseRate(v)
		if err != nil {
			d.errorf(joinKey(path, "bw"), "%v", err)
		} else {
			e.Bandwidth = &bw
		}
	}
	var delay time.Duration
	if d.duration(m, path, "delay", &delay) {
		e.Delay = &delay
	}
	var loss float64
	if d.number(m, path, "loss", &loss) {
		p := loss / 100
		e.Loss = &p
	}
	if _, ok := m["down"]; ok && !e.Down {
		d.errorf(joinKey(path, "down"), "write down = true, or leave it out")
	}
	if _, ok := m["up"]; ok && !e.Up {
		d.errorf(joinKey(path, "up"), "write up = true, or leave it out")
	}
	return e
}

// parseRate reads an event's bw: a number of Mbit/s (as the topology's
// bw), or a string with a unit: "5Mbps", "500kbps", "1Gbps", "64000bps".
func parseRate(v any) (float64, error) {
	switch x := v.(type) {
	case int64:
		return mbpsRate(float64(x))
	case float64:
		return mbpsRate(x)
	case string:
		s := strings.TrimSpace(x)
		for _, u := range []struct {
			suffix string
			scale  float64
		}{{"Gbps", 1e9}, {"Mbps", 1e6}, {"kbps", 1e3}, {"Kbps", 1e3}, {"bps", 1}} {
			if num, ok := strings.CutSuffix(s, u.suffix); ok {
				f, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
				if err != nil || !(f > 0) || math.IsInf(f, 0) {
					return 0, fmt.Errorf("must be a positive rate such as \"5Mbps\", got %q", x)
				}
				return f * u.scale, nil
			}
		}
		return 0, fmt.Errorf("must be a rate with a unit (bps, kbps, Mbps, Gbps) such as \"5Mbps\", or a number of Mbit/s, got %q", x)
	}
	return 0, fmt.Errorf("expected a rate such as \"5Mbps\" or a number of Mbit/s, got %s", typeName(v))
}

func mbpsRate(mbps float64) (float64, error) {
	if !(mbps > 0) || math.IsInf(mbps, 0) {
		return 0, fmt.Errorf("must be a positive number of Mbit/s, got %v", mbps)
	}
	return mbps * 1e6, nil
}

// events checks every event.
func (v *validator) events() {
	for i, e := range v.s.Events {
		path := joinIndex("event", i)
		switch {
		case e.At < 0:
			v.errorf(path+".at", e.Pos, "required: when it happens, such as \"10s\"")
		case v.s.Duration > 0 && e.At >= v.s.Duration:
			v.errorf(path+".at", e.Pos, "%v is not before the end of the run (duration %v)", e.At, v.s.Duration)
		}
		n := 0
		for _, set := range []bool{e.Down, e.Up, e.Bandwidth != nil, e.Delay != nil, e.Loss != nil} {
			if set {
				n++
			}
		}
		if n != 1 {
			v.errorf(path, e.Pos, "needs exactly one change: down = true, up = true, bw, delay or loss (got %d)", n)
		}
		switch {
		case e.Link == "" && e.Node == "":
			v.errorf(path, e.Pos, "needs link = \"A-B\" or node = \"N\"")
		case e.Link != "" && e.Node != "":
			v.errorf(path, e.Pos, "names a link and a node: give one")
		case e.Node != "":
			v.node(path+".node", e.Node, e.Pos)
			if n == 1 && !e.Down && !e.Up {
				v.errorf(path+".node", e.Pos, "a node goes down or up; a rate, delay or loss belongs to a link")
			}
		default:
			if _, ok := v.s.EventLink(e); !ok && v.s.Topology != nil {
				var names []string
				for _, l := range v.s.Topology.Links {
					names = append(names, l.A+"-"+l.B)
				}
				v.errorf(path+".link", e.Pos, "no link %q in the topology (links: %s)", e.Link, strings.Join(names, ", "))
			}
		}
		if e.Delay != nil && *e.Delay < 0 {
			v.errorf(path+".delay", e.Pos, "must not be negative, got %v", *e.Delay)
		}
		if e.Loss != nil && !(*e.Loss >= 0 && *e.Loss <= 1) {
			v.errorf(path+".loss", e.Pos, "must be a percentage from 0 to 100, got %v", *e.Loss*100)
		}
	}
}
