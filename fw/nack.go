package fw

import "github.com/ndncc/ndncc/ndn"

// onNack is the incoming-Nack pipeline: the Nack must answer the Interest
// last sent to that upstream (same PIT entry, same nonce), else it is
// dropped; its reason and mark go into the out-record and the strategy
// decides.
func (f *Forwarder) onNack(in FaceID, p ndn.Packet) {
	f.counters.InNacks++
	f.faces[in].counters.InNacks++
	it := p.Interest
	if f.nameTooLong(it.Name) {
		return
	}
	var o *OutRecord
	e := f.pit.find(it, f.hasher.full(it.Name))
	if e != nil {
		o = e.OutRecord(in)
	}
	if o == nil || o.Nonce != it.Nonce {
		f.counters.DroppedNacks++
		return
	}
	f.upstreamNack(e, o, in, p)
}

// upstreamNack records Nack p from upstream in (out-record o of e) and lets
// the strategy decide. A send failure of the Interest (lossnack.go) comes
// here too, as a Nack Congestion from the upstream it was sent to.
func (f *Forwarder) upstreamNack(e *PitEntry, o *OutRecord, in FaceID, p ndn.Packet) {
	if o.Nack == ndn.NackNone {
		f.faces[in].pending-- // answered (see PendingInterests)
	}
	o.Nack, o.NackMark = p.Nack, p.CongestionMark
	e.strategy.AfterReceiveNack(e, in, p)
}

// sendNack is the outgoing-Nack pipeline for one downstream (see
// Actions.SendNack).
func (f *Forwarder) sendNack(e *PitEntry, out FaceID, reason ndn.NackReason, mark uint64) {
	if !e.live {
		return
	}
	r := e.InRecord(out)
	if r == nil {
		return
	}
	f.nackDownstream(r, reason, mark)
	if e.removeInRecord(out) {
		f.faces[out].inRecords--
	}
	if len(e.in) == 0 {
		f.finalize(e, false, 0)
		return
	}
	e.timer.Set(e.expiry)
}

// sendNackToAll Nacks every downstream of e and finalizes it.
func (f *Forwarder) sendNackToAll(e *PitEntry, reason ndn.NackReason, mark uint64) {
	if !e.live {
		return
	}
	for i := range e.in {
		f.nackDownstream(&e.in[i], reason, mark)
	}
	f.finalize(e, false, 0)
}

// nackDownstream sends the Nack to the downstream of r, with r's own
// Interest mark if that is larger than mark.
func (f *Forwarder) nackDownstream(r *InRecord, reason ndn.NackReason, mark uint64) {
	mark = max(mark, r.Mark)
	if !f.send(r.Face, ndn.Packet{Interest: r.Interest, Nack: reason, CongestionMark: mark, PitToken: r.PitToken}) {
		return
	}
	f.counters.OutNacks++
	f.faces[r.Face].counters.OutNacks++
	if mark > 0 {
		f.counters.MarksForwarded++
	}
}
