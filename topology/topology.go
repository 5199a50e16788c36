package topology

import (
	"fmt"
	"math"
	"time"
	"unicode/utf8"
)

// Topology is a network: named nodes joined by bidirectional point-to-point
// links. Every link has the same parameters in both directions, and each
// direction has its own output queue.
type Topology struct {
	Nodes []Node
	Links []Link
	// Notes say what a topology file held that was read but changes
	// nothing ("file:line: ..."), such as Mini-NDN's [faces] section; the
	// tools print them.
	Notes []string
}

// Node is a network node; every node runs a forwarder.
type Node struct {
	Name string
	// Params holds the key=value parameters of a Mini-NDN [nodes] line
	// (for example NLSR's hyperbolic "radius" and "angle"), nil when there
	// are none. ndncc computes routes from link delays (see NextHops), so
	// no parameter changes the simulation; they are kept so that a Mini-NDN
	// file loads as it is and tools can show them.
	Params map[string]string
	Pos    Pos
}

// Link is a bidirectional point-to-point link between nodes A and B.
type Link struct {
	A, B string
	// Delay is the one-way propagation delay.
	Delay time.Duration
	// Bandwidth is the transmission rate of each direction in bit/s;
	// 0 means unlimited (a packet is transmitted in no time).
	Bandwidth float64
	// QueuePackets is the output-queue limit of each direction, in packets
	// (at least 1).
	QueuePackets int
	// QueueBytes is an additional output-queue limit of each direction, in
	// bytes on the wire; 0 means no byte limit.
	QueueBytes int
	// Loss is the probability (0..1) that a packet is lost, independently
	// for every packet and every direction.
	Loss float64
	// Jitter varies each packet's propagation delay: Delay plus a uniform
	// draw in [-Jitter, +Jitter], at least 0 (Mini-NDN's jitter=, netem's
	// delay jitter). Packets still arrive in the order they left.
	Jitter time.Duration
	Pos    Pos
}

// NewLink returns a link between a and b with the default parameters (see
// defaults.go).
func NewLink(a, b string) Link {
	return Link{A: a, B: b, Delay: DefaultDelay, Bandwidth: DefaultBandwidth,
		QueuePackets: DefaultQueuePackets, QueueBytes: DefaultQueueBytes, Loss: DefaultLoss}
}

// Other returns the end of l that is not name.
func (l Link) Other(name string) string {
	if l.A == name {
		return l.B
	}
	return l.A
}

// Connects reports whether l joins a and b (in either order).
func (l Link) Connects(a, b string) bool {
	return (l.A == a && l.B == b) || (l.A == b && l.B == a)
}

// String returns "a:b", the way a Mini-NDN file names the link.
func (l Link) String() string { return l.A + ":" + l.B }

// Node returns the node called name. It scans the node list.
func (t *Topology) Node(name string) (Node, bool) {
	for _, n := range t.Nodes {
		if n.Name == name {
			return n, true
		}
	}
	return Node{}, false
}

// HasNode reports whether a node called name exists.
func (t *Topology) HasNode(name string) bool {
	_, ok := t.Node(name)
	return ok
}

// Link returns the link joining a and b, in either order. It scans the link
// list.
func (t *Topology) Link(a, b string) (Link, bool) {
	for _, l := range t.Links {
		if l.Connects(a, b) {
			return l, true
		}
	}
	return Link{}, false
}

// Neighbors returns the nodes linked to name, in link order.
func (t *Topology) Neighbors(name string) []string {
	var ns []string
	for _, l := range t.Links {
		if l.A == name || l.B == name {
			ns = append(ns, l.Other(name))
		}
	}
	return ns
}

// Components numbers the connected components: two nodes have the same
// number if and only if a path of links joins them. It takes one pass over
// the links, where Connected takes one per call.
func (t *Topology) Components() map[string]int {
	g := newGraph(t)
	comp := make([]int, len(g.names))
	for i := range comp {
		comp[i] = -1
	}
	for start := range g.names {
		if comp[start] >= 0 {
			continue
		}
		comp[start] = start
		stack := []int{start}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, e := range g.adj[n] {
				if comp[e.to] < 0 {
					comp[e.to] = start
					stack = append(stack, e.to)
				}
			}
		}
	}
	out := make(map[string]int, len(g.names))
	for i, name := range g.names {
		out[name] = comp[i]
	}
	return out
}

