package fw

import (
	"slices"
	"time"

	"github.com/ndncc/ndncc/internal/lazytimer"
	"github.com/ndncc/ndncc/ndn"
)

// InRecord is a downstream of a PIT entry: a face that asked for the Data.
type InRecord struct {
	Face        FaceID
	Nonce       uint32
	Expiry      time.Duration // LastRenewed + the Interest's lifetime
	LastRenewed time.Duration
	// Interest is the downstream's latest Interest, after HopLimit
	// processing; a Nack to this downstream carries it.
	Interest *ndn.Interest
	// Mark is the CongestionMark the Interest arrived with: the link from
	// this downstream is congested, so the reply is sent marked.
	Mark uint64
	// PitToken is the NDNLPv2 PitToken the Interest arrived with (nil if
	// none); the Data or Nack sent to this downstream carries it back.
	PitToken []byte
}

// OutRecord is an upstream of a PIT entry: a face the Interest was sent on.
type OutRecord struct {
	Face     FaceID
	Nonce    uint32
	LastSent time.Duration
	Expiry   time.Duration // LastSent + the Interest's lifetime
	// Nack is the reason of the Nack this upstream returned for the latest
	// Interest (NackNone if none), NackMark that Nack's CongestionMark.
	Nack     ndn.NackReason
	NackMark uint64

	retxInterval time.Duration // per-upstream retransmission suppression
}

// pending reports whether the upstream may still answer.
func (o *OutRecord) pending(now time.Duration) bool {
	return o.Nack == ndn.NackNone && o.Expiry > now
}

// PitEntry is one pending Interest: a name plus the CanBePrefix and
// MustBeFresh selectors, with its downstreams and upstreams. A strategy
// gets a *PitEntry only for the duration of a call and must not keep it:
// entries are recycled once satisfied, rejected or expired.
type PitEntry struct {
	name ndn.Name
	hash uint64
	next *PitEntry // next entry in the same hash bucket (in the free list once recycled)

	in  []InRecord
	out []OutRecord
	// idx finds in-records by face and by nonce in constant time once an
	// entry has many downstreams (inIndexMin); nil before.
	idx   *inIndex
	spare *inIndex // an emptied index kept for reuse
	// Room for the first in- and out-record, which most entries only
	// have: in and out start there (a second record moves them to an
	// array of their own).
	in1  [1]InRecord
	out1 [1]OutRecord

	strategy Strategy

	expiry time.Duration // latest in-record expiry
	// timer fires at expiry (set whenever expiry changes). It is bound
	// once per entry object and kept, with its wake-up, when the entry is
	// recycled (see finalize).
	timer lazytimer.Timer

	retxInterval time.Duration // per-entry retransmission suppression

	canBePrefix bool
	mustBeFresh bool
	scope       scope // the name's scope class (scope.go)
	live        bool
	timerBound  bool
}

// Name returns the Interest name of the entry.
func (e *PitEntry) Name() ndn.Name { return e.name }

// CanBePrefix returns the entry's CanBePrefix selector.
func (e *PitEntry) CanBePrefix() bool { return e.canBePrefix }

// MustBeFresh returns the entry's MustBeFresh selector.
func (e *PitEntry) MustBeFresh() bool { return e.mustBeFresh }

// InRecords returns the downstreams. The caller must not modify them.
func (e *PitEntry) InRecords() []InRecord { return e.in }

// OutRecords returns the upstreams. The caller must not modify them.
func (e *PitEntry) OutRecords() []OutRecord { return e.out }

// InRecord returns the in-record of face, or nil.
func (e *PitEntry) InRecord(face FaceID) *InRecord {
	if e.idx != nil {
		if i, ok := e.idx.faces[face]; ok {
			return &e.in[i]
		}
		return nil
	}
	for i := range e.in {
		if e.in[i].Face == face {
			return &e.in[i]
		}
	}
	return nil
}

// OutRecord returns the out-record of face, or nil.
func (e *PitEntry) OutRecord(face FaceID) *OutRecord {
	for i := range e.out {
		if e.out[i].Face == face {
			return &e.out[i]
		}
	}
	return nil
}

// HasPendingOutRecords reports whether some upstream may still answer (it
// was sent the Interest, has not Nacked it, and the Interest has not
// expired there).
func (e *PitEntry) HasPendingOutRecords(now time.Duration) bool {
	for i := range e.out {
		if e.out[i].pending(now) {
			return true
		}
	}
	return false
}

// LastOutgoing returns when the Interest was last sent upstream (0 if
// never).
func (e *PitEntry) LastOutgoing() time.Duration {
	var t time.Duration
	for i := range e.out {
		t = max(t, e.out[i].LastSent)
	}
	return t
}

// duplicateNonce reports whether nonce arriving on face shows a loop: the
// nonce is already in an in-record of another face, or in an out-record.
// As in NFD, the nonce of face's own in-record arriving again on face is a
// retransmission, not a loop, since all faces are point-to-point.
func (e *PitEntry) duplicateNonce(nonce uint32, face FaceID) bool {
	if r := e.InRecord(face); r != nil && r.Nonce == nonce {
		return false
	}
	if e.idx != nil {
		if e.idx.nonces[nonce] > 0 {
			return true
		}
	} else {
		for i := range e.in {
			if e.in[i].Nonce == nonce {
				return true
			}
		}
	}
	for i := range e.out {
		if e.out[i].Nonce == nonce {
			return true
		}
	}
	return false
}

