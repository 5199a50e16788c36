package ndn

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
)

// Signature value lengths of the common signature types.
const (
	DigestSHA256Len = 32  // DigestSha256: a SHA-256 digest
	RSA2048Len      = 256 // SHA256WithRSA with a 2048-bit key
)

// DigestSignature describes a DigestSha256 signature (no KeyLocator).
func DigestSignature() Signature {
	return Signature{Type: SigDigestSHA256, ValueLen: DigestSHA256Len}
}

// RSASignature describes a SHA256WithRSA signature by a 2048-bit key whose
// KeyLocator is keyName, the signature of the seeds' ndn-cxx producers.
func RSASignature(keyName Name) Signature {
	return Signature{Type: SigSHA256WithRSA, KeyLocator: keyName, ValueLen: RSA2048Len}
}

// DefaultSeedKeyName returns the KeyLocator name that makes a seed-shaped
// Data exactly as long as the Data that seed 003 measured on the wire: 1405
// bytes for 1024 bytes of payload (381 bytes of NDN overhead).
//
// The key name is /example/seed003/fileserver/KEY/<8-byte key id>/self/
// v=<8-byte version>, a certificate name whose TLV-VALUE is 61 bytes
// (9+9+12+5+10+6+10). A seed-shaped Data is named
// /example/file/v=<8-byte version>/seg=<2-byte segment>, carries
// FreshnessPeriod (2-byte milliseconds, e.g. 10 s as ndnputchunks sets),
// FinalBlockId (a 2-byte segment component), 1024 bytes of Content and
// RSASignature(DefaultSeedKeyName()). Byte by byte:
//
//	Name            T 1 + L 1 + 29 (9+6+10+4)                      =   31
//	MetaInfo        T 1 + L 1 + FreshnessPeriod 4 + FinalBlockId 6 =   12
//	Content         T 1 + L 3 + 1024                               = 1028
//	SignatureInfo   T 1 + L 1 + SignatureType 3
//	                + KeyLocator (T 1 + L 1 + Name (T 1 + L 1 + 61)) =   70
//	SignatureValue  T 1 + L 3 + 256                                =  260
//	Data            T 1 + L 3 + 1401                               = 1405
//
// Segments 0..255 are one byte shorter (1404), segments from 65536 two
// bytes longer (1407).
func DefaultSeedKeyName() Name {
	keyID := []byte{0x8a, 0x3c, 0x51, 0xe0, 0x9f, 0x27, 0xb4, 0x16}
	return Name{
		enc.NewGenericComponent("example"),
		enc.NewGenericComponent("seed003"),
		enc.NewGenericComponent("fileserver"),
		enc.NewGenericComponent("KEY"),
		enc.NewGenericBytesComponent(keyID),
		enc.NewGenericComponent("self"),
		enc.NewVersionComponent(1700000000000),
	}
}

// ErrBadSignature reports a signature that does not verify.
var ErrBadSignature = errors.New("ndn: bad signature")

// VerifyDigest checks the DigestSha256 signature of a received or encoded
// Data (d.Wire must be set).
//
// Other signature types need the signer's public key: verify them with
// ndnd's security/signer.ValidateData(data, covered, cert), where data and
// covered come from NdndData(d).
func VerifyDigest(d *Data) error {
	if d.Sig.Type != SigDigestSHA256 {
		return fmt.Errorf("ndn: verify digest of %s: signature type %d: %w", d.Name, d.Sig.Type, ErrUnsupported)
	}
	if d.covered != nil && d.Wire != nil {
		// Decoded: the covered part and the value are at hand.
		h := sha256.New()
		for _, b := range d.covered {
			h.Write(b)
		}
		var sum [sha256.Size]byte
		if !bytes.Equal(h.Sum(sum[:0]), d.Sig.Value) {
			return fmt.Errorf("ndn: verify digest of %s: %w", d.Name, ErrBadSignature)
		}
		return nil
	}
	data, covered, err := NdndData(d)
	if err != nil {
		return fmt.Errorf("ndn: verify digest: %w", err)
	}
	if !sec.ValidateSha256(covered, data.Signature()) {
		return fmt.Errorf("ndn: verify digest of %s: %w", d.Name, ErrBadSignature)
	}
	return nil
}

// DigestCovered returns the part of a decoded Data that its DigestSha256
// covers, when that part is one contiguous slice of d.Wire: for a caller
// that hashes many Data at once and compares each digest with d.Sig.Value,
// as VerifyDigest does for one. It reports false for any other Data (not
// decoded, another signature type, or a covered part in pieces): verify
// those with VerifyDigest.
func DigestCovered(d *Data) ([]byte, bool) {
	if d.Sig.Type != SigDigestSHA256 || d.Wire == nil || len(d.covered) != 1 {
		return nil, false
	}
	return d.covered[0], true
}

