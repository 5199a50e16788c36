package ndn

import (
	"bytes"
	"crypto/ed25519"
	"errors"
	"reflect"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	mgmt "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"
)

// ndndInterest encodes an Interest with ndnd.
func ndndInterest(t *testing.T, n Name, cfg *ndnd.InterestConfig, params enc.Wire, signer ndnd.Signer) []byte {
	t.Helper()
	e, err := spec.Spec{}.MakeInterest(n, cfg, params, signer)
	if err != nil {
		t.Fatal(err)
	}
	return e.Wire.Join()
}

// registerCommand is a rib/register command as ndnd's engine builds it
// (DigestSha256, SignatureNonce and SignatureTime), with a HopLimit.
func registerCommand(t *testing.T) []byte {
	t.Helper()
	hop := byte(9)
	e, err := mgmt.NewConfig(true, sec.NewSha256Signer(), spec.Spec{}).MakeCmd("rib", "register",
		&mgmt.ControlArgs{Name: name("app")}, &ndnd.InterestConfig{
			Lifetime: optional.Some(time.Second), Nonce: optional.Some(uint32(5)), MustBeFresh: true,
			HopLimit: &hop, SigNonce: []byte{1, 2, 3, 4, 5, 6, 7, 8},
			SigTime: optional.Some(1700000000000 * time.Millisecond),
		})
	if err != nil {
		t.Fatal(err)
	}
	return e.Wire.Join()
}

// TestDecodeInterestsAForwarderPassesOn decodes Interests with
// ApplicationParameters, signatures and ForwardingHints built by ndnd, and
// checks that they re-encode to the very bytes received.
func TestDecodeInterestsAForwarderPassesOn(t *testing.T) {
	edKey := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	tests := []struct {
		name   string
		wire   []byte
		params []byte // nil: none
		hint   []Name
		sig    SigType
		signed bool
		keyLoc Name
	}{
		{"parameters", ndndInterest(t, name("a"), &ndnd.InterestConfig{Nonce: optional.Some(uint32(1))},
			enc.Wire{[]byte("xyz")}, nil), []byte("xyz"), nil, 0, false, nil},
		{"empty parameters", ndndInterest(t, name("a"), &ndnd.InterestConfig{Nonce: optional.Some(uint32(1))},
			enc.Wire{}, nil), []byte{}, nil, 0, false, nil},
		{"forwarding hint", ndndInterest(t, name("a"), &ndnd.InterestConfig{Nonce: optional.Some(uint32(1)),
			ForwardingHint: []Name{name("isp", "x"), name("isp", "y")}}, nil, nil), nil, []Name{name("isp", "x"), name("isp", "y")}, 0, false, nil},
		{"command Interest (DigestSha256)", registerCommand(t), []byte{}, nil, SigDigestSHA256, true, nil},
		{"Ed25519-signed", ndndInterest(t, name("b"), &ndnd.InterestConfig{Nonce: optional.Some(uint32(1)),
			SigNonce: []byte{9}, SigSeqNo: optional.Some(uint64(4))}, enc.Wire{[]byte{7}},
			sec.NewEd25519Signer(name("key"), edKey)), []byte{7}, nil, SigEd25519, true, name("key")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodeFrame(tt.wire)
			if err != nil {
				t.Fatal(err)
			}
			i, x := p.Interest, p.Interest.Ext
			switch {
			case x == nil || !bytes.Equal(i.Wire(), tt.wire):
				t.Error("Wire is not the received encoding")
			case !bytes.Equal(x.AppParams, tt.params) || (x.AppParams == nil) != (tt.params == nil):
				t.Errorf("AppParams = %x, want %x", x.AppParams, tt.params)
			case len(x.ForwardingHint) != len(tt.hint):
				t.Errorf("ForwardingHint = %v, want %v", x.ForwardingHint, tt.hint)
			case i.Signed() != tt.signed:
				t.Errorf("Sig = %+v, want signed %t", x.Sig, tt.signed)
			case x.Sig != nil && (x.Sig.Type != tt.sig || !x.Sig.KeyLocator.Equal(tt.keyLoc) || x.Sig.ValueLen != len(x.Sig.Value) || x.Sig.ValueLen == 0):
				t.Errorf("Sig = %+v, want type %d, KeyLocator %s", x.Sig, tt.sig, tt.keyLoc)
			case tt.params != nil && i.Name[len(i.Name)-1].Typ != enc.TypeParametersSha256DigestComponent:
				t.Errorf("name %s does not end with the parameters digest", i.Name)
			}
			for j, h := range tt.hint {
				if !x.ForwardingHint[j].Equal(h) {
					t.Errorf("ForwardingHint[%d] = %s, want %s", j, x.ForwardingHint[j], h)
				}
			}
			again, err := EncodeFrame(&Packet{Interest: i})
			if err != nil || !bytes.Equal(again, tt.wire) {
				t.Errorf("re-encoding = %x, %v; want the received bytes", again, err)
			}
			var s Sizer
			if n := s.InterestSize(i); n != len(tt.wire) {
				t.Errorf("InterestSize = %d, want %d", n, len(tt.wire))
			}
		})
	}
}

