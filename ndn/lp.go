package ndn

import (
	"errors"
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	"github.com/named-data/ndnd/std/types/optional"
)

// tlvAck is the NDNLPv2 Ack field, the one field of ours that may repeat.
const tlvAck enc.TLNum = 0x0344

// LpFrame is one NDNLPv2 LpPacket: the header fields ndncc uses and the
// fragment it carries. Frames that carry a fragment of a larger packet
// (FragCount > 1) are what a reassembler collects; the first fragment
// (FragIndex 0) carries the per-hop fields of the packet.
type LpFrame struct {
	// Sequence identifies the fragments of one packet (present when
	// HasSequence).
	Sequence    uint64
	HasSequence bool
	// FragIndex and FragCount place the Fragment in its packet. FragCount
	// 0 or 1 means the Fragment is a whole packet; the fields are then not
	// encoded.
	FragIndex uint64
	FragCount uint64
	// Nack, CongestionMark, PitToken and IncomingFaceID are as in Packet.
	Nack           NackReason
	CongestionMark uint64
	PitToken       []byte
	IncomingFaceID uint64
	// LinkFields are the TxSequence and Acks of link reliability.
	LinkFields
	// Fragment holds the bytes of the network packet or of one of its
	// fragments; nil for an IDLE frame.
	Fragment []byte
}

// EncodeLp encodes f as an LpPacket with ndnd. Fields are in the order
// NDNLPv2 requires: Sequence, FragIndex, FragCount, PitToken, Nack,
// IncomingFaceId, CongestionMark, Ack..., TxSequence, Fragment.
func EncodeLp(f *LpFrame) ([]byte, error) {
	if f.FragCount > 1 {
		if f.FragIndex >= f.FragCount || !f.HasSequence || f.Fragment == nil {
			return nil, fmt.Errorf("ndn: encode LpPacket: fragment %d of %d (has sequence: %t, has fragment: %t) is not a valid fragment",
				f.FragIndex, f.FragCount, f.HasSequence, f.Fragment != nil)
		}
	} else if f.FragIndex != 0 {
		return nil, fmt.Errorf("ndn: encode LpPacket: FragIndex %d of an unfragmented packet", f.FragIndex)
	}
	head := &spec.LpPacket{}
	if f.HasSequence {
		head.Sequence = optional.Some(f.Sequence)
	}
	if f.FragCount > 1 {
		head.FragIndex = optional.Some(f.FragIndex)
		head.FragCount = optional.Some(f.FragCount)
	}
	if len(f.PitToken) > 0 {
		head.PitToken = f.PitToken
	}
	if f.Nack != NackNone {
		head.Nack = &spec.NetworkNack{Reason: wireNackReason(f.Nack)}
	}
	if f.IncomingFaceID != 0 {
		head.IncomingFaceId = optional.Some(f.IncomingFaceID)
	}
	if f.CongestionMark != 0 {
		head.CongestionMark = optional.Some(f.CongestionMark)
	}
	parts := []*spec.LpPacket{head}
	for i, a := range f.Acks {
		if i == 0 {
			head.Ack = optional.Some(a)
		} else {
			parts = append(parts, &spec.LpPacket{Ack: optional.Some(a)})
		}
	}
	tail := parts[len(parts)-1]
	if f.TxSeq != 0 {
		tail.TxSequence = optional.Some(f.TxSeq)
	}
	if f.Fragment != nil {
		tail.Fragment = enc.Wire{f.Fragment}
	}
	return lpWire(parts), nil
}

// lpWire writes one LpPacket whose fields are those of parts, in order.
// ndnd's LpPacket model holds a single Ack, so a frame with several Acks is
// encoded by ndnd as consecutive field groups under one LpPacket header.
func lpWire(parts []*spec.LpPacket) []byte {
	encoded := make([]enc.Wire, len(parts))
	length := 0
	for i, p := range parts {
		var e spec.LpPacketEncoder
		e.Init(p)
		if e.Length > 0 { // ndnd cannot encode an empty field group
			encoded[i] = e.Encode(p)
			length += int(e.Length)
		}
	}
	hdr := tlvLpPacket.EncodingLength() + enc.TLNum(length).EncodingLength()
	out := make([]byte, hdr+length)
	pos := tlvLpPacket.EncodeInto(out)
	enc.TLNum(length).EncodeInto(out[pos:])
	pos = hdr
	for _, w := range encoded {
		for _, b := range w {
			pos += copy(out[pos:], b)
		}
	}
	return out
}

