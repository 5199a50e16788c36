package mgmt

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"

	"github.com/ndncc/ndncc/ndn"
)

// The older signed-command format (NFD's "signed Interest" before the
// packet format v0.3, still sent by python-ndn 0.5 and by ndn-cxx's
// legacy CommandInterestSigner, and still accepted by NFD 24.07) puts the
// signature in the name: the command name is followed by four components,
// a timestamp, a nonce, the SignatureInfo element and the SignatureValue
// element, each as a generic component whose value is the element's whole
// TLV. The signature covers the name's components up to, not including,
// the SignatureValue.
const (
	legacySigComponents = 4    // timestamp, nonce, SignatureInfo, SignatureValue
	tlvSignatureInfo    = 0x16 // SignatureInfo element type (Data's)
	tlvSignatureValue   = 0x17 // SignatureValue element type
)

// legacySignature is the signature of a command in the older format.
type legacySignature struct {
	sigType uint64
	value   []byte
}

// parseLegacySignature decodes the signature of a command in the older
// format: name has the ControlParameters at index at, then exactly the
// four signature components.
func parseLegacySignature(name ndn.Name, at int) (legacySignature, error) {
	if len(name) != at+1+legacySigComponents {
		return legacySignature{}, fmt.Errorf("%d components after the ControlParameters, want %d", len(name)-at-1, legacySigComponents)
	}
	info, err := tlvValue(name[len(name)-2], tlvSignatureInfo)
	if err != nil {
		return legacySignature{}, fmt.Errorf("SignatureInfo component: %w", err)
	}
	si, err := ndn.ParseSafely(func() (*spec.SignatureInfo, error) {
		return spec.ParseSignatureInfo(enc.NewBufferView(info), false)
	})
	if err != nil {
		return legacySignature{}, fmt.Errorf("SignatureInfo: %w", err)
	}
	value, err := tlvValue(name[len(name)-1], tlvSignatureValue)
	if err != nil {
		return legacySignature{}, fmt.Errorf("SignatureValue component: %w", err)
	}
	return legacySignature{sigType: si.SignatureType, value: value}, nil
}

// verifyLegacyDigest checks a DigestSha256 signature in the older format:
// the SHA-256 of the encoded name components before the SignatureValue.
func verifyLegacyDigest(name ndn.Name, sig legacySignature) error {
	sum := sha256.Sum256(name[:len(name)-1].BytesInner())
	if !bytes.Equal(sum[:], sig.value) {
		return errors.New("DigestSha256 does not match")
	}
	return nil
}

// tlvValue returns the value of the TLV element that is the whole value of
// generic name component c, checking its type.
func tlvValue(c enc.Component, typ enc.TLNum) ([]byte, error) {
	if c.Typ != enc.TypeGenericNameComponent {
		return nil, fmt.Errorf("component type %d, want a generic component", c.Typ)
	}
	r := enc.NewBufferView(c.Val)
	t, err := r.ReadTLNum()
	if err != nil {
		return nil, fmt.Errorf("element type: %w", err)
	}
	if t != typ {
		return nil, fmt.Errorf("element type %d, want %d", t, typ)
	}
	l, err := r.ReadTLNum()
	if err != nil {
		return nil, fmt.Errorf("element length: %w", err)
	}
	rest := c.Val[r.Pos():]
	if uint64(l) != uint64(len(rest)) {
		return nil, fmt.Errorf("element length %d, %d bytes follow", l, len(rest))
	}
	return rest, nil
}
