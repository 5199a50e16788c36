package ndn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

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

// InterestWriter appends frames as AppendFrame does, for a sender of
// many plain Interests that differ only in their last name component and
// their nonce (a consumer's segment Interests). It keeps the last plain
// Interest ndnd encoded for it as a template, and writes an Interest of
// the same shape — the same name but for the value of its last component,
// which has the same type and length, and the same selectors, lifetime and
// HopLimit — as a copy of the template with that value and the nonce
// written over the template's: the bytes ndnd would write, without
// encoding. Any other Interest is encoded by ndnd and becomes the
// template. The zero value is ready to use; an InterestWriter is not safe
// for concurrent use.
type InterestWriter struct {
	tpl     []byte // the template frame, a bare Interest
	name    Name   // its name, slicing tpl
	lastAt  int    // index in tpl of its last name component's value
	nonceAt int    // index in tpl of its Nonce value
	shape   templateShape
}

// templateShape is what an Interest must share with the template besides
// its name.
type templateShape struct {
	canBePrefix, mustBeFresh bool
	lifetime                 time.Duration
	hasHopLimit              bool
	hopLimit                 uint8
}

func shapeOf(i *Interest) templateShape {
	return templateShape{i.CanBePrefix, i.MustBeFresh, i.LifetimeOrDefault(), i.HasHopLimit, i.HopLimit}
}

// AppendFrame appends the frame AppendFrame(dst, p) would append.
func (w *InterestWriter) AppendFrame(dst []byte, p *Packet) ([]byte, error) {
	i := p.Interest
	if i == nil || p.Data != nil || i.Ext != nil || hasLpFields(p, nil) {
		return AppendFrame(dst, p)
	}
	if w.fits(i) {
		start := len(dst)
		dst = append(dst, w.tpl...)
		b := dst[start:]
		copy(b[w.lastAt:], i.Name[len(i.Name)-1].Val)
		binary.BigEndian.PutUint32(b[w.nonceAt:], i.Nonce) // ndnd's encoding of the fixed-width Nonce
		return dst, nil
	}
	start := len(dst)
	dst, err := AppendFrame(dst, p)
	if err == nil {
		w.remember(dst[start:], i)
	}
	return dst, err
}

// fits reports whether i has the template's shape.
func (w *InterestWriter) fits(i *Interest) bool {
	if w.tpl == nil || len(i.Name) != len(w.name) || shapeOf(i) != w.shape {
		return false
	}
	last := len(i.Name) - 1
	for k, c := range i.Name[:last] {
		if c.Typ != w.name[k].Typ || !bytes.Equal(c.Val, w.name[k].Val) {
			return false
		}
	}
	return i.Name[last].Typ == w.name[last].Typ && len(i.Name[last].Val) == len(w.name[last].Val)
}

// remember makes frame, ndnd's encoding of i, the template, finding the
// last component and the Nonce in it with ndnd's readers.
func (w *InterestWriter) remember(frame []byte, i *Interest) {
	w.tpl = append(w.tpl[:0], frame...)
	w.lastAt, w.nonceAt = 0, 0
	_, hdr, err := outerTLV(w.tpl)
	if err != nil {
		w.tpl = nil
		return
	}
	value := w.tpl[hdr:]
	r := enc.NewBufferView(value)
	for !r.IsEOF() {
		e, ok := nextTLV(&r, value)
		if !ok {
			break
		}
		switch {
		case e.typ == tlvName && w.lastAt == 0:
			w.name, ok = fastName(e.val, w.name)
			if ok && len(w.name) == len(i.Name) && len(w.name) > 0 {
				last := w.name[len(w.name)-1].Val
				w.lastAt = hdr + e.at + len(e.val) - len(last)
			}
		case e.typ == tlvNonce && len(e.val) == 4:
			w.nonceAt = hdr + e.at
		}
	}
	if w.lastAt == 0 || w.nonceAt == 0 {
		w.tpl = nil
		return
	}
	w.shape = shapeOf(i)
}
