package ndn

import (
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"
)

// A Data's memoized name hash is always the hash of the name it has now:
// computed once, kept while the name is the same, and computed again when
// the Data gets another name, a shorter slice of the same array included.
func TestDataNameHashFollowsItsName(t *testing.T) {
	prefix := Name{enc.NewGenericComponent("a"), enc.NewGenericComponent("b")}
	seg7 := NewSegmentInterest(prefix, 7).Name
	seg8 := NewSegmentInterest(prefix, 8).Name
	d := &Data{}
	for _, step := range []struct {
		what string
		set  func()
	}{
		{"no name", func() {}},
		{"a name", func() { d.Name = seg7 }},
		{"the same name again", func() {}},
		{"another name", func() { d.Name = seg8 }},
		{"a prefix of it, the same array", func() { d.Name = seg8[:2] }},
		{"the whole of it again", func() { d.Name = seg8 }},
		{"a copy of the name", func() { d.Name = seg8.Clone() }},
		{"the empty name", func() { d.Name = Name{} }},
		{"nil", func() { d.Name = nil }},
	} {
		step.set()
		if got, want := d.NameHash(), NameHash(d.Name); got != want {
			t.Errorf("%s (%s): NameHash %x, want %x", step.what, d.Name, got, want)
		}
	}
	if NameHash(seg7) == NameHash(seg8) || NameHash(seg8) == NameHash(seg8[:2]) {
		t.Errorf("distinct names hash alike: %x %x %x", NameHash(seg7), NameHash(seg8), NameHash(seg8[:2]))
	}
	if NameHash(nil) != EmptyNameHash || NameHash(Name{}) != EmptyNameHash {
		t.Errorf("the empty name hashes to %x and %x, want EmptyNameHash", NameHash(nil), NameHash(Name{}))
	}
}

// ExtendNameHash from a prefix's hash gives the whole name's, and the
// prefix hashes it sets are those of each prefix.
func TestExtendNameHash(t *testing.T) {
	long := make([]byte, 40)
	for i := range long {
		long[i] = byte(i)
	}
	n := Name{enc.NewGenericComponent("ndn"), enc.NewGenericBytesComponent(long), enc.NewGenericBytesComponent(long[:9]),
		enc.NewVersionComponent(3), enc.NewSegmentComponent(70000)}
	for from := 0; from <= len(n); from++ {
		hs := make([]uint64, len(n))
		if got, want := ExtendNameHash(NameHash(n[:from]), n, from, hs), NameHash(n); got != want {
			t.Errorf("from %d: %x, want %x", from, got, want)
		}
		for i := from; i < len(n); i++ {
			if hs[i] != NameHash(n[:i+1]) {
				t.Errorf("from %d: hs[%d] %x, want the hash of %s", from, i, hs[i], n[:i+1])
			}
		}
	}
}
