package ndn

import (
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	"github.com/named-data/ndnd/std/types/optional"
)

// AppendFrame appends the frame EncodeFrame returns for p to dst and
// returns the extended slice. A plain Interest (no NDNLPv2 field, no
// ForwardingHint, parameters, signature or received encoding: what a
// consumer sends) is encoded by ndnd's Interest encoder straight into dst,
// without the intermediate packet, encoder and buffer EncodeFrame
// allocates; the bytes are EncodeFrame's. Other packets go through
// EncodeFrame.
func AppendFrame(dst []byte, p *Packet) ([]byte, error) {
	i := p.Interest
	if i == nil || p.Data != nil || i.Ext != nil || hasLpFields(p, nil) {
		b, err := EncodeFrame(p)
		if err != nil {
			return dst, err
		}
		return append(dst, b...), nil
	}
	if len(i.Name) == 0 {
		return dst, fmt.Errorf("ndn: encode frame: ndn: encode Interest: empty name")
	}
	if err := checkName(i.Name); err != nil {
		return dst, fmt.Errorf("ndn: encode frame: ndn: encode Interest %s: %w", i.Name, err)
	}
	if hasParametersDigest(i.Name) {
		return dst, fmt.Errorf("ndn: encode frame: ndn: encode Interest %s: a name with a ParametersSha256Digest: %w", i.Name, ErrUnsupported)
	}
	si := spec.Interest{
		NameV:        i.Name,
		CanBePrefixV: i.CanBePrefix,
		MustBeFreshV: i.MustBeFresh,
		NonceV:       optional.Some(i.Nonce),
	}
	if lt := i.LifetimeOrDefault(); lt != DefaultInterestLifetime {
		si.InterestLifetimeV = optional.Some(lt)
	}
	var hop byte
	if i.HasHopLimit {
		hop = i.HopLimit
		si.HopLimitV = &hop
	}
	var e spec.InterestEncoder
	e.Init(&si)
	// The outer TLV (type 5, the length), then the value in one piece: a
	// plain Interest's encoder plans a single buffer.
	n := int(e.Length)
	head := 1 + enc.TLNum(n).EncodingLength()
	start := len(dst)
	dst = grow(dst, head+n)
	buf := dst[start:]
	buf[0] = byte(tlvInterest)
	enc.TLNum(n).EncodeInto(buf[1:])
	e.EncodeInto(&si, enc.Wire{buf[head:]})
	return dst, nil
}

// grow extends b by n bytes.
func grow(b []byte, n int) []byte {
	if cap(b)-len(b) < n {
		nb := make([]byte, len(b), 2*cap(b)+n)
		copy(nb, b)
		b = nb
	}
	return b[:len(b)+n]
}
