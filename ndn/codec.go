package ndn

import (
	"bytes"
	"errors"
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"
)

// TLV types of the outermost packets (NDN packet format v0.3, NDNLPv2).
const (
	tlvInterest enc.TLNum = 0x05
	tlvData     enc.TLNum = 0x06
	tlvLpPacket enc.TLNum = 0x64
	tlvHopLimit enc.TLNum = 0x22
)

// maxComponentLen is the longest name component value ndnd v1.5.3 encodes
// correctly: it writes a component's TLV-LENGTH as a fixed-width integer
// instead of a variable-length number, which differs from 253 bytes on.
const maxComponentLen = 252

// Errors reported by the codec; test for them with errors.Is.
var (
	// ErrMalformed wraps every failure to decode bytes that are not a
	// well-formed packet.
	ErrMalformed = errors.New("ndn: malformed packet")
	// ErrUnsupported reports a well-formed packet or a request that
	// ndncc's packet model cannot represent.
	ErrUnsupported = errors.New("ndn: unsupported")
	// ErrFragment reports an LpPacket that carries one fragment of a
	// larger network packet; DecodeLp gives its fields for reassembly.
	ErrFragment = errors.New("ndn: LpPacket is a fragment")
)

// EncodeInterest returns the wire encoding of i. A received Interest
// (Wire set) is its Wire, with the HopLimit byte rewritten in a copy when
// i.HopLimit differs from the received value. Otherwise i is encoded:
// Name, CanBePrefix, MustBeFresh, ForwardingHint, Nonce, InterestLifetime
// (unless it is the default), HopLimit (when HasHopLimit) and
// ApplicationParameters (when AppParams is non-nil, with the
// ParametersSha256Digest appended to the name). Only a received Interest
// may be signed.
func EncodeInterest(i *Interest) ([]byte, error) {
	x := i.Ext
	if x == nil {
		x = &InterestExt{}
	} else if x.Wire != nil {
		w, err := receivedInterestWire(i)
		if err != nil {
			return nil, fmt.Errorf("ndn: encode Interest %s: %w", i.Name, err)
		}
		return w, nil
	}
	if len(i.Name) == 0 {
		return nil, errors.New("ndn: encode Interest: empty name")
	}
	if err := checkName(i.Name); err != nil {
		return nil, fmt.Errorf("ndn: encode Interest %s: %w", i.Name, err)
	}
	for _, fh := range x.ForwardingHint {
		if err := checkName(fh); err != nil {
			return nil, fmt.Errorf("ndn: encode Interest %s: ForwardingHint: %w", i.Name, err)
		}
	}
	switch {
	case hasParametersDigest(i.Name):
		return nil, fmt.Errorf("ndn: encode Interest %s: a name with a ParametersSha256Digest: %w", i.Name, ErrUnsupported)
	case x.Sig != nil:
		return nil, fmt.Errorf("ndn: encode Interest %s: signing Interests: %w", i.Name, ErrUnsupported)
	}
	w, err := interestWire(i)
	if err != nil {
		return nil, fmt.Errorf("ndn: encode Interest %s: %w", i.Name, err)
	}
	return join(w), nil
}

// receivedInterestWire returns the encoding of a received Interest: its
// Wire, or a copy with the HopLimit the forwarder set.
func receivedInterestWire(i *Interest) ([]byte, error) {
	x := i.Ext
	switch {
	case i.HasHopLimit != (x.hopAt > 0):
		return nil, fmt.Errorf("HopLimit added to or removed from a received Interest: %w", ErrUnsupported)
	case !i.HasHopLimit || x.Wire[x.hopAt] == i.HopLimit:
		return x.Wire, nil
	}
	w := bytes.Clone(x.Wire)
	w[x.hopAt] = i.HopLimit
	return w, nil
}

