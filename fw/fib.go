package fw

import (
	"slices"

	"github.com/ndncc/ndncc/ndn"
)

// NextHop is one upstream of a FIB entry.
type NextHop struct {
	Face FaceID
	Cost uint64
}

// fib is the Forwarding Information Base: name prefixes with nexthops
// ranked by cost (lower first; equal costs keep the order they were added
// in). An entry exists only while it has a nexthop. Nexthop slices are
// copied on write, so a slice handed to a strategy never changes under it.
type fib struct {
	t nameTable[[]NextHop]
}

func newFIB() fib { return fib{t: newNameTable[[]NextHop]()} }

// add adds face as a nexthop of prefix, or updates its cost.
func (b *fib) add(prefix ndn.Name, h uint64, face FaceID, cost uint64) {
	n := b.t.put(prefix, h)
	hops := without(n.val, face)
	i := len(hops)
	for i > 0 && hops[i-1].Cost > cost {
		i--
	}
	n.val = slices.Insert(hops, i, NextHop{Face: face, Cost: cost})
}

// without returns a new slice of hops without face.
func without(hops []NextHop, face FaceID) []NextHop {
	out := make([]NextHop, 0, len(hops)+1)
	for _, nh := range hops {
		if nh.Face != face {
			out = append(out, nh)
		}
	}
	return out
}

// remove removes face from the nexthops of prefix.
func (b *fib) remove(prefix ndn.Name, h uint64, face FaceID) {
	n := b.t.get(prefix, h)
	if n == nil {
		return
	}
	n.val = without(n.val, face)
	if len(n.val) == 0 {
		b.t.del(prefix, h)
	}
}

// removeFace removes face from every entry.
func (b *fib) removeFace(face FaceID) {
	var empty []ndn.Name
	b.t.each(func(n *nameNode[[]NextHop]) {
		n.val = without(n.val, face)
		if len(n.val) == 0 {
			empty = append(empty, n.name)
		}
	})
	for _, name := range empty {
		b.t.del(name, ndn.NameHash(name))
	}
}

// lookup returns the nexthops of the longest prefix of name in the FIB, or
// nil. hs are name's prefix hashes. The caller must not modify the result.
func (b *fib) lookup(name ndn.Name, hs []uint64) []NextHop {
	if n := b.t.longest(name, hs); n != nil {
		return n.val
	}
	return nil
}

// FIBEntry is one FIB entry: a prefix and its nexthops, lowest cost first.
type FIBEntry struct {
	Prefix   ndn.Name
	NextHops []NextHop
}

// FIB returns the FIB's entries in NDN canonical name order. The nexthop
// slices are the FIB's own (copied on write): the caller must not modify
// them.
func (f *Forwarder) FIB() []FIBEntry {
	var out []FIBEntry
	f.fib.t.each(func(n *nameNode[[]NextHop]) {
		out = append(out, FIBEntry{Prefix: n.name, NextHops: n.val})
	})
	slices.SortFunc(out, func(a, b FIBEntry) int { return a.Prefix.Compare(b.Prefix) })
	return out
}

// AddRoute adds face as a nexthop for prefix with the given cost, or
// changes the cost if it is one already.
func (f *Forwarder) AddRoute(prefix ndn.Name, face FaceID, cost uint64) {
	f.fib.add(prefix, ndn.NameHash(prefix), face, cost)
}

// RemoveRoute removes face from the nexthops of prefix.
func (f *Forwarder) RemoveRoute(prefix ndn.Name, face FaceID) {
	f.fib.remove(prefix, ndn.NameHash(prefix), face)
}