// insertInRecord adds or renews the in-record of face for Interest it,
// which arrived with mark and token and lives for life (its lifetime,
// capped), and recomputes the entry's expiry. It reports whether the
// record is new.
func (e *PitEntry) insertInRecord(face FaceID, it *ndn.Interest, mark uint64, token []byte, now, life time.Duration) (added bool) {
	if len(e.in) == 0 && cap(e.in) > 0 { // a new entry's first record (most entries' only one)
		e.in = e.in[:1]
		// Every field, one by one: a composite literal would be built on
		// the stack and copied.
		r := &e.in[0]
		r.Face, r.Nonce, r.Expiry, r.LastRenewed = face, it.Nonce, now+life, now
		r.Interest, r.Mark, r.PitToken = it, mark, token
		e.expiry = r.Expiry
		return true
	}
	r := e.InRecord(face)
	expiry := now + life
	if r == nil {
		e.in = append(e.in, InRecord{Face: face, Nonce: it.Nonce})
		r = &e.in[len(e.in)-1]
		added = true
		e.expiry = max(e.expiry, expiry)
		if e.idx != nil {
			e.idx.add(face, it.Nonce, len(e.in)-1)
		} else if len(e.in) >= inIndexMin {
			e.indexIn()
		}
	} else {
		if e.idx != nil && r.Nonce != it.Nonce {
			e.idx.renonce(r.Nonce, it.Nonce)
		}
		switch {
		case expiry >= e.expiry:
			e.expiry = expiry
		case r.Expiry == e.expiry: // the latest record renewed shorter: find the new latest
			r.Expiry = expiry
			e.updateExpiry()
		}
	}
	r.Nonce = it.Nonce
	r.LastRenewed = now
	r.Expiry = expiry
	r.Interest = it
	r.Mark = mark
	r.PitToken = token
	return added
}

// downstreamOf returns the face whose in-record holds Interest it (the
// face it arrived on), or 0.
func (e *PitEntry) downstreamOf(it *ndn.Interest) FaceID {
	for i := range e.in {
		if e.in[i].Interest == it {
			return e.in[i].Face
		}
	}
	return 0
}

// removeInRecord removes the in-record of face, recomputes the expiry,
// and reports whether there was one.
func (e *PitEntry) removeInRecord(face FaceID) (removed bool) {
	i := -1
	if e.idx != nil {
		if j, ok := e.idx.faces[face]; ok {
			i = int(j)
		}
	} else {
		for j := range e.in {
			if e.in[j].Face == face {
				i = j
				break
			}
		}
	}
	if i >= 0 {
		e.in = slices.Delete(e.in, i, i+1)
		if e.idx != nil {
			e.indexIn() // the later records moved
		}
	}
	e.updateExpiry()
	return i >= 0
}

func (e *PitEntry) updateExpiry() {
	e.expiry = 0
	for i := range e.in {
		e.expiry = max(e.expiry, e.in[i].Expiry)
	}
}

// dropFace removes the in-record and the out-record of face (a face being
// removed) and reports whether the entry has no downstream left.
func (e *PitEntry) dropFace(face FaceID) (orphaned bool) {
	e.out = slices.DeleteFunc(e.out, func(o OutRecord) bool { return o.Face == face })
	e.removeInRecord(face)
	return len(e.in) == 0
}

// insertOutRecord adds or renews the out-record of face for Interest it,
// which lives for life (its lifetime, capped). It reports whether the
// upstream was awaiting a reply already: it had an out-record without a
// Nack.
func (e *PitEntry) insertOutRecord(face FaceID, it *ndn.Interest, now, life time.Duration) (awaiting bool) {
	if len(e.out) == 0 && cap(e.out) > 0 { // the first upstream (most entries' only one)
		e.out = e.out[:1]
		e.out[0] = OutRecord{Face: face, Nonce: it.Nonce, LastSent: now, Expiry: now + life}
		return false
	}
	o := e.OutRecord(face)
	if o == nil {
		e.out = append(e.out, OutRecord{Face: face})
		o = &e.out[len(e.out)-1]
	} else {
		awaiting = o.Nack == ndn.NackNone
	}
	o.Nonce = it.Nonce
	o.LastSent = now
	o.Expiry = now + life
	o.Nack, o.NackMark = ndn.NackNone, 0
	return awaiting
}

// pit is the Pending Interest Table. Entries are keyed by the hash of their
// name and told apart by name and selectors; a Data finds the entries with
// its exact name and, when CanBePrefix entries exist, those whose name is a
// proper prefix of it.
//
// The table is an array of buckets, each a chain of the entries whose
// hash falls in it (linked through PitEntry.next), that doubles when it
// holds more entries than buckets: inserting and removing an entry, once
// per Interest, cost no hashing and no map bookkeeping.
type pit struct {
	buckets []*PitEntry // len is a power of two
	size    int
	// cbp[l]: number of CanBePrefix entries whose name has l components;
	// nCBP: their sum.
	cbp  []int
	nCBP int
	// free is a stack of recycled entries linked through their next
	// field, nfree of them, at most maxFreePIT.
	free  *PitEntry
	nfree int
}

