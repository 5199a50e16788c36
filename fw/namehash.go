package fw

import (
	"bytes"
	"hash"
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
	buf   []byte       // the encoding of the previous name's components
	comps []hashedComp // the previous name's components
	hs    []uint64     // hs[i]: the hash of the first i components
	// digest hashes the prefixes of a long name in one pass.
	digest hash.Hash64
}

// hashedComp is one component of the previous name: its type, its value
// (a slice of buf) and where its encoding ends in buf.
type hashedComp struct {
	typ uint64
	val []byte
	end int
}

func newNameHasher() nameHasher {
	return nameHasher{
		buf:    make([]byte, 0, 128),
		comps:  make([]hashedComp, 0, 16),
		hs:     append(make([]uint64, 0, 17), xxhash.Sum64(nil)),
		digest: xxhash.New(),
	}
}

// prefixes returns hs with len(name)+1 elements, hs[i] the hash of
// name[:i]. The slice is reused by the next call.
func (h *nameHasher) prefixes(name ndn.Name) []uint64 {
	comps := h.comps
	n := min(len(name), len(comps))
	k := 0 // components shared with the previous name: same type, same value
	for ; k < n; k++ {
		c, p := &name[k], &comps[k]
		if uint64(c.Typ) != p.typ || string(c.Val) != string(p.val) {
			break
		}
	}
	if k == len(name) && k == len(comps) {
		return h.hs
	}
	if last := len(name) - 1; k == last && k == len(comps)-1 {
		// Only the last component's value differs, and its length does
		// not (the next segment of an object): its encoding's header is
		// the same, so the new value goes over the old one in place.
		if c, p := &name[k], &comps[k]; uint64(c.Typ) == p.typ && len(p.val) == len(c.Val) {
			copy(p.val, c.Val)
			h.hs[k+1] = xxhash.Sum64(h.buf)
			return h.hs
		}
	}
	buf := h.buf
	comps, hs := comps[:k], h.hs[:k+1]
	if k > 0 {
		buf = buf[:comps[k-1].end]
	} else {
		buf = buf[:0]
	}
	work := 0 // bytes hashed prefix by prefix: the sum of their lengths
	for i := k; i < len(name); i++ {
		c := &name[i]
		n := c.EncodingLength()
		at := len(buf)
		buf = slices.Grow(buf, n)[:at+n]
		c.EncodeInto(buf[at:])
		comps = append(comps, hashedComp{typ: uint64(c.Typ), end: len(buf)})
		work += len(buf)
	}
	// Each value is a slice of buf, which may have moved as it grew.
	for i := range comps {
		p := &comps[i]
		p.val = buf[p.end-len(name[i].Val) : p.end : p.end]
	}
	h.buf, h.comps = buf, comps
	if work <= streamHashWork {
		// short names, the common case: each prefix hashed whole
		for i := k; i < len(name); i++ {
			hs = append(hs, xxhash.Sum64(buf[:comps[i].end]))
		}
	} else {
		// a long name: one pass over the encoding, each prefix's hash
		// read from the running digest, so the work is linear in the
		// name's size instead of quadratic
		if h.digest == nil {
			h.digest = xxhash.New()
		}
		d := h.digest
		d.Reset()
		at := 0
		if k > 0 {
			at = comps[k-1].end
		}
		d.Write(buf[:at])
		for i := k; i < len(name); i++ {
			d.Write(buf[at:comps[i].end])
			at = comps[i].end
			hs = append(hs, d.Sum64())
		}
	}
	h.hs = hs
	return hs
}

// streamHashWork is the most bytes a name's new prefixes may add up to
// before they are hashed in one pass (nameHasher.hash): hashing each
// prefix whole is quicker for the short names of nearly every packet,
// one pass bounds the work of a long one.
const streamHashWork = 4096

// full returns the hash of the whole name.
func (h *nameHasher) full(name ndn.Name) uint64 {
	hs := h.prefixes(name)
	return hs[len(hs)-1]
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
