package ndn

import (
	"fmt"
	"strings"

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

// ParseName parses an NDN name URI such as "/example/file/v=1". It must
// start with "/". ndnd's parser panics on some malformed components
// (v1.5.3: "/="); the panic is turned into an error, so that a bad name in
// a scenario, on the command line or from the network is an error, never a
// crash.
func ParseName(s string) (n Name, err error) {
	if !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("name %q must start with \"/\"", s)
	}
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("invalid name %q: malformed component", s)
		}
	}()
	n, err = enc.NameFromStr(s)
	if err != nil {
		return nil, fmt.Errorf("invalid name %q: %w", s, err)
	}
	return n, nil
}
