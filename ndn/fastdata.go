package ndn

import (
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// The receive fast path: a Data, bare or in an LpPacket whose only fields
// are PitToken, IncomingFaceId, CongestionMark and Fragment, is located
// field by field with ndnd's TLV readers (enc.WireView.ReadTLNum and
// Skip, enc.ParseNat) instead of ndnd's generated spec_2022
// parser, which allocates a struct per element and a slice per field. It
// accepts only what that parser accepts and reads the same way — elements
// in the order the packet format gives, none repeated, every number 1, 2,
// 4 or 8 bytes long, no field it does not know — and gives up on anything
// else, which then goes through the full decode (FuzzFastData checks that
// whatever it accepts decodes to the same packet both ways). checkLengths
// runs first, as before the full decode.

// TLV types the fast path reads.
const (
	tlvName           enc.TLNum = 0x07
	tlvNonce          enc.TLNum = 0x0a
	tlvMetaInfo       enc.TLNum = 0x14
	tlvContent        enc.TLNum = 0x15
	tlvSignatureInfo  enc.TLNum = 0x16
	tlvSignatureValue enc.TLNum = 0x17
	tlvContentType    enc.TLNum = 0x18
	tlvFreshness      enc.TLNum = 0x19
	tlvFinalBlockID   enc.TLNum = 0x1a
	tlvSignatureType  enc.TLNum = 0x1b
	tlvKeyLocator     enc.TLNum = 0x1c
	tlvFragment       enc.TLNum = 0x50
	tlvPitToken       enc.TLNum = 0x62
	tlvIncomingFaceID enc.TLNum = 0x032c
	tlvCongestionMark enc.TLNum = 0x0340
)

// dataBox is a Data with room for its name, so that a decoded Data with a
// short name is one allocation.
type dataBox struct {
	d       Data
	comps   [8]Component
	covered [1]enc.Buffer
}

// newDataBox returns an empty Data whose name and covered part have room.
func newDataBox() *Data {
	b := &dataBox{}
	b.d.Name = b.comps[:0]
	b.d.covered = b.covered[:0]
	return &b.d
}

// tlv is one element read by nextTLV: its type, the indexes in the
// buffer read of its first byte and of its value, and its value.
type tlv struct {
	typ   enc.TLNum
	begin int
	at    int
	val   []byte
}

// nextTLV reads the element at r's position in buf (r reads buf) and
// skips it. It reports false at the end of buf or for an element that does
// not fit.
func nextTLV(r *enc.WireView, buf []byte) (tlv, bool) {
	begin := r.Pos()
	typ, err := r.ReadTLNum()
	if err != nil {
		return tlv{}, false
	}
	length, err := r.ReadTLNum()
	if err != nil {
		return tlv{}, false
	}
	start := r.Pos()
	if uint64(length) > uint64(len(buf)-start) {
		return tlv{}, false
	}
	end := start + int(length)
	if r.Skip(int(length)) != nil {
		return tlv{}, false
	}
	return tlv{typ: typ, begin: begin, at: start, val: buf[start:end]}, true
}

// fastNat reads a natural number of 1, 2, 4 or 8 bytes (the lengths for
// which ndnd's byte-by-byte reading and enc.ParseNat agree).
func fastNat(v []byte) (uint64, bool) {
	n, _, err := enc.ParseNat(v)
	return uint64(n), err == nil
}

// fastName reads the components of a Name's value into dst[:0] (never
// nil, as ndnd's ReadName).
func fastName(v []byte, dst Name) (Name, bool) {
	n := dst[:0]
	if n == nil {
		n = make(Name, 0, 8)
	}
	r := enc.NewBufferView(v)
	for !r.IsEOF() {
		c, ok := fastComponent(&r, v)
		if !ok {
			return nil, false
		}
		n = append(n, c)
	}
	return n, true
}

// fastComponent reads the name component at r's position in buf, as
// enc.WireView.ReadComponent does, but checking its length first (ndnd
// slices with a length that overflows an int).
func fastComponent(r *enc.WireView, buf []byte) (Component, bool) {
	e, ok := nextTLV(r, buf)
	return Component{Typ: e.typ, Val: e.val}, ok
}

// decodeFast decodes wire, a whole frame, if the fast path takes it.
// newData supplies the Data (nil: a fresh one).
func decodeFast(wire []byte, newData func() *Data) (Packet, bool) {
	typ, hdr, err := outerTLV(wire)
	if err != nil {
		return Packet{}, false
	}
	var p Packet
	net := wire
	if typ == tlvLpPacket {
		body := wire[hdr:]
		if checkLengths(body, tlvLpPacket, maxNesting) != nil {
			return Packet{}, false
		}
		if net = fastLp(body, &p); net == nil {
			return Packet{}, false
		}
		if typ, hdr, err = outerTLV(net); err != nil {
			return Packet{}, false
		}
	}
	if typ != tlvData || checkLengths(net[hdr:], tlvData, maxNesting) != nil {
		return Packet{}, false
	}
	var d *Data
	if newData != nil {
		d = newData()
	}
	if d == nil {
		d = newDataBox()
	}
	if !fastData(net, hdr, d) {
		return Packet{}, false
	}
	p.Data = d
	return p, true
}

// fastLp reads the fields of an LpPacket body into p and returns its
// Fragment, or nil when the body has another field, a field twice or no
// Fragment.
func fastLp(body []byte, p *Packet) []byte {
	var frag []byte
	var seen [4]bool
	r := enc.NewBufferView(body)
	for !r.IsEOF() {
		e, ok := nextTLV(&r, body)
		if !ok {
			return nil
		}
		var i int
		switch e.typ {
		case tlvPitToken:
			i = 0
			if len(e.val) > 0 {
				p.PitToken = e.val
			}
		case tlvIncomingFaceID:
			i = 1
			if p.IncomingFaceID, ok = fastNat(e.val); !ok {
				return nil
			}
		case tlvCongestionMark:
			i = 2
			if p.CongestionMark, ok = fastNat(e.val); !ok {
				return nil
			}
		case tlvFragment:
			i = 3
			frag = e.val
		default:
			return nil
		}
		if seen[i] {
			return nil
		}
		seen[i] = true
	}
	return frag
}

// fastData reads the Data wire, whose value starts at hdr, into d, which
// it resets. The elements must be Name, then any of MetaInfo, Content,
// SignatureInfo and SignatureValue in this order.
func fastData(wire []byte, hdr int, d *Data) bool {
	*d = Data{Name: d.Name, covered: d.covered[:0], Sig: Signature{Type: SigNone, KeyLocator: d.Sig.KeyLocator}, Wire: wire, size: len(wire)}
	keyLocator := d.Sig.KeyLocator
	d.Sig.KeyLocator = nil
	value := wire[hdr:]
	r := enc.NewBufferView(value)
	name, ok := nextTLV(&r, value)
	if !ok || name.typ != tlvName {
		return false
	}
	if d.Name, ok = fastName(name.val, d.Name); !ok {
		return false
	}
	coverStart := hdr + name.begin
	last := tlvName
	for !r.IsEOF() {
		e, ok := nextTLV(&r, value)
		if !ok || e.typ <= last {
			return false
		}
		last = e.typ
		switch e.typ {
		case tlvMetaInfo:
			ok = fastMetaInfo(e.val, d)
		case tlvContent:
			d.Content, d.ContentLen = e.val, len(e.val)
		case tlvSignatureInfo:
			ok = fastSignatureInfo(e.val, d, keyLocator)
		case tlvSignatureValue:
			d.Sig.Value, d.Sig.ValueLen = e.val, len(e.val)
			d.covered = append(d.covered, wire[coverStart:hdr+e.begin])
		default:
			return false
		}
		if !ok {
			return false
		}
	}
	if d.covered == nil {
		d.covered = enc.Wire{} // as ndnd gives it for a Data without SignatureValue
	}
	return true
}

// fastMetaInfo reads a MetaInfo value into d.
func fastMetaInfo(v []byte, d *Data) bool {
	var seen [3]bool
	r := enc.NewBufferView(v)
	for !r.IsEOF() {
		e, ok := nextTLV(&r, v)
		if !ok {
			return false
		}
		i := int(e.typ - tlvContentType)
		if e.typ < tlvContentType || e.typ > tlvFinalBlockID || seen[i] {
			return false
		}
		seen[i] = true
		switch e.typ {
		case tlvContentType:
			d.ContentType, ok = fastNat(e.val)
		case tlvFreshness:
			var ms uint64
			ms, ok = fastNat(e.val)
			d.Freshness = time.Duration(ms) * time.Millisecond
			ok = ok && wholeMillis(d.Freshness)
		case tlvFinalBlockID:
			c := enc.NewBufferView(e.val)
			d.FinalBlockID, ok = fastComponent(&c, e.val)
			ok = ok && c.IsEOF()
			d.HasFinal = true
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastSignatureInfo reads a SignatureInfo value (a SignatureType and
// perhaps a KeyLocator with a Name) into d; keyLocator is storage for the
// KeyLocator's components.
func fastSignatureInfo(v []byte, d *Data, keyLocator Name) bool {
	r := enc.NewBufferView(v)
	typ, ok := nextTLV(&r, v)
	if !ok || typ.typ != tlvSignatureType {
		return false
	}
	t, ok := fastNat(typ.val)
	if !ok || t >= uint64(SigNone) {
		return false
	}
	d.Sig.Type = SigType(t)
	if r.IsEOF() {
		return true
	}
	kl, ok := nextTLV(&r, v)
	if !ok || kl.typ != tlvKeyLocator || !r.IsEOF() {
		return false
	}
	k := enc.NewBufferView(kl.val)
	n, ok := nextTLV(&k, kl.val)
	if !ok || n.typ != tlvName || !k.IsEOF() {
		return false
	}
	d.Sig.KeyLocator, ok = fastName(n.val, keyLocator)
	return ok
}