// EncodeDigestLater encodes d as EncodeData(d, nil) does, signed with
// DigestSha256, but with 32 zero bytes for the signature value, and
// returns the part of d.Wire the digest covers: the caller computes its
// SHA-256 (many Data at once, say) and hands it to SetDigest before d is
// sent or used. d must not change in between.
func EncodeDigestLater(d *Data) ([]byte, error) {
	var placeholder [DigestSHA256Len]byte
	wire, err := EncodeData(d, fixedSigner{typ: ndnd.SignatureDigestSha256, value: placeholder[:]})
	if err != nil {
		return nil, err
	}
	// The covered part runs from the Name, the first element of the
	// Data's value, to the SignatureValue, the last.
	v := enc.NewBufferView(wire)
	_, err1 := v.ReadTLNum()
	_, err2 := v.ReadTLNum()
	end := len(wire) - 2 - DigestSHA256Len
	if err1 != nil || err2 != nil || end < v.Pos() || enc.TLNum(wire[end]) != tlvSignatureValue || wire[end+1] != DigestSHA256Len {
		return nil, fmt.Errorf("ndn: encode Data %s: the SignatureValue does not end the encoding", d.Name)
	}
	return wire[v.Pos():end], nil
}

// SetDigest writes sum, the SHA-256 of what EncodeDigestLater returned for
// d, as d's signature value (in d.Wire and d.Sig).
func SetDigest(d *Data, sum [DigestSHA256Len]byte) {
	value := d.Wire[len(d.Wire)-DigestSHA256Len:]
	copy(value, sum[:])
	d.Sig.Value = value
}

// NdndData parses d.Wire with ndnd and returns ndnd's view of the Data and
// the part of the packet its signature covers, the inputs of ndnd's
// signature validators.
func NdndData(d *Data) (ndnd.Data, enc.Wire, error) {
	if d.Wire == nil {
		return nil, nil, fmt.Errorf("ndn: Data %s has no wire encoding", d.Name)
	}
	data, covered, err := readSigned(d.Wire, spec.Spec{}.ReadData)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: Data: %w", ErrMalformed, err)
	}
	return data, covered, nil
}

// readSigned runs one of ndnd's packet readers, which return the packet
// and the part of it its signature covers, on wire.
func readSigned[T any](wire []byte, read func(enc.WireView) (T, enc.Wire, error)) (T, enc.Wire, error) {
	type parsed struct {
		pkt     T
		covered enc.Wire
	}
	p, err := parseSafely(func() (parsed, error) {
		pkt, covered, err := read(enc.NewBufferView(wire))
		return parsed{pkt, covered}, err
	})
	return p.pkt, p.covered, err
}

// fixedSigner is an ndnd Signer that "signs" with a value it was given: it
// lets ndnd encode a Data whose signature is already known (re-encoding a
// received Data, or sizing a Data with a placeholder signature value).
type fixedSigner struct {
	typ        ndnd.SigType
	keyLocator Name
	value      []byte
}

// signerOf returns a signer that produces sig with the given value.
func signerOf(sig Signature, value []byte) ndnd.Signer {
	return fixedSigner{typ: ndndSigType(sig.Type), keyLocator: sig.KeyLocator, value: value}
}

func (s fixedSigner) Type() ndnd.SigType            { return s.typ }
func (s fixedSigner) KeyName() enc.Name             { return s.keyLocator }
func (s fixedSigner) KeyLocator() enc.Name          { return s.keyLocator }
func (s fixedSigner) EstimateSize() uint            { return uint(len(s.value)) }
func (s fixedSigner) Sign(enc.Wire) ([]byte, error) { return s.value, nil }
func (s fixedSigner) Public() ([]byte, error)       { return nil, ndnd.ErrNoPubKey }

// ndndSigType converts a signature type to ndnd's.
func ndndSigType(t SigType) ndnd.SigType {
	if t == SigNone {
		return ndnd.SignatureNone
	}
	return ndnd.SigType(t)
}

// sigTypeOf converts ndnd's signature type to ours.
func sigTypeOf(t ndnd.SigType) (SigType, error) {
	switch {
	case t == ndnd.SignatureNone:
		return SigNone, nil
	case t < 0 || t >= ndnd.SigType(SigNone):
		return 0, fmt.Errorf("signature type %d: %w", t, ErrUnsupported)
	}
	return SigType(t), nil
}

// VerifyInterestDigest checks the DigestSha256 signature of a received
// signed Interest (i.Ext.Wire must be set).
func VerifyInterestDigest(i *Interest) error {
	if !i.Signed() || i.Ext.Sig.Type != SigDigestSHA256 {
		return fmt.Errorf("ndn: verify digest of Interest %s: not signed with DigestSha256: %w", i.Name, ErrUnsupported)
	}
	in, covered, err := NdndInterest(i)
	if err != nil {
		return fmt.Errorf("ndn: verify digest: %w", err)
	}
	if !sec.ValidateSha256(covered, in.Signature()) {
		return fmt.Errorf("ndn: verify digest of Interest %s: %w", i.Name, ErrBadSignature)
	}
	return nil
}

// NdndInterest parses i.Ext.Wire with ndnd and returns ndnd's view of the
// Interest (with the SignatureNonce, SignatureTime and SignatureSeqNum of a
// signed Interest) and the part of the packet its signature covers, the
// inputs of ndnd's signature validators.
func NdndInterest(i *Interest) (ndnd.Interest, enc.Wire, error) {
	if i.Wire() == nil {
		return nil, nil, fmt.Errorf("ndn: Interest %s has no wire encoding", i.Name)
	}
	in, covered, err := readSigned(i.Wire(), spec.Spec{}.ReadInterest)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: Interest: %w", ErrMalformed, err)
	}
	return in, covered, nil
}
