package fw

import (
	"bytes"
	"hash"

	"github.com/cespare/xxhash"

	"github.com/ndncc/ndncc/ndn"
)

// nameHasher computes the hashes of every prefix of a name in one pass and
// without allocating, for the per-packet pipelines. hs[i] equals
// enc.Name.Hash of the name's first i components, as enc.Name.PrefixHash
// does (ndnd hashes a name's component encodings with xxHash64, and the
// streaming digest gives every prefix on the way); a test pins that
// equality, so control operations (AddRoute, SetStrategy) can use ndnd's
// own Hash. The PIT, the CS, the FIB and the strategy-choice table all key
// by these hashes and resolve collisions with nameEqual.
type nameHasher struct {
	d   hash.Hash64
	buf []byte
	hs  []uint64
}

func newNameHasher() nameHasher {
	return nameHasher{d: xxhash.New(), buf: make([]byte, 64), hs: make([]uint64, 0, 16)}
}

// prefixes returns hs with len(name)+1 elements, hs[i] the hash of
// name[:i]. The slice is reused by the next call.
func (h *nameHasher) prefixes(name ndn.Name) []uint64 {
	h.d.Reset()
	hs := append(h.hs[:0], h.d.Sum64())
	for _, c := range name {
		n := c.EncodingLength()
		if n > len(h.buf) {
			h.buf = make([]byte, 2*n)
		}
		c.EncodeInto(h.buf[:n])
		h.d.Write(h.buf[:n])
		hs = append(hs, h.d.Sum64())
	}
	h.hs = hs
	return hs
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