// TestForwardedInterestRewritesOnlyHopLimit decrements the HopLimit of a
// received signed command, as a forwarder does: only that byte changes,
// the original stays intact, and the signature still verifies.
func TestForwardedInterestRewritesOnlyHopLimit(t *testing.T) {
	wire := registerCommand(t)
	orig := bytes.Clone(wire)
	p, err := DecodeFrame(wire)
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyInterestDigest(p.Interest); err != nil {
		t.Fatal(err)
	}
	fwd := *p.Interest
	fwd.HopLimit--
	out, err := EncodeInterest(&fwd)
	if err != nil {
		t.Fatal(err)
	}
	diffs := 0
	for j := range out {
		if out[j] != orig[j] {
			diffs++
		}
	}
	if len(out) != len(orig) || diffs != 1 || !bytes.Equal(wire, orig) {
		t.Fatalf("forwarded encoding differs from the received one in %d bytes (lengths %d, %d), received bytes changed: %t",
			diffs, len(out), len(orig), !bytes.Equal(wire, orig))
	}
	q, err := DecodeFrame(out)
	if err != nil {
		t.Fatal(err)
	}
	if q.Interest.HopLimit != 8 || !q.Interest.Name.Equal(p.Interest.Name) || q.Interest.Nonce != 5 {
		t.Errorf("forwarded Interest decodes as %s HopLimit %d nonce %d", q.Interest.Name, q.Interest.HopLimit, q.Interest.Nonce)
	}
	if err := VerifyInterestDigest(q.Interest); err != nil {
		t.Errorf("signature after forwarding: %v", err)
	}
}

func TestVerifyInterestDigest(t *testing.T) {
	good := registerCommand(t)
	// A DigestSha256 signature of zeros, with a parameters digest that
	// matches it (the parameters digest covers the signature).
	badSig := ndndInterest(t, name("a"), &ndnd.InterestConfig{SigNonce: []byte{1}}, enc.Wire{},
		signerOf(DigestSignature(), make([]byte, DigestSHA256Len)))
	tests := []struct {
		name string
		wire []byte
		want error
	}{
		{"valid", good, nil},
		{"tampered signature", badSig, ErrBadSignature},
		{"unsigned", ndndInterest(t, name("a"), &ndnd.InterestConfig{}, enc.Wire{}, nil), ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := DecodeFrame(tt.wire)
			if err != nil {
				t.Fatal(err)
			}
			if err := VerifyInterestDigest(p.Interest); !errors.Is(err, tt.want) {
				t.Errorf("VerifyInterestDigest = %v, want %v", err, tt.want)
			}
		})
	}
	if err := VerifyInterestDigest(&Interest{Name: name("a"), Ext: &InterestExt{Sig: &Signature{Type: SigDigestSHA256}}}); err == nil {
		t.Error("VerifyInterestDigest of an Interest without Wire succeeded")
	}
}

// TestEncodeInterestWithParameters encodes Interests the simulator could
// build (no Wire): ndnd must decode them, and the Sizer must agree.
func TestEncodeInterestWithParameters(t *testing.T) {
	tests := []*Interest{
		{Name: name("a"), Nonce: 3, Ext: &InterestExt{AppParams: []byte("p")}},
		{Name: name("a"), Nonce: 3, Ext: &InterestExt{AppParams: []byte{}}},
		{Name: name("a"), Nonce: 3, Ext: &InterestExt{ForwardingHint: []Name{name("x")}}, HopLimit: 4, HasHopLimit: true},
		{Name: name("a"), Nonce: 3, Ext: &InterestExt{ForwardingHint: []Name{}}},
	}
	for _, in := range tests {
		wire, err := EncodeInterest(in)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := spec.Spec{}.ReadInterest(enc.NewBufferView(wire))
		if err != nil {
			t.Fatalf("ndnd cannot read %x: %v", wire, err)
		}
		if (got.AppParam() != nil) != (in.Ext.AppParams != nil) || len(got.ForwardingHint()) != len(in.Ext.ForwardingHint) {
			t.Errorf("ndnd reads parameters %v, hint %v from %+v", got.AppParam(), got.ForwardingHint(), in)
		}
		p, err := DecodeFrame(wire)
		if err != nil {
			t.Fatal(err)
		}
		want := *in
		if in.Ext.AppParams != nil {
			want.Name = got.Name()
		}
		if diff := interestDiff(p.Interest, &want); diff != "" {
			t.Error(diff)
		}
		var s Sizer
		if n := s.InterestSize(in); n != len(wire) {
			t.Errorf("InterestSize = %d, encoded %d bytes", n, len(wire))
		}
	}
}

