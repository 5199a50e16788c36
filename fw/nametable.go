package fw

import "github.com/ndncc/ndncc/ndn"

// nameTable maps names to values with exact and longest-prefix lookup. It
// is keyed by name hash (see nameHasher); names that share a hash are
// chained and told apart by nameEqual. Longest-prefix match walks prefix
// lengths from the longest present in the table down to zero, skipping
// lengths that hold no entry, so a lookup costs one map probe per length
// that is actually in use.
type nameTable[V any] struct {
	m    map[uint64]*nameNode[V]
	lens []int // lens[l]: number of entries whose name has l components
	// last is the entry longest found last, if the table has not changed
	// since, and no entry is longer than it: the next name it is a prefix
	// of finds it again without a map probe (consecutive packets mostly
	// fall under one prefix).
	last *nameNode[V]
}

type nameNode[V any] struct {
	name ndn.Name
	// hs are name's prefix hashes (nameHasher.prefixes): a name that
	// starts with this entry's, found so (lastMatch), hashes from there on
	// (nameHasher.prefixesAfter).
	hs []uint64
	// words are name's components' words (nameWords), which lastMatch
	// compares a name's first components with.
	words [][2]uint64
	val   V
	next  *nameNode[V] // next entry with the same hash
}

func newNameTable[V any]() nameTable[V] {
	return nameTable[V]{m: make(map[uint64]*nameNode[V])}
}

// get returns the entry for name (whose hash is h), or nil.
func (t *nameTable[V]) get(name ndn.Name, h uint64) *nameNode[V] {
	for n := t.m[h]; n != nil; n = n.next {
		if nameEqual(n.name, name) {
			return n
		}
	}
	return nil
}

// put returns the entry for name, creating it (with a copy of name) if
// needed.
func (t *nameTable[V]) put(name ndn.Name, h uint64) *nameNode[V] {
	if n := t.get(name, h); n != nil {
		return n
	}
	t.last = nil
	n := &nameNode[V]{name: name.Clone(), next: t.m[h]}
	var hasher nameHasher
	n.hs = hasher.prefixes(n.name) // a slice of its own (hasher has none yet)
	n.words = nameWords(n.name)
	t.m[h] = n
	for len(t.lens) <= len(name) {
		t.lens = append(t.lens, 0)
	}
	t.lens[len(name)]++
	return n
}

// del removes the entry for name, if any.
func (t *nameTable[V]) del(name ndn.Name, h uint64) {
	if n := t.get(name, h); n != nil {
		t.last = nil
		unlink(t.m, h, n, func(x *nameNode[V]) **nameNode[V] { return &x.next })
		t.lens[len(name)]--
	}
}

// longest returns the entry with the longest name that is a prefix of name,
// or nil. hs are name's prefix hashes.
func (t *nameTable[V]) longest(name ndn.Name, hs []uint64) *nameNode[V] {
	if n := t.lastMatch(name); n != nil {
		return n
	}
	for l := min(len(name), len(t.lens)-1); l >= 0; l-- {
		if t.lens[l] == 0 {
			continue
		}
		if n := t.get(name[:l], hs[l]); n != nil {
			if l == len(t.lens)-1 || t.longestLen() == l {
				t.last = n
			}
			return n
		}
	}
	return nil
}

// lastMatch returns the entry longest found last if it is a prefix of name
// and the table has not changed since (no entry is longer than it: it is
// name's longest match, what longest would return), or nil. It needs no
// hash of name.
func (t *nameTable[V]) lastMatch(name ndn.Name) *nameNode[V] {
	if n := t.last; n != nil && wordsPrefix(n.name, n.words, name) {
		return n
	}
	return nil
}

// longestLen returns the number of components of the longest entry's name
// (-1 for an empty table).
func (t *nameTable[V]) longestLen() int {
	for l := len(t.lens) - 1; l >= 0; l-- {
		if t.lens[l] > 0 {
			return l
		}
	}
	return -1
}

// each calls fn for every entry.
func (t *nameTable[V]) each(fn func(*nameNode[V])) {
	for _, n := range t.m {
		for ; n != nil; n = n.next {
			fn(n)
		}
	}
}