// DecodeLp decodes an LpPacket. The frame's Fragment shares memory with
// wire.
func DecodeLp(wire []byte) (LpFrame, error) {
	typ, hdr, err := outerTLV(wire)
	if err != nil {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w", err)
	}
	if typ != tlvLpPacket {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w: TLV type %#x is not LpPacket", ErrMalformed, uint64(typ))
	}
	body := wire[hdr:]
	if err := checkLengths(body, tlvLpPacket, maxNesting); err != nil {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w: %w", ErrMalformed, err)
	}
	lp, err := parseSafely(func() (*spec.LpPacket, error) {
		var ctx spec.LpPacketParsingContext
		ctx.Init()
		return ctx.Parse(enc.NewBufferView(body), false)
	})
	if err != nil {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w: %w", ErrMalformed, err)
	}
	f := LpFrame{
		Sequence:       lp.Sequence.GetOr(0),
		HasSequence:    lp.Sequence.IsSet(),
		FragIndex:      lp.FragIndex.GetOr(0),
		FragCount:      lp.FragCount.GetOr(0),
		CongestionMark: lp.CongestionMark.GetOr(0),
		LinkFields:     LinkFields{TxSeq: lp.TxSequence.GetOr(0)},
		IncomingFaceID: lp.IncomingFaceId.GetOr(0),
	}
	if len(lp.PitToken) > 0 {
		f.PitToken = lp.PitToken
	}
	if lp.Nack != nil {
		f.Nack = nackReasonOf(lp.Nack.Reason)
	}
	if lp.Fragment != nil {
		f.Fragment = join(lp.Fragment)
		if f.Fragment == nil {
			f.Fragment = []byte{}
		}
	}
	if f.Acks, err = lpAcks(body, lp); err != nil {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w: %w", ErrMalformed, err)
	}
	if err := f.checkFragmentation(lp.FragCount.IsSet()); err != nil {
		return LpFrame{}, fmt.Errorf("ndn: decode LpPacket: %w: %w", ErrMalformed, err)
	}
	return f, nil
}

// checkFragmentation validates the fragmentation fields of a decoded frame.
func (f *LpFrame) checkFragmentation(hasCount bool) error {
	switch {
	case hasCount && f.FragCount == 0:
		return errors.New("FragCount is 0")
	case f.FragIndex >= max(f.FragCount, 1):
		return fmt.Errorf("FragIndex %d is not below FragCount %d", f.FragIndex, max(f.FragCount, 1))
	case f.FragCount > 1 && f.Fragment == nil:
		return fmt.Errorf("fragment %d of %d has no Fragment", f.FragIndex, f.FragCount)
	case f.FragCount > 1 && !f.HasSequence:
		return fmt.Errorf("fragment %d of %d has no Sequence", f.FragIndex, f.FragCount)
	}
	return nil
}

// lpAcks returns all Ack fields of an LpPacket body that ndnd parsed as lp.
// ndnd keeps only the last Ack, so each Ack element is parsed on its own.
func lpAcks(body []byte, lp *spec.LpPacket) ([]uint64, error) {
	last, ok := lp.Ack.Get()
	if !ok {
		return nil, nil
	}
	var acks []uint64
	r := enc.NewBufferView(body)
	for !r.IsEOF() {
		start := r.Pos()
		typ, err := r.ReadTLNum()
		if err != nil {
			return nil, err
		}
		length, err := r.ReadTLNum()
		if err != nil {
			return nil, err
		}
		if uint64(length) > uint64(r.Length()-r.Pos()) {
			return nil, fmt.Errorf("field %#x overruns the LpPacket", uint64(typ))
		}
		if err := r.Skip(int(length)); err != nil {
			return nil, err
		}
		if typ != tlvAck {
			continue
		}
		one, err := parseSafely(func() (*spec.LpPacket, error) {
			var ctx spec.LpPacketParsingContext
			ctx.Init()
			return ctx.Parse(enc.NewBufferView(body[start:r.Pos()]), false)
		})
		if err != nil {
			return nil, err
		}
		acks = append(acks, one.Ack.GetOr(0))
	}
	if len(acks) == 0 || acks[len(acks)-1] != last {
		return nil, errors.New("Ack fields disagree with ndnd's parse")
	}
	return acks, nil
}

// Packet decodes the frame's Fragment as a whole network packet and
// attaches the frame's Nack, CongestionMark, PitToken and IncomingFaceID
// (its LinkFields stay in f).
// A reassembler calls it on the first fragment's frame with Fragment set
// to the reassembled bytes. An IDLE frame gives a Packet with neither
// Interest nor Data.
func (f *LpFrame) Packet() (Packet, error) {
	p := Packet{Nack: f.Nack, CongestionMark: f.CongestionMark, PitToken: f.PitToken, IncomingFaceID: f.IncomingFaceID}
	if f.Fragment == nil {
		if p.Nack != NackNone {
			return Packet{}, fmt.Errorf("ndn: decode LpPacket: %w: Nack without a fragment", ErrMalformed)
		}
		return p, nil
	}
	net, err := decodeNetwork(f.Fragment)
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode LpPacket fragment: %w", err)
	}
	if net.Data != nil && p.Nack != NackNone {
		return Packet{}, fmt.Errorf("ndn: decode LpPacket: %w: Nack carries Data %s", ErrMalformed, net.Data.Name)
	}
	p.Interest, p.Data = net.Interest, net.Data
	return p, nil
}

// wireNackReason is the NackReason written for r.
func wireNackReason(r NackReason) uint64 {
	if r == NackUnspecified {
		return 0
	}
	return uint64(r)
}

// nackReasonOf is the NackReason of a Nack whose wire reason is v.
func nackReasonOf(v uint64) NackReason {
	if v == 0 {
		return NackUnspecified
	}
	return NackReason(v)
}