// EncodeData signs d with signer (DigestSha256 when signer is nil) and
// encodes it. It sets d.Wire to the encoding, d.Sig to the signature as
// written and d.ContentLen to len(d.Content); d must not change afterwards.
func EncodeData(d *Data, signer ndnd.Signer) ([]byte, error) {
	if signer == nil {
		signer = sec.NewSha256Signer()
	}
	if d.Content == nil && d.ContentLen > 0 {
		return nil, fmt.Errorf("ndn: encode Data %s: ContentLen is %d but Content is nil", d.Name, d.ContentLen)
	}
	sigType, err := sigTypeOf(signer.Type())
	if err != nil {
		return nil, fmt.Errorf("ndn: encode Data %s: %w", d.Name, err)
	}
	if err := checkData(d, signer.KeyLocator()); err != nil {
		return nil, fmt.Errorf("ndn: encode Data %s: %w", d.Name, err)
	}
	rec := &recordingSigner{Signer: signer}
	w, err := dataWire(d, d.Content, rec)
	if err != nil {
		return nil, fmt.Errorf("ndn: encode Data %s: %w", d.Name, err)
	}
	d.Wire = join(w)
	d.size = len(d.Wire)
	d.ContentLen = len(d.Content)
	d.Sig = Signature{Type: sigType, KeyLocator: signer.KeyLocator(), ValueLen: len(rec.value), Value: rec.value}
	if sigType == SigNone {
		d.Sig.KeyLocator = nil
	}
	return d.Wire, nil
}

// EncodeFrame returns the bytes of p as they go on a link: the bare
// Interest or Data when p has no NDNLPv2 field, an LpPacket otherwise (see
// Sizer.PacketSize). A Packet with neither Interest nor Data is an IDLE
// LpPacket (acknowledgements only). A Data is sent as d.Wire when set;
// otherwise it is encoded with its Sig.Value, or digested when it is a
// DigestSha256 Data without a value.
func EncodeFrame(p *Packet) ([]byte, error) {
	net, err := encodeNetwork(p)
	if err != nil {
		return nil, fmt.Errorf("ndn: encode frame: %w", err)
	}
	if net != nil && !hasLpFields(p, nil) {
		return net, nil
	}
	f := LpFrame{Nack: p.Nack, CongestionMark: p.CongestionMark,
		PitToken: p.PitToken, IncomingFaceID: p.IncomingFaceID, Fragment: net}
	return EncodeLp(&f)
}

// EncodeLinkFrame returns the bytes of p as one frame of a link whose
// reliability service gave it lf: an LpPacket with p's Nack and
// CongestionMark, lf's Acks and TxSequence, and p as its Fragment (none
// for an IDLE frame, a Packet with neither Interest nor Data). With lf
// zero it is EncodeFrame. Links that fragment put lf on one of the
// fragments themselves (EncodeLp).
func EncodeLinkFrame(p *Packet, lf LinkFields) ([]byte, error) {
	if lf.IsZero() {
		return EncodeFrame(p)
	}
	net, err := encodeNetwork(p)
	if err != nil {
		return nil, fmt.Errorf("ndn: encode frame: %w", err)
	}
	f := LpFrame{Nack: p.Nack, CongestionMark: p.CongestionMark, LinkFields: lf,
		PitToken: p.PitToken, IncomingFaceID: p.IncomingFaceID, Fragment: net}
	return EncodeLp(&f)
}

// DecodeFrame decodes the bytes received from a link: a bare Interest, a
// bare Data, or an LpPacket carrying a whole network packet (with Nack and
// CongestionMark) or none (IDLE). Link-reliability fields are ignored (see
// DecodeLinkFrame). An LpPacket carrying one fragment of a larger packet
// gives an error that wraps ErrFragment; decode it with DecodeLp and
// reassemble.
//
// The returned packet shares memory with wire (names, Content, Data.Wire):
// the caller must not modify or reuse wire afterwards.
func DecodeFrame(wire []byte) (Packet, error) {
	p, _, err := DecodeLinkFrame(wire)
	return p, err
}

// DecodeLinkFrame is DecodeFrame that also returns the frame's
// link-reliability fields (TxSequence, Acks), for the link's reliability
// service (package link). An IDLE frame gives a Packet with neither
// Interest nor Data and its Acks.
func DecodeLinkFrame(wire []byte) (Packet, LinkFields, error) {
	return DecodeLinkFrameWith(wire, nil)
}

