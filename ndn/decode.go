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
	case 0x1e: // ForwardingHint: delegation Names
		return child == 0x07
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

// ParseSafely runs an ndnd parser (or encoder) on untrusted input,
// turning a panic into an error: ndnd's generated parsers can panic on
// hostile bytes.
func ParseSafely[T any](parse func() (T, error)) (T, error) { return parseSafely(parse) }

// parseSafely is ParseSafely.
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
	if typ == tlvData {
		return decodeData(wire)
	}
	pkt, err := parseSafely(func() (*spec.Packet, error) {
		p, _, err := spec.ReadPacket(enc.NewBufferView(wire))
		return p, err
	})
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w: %w", ErrMalformed, err)
	}
	if pkt.Interest != nil {
		i, err := interestFrom(pkt.Interest, wire)
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

// decodeData decodes a bare Data whose lengths are checked, keeping the
// part its signature covers.
func decodeData(wire []byte) (Packet, error) {
	sd, covered, err := readSigned(wire, func(r enc.WireView) (*spec.Data, enc.Wire, error) {
		d, covered, err := spec.Spec{}.ReadData(r)
		if err != nil {
			return nil, nil, err
		}
		return d.(*spec.Data), covered, nil
	})
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode network packet: %w: %w", ErrMalformed, err)
	}
	d, err := dataFrom(sd, wire)
	if err != nil {
		return Packet{}, fmt.Errorf("ndn: decode Data: %w", err)
	}
	d.covered = covered
	return Packet{Data: d}, nil
}

// interestFrom converts a parsed Interest whose encoding is wire. ndnd
// has checked that ApplicationParameters come with a matching
// ParametersSha256Digest as the last name component, and that a
// signature value comes with ApplicationParameters.
func interestFrom(si *spec.Interest, wire []byte) (*Interest, error) {
	switch {
	case len(si.NameV) == 0:
		return nil, fmt.Errorf("%w: empty name", ErrMalformed)
	case si.ApplicationParameters == nil && hasParametersDigest(si.NameV):
		return nil, fmt.Errorf("%w: %s has a ParametersSha256Digest but no ApplicationParameters", ErrMalformed, si.NameV)
	case (si.SignatureInfo == nil) != (si.SignatureValue == nil):
		return nil, fmt.Errorf("%w: %s has an InterestSignatureInfo or an InterestSignatureValue without the other", ErrMalformed, si.NameV)
	}
	// One allocation holds the Interest and its InterestExt.
	both := &struct {
		i   Interest
		ext InterestExt
	}{}
	i, x := &both.i, &both.ext
	*i = Interest{
		Name:        si.NameV,
		Nonce:       si.NonceV.GetOr(0),
		CanBePrefix: si.CanBePrefixV,
		MustBeFresh: si.MustBeFreshV,
		Ext:         x,
	}
	x.Wire = wire
	// A lifetime of 0 on the wire reads as the default.
	i.Lifetime = si.InterestLifetimeV.GetOr(0)
	if !wholeMillis(i.Lifetime) {
		return nil, fmt.Errorf("%s: InterestLifetime overflows a time.Duration: %w", si.NameV, ErrUnsupported)
	}
	if si.HopLimitV != nil {
		i.HopLimit, i.HasHopLimit = *si.HopLimitV, true
		at, err := hopLimitAt(wire)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrMalformed, si.NameV, err)
		}
		x.hopAt = at
	}
	if fh := si.ForwardingHintV; fh != nil {
		x.ForwardingHint = fh.Names
		if x.ForwardingHint == nil {
			x.ForwardingHint = []Name{}
		}
	}
	if si.ApplicationParameters != nil {
		x.AppParams = join(si.ApplicationParameters)
		if x.AppParams == nil {
			x.AppParams = []byte{}
		}
	}
	if si.SignatureInfo != nil {
		sig, err := interestSignature(si)
		if err != nil {
			return nil, err
		}
		x.Sig = sig
	}
	return i, nil
}

// interestSignature converts the signature of a signed Interest.
func interestSignature(si *spec.Interest) (*Signature, error) {
	t := si.SignatureInfo.SignatureType
	if t >= uint64(SigNone) {
		return nil, fmt.Errorf("%s: signature type %d: %w", si.NameV, t, ErrUnsupported)
	}
	sig := &Signature{Type: SigType(t), Value: join(si.SignatureValue)}
	if sig.Value == nil {
		sig.Value = []byte{}
	}
	sig.ValueLen = len(sig.Value)
	if kl := si.SignatureInfo.KeyLocator; kl != nil {
		sig.KeyLocator = kl.Name
	}
	return sig, nil
}

// hopLimitAt returns the index in an encoded Interest of the value byte
// of its HopLimit element, which must be one byte long.
func hopLimitAt(wire []byte) (int, error) {
	_, hdr, err := outerTLV(wire)
	if err != nil {
		return 0, err
	}
	r := enc.NewBufferView(wire[hdr:])
	for !r.IsEOF() {
		typ, err := r.ReadTLNum()
		if err != nil {
			return 0, err
		}
		length, err := r.ReadTLNum()
		if err != nil {
			return 0, err
		}
		if typ == tlvHopLimit {
			if length != 1 {
				return 0, fmt.Errorf("HopLimit is %d bytes long, not 1", uint64(length))
			}
			return hdr + r.Pos(), nil
		}
		if err := r.Skip(int(length)); err != nil {
			return 0, err
		}
	}
	return 0, errors.New("no HopLimit element")
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
