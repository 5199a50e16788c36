package fw

import (
	"slices"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// The PIT, CS and FIB key by nameHasher's prefix hashes; they must be the
// hashes ndnd gives the same names. The hasher reuses what the previous
// name shares with the next, so the names follow one another as packets
// do: sharing prefixes, and differing in a component's type, value or
// length only.
func TestNameHasherMatchesNdnd(t *testing.T) {
	h := newNameHasher()
	long := make([]byte, 300) // a component longer than the initial buffer
	for _, n := range []ndn.Name{
		{},
		name("/a"),
		name("/ndn/edu/arizona/file/v=1/seg=42"),
		name("/ndn/edu/arizona/file/v=1/seg=43"),
		name("/ndn/edu/arizona/file/v=1/seg=43"),
		name("/ndn/edu/arizona/file/v=2/seg=44"), // two components change, lengths do not
		name("/ndn/edu/arizona/file/v=1/seg=300"),
		name("/ndn/edu/arizona/file/v=1/300"),
		name("/ndn/edu/arizona/file/v=1"),
		name("/ndn/edu/arizona/file/v=1/seg=43/x"),
		name("/ndn/edu/arizonb"),
		ndn.NewSegmentInterest(name("/a/b"), 70000).Name,
		ndn.NewSegmentInterest(name("/a/bb"), 70000).Name,
		{enc.NewGenericBytesComponent(long), enc.NewGenericComponent("x")},
		{enc.NewGenericBytesComponent(long[:299]), enc.NewGenericComponent("x")},
		{},
	} {
		got := slices.Clone(h.prefixes(n))
		if want := n.PrefixHash(); !slices.Equal(got, want) {
			t.Errorf("%s: prefixes %v, ndnd PrefixHash %v", n, got, want)
		}
		for i := range n {
			if got[i] != n[:i].Hash() {
				t.Errorf("%s: hash of %d-component prefix %x, ndnd %x", n, i, got[i], n[:i].Hash())
			}
		}
		if h.full(n) != n.Hash() {
			t.Errorf("%s: full %x, ndnd Hash %x", n, h.full(n), n.Hash())
		}
	}
}

func TestNameEqualAndPrefix(t *testing.T) {
	for _, tc := range []struct {
		a, b          string
		equal, prefix bool
	}{
		{"/a/b", "/a/b", true, true},
		{"/a", "/a/b", false, true},
		{"/", "/a", false, true},
		{"/a/b", "/a", false, false},
		{"/a/c", "/a/b", false, false},
		{"/a/b", "/a/bb", false, false},
		{"/a/seg=1", "/a/1", false, false}, // same bytes, different type
	} {
		a, b := name(tc.a), name(tc.b)
		if got := nameEqual(a, b); got != tc.equal {
			t.Errorf("nameEqual(%s, %s) = %v", tc.a, tc.b, got)
		}
		if got := isPrefix(a, b); got != tc.prefix {
			t.Errorf("isPrefix(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// BenchmarkNameHasher hashes the names a forwarder sees on a transfer:
// Interests and Data of consecutive segments of one object, alternately.
func BenchmarkNameHasher(b *testing.B) {
	h := newNameHasher()
	prefix := name("/example/file/v=1700000000000000")
	var names []ndn.Name
	for seg := range uint64(64) {
		names = append(names, ndn.NewSegmentInterest(prefix, seg).Name, ndn.NewSegmentInterest(prefix, seg+32).Name)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		h.prefixes(names[i%len(names)])
		i++
	}
}

// The shared cache gives every name its hashes, whether it finds the name
// (the same object again), misses it (another object with the same
// components, or a slot another name took) or cannot hold it (too long).
func TestNameHashCache(t *testing.T) {
	f := &Forwarder{names: NewNameHashCache(), hasher: newNameHasher()}
	check := func(n ndn.Name) {
		t.Helper()
		dst := f.prefixHashes(n)
		if want := n.PrefixHash(); !slices.Equal(dst, want) {
			t.Fatalf("%s: %v, want %v", n, dst, want)
		}
	}
	prefix := name("/example/file/v=1")
	var names []ndn.Name
	for seg := range uint64(3 * nameCacheSlots) { // more names than slots
		names = append(names, ndn.NewSegmentInterest(prefix, seg).Name)
	}
	for range 2 {
		for _, n := range names {
			check(n)
			check(n)               // found
			check(slices.Clone(n)) // same components, another object
			check(n[:len(n)-1])    // a prefix of it, another length
		}
	}
	long := name("/a/b/c/d/e/f/g/h/i/j")
	check(long)
	check(long)
	check(ndn.Name{})
}

// sharedNames are names as a simulation's packets carry them: segment
// Interests built from one prefix (their components the very same slices),
// one of another prefix with equal bytes, and names that differ in a
// component's type or value.
func sharedNames() []ndn.Name {
	p, q := name("/ndn/edu/file/v=1"), name("/ndn/edu/file/v=1")
	return []ndn.Name{
		ndn.NewSegmentInterest(p, 1).Name,
		ndn.NewSegmentInterest(p, 2).Name,
		ndn.NewSegmentInterest(q, 2).Name, // equal bytes, other arrays
		ndn.NewSegmentInterest(p, 70000).Name,
		p,
		ndn.NewSegmentInterest(p[:3], 5).Name,
		ndn.NewSegmentInterest(name("/ndn/edu/filf/v=1"), 5).Name,
		ndn.NewSegmentInterest(p, 3).Name,
		{},
		ndn.NewSegmentInterest(p, 4).Name,
	}
}

// With names that never change (NameHashCache), the hasher may take a
// component that is the very same slice as the previous name's as equal:
// the hashes are still ndnd's.
func TestNameHasherSameNames(t *testing.T) {
	h := newNameHasher()
	for _, n := range sharedNames() {
		if got, want := slices.Clone(h.hash(n, true)), n.PrefixHash(); !slices.Equal(got, want) {
			t.Errorf("%s: hash %v, ndnd PrefixHash %v", n, got, want)
		}
	}
}

// A table that may take names built from one prefix as equal (sameNames)
// finds the longest match one that compares every name finds.
func TestNameTableSameNames(t *testing.T) {
	var tables [2]nameTable[string]
	var h nameHasher
	for i := range tables {
		tables[i] = newNameTable[string]()
		tables[i].sameNames = i == 1
		h = newNameHasher()
		for _, r := range []string{"/", "/ndn/edu", "/ndn/edu/file/v=1"} {
			rn := name(r)
			tables[i].put(rn, h.full(rn)).val = r
		}
	}
	for round := range 2 {
		for _, n := range sharedNames() {
			hs := slices.Clone(h.prefixes(n))
			a, b := tables[0].longest(n, hs), tables[1].longest(n, hs)
			if a == nil || b == nil || a.val != b.val {
				t.Errorf("round %d, %s: longest %v with same names, %v comparing", round, n, b, a)
			}
		}
		// a route added in between: what was found last is forgotten
		for i := range tables {
			rn := name("/ndn/edu/file/v=1/seg=2")
			tables[i].put(rn, h.full(rn)).val = "seg=2"
		}
	}
}