// DecodeLinkFrameWith is DecodeLinkFrame for a receive path that reuses
// its Data structs: a Data it decodes is newData's (a fresh one when
// newData is nil or returns nil), overwritten whole and with its name's
// storage reused. The caller must be done with everything the Data held.
// Most Data of a fetch (a Data, bare or with PitToken, IncomingFaceId and
// CongestionMark) then decode without allocating (fastdata.go).
func DecodeLinkFrameWith(wire []byte, newData func() *Data) (Packet, LinkFields, error) {
	if p, ok := decodeFast(wire, newData); ok {
		return p, LinkFields{}, nil
	}
	return decodeLinkFrameFull(wire)
}

// decodeLinkFrameFull is DecodeLinkFrame with ndnd's generated decoders,
// for every frame.
func decodeLinkFrameFull(wire []byte) (Packet, LinkFields, error) {
	typ, _, err := outerTLV(wire)
	if err != nil {
		return Packet{}, LinkFields{}, fmt.Errorf("ndn: decode frame: %w", err)
	}
	if typ != tlvLpPacket {
		p, err := decodeNetwork(wire)
		return p, LinkFields{}, err
	}
	f, err := DecodeLp(wire)
	if err != nil {
		return Packet{}, LinkFields{}, err
	}
	if f.FragCount > 1 {
		return Packet{}, LinkFields{}, fmt.Errorf("ndn: decode frame: fragment %d of %d (sequence %d): %w",
			f.FragIndex, f.FragCount, f.Sequence, ErrFragment)
	}
	p, err := f.Packet()
	if err != nil {
		return Packet{}, LinkFields{}, err
	}
	return p, f.LinkFields, nil
}

// interestWire encodes i with ndnd.
func interestWire(i *Interest) (enc.Wire, error) {
	cfg := ndnd.InterestConfig{
		CanBePrefix: i.CanBePrefix,
		MustBeFresh: i.MustBeFresh,
		Nonce:       optional.Some(i.Nonce),
	}
	if lt := i.LifetimeOrDefault(); lt != DefaultInterestLifetime {
		cfg.Lifetime = optional.Some(lt)
	}
	if i.HasHopLimit {
		h := i.HopLimit
		cfg.HopLimit = &h
	}
	var params enc.Wire
	if x := i.Ext; x != nil {
		cfg.ForwardingHint = x.ForwardingHint
		if x.AppParams != nil {
			params = enc.Wire{x.AppParams}
		}
	}
	name := i.Name
	if name == nil {
		name = Name{}
	}
	e, err := spec.Spec{}.MakeInterest(name, &cfg, params, nil)
	if err != nil {
		return nil, err
	}
	return e.Wire, nil
}

// dataWire encodes d with ndnd, with the given content and signer. The
// Content element is always present (possibly empty) and so is MetaInfo,
// as ndnd writes it.
func dataWire(d *Data, content []byte, signer ndnd.Signer) (enc.Wire, error) {
	var cfg ndnd.DataConfig
	if d.ContentType != 0 {
		cfg.ContentType = optional.Some(ndnd.ContentType(d.ContentType))
	}
	if d.Freshness > 0 {
		cfg.Freshness = optional.Some(d.Freshness)
	}
	if d.HasFinal {
		cfg.FinalBlockID = optional.Some(d.FinalBlockID)
	}
	name := d.Name
	if name == nil {
		name = Name{}
	}
	e, err := spec.Spec{}.MakeData(name, &cfg, enc.Wire{content}, signer)
	if err != nil {
		return nil, err
	}
	return e.Wire, nil
}

// encodeNetwork returns the Interest or Data that p carries, or nil for
// an IDLE packet.
func encodeNetwork(p *Packet) ([]byte, error) {
	switch {
	case p.Interest != nil && p.Data != nil:
		return nil, errors.New("packet carries both an Interest and a Data")
	case p.Data != nil && p.Nack != NackNone:
		return nil, fmt.Errorf("Nack of Data %s: a Nack carries an Interest", p.Data.Name)
	case p.Interest != nil:
		return EncodeInterest(p.Interest)
	case p.Data != nil:
		return encodeDataAsIs(p.Data)
	case p.Nack != NackNone:
		return nil, errors.New("Nack without an Interest")
	}
	return nil, nil
}

