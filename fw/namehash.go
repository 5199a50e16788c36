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
	// prev is the previous name if it came with the promise that it never
	// changes (NameHashCache), else nil: a component of the next name
	// (with the same promise) whose value is the very same slice as
	// prev's is equal to it without comparing bytes.
	prev ndn.Name
	// digest hashes the prefixes of a long name in one pass.
	digest hash.Hash64
}

// hashedComp is one component of the previous name: its type, and where
// its value and its encoding end in buf.
type hashedComp struct {
	typ      uint64
	val, end int
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
func (h *nameHasher) prefixes(name ndn.Name) []uint64 { return h.hash(name, false) }

// hash is prefixes; same promises that name never changes (see prev).
func (h *nameHasher) hash(name ndn.Name, same bool) []uint64 {
	comps, buf := h.comps, h.buf
	prev := h.prev
	if !same {
		prev = nil
	}
	k := 0 // components shared with the previous name: same type, same value
	// First those that are the previous name's very components (comps
	// describes prev): a name built from the same prefix shares all but
	// its last.
	for k < len(name) && k < len(prev) && name[k].Typ == prev[k].Typ && sameVal(name[k].Val, prev[k].Val) {
		k++
	}
	for k < len(name) && k < len(comps) {
		c, p := &name[k], &comps[k]
		if uint64(c.Typ) != p.typ || p.end-p.val != len(c.Val) || string(buf[p.val:p.end]) != string(c.Val) {
			break
		}
		k++
	}
	if same {
		h.prev = name
	} else {
		h.prev = nil
	}
	if k == len(name) && k == len(comps) {
		return h.hs
	}
	if last := len(name) - 1; k == last && k == len(comps)-1 {
		// Only the last component's value differs, and its length does
		// not (the next segment of an object): its encoding's header is
		// the same, so the new value goes over the old one in place.
		if c, p := &name[k], &comps[k]; uint64(c.Typ) == p.typ && p.end-p.val == len(c.Val) {
			copy(buf[p.val:p.end], c.Val)
			h.hs[k+1] = xxhash.Sum64(buf)
			return h.hs
		}
	}
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
		comps = append(comps, hashedComp{typ: uint64(c.Typ), val: len(buf) - len(c.Val), end: len(buf)})
		work += len(buf)
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

// sameVal reports whether x and y are the very same slice of bytes.
func sameVal(x, y []byte) bool { return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0]) }

// isPrefix reports whether p is a prefix of n (or equal to it).
func isPrefix(p, n ndn.Name) bool {
	return len(p) <= len(n) && nameEqual(p, n[:len(p)])
}

// NameHashCache remembers the prefix hashes of the names forwarders
// hashed last, for forwarders that share their packets: in a simulation
// every forwarder on a path sees the same Interest and the same Data,
// names and all, so with one cache shared by all of them each name is
// hashed once instead of once per hop (Config.NameHashes).
//
// A name is found by its identity (the address of its first component and
// its length), so only names whose components never change may go through
// it: a runtime that decodes packets into buffers it reuses (the live one)
// must not use it. An entry keeps its name alive, so that no other name
// takes its address while it is cached. It is not safe for concurrent
// use: forwarders that share one run on one goroutine.
type NameHashCache struct {
	slots [nameCacheSlots]nameCacheSlot
}

const (
	nameCacheSlots = 512 // a power of two
	nameCacheComps = 8   // longer names are not cached
)

type nameCacheSlot struct {
	name ndn.Name
	hs   [nameCacheComps + 1]uint64
}

// NewNameHashCache returns an empty cache.
func NewNameHashCache() *NameHashCache { return &NameHashCache{} }

// slot returns where name is cached, if anywhere: its index mixes the
// length and the last two bytes of the last component's value, which
// differ between the segments of an object.
func (c *NameHashCache) slot(name ndn.Name) *nameCacheSlot {
	n := len(name)
	if n == 0 || n > nameCacheComps {
		return nil
	}
	// the last two bytes of the value: a segment number's lowest, so
	// that consecutive segments take consecutive slots
	i := n * 0x9e37
	if v := name[n-1].Val; len(v) > 0 {
		i += int(v[len(v)-1])
		if len(v) > 1 {
			i += int(v[len(v)-2]) << 8
		}
	}
	return &c.slots[i&(nameCacheSlots-1)]
}

// same reports whether a and b are the same name object.
func same(a, b ndn.Name) bool { return len(a) == len(b) && len(a) > 0 && &a[0] == &b[0] }

// fill returns the prefix hashes of name (see nameHasher.prefixes),
// which its slot s (nil for a name too long to cache) does not hold:
// computed by h, and cached in s. The slice is valid until the next call
// by any forwarder sharing c: a forwarder hashes once per packet, and
// never while another handles one. Forwarder.prefixHashes looks the name
// up first.
func (c *NameHashCache) fill(s *nameCacheSlot, name ndn.Name, h *nameHasher) []uint64 {
	hs := h.hash(name, true)
	if s != nil {
		s.name = name
		copy(s.hs[:], hs)
	}
	return hs
}
