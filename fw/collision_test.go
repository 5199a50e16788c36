package fw

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// Entries whose names share a hash are told apart by name (and, in the
// PIT, selectors). These tests force every name onto the same hash.

func TestPITHashCollision(t *testing.T) {
	const h = 7
	p := newPIT()
	in := func(n string, opts ...func(*ndn.Interest)) *ndn.Interest { return interest(n, 1, opts...).Interest }
	a, b, acbp := in("/a"), in("/b"), in("/a", canBePrefix)
	ea, eb, ecbp := p.insert(a, h), p.insert(b, h), p.insert(acbp, h)
	for _, tc := range []struct {
		it   *ndn.Interest
		want *PitEntry
	}{{a, ea}, {b, eb}, {acbp, ecbp}, {in("/a", mustBeFresh), nil}, {in("/c"), nil}} {
		if got := p.find(tc.it, h); got != tc.want {
			t.Errorf("find %s cbp=%v mbf=%v: wrong entry", tc.it.Name, tc.it.CanBePrefix, tc.it.MustBeFresh)
		}
	}
	p.remove(eb) // middle of the chain
	if p.find(b, h) != nil || p.find(a, h) != ea || p.find(acbp, h) != ecbp {
		t.Error("after removing /b: wrong lookups")
	}
	p.remove(ecbp) // head of the chain
	if p.find(acbp, h) != nil || p.find(a, h) != ea {
		t.Error("after removing /a CanBePrefix: wrong lookups")
	}
	p.remove(ea)
	if p.size != 0 || slices.ContainsFunc(p.buckets, func(e *PitEntry) bool { return e != nil }) {
		t.Errorf("empty PIT has size %d, buckets %v", p.size, p.buckets)
	}
}

// Entries share buckets when their hashes differ only in high bits; the
// table grows as it fills, and every entry stays where find looks.
func TestPITBucketsAndGrowth(t *testing.T) {
	p := newPIT()
	var es []*PitEntry
	var its []*ndn.Interest
	for i := range 1000 {
		it := interest(fmt.Sprintf("/n/%d", i), 1).Interest
		h := uint64(i%10) << 40 // ten hashes, all in bucket 0
		if i%2 == 1 {
			h = uint64(i) // the rest spread
		}
		es = append(es, p.insert(it, h))
		its = append(its, it)
	}
	if len(p.buckets) < 1000 {
		t.Errorf("%d buckets for 1000 entries", len(p.buckets))
	}
	hash := func(i int) uint64 {
		if i%2 == 1 {
			return uint64(i)
		}
		return uint64(i%10) << 40
	}
	for i, it := range its {
		if p.find(it, hash(i)) != es[i] {
			t.Fatalf("entry %d not found", i)
		}
		if p.find(it, hash(i)+1<<50) != nil {
			t.Fatalf("entry %d found under another hash", i)
		}
	}
	for i := 0; i < len(es); i += 3 {
		p.remove(es[i])
	}
	for i, it := range its {
		if got := p.find(it, hash(i)); (got == nil) != (i%3 == 0) {
			t.Fatalf("entry %d: found %v after removing every third", i, got != nil)
		}
	}
}

func TestCSHashCollision(t *testing.T) {
	cs := newContentStore(2)
	hs := []uint64{0, 9} // every one-component name hashes to 9
	d := func(n string) *ndn.Data { return data(n, 0).Data }
	find := func(n string) ndn.Name {
		if got := cs.find(interest(n, 1).Interest, hs[1], 0); got != nil {
			return got.Name
		}
		return nil
	}
	cs.insert(d("/x"), hs, 0)
	cs.insert(d("/y"), hs, 0)
	if got := find("/x"); got.String() != "/x" {
		t.Errorf("find /x = %v", got)
	}
	if got := find("/y"); got.String() != "/y" {
		t.Errorf("find /y = %v", got)
	}
	cs.insert(d("/z"), hs, 0) // evicts /x, the least recently used
	if got := find("/x"); got != nil {
		t.Errorf("find /x after eviction = %v", got)
	}
	if find("/y").String() != "/y" || find("/z").String() != "/z" || cs.size() != 2 {
		t.Errorf("after eviction: /y, /z not both cached (size %d)", cs.size())
	}
}

func TestNameTableHashCollision(t *testing.T) {
	const h = 3
	tb := newNameTable[int]()
	tb.put(name("/a"), h).val = 1
	tb.put(name("/b"), h).val = 2
	tb.put(name("/c"), h).val = 3
	tb.del(name("/b"), h)
	tb.del(name("/d"), h) // absent: no effect
	for _, tc := range []struct {
		name string
		want int
	}{{"/a", 1}, {"/b", 0}, {"/c", 3}} {
		got := 0
		if n := tb.get(name(tc.name), h); n != nil {
			got = n.val
		}
		if got != tc.want {
			t.Errorf("get %s = %d, want %d", tc.name, got, tc.want)
		}
	}
	if tb.lens[1] != 2 {
		t.Errorf("%d one-component entries, want 2", tb.lens[1])
	}
}

