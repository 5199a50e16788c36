package ndn

import (
	enc "github.com/named-data/ndnd/std/encoding"
)

// SegmentOf returns the segment number carried by the last component of n,
// when that component is a typed segment component (NDN naming conventions
// rev3) holding a well-formed non-negative integer.
func SegmentOf(n Name) (uint64, bool) {
	if len(n) == 0 {
		return 0, false
	}
	return numberOf(n[len(n)-1], enc.TypeSegmentNameComponent)
}

// VersionOf returns the number of the last typed version component of n
// (it need not be the last component: /prefix/v=V/seg=N has version V).
func VersionOf(n Name) (uint64, bool) {
	for i := len(n) - 1; i >= 0; i-- {
		if n[i].Typ == enc.TypeVersionNameComponent {
			return numberOf(n[i], enc.TypeVersionNameComponent)
		}
	}
	return 0, false
}

// FinalSegment returns the segment number in d's FinalBlockId, when it has
// one and it is a typed segment component.
func (d *Data) FinalSegment() (uint64, bool) {
	if !d.HasFinal {
		return 0, false
	}
	return numberOf(d.FinalBlockID, enc.TypeSegmentNameComponent)
}

// numberOf decodes c as a non-negative integer component of type typ.
func numberOf(c Component, typ enc.TLNum) (uint64, bool) {
	if c.Typ != typ {
		return 0, false
	}
	v, _, err := enc.ParseNat(c.Val)
	if err != nil {
		return 0, false
	}
	return uint64(v), true
}
