package fw

import (
	"bytes"
	"slices"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// hashesOf returns ndn.NameHash of every prefix of n, shortest first.
func hashesOf(n ndn.Name) []uint64 {
	hs := make([]uint64, len(n)+1)
	for i := range hs {
		hs[i] = ndn.NameHash(n[:i])
	}
	return hs
}

// The PIT, CS and FIB key the per-packet path's lookups by nameHasher's
// prefix hashes and the control operations' by ndn.NameHash: they must agree,
// whatever the name before.
func TestNameHasherMatchesNameHash(t *testing.T) {
	h := newNameHasher()
	long := make([]byte, 300)
	for _, n := range []ndn.Name{
		{},
		name("/a"),
		name("/ndn/edu/arizona/file/v=1/seg=42"),
		name("/ndn/edu/arizona/file/v=1/seg=43"),
		name("/ndn/edu/arizona/file/v=1/seg=43"),
		name("/ndn/edu/arizona/file/v=2/seg=44"),
		name("/ndn/edu/arizona/file/v=1/seg=300"),
		name("/ndn/edu/arizona/file/v=1/300"),
		name("/ndn/edu/arizona/file/v=1"),
		name("/ndn/edu/arizona/file/v=1/seg=43/x"),
		name("/ndn/edu/arizonb"),
		ndn.NewSegmentInterest(name("/a/b"), 70000).Name,
		ndn.NewSegmentInterest(name("/a/bb"), 70000).Name,
		{enc.NewGenericBytesComponent(long), enc.NewGenericComponent("x")},
		{enc.NewGenericBytesComponent(long[:299]), enc.NewGenericComponent("x")},
		longName(20, 40), // more prefixes than the hasher's first slice holds
		{},
	} {
		got := slices.Clone(h.prefixes(n))
		if want := hashesOf(n); !slices.Equal(got, want) {
			t.Errorf("%s: prefixes %v, ndn.NameHash of each prefix %v", n, got, want)
		}
		if h.full(n) != ndn.NameHash(n) {
			t.Errorf("%s: full %x, ndn.NameHash %x", n, h.full(n), ndn.NameHash(n))
		}
	}
}

// A name that starts with a table entry's name (lastMatch) takes the
// entry's prefix hashes and hashes the rest: the same hashes as hashing it
// all, whatever prefix is known, even the whole name or none of it; and
// ndn.ExtendNameHash, from the known prefix's hash, gives the whole name's.
func TestPrefixesAfterAKnownPrefix(t *testing.T) {
	h := newNameHasher()
	for _, n := range []ndn.Name{
		name("/ndn/edu/arizona/file/v=1/seg=42"),
		ndn.NewSegmentInterest(name("/a/b"), 70000).Name,
		longName(20, 40), // more prefixes than the hasher's first slice holds
	} {
		want := hashesOf(n)
		for l := range len(n) + 1 {
			known := hashesOf(n[:l])
			if got := h.prefixesAfter(n, known); !slices.Equal(got, want) {
				t.Errorf("%s after its first %d components: %v, want %v", n, l, got, want)
			}
			if got := ndn.ExtendNameHash(known[l], n, l, nil); got != want[len(n)] {
				t.Errorf("%s: ndn.ExtendNameHash from its first %d components %x, want %x", n, l, got, want[len(n)])
			}
		}
	}
}

// An entry of a name table keeps its name's prefix hashes, and lastMatch
// finds it for a name below it only while it is the longest match.
func TestNameTableLastMatch(t *testing.T) {
	tb := newNameTable[int]()
	route := name("/a/b")
	tb.put(route, ndn.NameHash(route)).val = 1
	n := name("/a/b/c/d")
	if tb.lastMatch(n) != nil {
		t.Fatal("a match before any lookup")
	}
	e := tb.longest(n, hashesOf(n))
	if e == nil || e.val != 1 || !slices.Equal(e.hs, hashesOf(route)) {
		t.Fatalf("longest gave %+v, want the entry of /a/b with its prefix hashes", e)
	}
	if tb.lastMatch(n) != e || tb.lastMatch(name("/a/b")) != e {
		t.Error("lastMatch does not find the last longest match")
	}
	if tb.lastMatch(name("/a/c/d")) != nil || tb.lastMatch(name("/a")) != nil {
		t.Error("lastMatch finds an entry that is not a prefix")
	}
	longer := name("/a/b/c")
	tb.put(longer, ndn.NameHash(longer)).val = 2
	if tb.lastMatch(n) != nil {
		t.Error("lastMatch finds an entry after a longer one was added")
	}
}

// Names that differ anywhere get different hashes: in a component's type,
// its value or its length, in where one component ends and the next
// begins, in a byte of a value of any length (every byte of the tail's
// overlapping loads counts).
func TestNameHashTellsNamesApart(t *testing.T) {
	names := []ndn.Name{
		{},
		name("/a"),
		name("/a/b"),
		name("/ab"),
		name("/a/bb"),
		name("/ab/b"),
		name("/a/seg=1"),
		name("/a/1"),
		name("/a/v=1"),
		{enc.NewGenericComponent("")},
		{enc.NewGenericComponent(""), enc.NewGenericComponent("")},
	}
	for size := 1; size <= 40; size++ {
		v := bytes.Repeat([]byte{'x'}, size)
		names = append(names, ndn.Name{enc.NewGenericBytesComponent(slices.Clone(v))})
		for i := range size {
			w := slices.Clone(v)
			w[i] = 'y'
			names = append(names, ndn.Name{enc.NewGenericBytesComponent(w)})
		}
	}
	seen := map[uint64]ndn.Name{}
	for _, n := range names {
		h := ndn.NameHash(n)
		if m, ok := seen[h]; ok {
			t.Errorf("%s and %s hash alike (%x)", m, n, h)
		}
		seen[h] = n
	}
}

// The PIT picks a bucket by a hash's low bits: the segments of one object
// spread over them about evenly (no bucket holds more than 4 times its
// share).
func TestNameHashSpreadsSegments(t *testing.T) {
	const names, buckets = 1 << 14, 1 << 10
	prefix := name("/example/file/v=1700000000000000")
	var load [buckets]int
	seen := map[uint64]bool{}
	for seg := range uint64(names) {
		h := ndn.NameHash(ndn.NewSegmentInterest(prefix, seg).Name)
		if seen[h] {
			t.Fatalf("segment %d: a hash seen before", seg)
		}
		seen[h] = true
		load[h%buckets]++
	}
	if m := slices.Max(load[:]); m > 4*names/buckets {
		t.Errorf("the fullest of %d buckets holds %d of %d names", buckets, m, names)
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

// wordsPrefix, the tables' last-match test, tells a prefix by its
// components' words exactly as isPrefix does by their bytes: for names
// that differ in one byte of a component of any length up to 24, in its
// length, in its type, or in a type above 32 bits (which the words hold
// only the low bits of), and for prefixes longer than the name.
func TestWordsPrefixIsPrefix(t *testing.T) {
	var names []ndn.Name
	for size := range 25 {
		v := bytes.Repeat([]byte{'x'}, size)
		names = append(names, ndn.Name{enc.NewGenericComponent("a"), enc.NewGenericBytesComponent(slices.Clone(v))})
		names = append(names, ndn.Name{enc.NewGenericComponent("a"), enc.NewBytesComponent(enc.TypeSegmentNameComponent, slices.Clone(v))})
		names = append(names, ndn.Name{enc.NewGenericComponent("a"), enc.NewBytesComponent(enc.TLNum(1<<32|8), slices.Clone(v))})
		for i := range size {
			w := slices.Clone(v)
			w[i] = 'y'
			names = append(names, ndn.Name{enc.NewGenericComponent("a"), enc.NewGenericBytesComponent(w)})
		}
	}
	names = append(names, name("/a"), name("/"), name("/b/xx"))
	var withTail []ndn.Name
	for _, n := range names {
		withTail = append(withTail, append(slices.Clone(n), enc.NewGenericComponent("tail")))
	}
	names = append(names, withTail...)
	for _, p := range names {
		ws := nameWords(p)
		for _, n := range names {
			if got, want := wordsPrefix(p, ws, n), isPrefix(p, n); got != want {
				t.Errorf("wordsPrefix(%s, %s) = %v, isPrefix %v", p, n, got, want)
			}
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

// The hasher and the tables know a name by its content only: a name whose
// bytes are rewritten in place between two packets (a runtime that decodes
// into a buffer it reuses) gets the hashes and the longest match of what
// it now says, not of what was there before.
func TestNamesAreKnownByContent(t *testing.T) {
	h := newNameHasher()
	table := newNameTable[string]()
	var routes []ndn.Name
	add := func(r string) {
		rn := name(r)
		table.put(rn, h.full(rn)).val = rn.String()
		routes = append(routes, rn)
	}
	for _, r := range []string{"/", "/ndn/edu", "/ndn/edu/file/v=1"} {
		add(r)
	}
	check := func(n ndn.Name) {
		t.Helper()
		want := ""
		for _, r := range routes { // the longest by brute force
			if isPrefix(r, n) && len(r.String()) > len(want) {
				want = r.String()
			}
		}
		hs := slices.Clone(h.prefixes(n))
		if want := hashesOf(n); !slices.Equal(hs, want) {
			t.Errorf("%s: hashes %v, ndn.NameHash of each prefix %v", n, hs, want)
		}
		if e := table.longest(n, hs); e == nil || e.val != want {
			t.Errorf("%s: longest match %v, want %s", n, e, want)
		}
	}
	for range 2 {
		for _, n := range sharedNames() {
			check(n)
		}
		// the same name object, its bytes rewritten: edu becomes edv, then
		// back, and the file component's last byte changes
		n := ndn.NewSegmentInterest(name("/ndn/edu/file/v=1"), 7).Name
		for _, b := range []struct {
			comp, at int
			to       byte
		}{{1, 2, 'v'}, {1, 2, 'u'}, {2, 3, 'f'}, {2, 3, 'e'}} {
			n[b.comp].Val[b.at] = b.to
			check(n)
		}
		// a route added in between: what was found last is forgotten
		add("/ndn/edu/filf/v=1/seg=5")
	}
}