// Connected reports whether a path of links joins a and b (a node is
// connected to itself).
func (t *Topology) Connected(a, b string) bool {
	g := newGraph(t)
	ia, oka := g.index[a]
	ib, okb := g.index[b]
	if !oka || !okb {
		return false
	}
	seen := make([]bool, len(g.names))
	stack := []int{ia}
	seen[ia] = true
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == ib {
			return true
		}
		for _, e := range g.adj[n] {
			if !seen[e.to] {
				seen[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	return false
}

// Limits of a topology: each keeps a simulation's memory bounded, far
// above any experiment's needs.
const (
	MaxNodes        = 10_000
	MaxLinks        = 100_000
	MaxQueuePackets = 1_000_000 // per link direction
	MaxQueueBytes   = 1 << 30   // per link direction
)

// Validate checks that t is a well-formed network: one to MaxNodes nodes,
// node names valid and unique, at most MaxLinks links, each joining two
// distinct declared nodes, at most one link between two nodes, and link
// parameters in range. It reports every problem, each as an *Error at the
// position of the node or link, joined.
func (t *Topology) Validate() error {
	var errs []error
	switch {
	case len(t.Nodes) == 0:
		errs = append(errs, Errorf(Pos{}, "nodes", "the topology has no nodes"))
	case len(t.Nodes) > MaxNodes:
		return Errorf(t.Nodes[MaxNodes].Pos, "nodes", "%d nodes, over the limit of %d", len(t.Nodes), MaxNodes)
	}
	if len(t.Links) > MaxLinks {
		return Errorf(t.Links[MaxLinks].Pos, "links", "%d links, over the limit of %d", len(t.Links), MaxLinks)
	}
	declared := make(map[string]Pos, len(t.Nodes))
	for _, n := range t.Nodes {
		if err := CheckName(n.Name); err != nil {
			errs = append(errs, &Error{Pos: n.Pos, Field: "nodes", Err: err})
			continue
		}
		if first, dup := declared[n.Name]; dup {
			errs = append(errs, Errorf(n.Pos, "nodes", "node %q is declared twice (first at %s)", n.Name, first))
			continue
		}
		declared[n.Name] = n.Pos
	}
	type pair struct{ a, b string }
	links := make(map[pair]Pos, len(t.Links))
	for _, l := range t.Links {
		errs = append(errs, l.check(declared)...)
		p := pair{l.A, l.B}
		if p.b < p.a {
			p.a, p.b = p.b, p.a
		}
		if first, dup := links[p]; dup {
			errs = append(errs, Errorf(l.Pos, "links", "link %s: duplicate link (first at %s)", l, first))
			continue
		}
		links[p] = l.Pos
	}
	return JoinErrors(errs)
}

// check validates one link against the declared nodes.
func (l Link) check(declared map[string]Pos) []error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, Errorf(l.Pos, field, "link %s: "+format, append([]any{l}, args...)...))
	}
	for _, end := range []string{l.A, l.B} {
		if _, ok := declared[end]; !ok {
			bad("links", "node %q is not declared", end)
		}
	}
	if l.A == l.B {
		bad("links", "a link cannot join a node to itself")
	}
	if l.Delay < 0 {
		bad("links", "Delay must not be negative, got %v", l.Delay)
	}
	if !(l.Bandwidth >= 0) || math.IsInf(l.Bandwidth, 0) {
		bad("links", "Bandwidth must be a finite number of bit/s, or 0 for unlimited, got %v", l.Bandwidth)
	}
	if l.QueuePackets < 1 || l.QueuePackets > MaxQueuePackets {
		bad("links", "QueuePackets must be from 1 to %d, got %d", MaxQueuePackets, l.QueuePackets)
	}
	if l.QueueBytes < 0 || l.QueueBytes > MaxQueueBytes {
		bad("links", "QueueBytes must be from 0 to %d, got %d", MaxQueueBytes, l.QueueBytes)
	}
	if !(l.Loss >= 0 && l.Loss <= 1) {
		bad("links", "Loss must be a probability between 0 and 1, got %v", l.Loss)
	}
	return errs
}

// CheckName reports whether name is a valid node name: 1 to 64 characters,
// each an ASCII letter, digit, '-', '_' or '.'.
func CheckName(name string) error {
	if name == "" {
		return fmt.Errorf("empty node name")
	}
	if len(name) > 64 {
		return fmt.Errorf("node name %.20q... is longer than 64 characters", name)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("node name %q is not valid UTF-8", name)
	}
	for _, c := range name {
		if c >= utf8.RuneSelf || !isNameChar(byte(c)) {
			return fmt.Errorf("node name %q has the character %q (use letters, digits, '-', '_' and '.')", name, c)
		}
	}
	return nil
}

func isNameChar(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '-' || c == '_' || c == '.'
}
