package fw

import (
	"bytes"
	"slices"

	"github.com/cespare/xxhash"

	"github.com/ndncc/ndncc/ndn"
)

// nameHasher computes the hashes of every prefix of a name without
// allocating, for the per-packet pipelines. hs[i] equals enc.Name.Hash of
// the name's first i components, as enc.Name.PrefixHash does (ndnd hashes
// the concatenated component encodings with xxHash64); a test pins that
// equality, so control operations (AddRoute, SetStrategy) can use ndnd's
// own Hash. The PIT, the CS, the FIB and the strategy-choice table all key
// by these hashes and resolve collisions with nameEqual.
//
// Consecutive packets of a forwarder mostly share all but their last
// component (the segments of one object, Interests and Data alike), so
// the hasher keeps the previous name's encoding and hashes: the prefix a
// name shares with it is compared, not encoded and hashed again, and each
// longer prefix costs one encoding of its last component and one
// xxHash64 of the prefix's bytes.
type nameHasher struct {
	buf  []byte   // the encoding of the previous name's components
	ends []int    // ends[i]: the end in buf of component i-1's encoding (ends[0] = 0)
	vals []int    // vals[i]: where component i's value starts in buf
	typs []uint64 // typs[i]: the type of component i
	hs   []uint64 // hs[i]: the hash of the first i components
}

func newNameHasher() nameHasher {
	return nameHasher{
		buf:  make([]byte, 0, 128),
		ends: append(make([]int, 0, 16), 0),
		vals: make([]int, 0, 16),
		typs: make([]uint64, 0, 16),
		hs:   append(make([]uint64, 0, 16), xxhash.Sum64(nil)),
	}
}

// prefixes returns hs with len(name)+1 elements, hs[i] the hash of
// name[:i]. The slice is reused by the next call.
func (h *nameHasher) prefixes(name ndn.Name) []uint64 {
	k := 0 // components shared with the previous name
	for k < len(name) && k < len(h.typs) && h.same(k, name[k]) {
		k++
	}
	h.buf, h.ends, h.vals, h.typs, h.hs = h.buf[:h.ends[k]], h.ends[:k+1], h.vals[:k], h.typs[:k], h.hs[:k+1]
	for _, c := range name[k:] {
		n := c.EncodingLength()
		at := len(h.buf)
		h.buf = slices.Grow(h.buf, n)[:at+n]
		c.EncodeInto(h.buf[at:])
		h.ends = append(h.ends, len(h.buf))
		h.vals = append(h.vals, len(h.buf)-len(c.Val))
		h.typs = append(h.typs, uint64(c.Typ))
		h.hs = append(h.hs, xxhash.Sum64(h.buf))
	}
	return h.hs
}

// same reports whether c is component i of the previous name: the same
// type and the same value (so the same encoding).
func (h *nameHasher) same(i int, c ndn.Component) bool {
	v := h.buf[h.vals[i]:h.ends[i+1]]
	return uint64(c.Typ) == h.typs[i] && len(v) == len(c.Val) && bytes.Equal(v, c.Val)
}

// full returns the hash of the whole name.
func (h *nameHasher) full(name ndn.Name) uint64 {
	hs := h.prefixes(name)
	return hs[len(hs)-1]
}

// nameEqual reports whether a and b are the same name. It compares
// components directly, which avoids the interface conversions of
// enc.Component.Equal on the per-packet path.
func nameEqual(a, b ndn.Name) bool {
	if len(a) != len(b) {
		return false
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
