package ndn

import (
	"bytes"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"errors"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"
)

func TestInterestRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		in   *Interest
	}{
		{"segment", segInterest()},
		{"all fields", &Interest{Name: name("a", "b"), Nonce: 0xffffffff, Lifetime: 1500 * time.Millisecond,
			CanBePrefix: true, MustBeFresh: true, HopLimit: 7, HasHopLimit: true}},
		{"hop limit 0", &Interest{Name: name("a"), HasHopLimit: true}},
		{"explicit default lifetime", &Interest{Name: name("a"), Lifetime: DefaultInterestLifetime}},
		{"long lifetime", &Interest{Name: name("a"), Lifetime: 1000 * time.Hour}},
		{"252-byte component", &Interest{Name: Name{enc.NewGenericBytesComponent(make([]byte, 252))}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := EncodeInterest(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodeFrame(wire)
			if err != nil {
				t.Fatal(err)
			}
			if diff := packetDiff(got, Packet{Interest: tt.in}); diff != "" {
				t.Error(diff)
			}
		})
	}
}

func TestDataRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		data *Data
	}{
		{"empty", &Data{Name: name("a")}},
		{"segment", &Data{Name: segInterest().Name, Content: []byte("hello"), Freshness: 10 * time.Second,
			FinalBlockID: enc.NewSegmentComponent(41), HasFinal: true}},
		{"content type", &Data{Name: name("a"), ContentType: 2, Content: make([]byte, 70000)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := EncodeData(tt.data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tt.data.Sig.Type != SigDigestSHA256 || tt.data.Sig.ValueLen != 32 || len(tt.data.Sig.Value) != 32 {
				t.Errorf("EncodeData left Sig = %+v", tt.data.Sig)
			}
			var s Sizer
			if n := s.DataSize(&Data{Name: tt.data.Name, ContentType: tt.data.ContentType, Freshness: tt.data.Freshness,
				FinalBlockID: tt.data.FinalBlockID, HasFinal: tt.data.HasFinal, ContentLen: len(tt.data.Content),
				Sig: DigestSignature()}); n != len(wire) {
				t.Errorf("DataSize of the simulated twin = %d, encoded %d bytes", n, len(wire))
			}
			got, err := DecodeFrame(wire)
			if err != nil {
				t.Fatal(err)
			}
			if diff := packetDiff(got, Packet{Data: tt.data}); diff != "" {
				t.Error(diff)
			}
			if !bytes.Equal(got.Data.Wire, wire) {
				t.Error("decoded Data.Wire differs from the encoding")
			}
			if err := VerifyDigest(got.Data); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestVerifyDigestDetectsTampering(t *testing.T) {
	d := &Data{Name: name("a"), Content: []byte("payload")}
	wire, err := EncodeData(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyDigest(d); err != nil {
		t.Errorf("VerifyDigest of the encoded Data = %v", err)
	}
	// A byte of the content, of the name (both covered), and of the
	// signature value.
	for _, at := range []int{bytes.Index(wire, []byte("payload")), bytes.Index(wire, []byte("a")), len(wire) - 1} {
		tampered := bytes.Clone(wire)
		tampered[at] ^= 1
		got, err := DecodeFrame(tampered)
		if err != nil {
			t.Fatal(err)
		}
		if err := VerifyDigest(got.Data); !errors.Is(err, ErrBadSignature) {
			t.Errorf("VerifyDigest of a Data tampered at byte %d = %v, want ErrBadSignature", at, err)
		}
	}
	if err := VerifyDigest(&Data{Name: name("a"), Sig: RSASignature(name("k"))}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("VerifyDigest of an RSA Data = %v, want ErrUnsupported", err)
	}
}

// TestEd25519Seam signs with ndnd's Ed25519 signer and verifies through the
// seam VerifyDigest documents: NdndData and signer.ValidateData.
func TestEd25519Seam(t *testing.T) {
	keyName := name("example", "KEY", "k1")
	signer := sec.NewEd25519Signer(keyName, ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	d := &Data{Name: name("example", "data"), Content: []byte("signed")}
	if _, err := EncodeData(d, signer); err != nil {
		t.Fatal(err)
	}
	if d.Sig.Type != SigEd25519 || d.Sig.ValueLen != 64 || !d.Sig.KeyLocator.Equal(keyName) {
		t.Fatalf("Sig = %d/%d/%s, want Ed25519/64/%s", d.Sig.Type, d.Sig.ValueLen, d.Sig.KeyLocator, keyName)
	}
	pub, err := signer.Public()
	if err != nil {
		t.Fatal(err)
	}
	cert := &Data{Name: keyName, Content: pub}
	if _, err := EncodeData(cert, nil); err != nil {
		t.Fatal(err)
	}
	certData, _, err := NdndData(cert)
	if err != nil {
		t.Fatal(err)
	}
	for _, tamper := range []bool{false, true} {
		got := *d
		got.Wire = bytes.Clone(d.Wire)
		if tamper {
			got.Wire[bytes.Index(got.Wire, []byte("signed"))] ^= 1
		}
		data, covered, err := NdndData(&got)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := sec.ValidateData(data, covered, certData)
		if err != nil || ok == tamper {
			t.Errorf("tampered %t: ValidateData = %t, %v", tamper, ok, err)
		}
	}
}

func TestFrameRoundTrip(t *testing.T) {
	data := &Data{Name: segInterest().Name, Content: make([]byte, 1024)}
	if _, err := EncodeData(data, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		p    Packet
		lf   LinkFields
	}{
		{"bare Interest", Packet{Interest: segInterest()}, LinkFields{}},
		{"bare Data", Packet{Data: data}, LinkFields{}},
		{"marked Data", Packet{Data: data, CongestionMark: 1}, LinkFields{}},
		{"Nack", Packet{Interest: segInterest(), Nack: NackNoRoute}, LinkFields{}},
		{"Nack without reason", Packet{Interest: segInterest(), Nack: NackUnspecified}, LinkFields{}},
		{"unknown Nack reason", Packet{Interest: segInterest(), Nack: 77}, LinkFields{}},
		{"reliability", Packet{Interest: segInterest()}, LinkFields{TxSeq: 1 << 40, Acks: []uint64{5, 1 << 63, 0}}},
		{"everything", Packet{Interest: segInterest(), Nack: NackCongestion, CongestionMark: 3}, LinkFields{TxSeq: 2, Acks: []uint64{1}}},
		{"IDLE", Packet{}, LinkFields{Acks: []uint64{9, 10, 11}}},
		{"empty IDLE", Packet{}, LinkFields{}},
	}
	var s Sizer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wire, err := EncodeLinkFrame(&tt.p, tt.lf)
			if err != nil {
				t.Fatal(err)
			}
			if n := s.FrameSize(&tt.p, &tt.lf); n != len(wire) {
				t.Errorf("FrameSize = %d, encoded %d bytes", n, len(wire))
			}
			got, lf, err := DecodeLinkFrame(wire)
			if err != nil {
				t.Fatal(err)
			}
			if diff := packetDiff(got, tt.p); diff != "" {
				t.Error(diff)
			}
			if diff := linkFieldsDiff(lf, tt.lf); diff != "" {
				t.Error(diff)
			}
			if tt.lf.IsZero() {
				if bare, err := EncodeFrame(&tt.p); err != nil || !bytes.Equal(bare, wire) {
					t.Errorf("EncodeFrame differs from EncodeLinkFrame with no link fields (err %v)", err)
				}
			}
			if got, err := DecodeFrame(wire); err != nil || packetDiff(got, tt.p) != "" {
				t.Errorf("DecodeFrame: %v %s", err, packetDiff(got, tt.p))
			}
		})
	}
}

// TestDecodeNdndEncodings decodes packets that ndnd encoded on its own.
func TestDecodeNdndEncodings(t *testing.T) {
	n := name("ndn", "test")
	hop := byte(32)
	ei, err := spec.Spec{}.MakeInterest(n, &ndnd.InterestConfig{
		CanBePrefix: true, MustBeFresh: true, Nonce: optional.Some(uint32(42)),
		Lifetime: optional.Some(2 * time.Second), HopLimit: &hop,
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	interest := ei.Wire.Join()
	got, err := DecodeFrame(interest)
	if err != nil {
		t.Fatal(err)
	}
	want := &Interest{Name: n, Nonce: 42, Lifetime: 2 * time.Second, CanBePrefix: true, MustBeFresh: true, HopLimit: 32, HasHopLimit: true}
	if diff := packetDiff(got, Packet{Interest: want}); diff != "" {
		t.Error("Interest:", diff)
	}

	signer := sec.NewEd25519Signer(name("key"), ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize)))
	ed, err := spec.Spec{}.MakeData(n, &ndnd.DataConfig{
		ContentType: optional.Some(ndnd.ContentTypeBlob), Freshness: optional.Some(time.Minute),
		FinalBlockID: optional.Some(enc.NewSegmentComponent(3)),
	}, enc.Wire{[]byte("abc")}, signer)
	if err != nil {
		t.Fatal(err)
	}
	data := ed.Wire.Join()
	got, err = DecodeFrame(data)
	if err != nil {
		t.Fatal(err)
	}
	wantData := &Data{Name: n, Freshness: time.Minute, FinalBlockID: enc.NewSegmentComponent(3), HasFinal: true,
		Content: []byte("abc"), ContentLen: 3, Sig: Signature{Type: SigEd25519, KeyLocator: name("key"), ValueLen: 64}}
	wantData.Sig.Value = got.Data.Sig.Value
	if diff := packetDiff(got, Packet{Data: wantData}); diff != "" || len(got.Data.Sig.Value) != 64 {
		t.Error("Data:", diff)
	}

	lp := &spec.Packet{LpPacket: &spec.LpPacket{
		Nack:           &spec.NetworkNack{Reason: spec.NackReasonDuplicate},
		CongestionMark: optional.Some(uint64(1)),
		Ack:            optional.Some(uint64(77)),
		TxSequence:     optional.Some(uint64(78)),
		Fragment:       enc.Wire{interest},
	}}
	var pe spec.PacketEncoder
	pe.Init(lp)
	got, lf, err := DecodeLinkFrame(pe.Encode(lp).Join())
	if err != nil {
		t.Fatal(err)
	}
	wantLp := Packet{Interest: want, Nack: NackDuplicate, CongestionMark: 1}
	if diff := packetDiff(got, wantLp); diff != "" {
		t.Error("LpPacket:", diff)
	}
	if diff := linkFieldsDiff(lf, LinkFields{TxSeq: 78, Acks: []uint64{77}}); diff != "" {
		t.Error("LpPacket:", diff)
	}
}

func TestDecodeMalformed(t *testing.T) {
	interest, err := EncodeInterest(segInterest())
	if err != nil {
		t.Fatal(err)
	}
	lpOf := func(f LpFrame) []byte {
		w, err := EncodeLp(&f)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	data := &Data{Name: name("a")}
	if _, err := EncodeData(data, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		wire []byte
		want error
		text string
	}{
		{"empty", nil, ErrMalformed, "TLV-TYPE"},
		{"type only", []byte{0x05}, ErrMalformed, "TLV-LENGTH"},
		{"truncated length", []byte{0x05, 0xfd, 0x01}, ErrMalformed, "TLV-LENGTH"},
		{"length beyond end", []byte{0x05, 0x10, 0x07, 0x00}, ErrMalformed, "length 16"},
		{"trailing bytes", append(bytes.Clone(interest), 0x00), ErrMalformed, "length 20"},
		{"huge length", []byte{0x05, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed, "length"},
		{"wrong type", []byte{0x08, 0x01, 0x61}, ErrMalformed, "neither Interest nor Data"},
		{"Interest without name", []byte{0x05, 0x06, 0x0a, 0x04, 1, 2, 3, 4}, ErrMalformed, "Name"},
		{"Interest with empty name", []byte{0x05, 0x02, 0x07, 0x00}, ErrMalformed, "empty name"},
		{"component overruns name", []byte{0x05, 0x04, 0x07, 0x02, 0x08, 0x05}, ErrMalformed, "field 7"},
		{"inner length overflows int", []byte{0x05, 0x0c, 0x07, 0x0a, 0x08, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed, "field 7"},
		{"unknown critical field", []byte{0x05, 0x07, 0x07, 0x03, 0x08, 0x01, 0x61, 0x11, 0x00}, ErrMalformed, "critical type number: 17"},
		{"bad FinalBlockId", []byte{0x06, 0x0b, 0x07, 0x03, 0x08, 0x01, 0x61, 0x14, 0x04, 0x1a, 0x02, 0x08, 0x05}, ErrMalformed, "FinalBlockId"},
		{"FinalBlockId length overflows int", []byte{0x06, 0x13, 0x07, 0x03, 0x08, 0x01, 0x61, 0x14, 0x0c, 0x1a, 0x0a,
			0x08, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed, "FinalBlockId"},
		{"Nack carrying Data", lpOf(LpFrame{Nack: NackNoRoute, Fragment: data.Wire}), ErrMalformed, "Nack carries Data"},
		{"LpPacket inside LpPacket", lpOf(LpFrame{CongestionMark: 1, Fragment: lpOf(LpFrame{Fragment: interest})}), ErrMalformed, "neither Interest nor Data"},
		{"empty fragment", lpOf(LpFrame{Fragment: []byte{}}), ErrMalformed, "TLV-TYPE"},
		{"FragCount 0", []byte{0x64, 0x03, 0x53, 0x01, 0x00}, ErrMalformed, "FragCount is 0"},
		{"FragIndex beyond FragCount", []byte{0x64, 0x06, 0x52, 0x01, 0x03, 0x53, 0x01, 0x03}, ErrMalformed, "FragIndex 3"},
		{"Nack without fragment", []byte{0x64, 0x09, 0xfd, 0x03, 0x20, 0x05, 0xfd, 0x03, 0x21, 0x01, 0x32}, ErrMalformed, "Nack without a fragment"},
		{"forged PitToken length", []byte{0x64, 0x06, 0x62, 0xfe, 0x7f, 0xff, 0xff, 0xff}, ErrMalformed, "only 0 bytes remain"},
		{"forged KeyDigest length", []byte{0x06, 0x12, 0x07, 0x03, 0x08, 0x01, 0x61, 0x16, 0x0b, 0x1b, 0x01, 0x00,
			0x1c, 0x06, 0x1d, 0xfe, 0x7f, 0xff, 0xff, 0xff}, ErrMalformed, "element 0x1d in 0x1c"},
		{"HopLimit without value", []byte{0x05, 0x07, 0x07, 0x03, 0x08, 0x01, 0x61, 0x22, 0x00}, ErrMalformed, "ndnd parser failed"},
		{"parameters digest without parameters", []byte{0x05, 0x27, 0x07, 0x25, 0x08, 0x01, 0x61, 0x02, 0x20,
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, ErrMalformed, "ParametersSha256Digest"},
		{"wrong parameters digest", mustMakeInterestWithParams(t), ErrMalformed, "digest"},
		{"HopLimit of two bytes", []byte{0x05, 0x08, 0x07, 0x03, 0x08, 0x01, 0x61, 0x22, 0x02, 0x01, 0x01}, ErrMalformed, ""},
		{"signature value without parameters", []byte{0x05, 0x07, 0x07, 0x03, 0x08, 0x01, 0x61, 0x2e, 0x00}, ErrMalformed, "digest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodeFrame(tt.wire)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.text) {
				t.Fatalf("DecodeFrame = %v, want %v containing %q", err, tt.want, tt.text)
			}
			if p.Interest != nil || p.Data != nil {
				t.Error("DecodeFrame returned a packet with its error")
			}
		})
	}
}

// mustMakeInterestWithParams returns an Interest whose
// ApplicationParameters do not match its ParametersSha256Digest.
func mustMakeInterestWithParams(t *testing.T) []byte {
	e, err := spec.Spec{}.MakeInterest(name("a"), &ndnd.InterestConfig{Nonce: optional.Some(uint32(1))}, enc.Wire{[]byte{1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := e.Wire.Join()
	w[len(w)-1] ^= 0xff // the parameters' only byte
	return w
}

func mustEncodeInterest(t *testing.T, i *Interest) []byte {
	t.Helper()
	w, err := EncodeInterest(i)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestDecodeTruncated cuts valid frames at every length: each prefix must
// fail cleanly.
func TestDecodeTruncated(t *testing.T) {
	data := &Data{Name: segInterest().Name, Content: make([]byte, 300), Freshness: time.Second,
		FinalBlockID: enc.NewSegmentComponent(0), HasFinal: true}
	if _, err := EncodeData(data, nil); err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		p  Packet
		lf LinkFields
	}{
		{Packet{Interest: segInterest(), Nack: NackCongestion}, LinkFields{TxSeq: 3, Acks: []uint64{1, 2}}},
		{Packet{Data: data, CongestionMark: 1}, LinkFields{}},
	} {
		p := f.p
		wire, err := EncodeLinkFrame(&p, f.lf)
		if err != nil {
			t.Fatal(err)
		}
		for n := range len(wire) {
			if _, err := DecodeFrame(wire[:n]); !errors.Is(err, ErrMalformed) {
				t.Fatalf("%s cut to %d of %d bytes: err = %v, want ErrMalformed", p.Name(), n, len(wire), err)
			}
		}
	}
}

func TestEncodeErrors(t *testing.T) {
	long := Name{enc.NewGenericBytesComponent(make([]byte, 253))}
	tests := []struct {
		name string
		p    Packet
		want error
		text string
	}{
		{"Interest and Data", Packet{Interest: segInterest(), Data: segData(1)}, nil, "both"},
		{"Nack of Data", Packet{Data: segData(1), Nack: NackCongestion}, nil, "a Nack carries an Interest"},
		{"Nack of nothing", Packet{Nack: NackCongestion}, nil, "Nack without an Interest"},
		{"empty Interest name", Packet{Interest: &Interest{}}, nil, "empty name"},
		{"253-byte component", Packet{Interest: &Interest{Name: long}}, ErrUnsupported, "253 bytes"},
		{"parameters digest", Packet{Interest: &Interest{Name: append(name("a"), enc.Component{Typ: enc.TypeParametersSha256DigestComponent, Val: make([]byte, 32)})}}, ErrUnsupported, "ParametersSha256Digest"},
		{"unreceived signed Interest", Packet{Interest: &Interest{Name: name("a"), Ext: &InterestExt{AppParams: []byte{}, Sig: &Signature{Type: SigDigestSHA256}}}}, ErrUnsupported, "signing"},
		{"HopLimit added to a received Interest", Packet{Interest: &Interest{Name: name("a"), Ext: &InterestExt{Wire: mustEncodeInterest(t, &Interest{Name: name("a")})}, HasHopLimit: true}}, ErrUnsupported, "HopLimit added"},
		{"simulated Data", Packet{Data: segData(10)}, nil, "Content is nil"},
		{"RSA Data without value", Packet{Data: &Data{Name: name("a"), Sig: RSASignature(name("k"))}}, nil, "no signature value"},
		{"value length mismatch", Packet{Data: &Data{Name: name("a"), Sig: Signature{Type: SigEd25519, ValueLen: 64, Value: []byte{1}}}}, nil, "ValueLen 64"},
		{"long KeyLocator", Packet{Data: &Data{Name: name("a"), Sig: Signature{Type: SigEd25519, KeyLocator: long, Value: []byte{1}}}}, ErrUnsupported, "KeyLocator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := EncodeFrame(&tt.p)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("EncodeFrame = %v, want an error containing %q", err, tt.text)
			}
		})
	}
	if _, err := EncodeData(segData(10), nil); err == nil || !strings.Contains(err.Error(), "Content is nil") {
		t.Errorf("EncodeData of a simulated Data = %v", err)
	}
}

// TestFragmentReassembly splits a Data into LpPacket fragments, as a
// fragmenting link would, and reassembles them as live/ will.
func TestFragmentReassembly(t *testing.T) {
	d := &Data{Name: segInterest().Name, Content: make([]byte, 3000)}
	if _, err := EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	const count = 3
	var frames [][]byte
	chunk := (len(d.Wire) + count - 1) / count
	for i := range count {
		f := LpFrame{Sequence: 1000 + uint64(i), HasSequence: true, FragIndex: uint64(i), FragCount: count,
			Fragment: d.Wire[i*chunk : min((i+1)*chunk, len(d.Wire))]}
		if i == 0 {
			f.CongestionMark = 1
		}
		w, err := EncodeLp(&f)
		if err != nil {
			t.Fatal(err)
		}
		frames = append(frames, w)
	}
	var whole []byte
	var first LpFrame
	for i, w := range frames {
		if _, err := DecodeFrame(w); !errors.Is(err, ErrFragment) {
			t.Fatalf("DecodeFrame of fragment %d = %v, want ErrFragment", i, err)
		}
		f, err := DecodeLp(w)
		if err != nil {
			t.Fatal(err)
		}
		if f.FragIndex != uint64(i) || f.FragCount != count || f.Sequence != 1000+uint64(i) || !f.HasSequence {
			t.Fatalf("fragment %d decoded as %d/%d seq %d", i, f.FragIndex, f.FragCount, f.Sequence)
		}
		if i == 0 {
			first = f
		}
		whole = append(whole, f.Fragment...)
	}
	first.Fragment = whole
	p, err := first.Packet()
	if err != nil {
		t.Fatal(err)
	}
	if diff := packetDiff(p, Packet{Data: d, CongestionMark: 1}); diff != "" {
		t.Error(diff)
	}
	if _, err := EncodeLp(&LpFrame{FragIndex: 3, FragCount: 3, HasSequence: true, Fragment: []byte{1}}); err == nil {
		t.Error("EncodeLp accepted FragIndex 3 of 3")
	}
	if _, err := EncodeLp(&LpFrame{FragIndex: 0, FragCount: 2, Fragment: []byte{1}}); err == nil {
		t.Error("EncodeLp accepted a fragment without Sequence")
	}
}

func TestDecodeLpRejectsNetworkPacket(t *testing.T) {
	wire, err := EncodeInterest(segInterest())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeLp(wire); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), "not LpPacket") {
		t.Errorf("DecodeLp(Interest) = %v", err)
	}
}

// TestEncodeDataECDSA signs with ECDSA, whose signatures are shorter than
// ndnd's estimate: the Sizer must agree once the real length is known.
func TestEncodeDataECDSA(t *testing.T) {
	keyName := name("example", "KEY", "ec")
	signer, err := sec.KeygenEcc(keyName, elliptic.P256())
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		d := &Data{Name: segInterest().Name, Content: make([]byte, 300)}
		wire, err := EncodeData(d, signer)
		if err != nil {
			t.Fatal(err)
		}
		if d.Sig.Type != SigSHA256WithECDSA || d.Sig.ValueLen < 68 || d.Sig.ValueLen > 72 {
			t.Fatalf("Sig = type %d, %d bytes", d.Sig.Type, d.Sig.ValueLen)
		}
		sim := &Data{Name: d.Name, ContentLen: 300,
			Sig: Signature{Type: SigSHA256WithECDSA, KeyLocator: keyName, ValueLen: d.Sig.ValueLen}}
		var s Sizer
		if n := s.DataSize(sim); n != len(wire) {
			t.Fatalf("DataSize = %d, ECDSA-signed Data is %d bytes", n, len(wire))
		}
		got, err := DecodeFrame(wire)
		if err != nil {
			t.Fatal(err)
		}
		if diff := packetDiff(got, Packet{Data: d}); diff != "" {
			t.Fatal(diff)
		}
	}
}

// AppendFrame writes EncodeFrame's bytes, by its fast path for plain
// Interests and by EncodeFrame for the rest.
func TestAppendFrameIsEncodeFrame(t *testing.T) {
	prefix, err := enc.NameFromStr("/example/file/v=7")
	if err != nil {
		t.Fatal(err)
	}
	plain := func(edit func(*Interest)) *Interest {
		i := NewSegmentInterest(prefix, 300)
		i.Nonce = 0xdeadbeef
		edit(i)
		return i
	}
	for _, tt := range []struct {
		name string
		pkt  Packet
	}{
		{"segment Interest", Packet{Interest: plain(func(*Interest) {})}},
		{"fresh, lifetime", Packet{Interest: plain(func(i *Interest) { i.MustBeFresh, i.Lifetime = true, 1500*time.Millisecond })}},
		{"can be prefix, hop limit", Packet{Interest: plain(func(i *Interest) { i.CanBePrefix, i.HopLimit, i.HasHopLimit = true, 9, true })}},
		{"long lifetime", Packet{Interest: plain(func(i *Interest) { i.Lifetime = time.Hour })}},
		{"Nack (an LpPacket)", Packet{Interest: plain(func(*Interest) {}), Nack: NackCongestion}},
		{"forwarding hint", Packet{Interest: plain(func(i *Interest) { i.Ext = &InterestExt{ForwardingHint: []Name{prefix}} })}},
		{"Data", Packet{Data: &Data{Name: prefix, Content: []byte("x"), Sig: DigestSignature()}}},
	} {
		want, err := EncodeFrame(&tt.pkt)
		if err != nil {
			t.Fatalf("%s: EncodeFrame: %v", tt.name, err)
		}
		prev := []byte{1, 2, 3}
		got, err := AppendFrame(prev, &tt.pkt)
		if err != nil {
			t.Fatalf("%s: AppendFrame: %v", tt.name, err)
		}
		if !bytes.Equal(got[:3], []byte{1, 2, 3}) || !bytes.Equal(got[3:], want) {
			t.Errorf("%s: AppendFrame wrote\n%x\nwant %x after the 3 bytes already there", tt.name, got, want)
		}
	}
	if _, err := AppendFrame(nil, &Packet{Interest: &Interest{}}); err == nil {
		t.Error("AppendFrame encoded an Interest without a name")
	}
}

func BenchmarkAppendFrameInterest(b *testing.B) {
	prefix, err := enc.NameFromStr("/bench/object/v=1")
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 1<<16)
	b.ReportAllocs()
	seg := uint64(0)
	for b.Loop() {
		i := NewSegmentInterest(prefix, seg)
		i.Nonce, i.Lifetime = uint32(seg), 4*time.Second
		seg++
		if buf, err = AppendFrame(buf[:0], &Packet{Interest: i}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestDigestCovered: a decoded DigestSha256 Data gives the part its digest
// covers, whose SHA-256 is the signature value; a Data not decoded, or
// signed otherwise, gives nothing.
func TestDigestCovered(t *testing.T) {
	d := &Data{Name: name("a", "b"), Content: bytes.Repeat([]byte("x"), 3000)}
	wire, err := EncodeData(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := DigestCovered(d); ok {
		t.Error("DigestCovered of an encoded, not decoded, Data reports a covered part")
	}
	got, err := DecodeFrame(wire)
	if err != nil {
		t.Fatal(err)
	}
	covered, ok := DigestCovered(got.Data)
	if !ok {
		t.Fatal("DigestCovered of a decoded Data reports no covered part")
	}
	if sum := sha256.Sum256(covered); !bytes.Equal(sum[:], got.Data.Sig.Value) {
		t.Errorf("SHA-256 of the covered part %x, signature value %x", sum, got.Data.Sig.Value)
	}
	if !bytes.Contains(covered, d.Content) || bytes.Contains(covered, got.Data.Sig.Value) {
		t.Error("the covered part must hold the content and not the signature value")
	}
	if _, ok := DigestCovered(&Data{Name: name("a"), Sig: RSASignature(name("k")), Wire: wire}); ok {
		t.Error("DigestCovered of an RSA Data reports a covered part")
	}
}

// TestEncodeDigestLater: encoding with the digest left for later, then
// setting the SHA-256 of the covered part, gives EncodeData's bytes, for
// Data with and without content, MetaInfo and a long name.
func TestEncodeDigestLater(t *testing.T) {
	tests := []struct {
		name string
		d    func() *Data
	}{
		{"empty", func() *Data { return &Data{Name: name("a")} }},
		{"content", func() *Data { return &Data{Name: name("a", "b"), Content: []byte("payload")} }},
		{"segment", func() *Data {
			return &Data{Name: name("obj", "v1", "seg"), Content: bytes.Repeat([]byte{7}, 8000),
				Freshness: 4 * time.Second, FinalBlockID: enc.NewSegmentComponent(9), HasFinal: true}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := EncodeData(tt.d(), nil)
			if err != nil {
				t.Fatal(err)
			}
			d := tt.d()
			covered, err := EncodeDigestLater(d)
			if err != nil {
				t.Fatal(err)
			}
			SetDigest(d, sha256.Sum256(covered))
			if !bytes.Equal(d.Wire, want) {
				t.Fatalf("wire %x, EncodeData gives %x", d.Wire, want)
			}
			if err := VerifyDigest(d); err != nil {
				t.Fatalf("VerifyDigest: %v", err)
			}
			got, err := DecodeFrame(d.Wire)
			if err != nil {
				t.Fatal(err)
			}
			if c, ok := DigestCovered(got.Data); !ok || !bytes.Equal(c, covered) {
				t.Fatalf("covered part %x, the decoder's %x", covered, c)
			}
		})
	}
}
