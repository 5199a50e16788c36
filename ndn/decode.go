package ndn

import (
	"errors"
	"fmt"
	"io"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
)

// maxNesting bounds the depth checkLengths descends to (the deepest path is
// Data, SignatureInfo, KeyLocator).
const maxNesting = 3

// outerTLV checks that wire is exactly one TLV element and returns its
// type and the length of its type and length fields.
func outerTLV(wire []byte) (enc.TLNum, int, error) {
	r := enc.NewBufferView(wire)
	typ, err := r.ReadTLNum()
	if err != nil {
		return 0, 0, fmt.Errorf("%w: TLV-TYPE: %w", ErrMalformed, eofAsUnexpected(err))
	}
	length, err := r.ReadTLNum()
	if err != nil {
		return 0, 0, fmt.Errorf("%w: TLV-LENGTH of type %#x: %w", ErrMalformed, uint64(typ), eofAsUnexpected(err))
	}
	hdr := r.Pos()
	if rest := uint64(len(wire) - hdr); uint64(length) != rest {
		return 0, 0, fmt.Errorf("%w: TLV type %#x has length %d but %d bytes follow its header",
			ErrMalformed, uint64(typ), uint64(length), rest)
	}
	return typ, hdr, nil
}

// isNested reports whether the child elements of type child in an element
// of type parent are made of TLVs themselves, among those of Interest, Data
// and LpPacket in which ndnd allocates a buffer of a declared length before
// it reads it.
func isNested(parent, child enc.TLNum) bool {
	switch parent {
	case tlvInterest:
		return child == 0x1e || child == 0x2c // ForwardingHint, InterestSignatureInfo
	case tlvData:
		return child == 0x14 || child == 0x16 // MetaInfo, SignatureInfo
	case tlvLpPacket:
		return child == 0x0320 || child == 0x0334 // Nack, CachePolicy
	case 0x16, 0x2c: // SignatureInfo: KeyLocator, ValidityPeriod, AdditionalDescription
		return child == 0x1c || child == 0xfd || child == 0x0102
	}
	return false
}

// checkLengths verifies that every TLV-LENGTH in the value of an element of
// type typ, and in its nested elements, fits in its parent. ndnd allocates
// some fields at their declared length before it reads them, so a forged
// length must be caught before ndnd sees the packet.
func checkLengths(value []byte, typ enc.TLNum, depth int) error {
	r := enc.NewBufferView(value)
	for !r.IsEOF() {
		child, err := r.ReadTLNum()
		if err != nil {
			return fmt.Errorf("TLV-TYPE in element %#x: %w", uint64(typ), eofAsUnexpected(err))
		}
		length, err := r.ReadTLNum()
		if err != nil {
			return fmt.Errorf("TLV-LENGTH of %#x in element %#x: %w", uint64(child), uint64(typ), eofAsUnexpected(err))
		}
		start := r.Pos()
		if uint64(length) > uint64(len(value)-start) {
			return fmt.Errorf("element %#x in %#x has length %d but only %d bytes remain",
				uint64(child), uint64(typ), uint64(length), len(value)-start)
		}
		end := start + int(length)
		if depth > 0 && isNested(typ, child) {
			if err := checkLengths(value[start:end], child, depth-1); err != nil {
				return err
			}
		}
		if err := r.Skip(int(length)); err != nil {
			return err
		}
	}
	return nil
}

func eofAsUnexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// parseSafely runs an ndnd parser, turning a panic on hostile input into
// an error.
func parseSafely[T any](parse func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, fmt.Errorf("ndnd parser failed: %v", r)
		}
	}()
	return parse()
}

// decodeNetwork decodes a bare Interest or Data.
func decodeNetwork(wire []byte) (Packet, error) {
	typ, hdr, err := outerTLV(wire)
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w", err)
	}
	if typ != tlvInterest && typ != tlvData {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w: TLV type %#x is neither Interest nor Data",
			ErrMalformed, uint64(typ))
	}
	if err := checkLengths(wire[hdr:], typ, maxNesting); err != nil {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w: %w", ErrMalformed, err)
	}
	pkt, err := parseSafely(func() (*spec.Packet, error) {
		p, _, err := spec.ReadPacket(enc.NewBufferView(wire))
		return p, err
	})
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w: %w", ErrMalformed, err)
	}
	if pkt.Interest != nil {
		i, err := interestFrom(pkt.Interest)
		if err != nil {
			return Packet{}, fmt.Errorf("ndn: decode Interest: %w", err)
		}
		return Packet{Interest: i}, nil
	}
	d, err := dataFrom(pkt.Data, wire)
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode Data: %w", err)
	}
	return Packet{Data: d}, nil
}

