package fw

import (
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// onData is the incoming-Data pipeline: scope control (a /localhost Data
// from a network face is dropped), PIT matching (unsolicited Data is
// dropped), caching, strategy notification, then one copy of the Data to
// each pending downstream of the matched entries. A downstream gets the
// Data's CongestionMark, or its own Interest's mark if that is larger.
func (f *Forwarder) onData(in FaceID, p *ndn.Packet) {
	f.counters.InData++
	f.faces[in].counters.InData++
	d := p.Data
	if f.nameTooLong(d.Name) {
		return
	}
	if scopeOf(d.Name) == scopeLocalhost && f.faces[in].kind != FaceLocal {
		f.counters.ScopeDataDrops++ // /localhost Data from the network
		return
	}
	now := f.now()
	// The name's prefix hashes only for the tables that need them: the
	// Content Store when it caches, the PIT when it holds CanBePrefix
	// entries. Otherwise only the whole name's hash, which the Data keeps
	// for the next forwarder (a simulated Data crosses them all).
	var hs []uint64
	var h uint64
	if f.cs.admits() || f.pit.needsPrefixHashes() {
		hs = f.prefixHashes(d.Name)
		h = hs[len(d.Name)]
	} else {
		h = d.NameHash()
	}
	// the matches in an array on the stack: no stores through the write
	// barrier's check, nothing to clear after (one or two matches, mostly)
	var buf [4]*PitEntry
	matches := f.pit.matchData(d.Name, h, hs, buf[:0])
	if len(matches) == 0 {
		f.counters.UnsolicitedData++
		return
	}
	if f.cs.admits() {
		f.cs.insert(d, hs, now)
	}
	// One entry's in-records are one per face: each is sent as it is
	// found. Several entries' in-records are gathered first (copies, in
	// f.downstreams, whose Mark is the one to send), to send each face one
	// copy.
	gather := len(matches) > 1
	for _, e := range matches {
		e.strategy.AfterReceiveData(e, in, d, p.CongestionMark)
		if !e.live {
			continue
		}
		f.answer(e, in, p, now, gather)
		f.finalize(e, true, d.Freshness)
	}
	if gather {
		for i := range f.downstreams {
			r := &f.downstreams[i]
			f.sendData(r, r.Mark, d, in)
		}
		f.downstreams = f.downstreams[:0]
	}
}

// answer sends Data p, which arrived on face in and satisfies e, to each
// of e's pending downstreams but in, or, if gather, adds them to
// f.downstreams. A function of its own, for the registers of onData's
// loop.
func (f *Forwarder) answer(e *PitEntry, in FaceID, p *ndn.Packet, now time.Duration, gather bool) {
	for i := range e.in {
		r := &e.in[i]
		if r.Expiry > now && r.Face != in {
			mark := max(p.CongestionMark, r.Mark)
			if gather {
				f.downstreams = addDownstream(f.downstreams, r, mark)
			} else {
				f.sendData(r, mark, p.Data, in)
			}
		}
	}
}

// addDownstream adds a copy of in-record r, with Mark mark, to ds once
// per face, keeping the largest mark.
func addDownstream(ds []InRecord, r *InRecord, mark uint64) []InRecord {
	for i := range ds {
		if ds[i].Face == r.Face {
			ds[i].Mark = max(ds[i].Mark, mark)
			return ds
		}
	}
	ds = append(ds, *r)
	ds[len(ds)-1].Mark = mark
	return ds
}

// sendData is the outgoing-Data pipeline: Data d, which arrived on face
// from (0 for the Content Store), answers the downstream of in-record r
// (its face, its Interest, its PitToken) with CongestionMark mark. The
// record is passed by address, not copied; it is read after the face's
// Send too, which cannot change it (what Send hands this forwarder waits
// until the current packet is done).
func (f *Forwarder) sendData(r *InRecord, mark uint64, d *ndn.Data, from FaceID) {
	if !f.faceUp(r.Face) {
		return
	}
	fc := &f.faces[r.Face]
	if fc.kind != FaceLocal && scopeOf(d.Name) == scopeLocalhost {
		f.counters.ScopeDataDrops++ // /localhost Data never leaves the node
		return
	}
	p := ndn.Packet{Data: d, CongestionMark: mark, PitToken: r.PitToken}
	if fc.localFields {
		p.IncomingFaceID = uint64(from)
	}
	fc.out.Send(p)
	fc = &f.faces[r.Face]       // (Send may have added a face)
	if s := fc.sent; s != nil { // remembered for a loss Nack (lossnack.go)
		s.add(d, r.Interest)
	}
	f.counters.OutData++
	fc.counters.OutData++
	if mark > 0 {
		f.counters.MarksForwarded++
	}
}
