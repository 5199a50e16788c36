package ndn

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	sec "github.com/named-data/ndnd/std/security/signer"
)

// fastSeeds returns frames the fast path takes: Data of every shape it
// reads, bare and in LpPackets, signed by a digest and by a key.
func fastSeeds(t testing.TB) [][]byte {
	key, err := sec.KeygenEd25519(name("key", "KEY", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	var seeds [][]byte
	for i, p := range []Packet{
		{},
		{CongestionMark: 1},
		{CongestionMark: 1 << 40, PitToken: []byte{1, 2, 3, 4}, IncomingFaceID: 300},
		{PitToken: []byte{9}},
	} {
		d := &Data{Name: name("a", "b"), Content: []byte("payload")}
		switch i {
		case 1:
			d.Name = append(d.Name, enc.NewVersionComponent(7), enc.NewSegmentComponent(70000))
			d.FinalBlockID, d.HasFinal = enc.NewSegmentComponent(70001), true
			d.Freshness = time.Second
		case 2:
			d.ContentType, d.Content = 2, []byte{}
		case 3:
			d.Name = Name{}
		}
		var signer = key
		if i%2 == 0 {
			signer = nil
		}
		if _, err := EncodeData(d, signer); err != nil {
			t.Fatal(err)
		}
		p.Data = d
		seeds = append(seeds, wireOf(t)(EncodeFrame(&p)), d.Wire)
	}
	return seeds
}

// TestFastPathTakesData checks that the fast path takes the Data a fetch
// receives, and gives what the full decode gives.
func TestFastPathTakesData(t *testing.T) {
	for i, w := range fastSeeds(t) {
		p, ok := decodeFast(w, nil)
		if !ok {
			t.Fatalf("seed %d: the fast path does not take %x", i, w)
		}
		checkFastPacket(t, w, p)
	}
}

// checkFastPacket fails t unless p, what the fast path decoded from
// wire, is what the full decode gives, and the same when decoded into
// a reused Data.
func checkFastPacket(t *testing.T, wire []byte, p Packet) {
	t.Helper()
	full, lf, err := decodeLinkFrameFull(wire)
	if err != nil {
		t.Fatalf("fast path takes %x, the full decode fails: %v", wire, err)
	}
	if !lf.IsZero() {
		t.Fatalf("fast path takes %x, which has link fields %+v", wire, lf)
	}
	if !reflect.DeepEqual(p, full) {
		t.Fatalf("fast path and full decode differ on %x: %s\nfast %+v\nfull %+v", wire, packetDiff(p, full), *p.Data, *full.Data)
	}
	// Decoded again into a Data that held another one (with a longer
	// name, a KeyLocator and a FinalBlockId).
	seeds := fastSeeds(t)
	used, ok := decodeFast(seeds[2], nil)
	if !ok {
		t.Fatal("seed not taken")
	}
	again, ok := decodeFast(wire, func() *Data { return used.Data })
	if !ok || again.Data != used.Data {
		t.Fatalf("fast path does not take %x into a reused Data", wire)
	}
	if !reflect.DeepEqual(again, full) {
		t.Fatalf("fast path into a reused Data and full decode differ on %x: %s", wire, packetDiff(again, full))
	}
}

// FuzzFastData checks the receive fast path against ndnd's full decode:
// whatever frame it takes must decode the full way to the same packet
// (all fields, the Data's wire, the part its signature covers).
func FuzzFastData(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, wire []byte) {
		p, ok := decodeFast(wire, nil)
		if !ok {
			return
		}
		checkFastPacket(t, wire, p)
	})
}

// TestFastPathRefuses lists frames the fast path must leave to the full
// decode.
func TestFastPathRefuses(t *testing.T) {
	d := &Data{Name: name("a"), Content: []byte("x")}
	if _, err := EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		wire []byte
	}{
		{"Interest", wireOf(t)(EncodeFrame(&Packet{Interest: &Interest{Name: name("a")}}))},
		{"Nack", wireOf(t)(EncodeFrame(&Packet{Interest: &Interest{Name: name("a")}, Nack: NackNoRoute}))},
		{"TxSequence", wireOf(t)(EncodeLinkFrame(&Packet{Data: d}, LinkFields{TxSeq: 5}))},
		{"IDLE", wireOf(t)(EncodeLinkFrame(&Packet{}, LinkFields{Acks: []uint64{1}}))},
		// A Data whose Content comes before its MetaInfo: ndnd's decoder
		// reads elements out of order its own way.
		{"out of order", tlvBytes(0x06, tlvBytes(0x07, tlvBytes(0x08, []byte("a"))), tlvBytes(0x15, []byte("x")), tlvBytes(0x14))},
		{"3-byte number", tlvBytes(0x06, tlvBytes(0x07), tlvBytes(0x14, tlvBytes(0x18, []byte{0, 0, 1})))},
		{"unknown field", tlvBytes(0x06, tlvBytes(0x07), tlvBytes(0x19, []byte{1}))},
		{"fragment", wireOf(t)(EncodeLp(&LpFrame{Sequence: 1, HasSequence: true, FragCount: 2, Fragment: d.Wire[:5]}))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := decodeFast(tc.wire, nil); ok {
				t.Fatalf("fast path takes %x", tc.wire)
			}
		})
	}
}

// tlvBytes encodes one TLV element (one-byte type and length).
func tlvBytes(typ byte, parts ...[]byte) []byte {
	v := bytes.Join(parts, nil)
	return append([]byte{typ, byte(len(v))}, v...)
}

// wireOf returns the bytes of an encoder's result, failing t on its error.
func wireOf(t testing.TB) func([]byte, error) []byte {
	return func(w []byte, err error) []byte {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
}

// TestFastPathAllocations checks that a Data decoded into a reused Data
// costs no allocation, and into a fresh one one.
func TestFastPathAllocations(t *testing.T) {
	d := &Data{Name: name("bench", "put", "v1"), Content: make([]byte, 8000), HasFinal: true, FinalBlockID: enc.NewSegmentComponent(2000)}
	d.Name = append(d.Name, enc.NewSegmentComponent(1000))
	if _, err := EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	wire := wireOf(t)(EncodeFrame(&Packet{Data: d, CongestionMark: 1}))
	var reused *Data
	reuse := func() *Data { return reused }
	fresh := testing.AllocsPerRun(100, func() {
		p, _, err := DecodeLinkFrameWith(wire, nil)
		if err != nil || p.Data == nil {
			t.Fatal(err)
		}
		reused = p.Data
	})
	again := testing.AllocsPerRun(100, func() {
		p, _, err := DecodeLinkFrameWith(wire, reuse)
		if err != nil || p.Data != reused {
			t.Fatal("not decoded into the reused Data", err)
		}
	})
	if fresh != 1 || again != 0 {
		t.Fatalf("allocations per decode: %v fresh, %v reused; want 1 and 0", fresh, again)
	}
	if err := VerifyDigest(reused); err != nil {
		t.Fatal(err)
	}
}
