package ndn

import (
	"encoding/binary"
	"math/bits"
)

// The name hash keys a forwarder's tables (PIT, Content Store, FIB,
// strategy choice), which resolve collisions by comparing names. A name's
// hash is its one-shorter prefix's hash with its last component folded in,
// so the hashes of every prefix of a name cost one pass over it.

// EmptyNameHash is the hash of the empty name.
const EmptyNameHash uint64 = 0x243f6a8885a308d3

// The keys mixed into each step of the hash: odd 64-bit constants with
// well-spread bits.
const (
	hashKey0 uint64 = 0xa0761d6478bd642f
	hashKey1 uint64 = 0xe7037ed1a0b428db
	hashKey2 uint64 = 0x8ebc6af09c88c6e3
	hashKey3 uint64 = 0x589965cc75374cc3
)

// NameHash returns the hash of name.
func NameHash(name Name) uint64 { return ExtendNameHash(EmptyNameHash, name, 0, nil) }

// ExtendNameHash returns the hash of name, whose first from components
// hash to x, and, unless hs is nil, sets hs[i] to the hash of name[:i+1]
// for every i from on (hs has at least len(name) elements).
//
// A component is folded in by 64x64->128-bit multiplications (mum). A value
// of at most 8 bytes goes in one, as its two words (ComponentWords); a
// longer one after its type and length, 16 bytes a time, the last 16 in
// the last step. The value's last bytes are read with overlapping loads,
// which, its length known, cover every byte.
func ExtendNameHash(x uint64, name Name, from int, hs []uint64) uint64 {
	for i := from; i < len(name); i++ {
		c := &name[i]
		v := c.Val
		n := len(v)
		var a, b uint64
		if n <= 8 {
			a, b = ComponentWords(uint64(c.Typ), v)
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

// ComponentWords returns two words that hold a component of type typ whose
// value v has at most 8 bytes: its first and its last four bytes (for a
// value of 2 or 3 bytes its first and last two in the first word, for one
// byte that byte), the low 32 bits of typ above the first and the length
// above the last. They are what the name hash folds in, and, with the
// type, tell the component from any other: every byte of v is in them, and
// the length.
func ComponentWords(typ uint64, v []byte) (a, b uint64) {
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

// mum folds a and b into one word: the high and the low half of their
// 128-bit product, xored.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// nameHashMemo is a Data's name hash, computed once for all the
// forwarders a simulated Data crosses. It is tied to the name it was
// computed for, by that name's first component's address and its length
// (the reference keeps the name's array alive, so the address is never
// another name's): a Data given another name (an assignment to its Name,
// a decoder that reuses the struct) hashes the new one. Like the Data's
// cached size, it assumes that a sent packet's name is not changed in
// place.
type nameHashMemo struct {
	first *Component
	n     int
	h     uint64
}

// of returns the hash of name, memoized.
func (m *nameHashMemo) of(name Name) uint64 {
	if len(name) == 0 {
		return EmptyNameHash
	}
	if m.first == &name[0] && m.n == len(name) {
		return m.h
	}
	h := NameHash(name)
	m.first, m.n, m.h = &name[0], len(name), h
	return h
}

// NameHash returns NameHash(d.Name), computed once for d's name.
func (d *Data) NameHash() uint64 { return d.hash.of(d.Name) }
