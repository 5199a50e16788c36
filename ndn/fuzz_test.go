package ndn

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// fuzzSeeds returns real encodings of varied frames, and a few broken ones.
func fuzzSeeds(t testing.TB) [][]byte {
	r := rand.New(rand.NewPCG(7, 7))
	var seeds [][]byte
	for len(seeds) < 40 {
		_, live, lf := randomPacket(r)
		wire, err := EncodeLinkFrame(&live, lf)
		if err != nil {
			t.Fatal(err)
		}
		if len(wire) <= 400 { // small inputs fuzz (and minimize) fast
			seeds = append(seeds, wire)
		}
	}
	d := seedData(300)
	d.Content = make([]byte, 10)
	if _, err := EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	half := uint64(len(d.Wire) / 2)
	for i := range uint64(2) {
		f := LpFrame{Sequence: 9 + i, HasSequence: true, FragIndex: i, FragCount: 2, Fragment: d.Wire[i*half : (i+1)*half]}
		w, err := EncodeLp(&f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, w)
	}
	seeds = append(seeds,
		nil,
		[]byte{0x64, 0x00},
		[]byte{0x05, 0x02, 0x07, 0x00},
		[]byte{0x64, 0x03, 0x53, 0x01, 0x00},
		[]byte{0x05, 0x0c, 0x07, 0x0a, 0x08, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0},
	)
	return seeds
}

// FuzzDecodeFrame feeds arbitrary bytes to DecodeFrame. Whatever decodes
// (with DecodeLinkFrame, DecodeFrame agreeing on the packet) must
// re-encode (unless ndncc cannot represent it), be sized by the Sizer as
// long as its re-encoding, and decode again to the same packet and link
// fields.
func FuzzDecodeFrame(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, wire []byte) {
		p, lf, err := DecodeLinkFrame(wire)
		if err != nil {
			if p.Interest != nil || p.Data != nil || !lf.IsZero() {
				t.Fatal("packet or link fields returned with an error")
			}
			if _, err := DecodeFrame(wire); err == nil {
				t.Fatal("DecodeFrame accepts what DecodeLinkFrame rejects")
			}
			return
		}
		if p.Interest != nil && p.Data != nil {
			t.Fatal("decoded both an Interest and a Data")
		}
		if bare, err := DecodeFrame(wire); err != nil || packetDiff(p, bare) != "" {
			t.Fatalf("DecodeFrame disagrees with DecodeLinkFrame: %v %s", err, packetDiff(p, bare))
		}
		again, err := EncodeLinkFrame(&p, lf)
		if errors.Is(err, ErrUnsupported) {
			return
		}
		if err != nil {
			t.Fatalf("decoded packet does not re-encode: %v", err)
		}
		var s Sizer
		if n := s.FrameSize(&p, &lf); n != len(again) {
			t.Fatalf("FrameSize = %d, re-encoded %d bytes", n, len(again))
		}
		q, lf2, err := DecodeLinkFrame(again)
		if err != nil {
			t.Fatalf("re-encoded packet does not decode: %v", err)
		}
		if diff := packetDiff(p, q) + linkFieldsDiff(lf, lf2); diff != "" {
			t.Fatalf("re-encoded packet differs: %s", diff)
		}
	})
}

// FuzzDecodeLp feeds arbitrary bytes to DecodeLp. Whatever decodes must
// re-encode and decode again to the same frame.
func FuzzDecodeLp(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, wire []byte) {
		fr, err := DecodeLp(wire)
		if err != nil {
			return
		}
		again, err := EncodeLp(&fr)
		if err != nil {
			t.Fatalf("decoded frame does not re-encode: %v", err)
		}
		fr2, err := DecodeLp(again)
		if err != nil {
			t.Fatalf("re-encoded frame does not decode: %v", err)
		}
		if !sameFrame(fr, fr2) {
			t.Fatalf("re-encoded frame differs: %+v != %+v", fr, fr2)
		}
		if fr.FragCount <= 1 {
			_, _ = fr.Packet() // must not panic
		}
	})
}

// sameFrame compares frames, FragCount 0 and 1 being the same.
func sameFrame(a, b LpFrame) bool {
	return a.Sequence == b.Sequence && a.HasSequence == b.HasSequence &&
		a.FragIndex == b.FragIndex && max(a.FragCount, 1) == max(b.FragCount, 1) &&
		a.Nack == b.Nack && a.CongestionMark == b.CongestionMark && a.TxSeq == b.TxSeq &&
		slices.Equal(a.Acks, b.Acks) && bytes.Equal(a.Fragment, b.Fragment) &&
		(a.Fragment == nil) == (b.Fragment == nil)
}
