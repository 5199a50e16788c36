package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// contentStore caches Data packets, at most capacity of them, and evicts
// the least recently used. Its memory grows with the Data it holds, not
// with its capacity. A Data is fresh until its FreshnessPeriod has
// passed (scheduler time) since it was cached; a MustBeFresh Interest only
// matches fresh Data, and a Data without FreshnessPeriod is never fresh.
//
// Exact-name lookup is one hash-map probe. CanBePrefix lookup is made cheap
// by a second index: for every proper non-empty prefix of a cached name it
// remembers the most recently cached Data under that prefix. A CanBePrefix
// Interest is answered with an exact-name match if there is one, else with
// that most recent Data if it still matches (MustBeFresh included). This is
// a documented restriction: when the most recent Data under a prefix is
// evicted or stale, older Data under the same prefix is not found, and an
// Interest for the empty name never matches by prefix.
type contentStore struct {
	capacity int
	// admit and serve are NFD's CS_ENABLE_ADMIT and CS_ENABLE_SERVE: Data
	// are cached, and Interests answered from the cache, only when set.
	admit, serve bool
	exact        map[uint64]*csEntry // by name hash, chained
	under        map[uint64]*csEntry // by proper-prefix hash: latest Data under it
	lru          *csEntry            // sentinel: lru.next is the most recently used
	n            int
}

type csEntry struct {
	data       *ndn.Data
	hash       uint64
	prefixes   []uint64 // hashes of name[:1] .. name[:len-1]
	freshUntil time.Duration
	chain      *csEntry // next entry with the same name hash
	prev, next *csEntry // LRU list
}

func newContentStore(capacity int) contentStore {
	// No size hint for the maps: the store grows with what it caches, so
	// a large capacity costs nothing until it is used.
	cs := contentStore{capacity: capacity, admit: true, serve: true,
		exact: make(map[uint64]*csEntry), under: make(map[uint64]*csEntry)}
	cs.lru = &csEntry{}
	cs.lru.prev, cs.lru.next = cs.lru, cs.lru
	return cs
}

// admits reports whether an arriving Data is cached.
func (cs *contentStore) admits() bool { return cs.admit && cs.capacity > 0 }

// serves reports whether an Interest is looked up in the cache.
func (cs *contentStore) serves() bool { return cs.serve && cs.capacity > 0 }

// setCapacity changes the capacity, evicting the least recently used Data
// beyond it.
func (cs *contentStore) setCapacity(capacity int) {
	cs.capacity = capacity
	for cs.n > capacity {
		e := cs.lru.prev
		cs.unlinkPrefixes(e)
		cs.unlinkLRU(e)
		cs.unlinkExact(e)
		cs.n--
	}
}

// size returns the number of cached Data.
func (cs *contentStore) size() int { return cs.n }

// insert caches d, replacing a Data of the same name. hs are its name's
// prefix hashes.
func (cs *contentStore) insert(d *ndn.Data, hs []uint64, now time.Duration) {
	h := hs[len(d.Name)]
	e := cs.get(d.Name, h)
	switch {
	case e != nil:
		cs.unlinkPrefixes(e)
		cs.unlinkLRU(e)
	case cs.n < cs.capacity:
		e = &csEntry{hash: h, chain: cs.exact[h]}
		cs.exact[h] = e
		cs.n++
	default:
		e = cs.lru.prev // evict the least recently used, reuse its entry
		cs.unlinkPrefixes(e)
		cs.unlinkLRU(e)
		cs.unlinkExact(e)
		e.hash, e.chain = h, cs.exact[h]
		cs.exact[h] = e
	}
	e.data = d
	e.freshUntil = now + d.Freshness
	e.prefixes = e.prefixes[:0]
	for l := 1; l < len(d.Name); l++ {
		e.prefixes = append(e.prefixes, hs[l])
		cs.under[hs[l]] = e
	}
	cs.pushFront(e)
}

// find returns a cached Data that satisfies Interest it, or nil, and marks
// it used. h is the Interest name's hash.
func (cs *contentStore) find(it *ndn.Interest, h uint64, now time.Duration) *ndn.Data {
	e := cs.get(it.Name, h)
	if e == nil && it.CanBePrefix {
		if u := cs.under[h]; u != nil && isPrefix(it.Name, u.data.Name) {
			e = u
		}
	}
	if e == nil || (it.MustBeFresh && now >= e.freshUntil) {
		return nil
	}
	cs.unlinkLRU(e)
	cs.pushFront(e)
	return e.data
}

func (cs *contentStore) get(name ndn.Name, h uint64) *csEntry {
	for e := cs.exact[h]; e != nil; e = e.chain {
		if nameEqual(e.data.Name, name) {
			return e
		}
	}
	return nil
}

func (cs *contentStore) unlinkExact(e *csEntry) {
	unlink(cs.exact, e.hash, e, func(x *csEntry) **csEntry { return &x.chain })
}

func (cs *contentStore) unlinkPrefixes(e *csEntry) {
	for _, h := range e.prefixes {
		if cs.under[h] == e {
			delete(cs.under, h)
		}
	}
}

func (cs *contentStore) unlinkLRU(e *csEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
}

func (cs *contentStore) pushFront(e *csEntry) {
	e.prev, e.next = cs.lru, cs.lru.next
	e.next.prev = e
	cs.lru.next = e
}