// interestFrom converts a parsed Interest.
func interestFrom(si *spec.Interest) (*Interest, error) {
	switch {
	case len(si.NameV) == 0:
		return nil, fmt.Errorf("%w: empty name", ErrMalformed)
	case si.ApplicationParameters != nil || si.SignatureInfo != nil:
		return nil, fmt.Errorf("%s has ApplicationParameters: %w", si.NameV, ErrUnsupported)
	case si.ForwardingHintV != nil:
		return nil, fmt.Errorf("%s has a ForwardingHint: %w", si.NameV, ErrUnsupported)
	case hasParametersDigest(si.NameV):
		return nil, fmt.Errorf("%w: %s has a ParametersSha256Digest but no ApplicationParameters", ErrMalformed, si.NameV)
	}
	i := &Interest{
		Name:        si.NameV,
		Nonce:       si.NonceV.GetOr(0),
		CanBePrefix: si.CanBePrefixV,
		MustBeFresh: si.MustBeFreshV,
	}
	// A lifetime of 0 on the wire reads as the default.
	i.Lifetime = si.InterestLifetimeV.GetOr(0)
	if !wholeMillis(i.Lifetime) {
		return nil, fmt.Errorf("%s: InterestLifetime overflows a time.Duration: %w", si.NameV, ErrUnsupported)
	}
	if si.HopLimitV != nil {
		i.HopLimit, i.HasHopLimit = *si.HopLimitV, true
	}
	return i, nil
}

// dataFrom converts a parsed Data whose encoding is wire.
func dataFrom(sd *spec.Data, wire []byte) (*Data, error) {
	d := &Data{Name: sd.NameV, Wire: wire, size: len(wire)}
	if mi := sd.MetaInfo; mi != nil {
		d.ContentType = mi.ContentType.GetOr(0)
		d.Freshness = mi.FreshnessPeriod.GetOr(0)
		if !wholeMillis(d.Freshness) {
			return nil, fmt.Errorf("%s: FreshnessPeriod overflows a time.Duration: %w", d.Name, ErrUnsupported)
		}
		if mi.FinalBlockID != nil {
			c, err := parseSafely(func() (Component, error) {
				r := enc.NewBufferView(mi.FinalBlockID)
				c, err := r.ReadComponent()
				if err == nil && !r.IsEOF() {
					err = errors.New("trailing bytes")
				}
				return c, err
			})
			if err != nil {
				return nil, fmt.Errorf("%w: %s: FinalBlockId is not one name component", ErrMalformed, d.Name)
			}
			d.FinalBlockID, d.HasFinal = c, true
		}
	}
	if sd.ContentV != nil {
		d.Content = join(sd.ContentV)
		if d.Content == nil {
			d.Content = []byte{}
		}
		d.ContentLen = len(d.Content)
	}
	d.Sig.Type = SigNone
	if si := sd.SignatureInfo; si != nil {
		t := si.SignatureType
		if t >= uint64(SigNone) {
			return nil, fmt.Errorf("%s: signature type %d: %w", d.Name, t, ErrUnsupported)
		}
		d.Sig.Type = SigType(t)
		if si.KeyLocator != nil {
			d.Sig.KeyLocator = si.KeyLocator.Name
		}
	}
	if sd.SignatureValue != nil {
		d.Sig.Value = join(sd.SignatureValue)
		if d.Sig.Value == nil {
			d.Sig.Value = []byte{}
		}
		d.Sig.ValueLen = len(d.Sig.Value)
	}
	return d, nil
}

// wholeMillis reports whether a duration that ndnd decoded from a number of
// milliseconds is plausible: ndnd multiplies without an overflow check, and
// an overflow shows as a negative duration or one of partial milliseconds
// (all but a vanishing fraction of overflowing values).
func wholeMillis(d time.Duration) bool {
	return d >= 0 && d%time.Millisecond == 0
}
