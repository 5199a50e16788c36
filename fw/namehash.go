package fw

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/ndncc/ndncc/ndn"
)

// nameHasher computes the hashes of every prefix of a name without
// allocating, for the per-packet pipelines: hs[i] is nameHash of the
// name's first i components. The PIT, the CS, the FIB and the
// strategy-choice table all key by these hashes and resolve collisions
// with nameEqual; control operations (AddRoute, SetStrategy) hash with
// nameHash.
//
// A prefix's hash is its shorter prefix's hash with one more component
// mixed in (hashPrefixes), so a name's hashes cost one pass over its
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
	hs[0] = emptyNameHash
	hashPrefixes(hs, name, 0)
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
	hashPrefixes(hs, name, len(known)-1)
	return hs
}

// full returns the hash of the whole name.
func (h *nameHasher) full(name ndn.Name) uint64 {
	hs := h.prefixes(name)
	return hs[len(hs)-1]
}

// nameHash returns the hash of name, the key of its entries in the
// forwarder's tables.
func nameHash(name ndn.Name) uint64 {
	var buf [8]uint64
	hs := buf[:]
	if len(name) >= len(buf) {
		hs = make([]uint64, len(name)+1)
	}
	hs = hs[:len(name)+1]
	hs[0] = emptyNameHash
	hashPrefixes(hs, name, 0)
	return hs[len(name)]
}

// hashPrefixes sets hs[i] (len(hs) is len(name)+1) to the hash of
// name[:i] for every i above from, hs[from] being set already.
func hashPrefixes(hs []uint64, name ndn.Name, from int) {
	foldComponents(hs[from], name, from, hs[1:])
}

// hashFrom returns the hash of name, whose first from components hash to
// x (a table entry's name, found a prefix of it by content), folding in
// only the rest: what hashPrefixes computes last, without the hashes
// before it.
func hashFrom(x uint64, name ndn.Name, from int) uint64 {
	return foldComponents(x, name, from, nil)
}

// foldComponents returns the hash of name, whose first from components
// hash to x, and, unless hs is nil, sets hs[i] to the hash of name[:i+1]
// for every i from on. The empty name has a constant hash
// (emptyNameHash); a longer prefix's is the hash before it with the last
// component folded in by 64x64->128-bit multiplications (mum). A value of
// at most 8 bytes goes in one, as its two words (shortWords); a longer
// one after its type and length, 16 bytes a time, the last 16 in the
// last step. The value's last bytes are read with overlapping loads,
// which, its length known, cover every byte.
func foldComponents(x uint64, name ndn.Name, from int, hs []uint64) uint64 {
	for i := from; i < len(name); i++ {
		c := &name[i]
		v := c.Val
		n := len(v)
		var a, b uint64
		if n <= 8 {
			a, b = shortWords(uint64(c.Typ), v)
		} else {
			x = mum(x^uint64(c.Typ)^hashKey0, uint64(n)^hashKey1)
			for len(v) > 16 {
				x = mum(x^binary.LittleEndian.Uint64(v)^hashKey2, binary.LittleEndian.Uint64(v[8:])^hashKey3)
				v = v[16:]
			}
			if n > 16 { // the last 16 bytes, some hashed already
				v = c.Val[n-16:]
			}
			a, b = binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[len(v)-8:])
		}
		x = mum(x^a^hashKey2, b^hashKey3)
		if hs != nil {
			hs[i] = x
		}
	}
	return x
}

// shortWords returns two words that hold a component of type typ whose
// value v has at most 8 bytes: its first and its last four bytes (for a
// value of 2 or 3 bytes its first and last two in the first word, for one
// byte that byte), the low 32 bits of typ above the first and the length
// above the last.
// They are what the hash folds in, and, with the type, tell the component
// from any other (wordsPrefix): every byte of v is in them, and the
// length.
func shortWords(typ uint64, v []byte) (a, b uint64) {
	n := len(v)
	switch {
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(v)) | typ<<32, uint64(binary.LittleEndian.Uint32(v[n-4:])) | uint64(n)<<32
	case n >= 2:
		return uint64(binary.LittleEndian.Uint16(v)) | uint64(binary.LittleEndian.Uint16(v[n-2:]))<<16 | typ<<32, uint64(n) << 32
	case n == 1:
		return uint64(v[0]) | typ<<32, 1 << 32
	}
	return typ << 32, 0
}

// nameWords returns the shortWords of each component of name, a pair of
// zeros for a component of more than 8 bytes.
func nameWords(name ndn.Name) [][2]uint64 {
	ws := make([][2]uint64, len(name))
	for i := range name {
		if len(name[i].Val) <= 8 {
			ws[i][0], ws[i][1] = shortWords(uint64(name[i].Typ), name[i].Val)
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
			if a, b := shortWords(uint64(c.Typ), c.Val); a != ws[i][0] || b != ws[i][1] {
				return false
			}
		} else if !bytes.Equal(c.Val, p[i].Val) {
			return false
		}
	}
	return true
}

// The hash's constants: the empty name's hash and the keys mixed into
// each step (odd 64-bit constants with well-spread bits).
const (
	emptyNameHash uint64 = 0x243f6a8885a308d3
	hashKey0      uint64 = 0xa0761d6478bd642f
	hashKey1      uint64 = 0xe7037ed1a0b428db
	hashKey2      uint64 = 0x8ebc6af09c88c6e3
	hashKey3      uint64 = 0x589965cc75374cc3
)

// mum folds a and b into one word: the high and the low half of their
// 128-bit product, xored.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
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