// TestLocalFields round-trips the PitToken and the IncomingFaceId and
// decodes them as ndnd writes them.
func TestLocalFields(t *testing.T) {
	in := &Interest{Name: name("a"), Nonce: 1}
	p := Packet{Interest: in, PitToken: []byte{1, 2, 3, 4, 5, 6, 7, 8}, IncomingFaceID: 300}
	wire, err := EncodeFrame(&p)
	if err != nil {
		t.Fatal(err)
	}
	var s Sizer
	if n := s.PacketSize(&p); n != len(wire) {
		t.Errorf("PacketSize = %d, encoded %d bytes", n, len(wire))
	}
	got, err := DecodeFrame(wire)
	if err != nil {
		t.Fatal(err)
	}
	if diff := packetDiff(got, p); diff != "" {
		t.Error(diff)
	}

	inner := mustEncodeInterest(t, in)
	lp := &spec.Packet{LpPacket: &spec.LpPacket{PitToken: []byte{9, 9}, IncomingFaceId: optional.Some(uint64(7)),
		Fragment: enc.Wire{inner}}}
	var pe spec.PacketEncoder
	pe.Init(lp)
	got, err = DecodeFrame(pe.Encode(lp).Join())
	if err != nil {
		t.Fatal(err)
	}
	if diff := packetDiff(got, Packet{Interest: in, PitToken: []byte{9, 9}, IncomingFaceID: 7}); diff != "" {
		t.Error("ndnd's LpPacket:", diff)
	}
}

// TestBatch checks that a Batch hands out distinct zeroed packets, one
// allocation of at most batchBytes per batchLen of them.
func TestBatch(t *testing.T) {
	var b Batch[Interest]
	seen := map[*Interest]bool{}
	for i := range 3 * batchLen[Interest]() {
		in := b.New()
		if seen[in] {
			t.Fatalf("packet %d handed out twice", i)
		}
		seen[in] = true
		if in.Name != nil || in.Nonce != 0 || in.size != 0 {
			t.Fatalf("packet %d not zeroed: %+v", i, in)
		}
		in.SetSegment(Name{}, uint64(i))
		in.Nonce = uint32(i)
	}
	var d Batch[Data]
	n := batchLen[Data]()
	if n < 2 || n*int(reflect.TypeFor[Data]().Size()) > batchBytes {
		t.Fatalf("%d Data per batch", n)
	}
	allocs := testing.AllocsPerRun(10, func() {
		for range n {
			d.New().ContentLen = 1
		}
	})
	if allocs != 1 {
		t.Errorf("%v allocations per %d Data, want 1", allocs, n)
	}
}

// TestInterestBytes keeps a simulated Interest, with its inline name of up
// to four components, within 192 bytes (a size class of the runtime's
// allocator): every segment a simulation fetches allocates one, and the
// bytes allocated set how often the garbage collector runs.
func TestInterestBytes(t *testing.T) {
	if n := reflect.TypeFor[Interest]().Size(); n > 192 {
		t.Errorf("an Interest is %d bytes, want at most 192", n)
	}
	in := NewSegmentInterest(Name{enc.NewGenericComponent("a"), enc.NewGenericComponent("b"), enc.NewVersionComponent(1)}, 7)
	if len(in.Name) != 4 || &in.Name[0] != &in.comps[0] {
		t.Errorf("a 4-component name is not in the Interest's own storage")
	}
	long := NewSegmentInterest(Name{enc.NewGenericComponent("a"), enc.NewGenericComponent("b"), enc.NewGenericComponent("c"), enc.NewVersionComponent(1)}, 7)
	if len(long.Name) != 5 || long.Name[4].Typ != enc.TypeSegmentNameComponent {
		t.Errorf("a 5-component name: %v", long.Name)
	}
}
