package fw

// inIndexMin is the number of in-records from which an entry indexes
// them (PitEntry.idx): below it a scan of the few records is quicker than
// a map, above it each Interest of one more downstream would cost a scan
// of all the others (many consumers of one name).
const inIndexMin = 8

// inIndexKeep is the most records an index may have held and still be
// kept, emptied, with its recycled entry; a larger one is let go.
const inIndexKeep = 1024

// inIndex finds a PIT entry's in-records by face and by nonce.
type inIndex struct {
	faces  map[FaceID]int32 // face -> position in PitEntry.in
	nonces map[uint32]int32 // nonce -> in-records holding it
	peak   int              // the most records indexed since the last reset
}

// add indexes the record of face with nonce at position i.
func (x *inIndex) add(face FaceID, nonce uint32, i int) {
	x.faces[face] = int32(i)
	x.nonces[nonce]++
	x.peak = max(x.peak, len(x.faces))
}

// renonce moves one record from nonce old to nonce new.
func (x *inIndex) renonce(old, new uint32) {
	if x.nonces[old]--; x.nonces[old] <= 0 {
		delete(x.nonces, old)
	}
	x.nonces[new]++
}

// reset empties x for an entry being recycled, or lets it go (nil) when
// it grew large.
func (x *inIndex) reset() *inIndex {
	if x.peak > inIndexKeep {
		return nil
	}
	clear(x.faces)
	clear(x.nonces)
	x.peak = 0
	return x
}

// indexIn (re)builds e's index of its in-records, or drops it when they
// are few again.
func (e *PitEntry) indexIn() {
	if len(e.in) < inIndexMin {
		e.unindexIn()
		return
	}
	switch {
	case e.idx != nil:
		clear(e.idx.faces)
		clear(e.idx.nonces)
	case e.spare != nil:
		e.idx, e.spare = e.spare, nil
	default:
		e.idx = &inIndex{faces: make(map[FaceID]int32, len(e.in)), nonces: make(map[uint32]int32, len(e.in))}
	}
	for i := range e.in {
		e.idx.add(e.in[i].Face, e.in[i].Nonce, i)
	}
}

// unindexIn drops e's index, keeping it emptied for later (unless it
// grew large).
func (e *PitEntry) unindexIn() {
	if e.idx != nil {
		e.spare, e.idx = e.idx.reset(), nil
	}
}
