package fw

import (
	"bytes"

	"github.com/ndncc/ndncc/ndn"
)

// nameHasher computes the hashes (ndn.NameHash) of every prefix of a name
// without allocating, for the per-packet pipelines: hs[i] is the hash of
// the name's first i components. The PIT, the CS, the FIB and the
// strategy-choice table all key by these hashes and resolve collisions
// with nameEqual; control operations (AddRoute, SetStrategy) hash with
// ndn.NameHash.
//
// A prefix's hash is its shorter prefix's hash with one more component
// mixed in (ndn.ExtendNameHash), so a name's hashes cost one pass over its
// components, whatever its length, and nothing is kept between names: a
// name is known by its content only.
type nameHasher struct {
	hs []uint64 // the last name's prefix hashes, reused by the next
}

func newNameHasher() nameHasher {
	return nameHasher{hs: make([]uint64, 0, 17)}
}

// prefixes returns hs with len(name)+1 elements, hs[i] the hash of
// name[:i]. The slice is reused by the next call.
func (h *nameHasher) prefixes(name ndn.Name) []uint64 {
	if cap(h.hs) <= len(name) {
		h.hs = make([]uint64, 2*len(name)+1)
	}
	hs := h.hs[:len(name)+1]
	hs[0] = ndn.EmptyNameHash
	ndn.ExtendNameHash(hs[0], name, 0, hs[1:])
	return hs
}

// prefixesAfter is prefixes for a name whose first len(known)-1
// components are a name whose prefix hashes are known (a table entry's,
// found a prefix of the name by content): those are copied, not hashed
// again.
func (h *nameHasher) prefixesAfter(name ndn.Name, known []uint64) []uint64 {
	if cap(h.hs) <= len(name) {
		h.hs = make([]uint64, 2*len(name)+1)
	}
	hs := h.hs[:len(name)+1]
	// A few words, copied by a loop: copy calls memmove, which cost 1.3
	// million more instructions in BenchmarkLinear10MiB (docs/performance.md).
	//lint:ignore S1001 see above
	for i, x := range known {
		hs[i] = x
	}
	ndn.ExtendNameHash(hs[len(known)-1], name, len(known)-1, hs[1:])
	return hs
}

// full returns the hash of the whole name.
func (h *nameHasher) full(name ndn.Name) uint64 {
	hs := h.prefixes(name)
	return hs[len(hs)-1]
}

// nameWords returns the ndn.ComponentWords of each component of name, a pair of
// zeros for a component of more than 8 bytes.
func nameWords(name ndn.Name) [][2]uint64 {
	ws := make([][2]uint64, len(name))
	for i := range name {
		if len(name[i].Val) <= 8 {
			ws[i][0], ws[i][1] = ndn.ComponentWords(uint64(name[i].Typ), name[i].Val)
		}
	}
	return ws
}

// wordsPrefix reports whether p, whose components' words are ws
// (nameWords), is a prefix of name (or equal to it). A component of at
// most 8 bytes is compared by its type and its words, computed as the
// hash computes them, instead of a call to compare its bytes.
func wordsPrefix(p ndn.Name, ws [][2]uint64, name ndn.Name) bool {
	if len(p) > len(name) || len(ws) != len(p) {
		return false
	}
	for i := range p {
		c := &name[i]
		if c.Typ != p[i].Typ {
			return false
		}
		if len(c.Val) <= 8 {
			// (b holds the length: a pair of zeros, for a longer
			// component of p, never matches)
			if a, b := ndn.ComponentWords(uint64(c.Typ), c.Val); a != ws[i][0] || b != ws[i][1] {
				return false
			}
		} else if !bytes.Equal(c.Val, p[i].Val) {
			return false
		}
	}
	return true
}

// nameEqual reports whether a and b are the same name. It compares
// components directly, which avoids the interface conversions of
// enc.Component.Equal on the per-packet path. Two slices of one array are
// equal at once: a PIT entry keeps its Interest's name, and a producer
// names its Data with the Interest's name, so that is the common case.
func nameEqual(a, b ndn.Name) bool {
	if len(a) != len(b) {
		return false
	}
	if same(a, b) {
		return true
	}
	for i := range a {
		if a[i].Typ != b[i].Typ || !bytes.Equal(a[i].Val, b[i].Val) {
			return false
		}
	}
	return true
}

// isPrefix reports whether p is a prefix of n (or equal to it).
func isPrefix(p, n ndn.Name) bool {
	return len(p) <= len(n) && nameEqual(p, n[:len(p)])
}

// same reports whether a and b are slices of one array of components.
func same(a, b ndn.Name) bool { return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] }