// encodeDataAsIs returns d's encoding without changing d.
func encodeDataAsIs(d *Data) ([]byte, error) {
	if d.Wire != nil {
		return d.Wire, nil
	}
	var signer ndnd.Signer
	switch {
	case d.Sig.Type == SigNone:
		signer = nil
	case d.Sig.Value != nil:
		if d.Sig.ValueLen != 0 && d.Sig.ValueLen != len(d.Sig.Value) {
			return nil, fmt.Errorf("Data %s: Sig.ValueLen %d but %d-byte Sig.Value", d.Name, d.Sig.ValueLen, len(d.Sig.Value))
		}
		signer = signerOf(d.Sig, d.Sig.Value)
	case d.Sig.Type == SigDigestSHA256:
		signer = locatedSigner{sec.NewSha256Signer(), d.Sig.KeyLocator}
	default:
		return nil, fmt.Errorf("Data %s has no Wire and no signature value (sign it with EncodeData)", d.Name)
	}
	if d.Content == nil && d.ContentLen > 0 {
		return nil, fmt.Errorf("Data %s: ContentLen is %d but Content is nil", d.Name, d.ContentLen)
	}
	if err := checkData(d, d.Sig.KeyLocator); err != nil {
		return nil, fmt.Errorf("Data %s: %w", d.Name, err)
	}
	w, err := dataWire(d, d.Content, signer)
	if err != nil {
		return nil, fmt.Errorf("Data %s: %w", d.Name, err)
	}
	return join(w), nil
}

// recordingSigner keeps the signature value its Signer produced.
type recordingSigner struct {
	ndnd.Signer
	value []byte
}

func (s *recordingSigner) Sign(covered enc.Wire) ([]byte, error) {
	v, err := s.Signer.Sign(covered)
	s.value = v
	return v, err
}

// locatedSigner is a Signer with another KeyLocator.
type locatedSigner struct {
	ndnd.Signer
	keyLocator Name
}

func (s locatedSigner) KeyLocator() enc.Name { return s.keyLocator }

// checkData reports names of d that ndnd cannot encode correctly.
func checkData(d *Data, keyLocator Name) error {
	if err := checkName(d.Name); err != nil {
		return err
	}
	if d.HasFinal && len(d.FinalBlockID.Val) > maxComponentLen {
		return fmt.Errorf("FinalBlockId is %d bytes long (at most %d): %w",
			len(d.FinalBlockID.Val), maxComponentLen, ErrUnsupported)
	}
	if err := checkName(keyLocator); err != nil {
		return fmt.Errorf("KeyLocator: %w", err)
	}
	return nil
}

// checkName reports a name that ndnd cannot encode correctly.
func checkName(n Name) error {
	for i, c := range n {
		if len(c.Val) > maxComponentLen {
			return fmt.Errorf("name component %d is %d bytes long (at most %d): %w",
				i, len(c.Val), maxComponentLen, ErrUnsupported)
		}
	}
	return nil
}

// hasParametersDigest reports whether n has a ParametersSha256Digest
// component, the mark of an Interest with ApplicationParameters.
func hasParametersDigest(n Name) bool {
	for _, c := range n {
		if c.Typ == enc.TypeParametersSha256DigestComponent {
			return true
		}
	}
	return false
}

// hasLpFields reports whether p, with link fields lf (nil for none),
// needs an LpPacket header.
func hasLpFields(p *Packet, lf *LinkFields) bool {
	return p.Nack != NackNone || p.CongestionMark != 0 || (lf != nil && !lf.IsZero()) || hasLocalFields(p)
}

// hasLocalFields reports whether p carries a PitToken or an
// IncomingFaceId, the NDNLPv2 fields of the hop to or from a local
// application.
func hasLocalFields(p *Packet) bool {
	return len(p.PitToken) > 0 || p.IncomingFaceID != 0
}

// join returns the bytes of w, copying only when w has several parts.
func join(w enc.Wire) []byte {
	if len(w) == 1 {
		return w[0]
	}
	return w.Join()
}