// The CanBePrefix index remembers only the latest Data under a prefix
// (the documented restriction).
func TestCSCanBePrefixLatestOnly(t *testing.T) {
	h := newNameHasher()
	cs := newContentStore(2)
	for _, n := range []string{"/a/1", "/a/2"} {
		d := data(n, 0).Data
		cs.insert(d, h.prefixes(d.Name), 0)
	}
	it := interest("/a", 1, canBePrefix).Interest
	if got := cs.find(it, h.full(it.Name), 0); got == nil || got.Name.String() != "/a/2" {
		t.Fatalf("CanBePrefix /a = %v, want /a/2", got)
	}
	// /a/1 is now least recently used; caching /b/1 evicts it, and /a/2
	// stays the answer
	d := data("/b/1", 0).Data
	cs.insert(d, h.prefixes(d.Name), 0)
	ex := interest("/a/1", 2).Interest
	if got := cs.find(ex, h.full(ex.Name), 0); got != nil {
		t.Errorf("/a/1 still cached")
	}
	it2 := interest("/a", 3, canBePrefix).Interest
	if got := cs.find(it2, h.full(it2.Name), 0); got == nil || got.Name.String() != "/a/2" {
		t.Errorf("CanBePrefix /a after eviction = %v, want /a/2", got)
	}
	// the find made /a/2 recently used, so caching /c/1 evicts /b/1, and
	// its prefix goes from the index with it
	d = data("/c/1", 0).Data
	cs.insert(d, h.prefixes(d.Name), 0)
	it3 := interest("/b", 4, canBePrefix).Interest
	if got := cs.find(it3, h.full(it3.Name), 0); got != nil {
		t.Errorf("CanBePrefix /b = %v after /b/1 was evicted", got.Name)
	}
}

// A removed entry is recycled as good as new: it keeps no reference (to
// an Interest, a PitToken, a name, a strategy), every field is zero but
// the record arrays (empty) and the bound timer, and the records it gets
// when it is used again are those a new entry would get. (A recycled
// entry's next links the free list, of which e is here the only one.)
func TestPITRecycledEntryIsClean(t *testing.T) {
	p := newPIT()
	it := interest("/a/b", 1, canBePrefix, mustBeFresh).Interest
	e := p.insert(it, 5)
	e.insertInRecord(3, it, 1, []byte{1}, 10, it.LifetimeOrDefault())
	e.insertOutRecord(4, it, 10, it.LifetimeOrDefault())
	e.out[0].Nack, e.out[0].NackMark, e.out[0].retxInterval = ndn.NackCongestion, 2, 7
	e.strategy, e.expiry, e.retxInterval = &bestRoute{}, 99, 7
	in := e.in[:1]
	p.remove(e)
	if in[0].Interest != nil || in[0].PitToken != nil {
		t.Errorf("in-record keeps references: %+v", in[0])
	}
	v := reflect.ValueOf(e).Elem()
	for i := range v.NumField() {
		switch name := v.Type().Field(i).Name; name {
		case "in", "out":
			if v.Field(i).Len() != 0 {
				t.Errorf("%s has %d records", name, v.Field(i).Len())
			}
		case "in1", "out1", "timer", "timerBound":
		default:
			if !v.Field(i).IsZero() {
				t.Errorf("field %s = %v after remove, want zero", name, v.Field(i))
			}
		}
	}
	it2 := interest("/c", 2).Interest
	again := p.insert(it2, 6)
	if again != e {
		t.Fatalf("the removed entry was not recycled")
	}
	q := newPIT()
	fresh := q.insert(it2, 6)
	for _, x := range []*PitEntry{again, fresh} {
		x.insertInRecord(5, it2, 0, nil, 20, it2.LifetimeOrDefault())
		x.insertOutRecord(6, it2, 20, it2.LifetimeOrDefault())
	}
	if !reflect.DeepEqual(again.in, fresh.in) || !reflect.DeepEqual(again.out, fresh.out) {
		t.Errorf("recycled entry's records %+v %+v, a new one's %+v %+v", again.in, again.out, fresh.in, fresh.out)
	}
}

// A Data's prefix hashes are made only while the PIT holds CanBePrefix
// entries (needsPrefixHashes): with none, matchData finds the exact
// entries from the whole name's hash alone; with one, its prefix too.
func TestPITMatchDataNeedsPrefixHashesOnlyForCanBePrefix(t *testing.T) {
	p := newPIT()
	h := newNameHasher()
	it := func(n string, opts ...func(*ndn.Interest)) *ndn.Interest { return interest(n, 1, opts...).Interest }
	d := name("/a/b/c")
	full := ndn.NameHash(d)
	exact := p.insert(it("/a/b/c"), full)
	if p.needsPrefixHashes() {
		t.Fatal("needsPrefixHashes with no CanBePrefix entry")
	}
	if got := p.matchData(d, full, nil, nil); !slices.Equal(got, []*PitEntry{exact}) {
		t.Fatalf("matchData without prefix hashes = %v, want the exact entry", got)
	}
	prefix := p.insert(it("/a", canBePrefix), ndn.NameHash(name("/a")))
	if !p.needsPrefixHashes() {
		t.Fatal("no needsPrefixHashes with a CanBePrefix entry")
	}
	if got := p.matchData(d, full, h.prefixes(d), nil); !slices.Equal(got, []*PitEntry{exact, prefix}) {
		t.Fatalf("matchData with a CanBePrefix entry = %v, want the exact entry and /a", got)
	}
	p.remove(prefix)
	if p.needsPrefixHashes() {
		t.Error("needsPrefixHashes after the CanBePrefix entry left")
	}
}
