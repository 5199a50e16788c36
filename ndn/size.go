package ndn

import (
	"fmt"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// Sizer gives the exact wire size of packets as ndnd encodes them (the
// encoding of EncodeInterest, EncodeData and EncodeFrame) without encoding
// every packet: it encodes one packet of each shape, the set of properties
// that determine the encoded length, and remembers the length. A lookup is
// a map access and does not allocate.
//
// The zero value is ready to use. A Sizer is not safe for concurrent use;
// give each goroutine (each simulation) its own.
type Sizer struct {
	interests map[interestShape]int
	data      map[dataShape]int
	frames    map[frameShape]int
	// the shape looked up last and its length (0: none yet): consecutive
	// packets mostly have one shape, and comparing it is cheaper than
	// hashing it for the map
	lastInterest    interestShape
	lastInterestLen int
	lastData        dataShape
	lastDataLen     int
}

// NewSizer returns an empty Sizer.
func NewSizer() *Sizer { return &Sizer{} }

// interestShape is what determines the length of an encoded Interest.
type interestShape struct {
	nameLen     int   // TLV-VALUE length of the Name
	lifetimeLen uint8 // length of the InterestLifetime number; 0: absent
	canBePrefix bool
	mustBeFresh bool
	hasHopLimit bool
}

// dataShape is what determines the length of an encoded Data.
type dataShape struct {
	nameLen    int
	finalLen   int // encoded length of the FinalBlockId component; 0: absent
	contentLen int
	keyLocLen  int // TLV-VALUE length of the KeyLocator Name; -1: absent
	valueLen   int // SignatureValue length
	typeLen    uint8
	freshLen   uint8
	sigType    SigType
}

// equal is k == o, compared field by field: == on the struct calls a
// function of the runtime (its fields leave padding), once per Data.
func (k *dataShape) equal(o *dataShape) bool {
	return k.nameLen == o.nameLen && k.contentLen == o.contentLen && k.finalLen == o.finalLen &&
		k.keyLocLen == o.keyLocLen && k.valueLen == o.valueLen && k.typeLen == o.typeLen &&
		k.freshLen == o.freshLen && k.sigType == o.sigType
}

// frameShape is what determines the length of an LpPacket.
type frameShape struct {
	fragLen int // length of the Fragment; -1: none (IDLE)
	acks    int
	nackLen uint8 // length of the Nack reason number; 0: not a Nack
	markLen uint8 // length of the CongestionMark number; 0: absent
	hasTx   bool
}

// InterestSize returns the length of i's encoding: len(i.Ext.Wire) for a
// received Interest. An Interest with a ForwardingHint or
// ApplicationParameters is encoded to be sized (the simulator has none).
// The result is cached in i: i must not change afterwards (but for its
// HopLimit's value, which does not change its length).
func (s *Sizer) InterestSize(i *Interest) int {
	if i.size > 0 {
		return i.size
	}
	i.size = s.interestSize(i)
	return i.size
}

func (s *Sizer) interestSize(i *Interest) int {
	if x := i.Ext; x != nil {
		if x.Wire != nil {
			return len(x.Wire)
		}
		if x.ForwardingHint != nil || x.AppParams != nil {
			return encodedInterestLen(i)
		}
	}
	k := interestShape{
		nameLen:     nameLen(i.Name),
		canBePrefix: i.CanBePrefix,
		mustBeFresh: i.MustBeFresh,
		hasHopLimit: i.HasHopLimit,
	}
	if lt := i.LifetimeOrDefault(); lt != DefaultInterestLifetime {
		k.lifetimeLen = natLen(uint64(lt / time.Millisecond))
	}
	if s.lastInterestLen > 0 && k == s.lastInterest {
		return s.lastInterestLen
	}
	if n, ok := s.interests[k]; ok {
		s.lastInterest, s.lastInterestLen = k, n
		return n
	}
	n := encodedInterestLen(i)
	if s.interests == nil {
		s.interests = make(map[interestShape]int)
	}
	s.interests[k] = n
	s.lastInterest, s.lastInterestLen = k, n
	return n
}

// encodedInterestLen encodes i to measure it.
func encodedInterestLen(i *Interest) int {
	w, err := interestWire(i)
	if err != nil {
		panic(fmt.Sprintf("ndn: Sizer: ndnd cannot encode Interest %s: %v", i.Name, err))
	}
	return int(w.Length())
}

// DataSize returns the length of d's encoding: len(d.Wire) when it is set,
// otherwise the length of d encoded with a Content of ContentLen bytes (or
// len(Content)) and a SignatureValue of Sig.ValueLen bytes (or
// len(Sig.Value)). The result is cached in d: d must not change afterwards.
func (s *Sizer) DataSize(d *Data) int {
	if d.Wire != nil {
		return len(d.Wire)
	}
	if d.size > 0 {
		return d.size
	}
	k := dataShape{
		nameLen:    nameLen(d.Name),
		contentLen: contentLen(d),
		keyLocLen:  -1,
		sigType:    d.Sig.Type,
	}
	if d.ContentType != 0 {
		k.typeLen = natLen(d.ContentType)
	}
	if d.Freshness > 0 {
		k.freshLen = natLen(uint64(d.Freshness / time.Millisecond))
	}
	if d.HasFinal {
		k.finalLen = d.FinalBlockID.EncodingLength()
	}
	if d.Sig.Type != SigNone {
		k.valueLen = sigValueLen(d.Sig)
		if d.Sig.KeyLocator != nil {
			k.keyLocLen = nameLen(d.Sig.KeyLocator)
		}
	}
	if s.lastDataLen > 0 && k.equal(&s.lastData) {
		d.size = s.lastDataLen
		return d.size
	}
	n, ok := s.data[k]
	if !ok {
		n = s.encodedDataLen(d, k)
		if s.data == nil {
			s.data = make(map[dataShape]int)
		}
		s.data[k] = n
	}
	s.lastData, s.lastDataLen = k, n
	d.size = n
	return n
}

// encodedDataLen encodes a Data of d's shape k.
func (s *Sizer) encodedDataLen(d *Data, k dataShape) int {
	content := d.Content
	if content == nil {
		content = make([]byte, k.contentLen)
	}
	value := d.Sig.Value
	if len(value) != k.valueLen {
		value = make([]byte, k.valueLen)
	}
	w, err := dataWire(d, content, signerOf(d.Sig, value))
	if err != nil {
		panic(fmt.Sprintf("ndn: Sizer: ndnd cannot encode Data %s: %v", d.Name, err))
	}
	return int(w.Length())
}

// PacketSize returns the length of p on a link: the size of its Interest
// or Data when p has no NDNLPv2 field (not a Nack, no CongestionMark, no
// PitToken, no IncomingFaceID), otherwise the size of the LpPacket that
// carries it with those fields. A Packet with neither Interest nor Data is
// an IDLE LpPacket. A packet with a PitToken or an IncomingFaceID (only a
// local application's hop has them) is encoded to be sized.
func (s *Sizer) PacketSize(p *Packet) int {
	// A packet without link fields whose size is cached in it (every hop
	// of a simulated packet after the first): its size, without
	// building FrameSize's shape.
	// (no Nack, no CongestionMark, no local field: the four or'ed, one
	// branch, not four, on every hop of every packet)
	if uint64(p.Nack)|p.CongestionMark|uint64(len(p.PitToken))|p.IncomingFaceID == 0 {
		if d := p.Data; d != nil {
			if d.size > 0 && d.Wire == nil {
				return d.size
			}
		} else if i := p.Interest; i != nil && i.size > 0 {
			return i.size
		}
	}
	return s.FrameSize(p, nil)
}

// FrameSize returns the length of the frame EncodeLinkFrame(p, *lf) would
// give (lf nil for none, which is PacketSize).
func (s *Sizer) FrameSize(p *Packet, lf *LinkFields) int {
	k := frameShape{fragLen: -1}
	switch {
	case p.Data != nil:
		k.fragLen = s.DataSize(p.Data)
	case p.Interest != nil:
		k.fragLen = s.InterestSize(p.Interest)
	}
	if k.fragLen >= 0 && !hasLpFields(p, lf) {
		return k.fragLen
	}
	if hasLocalFields(p) {
		return lpLen(p, lf, k.fragLen)
	}
	if lf != nil {
		k.acks = len(lf.Acks)
		k.hasTx = lf.TxSeq != 0
	}
	if p.Nack != NackNone {
		k.nackLen = natLen(wireNackReason(p.Nack))
	}
	if p.CongestionMark != 0 {
		k.markLen = natLen(p.CongestionMark)
	}
	if n, ok := s.frames[k]; ok {
		return n
	}
	n := lpLen(p, lf, k.fragLen)
	if s.frames == nil {
		s.frames = make(map[frameShape]int)
	}
	s.frames[k] = n
	return n
}

// lpLen encodes the LpPacket of p with link fields lf (nil for none) and a
// fragment of fragLen bytes (none if negative), to measure it.
func lpLen(p *Packet, lf *LinkFields, fragLen int) int {
	f := LpFrame{Nack: p.Nack, CongestionMark: p.CongestionMark, PitToken: p.PitToken, IncomingFaceID: p.IncomingFaceID}
	if lf != nil {
		f.LinkFields = *lf
	}
	if fragLen >= 0 {
		f.Fragment = make([]byte, fragLen)
	}
	w, err := EncodeLp(&f)
	if err != nil {
		panic(fmt.Sprintf("ndn: Sizer: ndnd cannot encode LpPacket: %v", err))
	}
	return len(w)
}

// contentLen is the payload length of d.
func contentLen(d *Data) int {
	if d.Content != nil {
		return len(d.Content)
	}
	return d.ContentLen
}

// sigValueLen is the SignatureValue length of sig.
func sigValueLen(sig Signature) int {
	if sig.ValueLen > 0 {
		return sig.ValueLen
	}
	return len(sig.Value)
}

// nameLen is n.EncodingLength(), the length of n's components as ndnd
// encodes them, summed in one loop: a component whose type number and
// value length are both below 253 (every one a simulation makes) has a
// header of two bytes, one for its type and one for its length, without
// ndnd's general sizing of both numbers. One comparison tells: the two
// numbers or'ed together are below 253 only if both are.
func nameLen(n Name) int {
	total := 0
	for _, c := range n {
		if l := len(c.Val); uint64(c.Typ)|uint64(l) <= 0xfc {
			total += 2 + l
		} else {
			total += c.EncodingLength()
		}
	}
	return total
}

// natLen is the length of v encoded as an NDN non-negative integer.
func natLen(v uint64) uint8 { return uint8(enc.Nat(v).EncodingLength()) }
