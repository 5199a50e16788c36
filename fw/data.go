package fw

import "github.com/ndncc/ndncc/ndn"

// downstream is a face a Data goes to, with the CongestionMark it carries
// and the Interest of that downstream it answers (kept for loss Nacks, see
// EnableLossNacks).
type downstream struct {
	face FaceID
	mark uint64
	it   *ndn.Interest
}

// onData is the incoming-Data pipeline: PIT matching (unsolicited Data is
// dropped), caching, strategy notification, then one copy of the Data to
// each pending downstream of the matched entries. A downstream gets the
// Data's CongestionMark, or its own Interest's mark if that is larger.
func (f *Forwarder) onData(in FaceID, p ndn.Packet) {
	f.counters.InData++
	d := p.Data
	now := f.sched.Now()
	hs := f.hasher.prefixes(d.Name)
	f.matches = f.pit.matchData(d.Name, hs, f.matches[:0])
	if len(f.matches) == 0 {
		f.counters.UnsolicitedData++
		return
	}
	if f.cs.enabled() {
		f.cs.insert(d, hs, now)
	}
	ds := f.downstreams[:0]
	for _, e := range f.matches {
		e.strategy.AfterReceiveData(e, in, p)
		if !e.live {
			continue
		}
		for i := range e.in {
			r := &e.in[i]
			if r.Expiry > now && r.Face != in {
				ds = addDownstream(ds, r.Face, max(p.CongestionMark, r.Mark), r.Interest)
			}
		}
		f.finalize(e, true, d.Freshness)
	}
	clear(f.matches)
	for _, x := range ds {
		f.sendData(x.face, d, x.mark, x.it)
	}
	f.downstreams = ds[:0]
}

// addDownstream adds face to ds once, keeping the largest mark.
func addDownstream(ds []downstream, face FaceID, mark uint64, it *ndn.Interest) []downstream {
	for i := range ds {
		if ds[i].face == face {
			ds[i].mark = max(ds[i].mark, mark)
			return ds
		}
	}
	return append(ds, downstream{face: face, mark: mark, it: it})
}

// sendData is the outgoing-Data pipeline; it answers the downstream's
// Interest it.
func (f *Forwarder) sendData(out FaceID, d *ndn.Data, mark uint64, it *ndn.Interest) {
	if !f.send(out, ndn.Packet{Data: d, CongestionMark: mark}) {
		return
	}
	if r := f.faces[out].sent; r != nil { // remembered for a loss Nack (lossnack.go)
		r.add(d, it)
	}
	f.counters.OutData++
	if mark > 0 {
		f.counters.MarksForwarded++
	}
}