const maxFreePIT = 1024

func newPIT() pit { return pit{buckets: make([]*PitEntry, 64)} }

// bucket returns the head of the chain where entries of hash h are.
func (t *pit) bucket(h uint64) **PitEntry { return &t.buckets[h&uint64(len(t.buckets)-1)] }

// grow doubles the buckets.
func (t *pit) grow() {
	old := t.buckets
	t.buckets = make([]*PitEntry, 2*len(old))
	for _, e := range old {
		for e != nil {
			next := e.next
			b := t.bucket(e.hash)
			e.next, *b = *b, e
			e = next
		}
	}
}

// each calls fn for every entry; fn must not insert or remove entries.
func (t *pit) each(fn func(*PitEntry)) {
	for _, e := range t.buckets {
		for ; e != nil; e = e.next {
			fn(e)
		}
	}
}

// find returns the entry matching Interest it, whose name hashes to h.
func (t *pit) find(it *ndn.Interest, h uint64) *PitEntry {
	for e := *t.bucket(h); e != nil; e = e.next {
		if e.hash == h && e.canBePrefix == it.CanBePrefix && e.mustBeFresh == it.MustBeFresh && nameEqual(e.name, it.Name) {
			return e
		}
	}
	return nil
}

// insert creates the entry for Interest it, whose name hashes to h. A
// recycled entry keeps its bound timer; a new one has none yet.
func (t *pit) insert(it *ndn.Interest, h uint64) *PitEntry {
	var e *PitEntry
	if t.free != nil {
		e = t.free
		t.free = e.next
		t.nfree--
	} else {
		e = &PitEntry{}
		e.in, e.out = e.in1[:0], e.out1[:0]
	}
	e.name, e.canBePrefix, e.mustBeFresh, e.hash = it.Name, it.CanBePrefix, it.MustBeFresh, h
	e.live = true
	if t.size >= len(t.buckets) {
		t.grow()
	}
	b := t.bucket(h)
	e.next, *b = *b, e
	t.size++
	if e.canBePrefix {
		for len(t.cbp) <= len(e.name) {
			t.cbp = append(t.cbp, 0)
		}
		t.cbp[len(e.name)]++
		t.nCBP++
	}
	return e
}

// remove unlinks e and recycles it. The caller has cancelled its timer.
func (t *pit) remove(e *PitEntry) {
	for p := t.bucket(e.hash); *p != nil; p = &(*p).next {
		if *p == e {
			*p = e.next
			break
		}
	}
	t.size--
	if e.canBePrefix {
		t.cbp[len(e.name)]--
		t.nCBP--
	}
	// Drop references, keep the arrays. One record is the common case:
	// cleared without a call to the runtime's memclr. Out-records hold no
	// references, and a record is always written whole when it is added.
	if len(e.in) == 1 {
		e.in[0].Interest, e.in[0].PitToken = nil, nil
	} else {
		clear(e.in)
	}
	// in1 was cleared above, unless in moved out of it
	if cap(e.in) > 1 {
		e.in1[0] = InRecord{}
	}
	e.unindexIn()
	e.name, e.strategy = nil, nil
	e.in, e.out = e.in[:0], e.out[:0]
	e.canBePrefix, e.mustBeFresh, e.hash, e.live, e.scope = false, false, 0, false, scopeNone
	e.expiry, e.retxInterval = 0, 0
	if t.nfree < maxFreePIT {
		e.next, t.free = t.free, e
		t.nfree++
	} else {
		e.next = nil
	}
}

// matchData appends to dst the entries that Data named name satisfies: the
// entries with exactly that name, and the CanBePrefix entries whose name is
// a proper prefix of it. h is name's hash, hs its prefix hashes, which
// only CanBePrefix entries need: hs may be nil while there are none
// (needsPrefixHashes).
func (t *pit) matchData(name ndn.Name, h uint64, hs []uint64, dst []*PitEntry) []*PitEntry {
	for e := *t.bucket(h); e != nil; e = e.next {
		if e.hash == h && nameEqual(e.name, name) {
			dst = append(dst, e)
		}
	}
	if !t.needsPrefixHashes() {
		return dst
	}
	for l := min(len(name)-1, len(t.cbp)-1); l >= 0; l-- {
		if t.cbp[l] == 0 {
			continue
		}
		for e := *t.bucket(hs[l]); e != nil; e = e.next {
			if e.canBePrefix && e.hash == hs[l] && nameEqual(e.name, name[:l]) {
				dst = append(dst, e)
			}
		}
	}
	return dst
}

// needsPrefixHashes reports whether matchData needs a name's prefix hashes:
// whether the table holds a CanBePrefix entry.
func (t *pit) needsPrefixHashes() bool { return t.nCBP > 0 }
