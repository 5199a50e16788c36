package fw

import (
	"cmp"
	"slices"

	"github.com/ndncc/ndncc/ndn"
)

// FaceID identifies a face of one forwarder. IDs start at 1; 0 is no face.
// The ID of a removed face is reused by a later AddFace, once nothing in
// the forwarder refers to it any more (see RemoveFace).
type FaceID uint32

// FaceKind says what is on the other side of a face.
type FaceKind uint8

// Face kinds.
const (
	// FaceNetwork is a link to another node. Interests arriving on it have
	// their HopLimit decremented, and an Interest whose HopLimit is 0 is
	// never sent on it.
	FaceNetwork FaceKind = iota
	// FaceLocal is an application on this node.
	FaceLocal
)

func (k FaceKind) String() string {
	switch k {
	case FaceNetwork:
		return "network"
	case FaceLocal:
		return "local"
	}
	return "unknown"
}

// face is one entry of the face table. Every face is point-to-point: the
// forwarder has no multi-access or ad hoc link type.
type face struct {
	out  ndn.Face // nil once the face is removed
	kind FaceKind
	// pending counts the out-records on this face still awaiting a reply
	// (added for the pi and cf strategies; see PendingInterests).
	pending int
	// inRecords counts the PIT in-records of this face (its share of the
	// PIT, bounded by Config.PITFaceLimit).
	inRecords int
	// sent remembers which downstream Interest each recent Data sent on
	// this face answered, so that a reported Data loss can be Nacked (nil
	// unless EnableLossNacks was called; see lossnack.go).
	sent *sentDataRing
	// localFields: Interests and Data sent on this face carry the
	// IncomingFaceID of the face they arrived on (see SetLocalFields).
	localFields bool
	// shaper, if set, paces the Interests sent on this face (shaper.go).
	shaper   *shaper
	counters FaceCounters
}

// AddFace adds a face whose outgoing packets go to out.Send and returns its
// ID: the lowest ID a removed face freed, else the next new one. Packets
// that arrive on the face are passed to Receive with that ID.
func (f *Forwarder) AddFace(out ndn.Face, kind FaceKind) FaceID {
	if n := len(f.freeIDs); n > 0 {
		id := f.freeIDs[n-1]
		f.freeIDs = f.freeIDs[:n-1]
		f.faces[id] = face{out: out, kind: kind}
		return id
	}
	f.faces = append(f.faces, face{out: out, kind: kind})
	return FaceID(len(f.faces) - 1)
}

// SetLocalFields turns NDNLPv2 local fields on or off for face id (NFD's
// LocalFieldsEnabled face flag): with them on, every Interest sent on the
// face carries in Packet.IncomingFaceID the face it arrived on, and every
// Data the face it arrived on (none for a Data from the Content Store).
// Nacks carry none. A local application that must know who asked, the
// management module first, turns them on for its face.
func (f *Forwarder) SetLocalFields(id FaceID, on bool) {
	if f.faceUp(id) {
		f.faces[id].localFields = on
	}
}

// RemoveFace takes a face down, as NFD does when a face closes: its
// routes leave the FIB, nothing is sent on it any more, packets still
// queued from it are dropped, and its in-records and out-records leave
// the PIT (an entry left with neither is removed, unsatisfied); strategies
// forget it. Its ID is then free for a later AddFace. Called while a
// packet is being processed (from a face's Send or a strategy), the
// cleanup waits until that packet is done; the face is down at once.
func (f *Forwarder) RemoveFace(id FaceID) {
	if !f.faceUp(id) {
		return
	}
	f.faces[id].out = nil
	f.fib.removeFace(id)
	f.guard.Do(work{face: id, cleanup: true})
}

// cleanupFace removes every trace of a face that is down and frees its ID.
func (f *Forwarder) cleanupFace(id FaceID) {
	var gone []*PitEntry
	f.pit.each(func(e *PitEntry) {
		if e.dropFace(id) {
			gone = append(gone, e)
		} else {
			e.timer.Set(e.expiry) // its latest in-record may have gone
		}
	})
	for _, e := range gone {
		f.finalize(e, false, 0)
	}
	f.choice.t.each(func(n *nameNode[chosenStrategy]) {
		if r, ok := n.val.s.(faceRemover); ok {
			r.faceRemoved(id)
		}
	})
	for _, fn := range f.onFaceRemoved {
		fn(id)
	}
	f.faces[id] = face{}
	// Lowest first: the free list is a stack, kept sorted high to low.
	i, _ := slices.BinarySearchFunc(f.freeIDs, id, func(a, b FaceID) int { return cmp.Compare(b, a) })
	f.freeIDs = slices.Insert(f.freeIDs, i, id)
}

// OnFaceRemoved registers fn, called with the ID of every face RemoveFace
// removes, once the forwarder has cleaned up after it and before the ID
// can be reused: a table outside the forwarder that names faces (the
// management's RIB) forgets the face then.
func (f *Forwarder) OnFaceRemoved(fn func(FaceID)) {
	f.onFaceRemoved = append(f.onFaceRemoved, fn)
}

// faceRemover is a strategy that keeps per-face state; RemoveFace tells it
// when a face goes, before the face's ID can be reused.
type faceRemover interface {
	faceRemoved(id FaceID)
}

// FaceKind returns the kind of face id; ok is false if no such face is up.
func (f *Forwarder) FaceKind(id FaceID) (kind FaceKind, ok bool) {
	if !f.faceUp(id) {
		return 0, false
	}
	return f.faces[id].kind, true
}

// FaceCounters returns the packet counters of face id: zero for an ID not
// in use (a removed face's counters go with it, its ID may be reused).
func (f *Forwarder) FaceCounters(id FaceID) FaceCounters {
	if id == 0 || int(id) >= len(f.faces) {
		return FaceCounters{}
	}
	return f.faces[id].counters
}

// faceUp reports whether id names a face that is up.
func (f *Forwarder) faceUp(id FaceID) bool {
	return id != 0 && int(id) < len(f.faces) && f.faces[id].out != nil
}

// send transmits p on face id if the face is up.
func (f *Forwarder) send(id FaceID, p ndn.Packet) bool {
	if !f.faceUp(id) {
		return false
	}
	f.faces[id].out.Send(p)
	return true
}

// PendingInterests returns the number of Interests outstanding on face id:
// out-records on that face, in PIT entries that still exist, that have
// received neither Data (which removes the entry) nor a Nack. An
// out-record whose Interest lifetime ran out while its entry lives on
// (renewed by a downstream) still counts, once, until the entry goes. The
// pi and cf strategies choose by it.
func (f *Forwarder) PendingInterests(id FaceID) int {
	if id == 0 || int(id) >= len(f.faces) {
		return 0
	}
	return f.faces[id].pending
}
