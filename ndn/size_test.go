package ndn

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// segInterest is /example/seg=0 with a nonce: Name 07 0c [08 07 "example"]
// [32 01 00] is 14 bytes, Nonce 0a 04 xxxxxxxx 6 bytes, so the Interest is
// 05 14 + 20 = 22 bytes.
func segInterest() *Interest {
	i := NewSegmentInterest(name("example"), 0)
	i.Nonce = 0x01020304
	return i
}

func TestInterestSize(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Interest)
		want   int
	}{
		{"bare", func(*Interest) {}, 22},
		{"CanBePrefix", func(i *Interest) { i.CanBePrefix = true }, 24},
		{"MustBeFresh", func(i *Interest) { i.MustBeFresh = true }, 24},
		{"default lifetime is omitted", func(i *Interest) { i.Lifetime = 4 * time.Second }, 22},
		{"lifetime 255 ms", func(i *Interest) { i.Lifetime = 255 * time.Millisecond }, 25},
		{"lifetime 256 ms", func(i *Interest) { i.Lifetime = 256 * time.Millisecond }, 26},
		{"lifetime 100 s", func(i *Interest) { i.Lifetime = 100 * time.Second }, 28},
		{"HopLimit", func(i *Interest) { i.HopLimit, i.HasHopLimit = 0, true }, 25},
		{"segment 256", func(i *Interest) { i.Name[1] = enc.NewSegmentComponent(256) }, 23},
		{"all", func(i *Interest) {
			i.CanBePrefix, i.MustBeFresh, i.Lifetime, i.HasHopLimit = true, true, time.Second, true
		}, 33},
	}
	var s Sizer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := segInterest()
			tt.modify(i)
			if got := s.InterestSize(i); got != tt.want {
				t.Errorf("InterestSize = %d, want %d", got, tt.want)
			}
			wire, err := EncodeInterest(i)
			if err != nil {
				t.Fatal(err)
			}
			if len(wire) != tt.want {
				t.Errorf("len(EncodeInterest) = %d, want %d", len(wire), tt.want)
			}
		})
	}
}

// segData is /example/seg=0 signed with DigestSha256. Name 14 bytes, an
// empty MetaInfo 2, Content 2+n (n < 253), SignatureInfo 16 03 1b 01 00 5,
// SignatureValue 17 20 + 32 = 34: 57+n bytes of TLV-VALUE.
func segData(n int) *Data {
	return &Data{Name: segInterest().Name, ContentLen: n, Sig: DigestSignature()}
}

func TestDataSize(t *testing.T) {
	tests := []struct {
		name string
		data *Data
		want int
	}{
		{"empty content", segData(0), 59},
		{"100 bytes", segData(100), 159},
		{"TLV-VALUE 252 bytes", segData(195), 254},
		{"TLV-VALUE 253 bytes", segData(196), 257},
		{"content 1024", segData(1024), 1087},
		{"no signature", &Data{Name: segInterest().Name, Sig: Signature{Type: SigNone}}, 20},
		{"FreshnessPeriod 1 s", func() *Data { d := segData(0); d.Freshness = time.Second; return d }(), 63},
		{"FinalBlockId seg=9", func() *Data {
			d := segData(0)
			d.FinalBlockID, d.HasFinal = enc.NewSegmentComponent(9), true
			return d
		}(), 64},
		{"ContentType KEY", func() *Data { d := segData(0); d.ContentType = 2; return d }(), 62},
		{"KeyLocator /k", func() *Data { d := segData(0); d.Sig.KeyLocator = name("k"); return d }(), 66},
		{"wire is authoritative", &Data{Name: name("x"), ContentLen: 5000, Wire: make([]byte, 77)}, 77},
	}
	var s Sizer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.DataSize(tt.data); got != tt.want {
				t.Errorf("DataSize = %d, want %d", got, tt.want)
			}
			if tt.data.Wire != nil {
				return
			}
			live := *tt.data
			live.Content = make([]byte, tt.data.ContentLen)
			wire, err := encodeDataAsIs(&live)
			if err != nil {
				t.Fatal(err)
			}
			if len(wire) != tt.want {
				t.Errorf("len(encoding) = %d, want %d", len(wire), tt.want)
			}
		})
	}
}

func TestPacketSize(t *testing.T) {
	tests := []struct {
		name string
		p    Packet
		lf   LinkFields
		want int
	}{
		{"bare Interest", Packet{Interest: segInterest()}, LinkFields{}, 22},
		// CongestionMark fd 0340 01 01 (5) + Fragment 50 16 + 22 (24): 64 1d + 29.
		{"marked Interest", Packet{Interest: segInterest(), CongestionMark: 1}, LinkFields{}, 31},
		{"mark 256", Packet{Interest: segInterest(), CongestionMark: 256}, LinkFields{}, 32},
		// Nack fd 0320 05 [fd 0321 01 32] (9) + Fragment 24: 64 21 + 33.
		{"Nack", Packet{Interest: segInterest(), Nack: NackCongestion}, LinkFields{}, 35},
		{"Nack without reason", Packet{Interest: segInterest(), Nack: NackUnspecified}, LinkFields{}, 35},
		// TxSequence fd 0348 08 + 8 (12).
		{"TxSequence", Packet{Interest: segInterest()}, LinkFields{TxSeq: 7}, 38},
		{"two Acks", Packet{Interest: segInterest()}, LinkFields{Acks: []uint64{1, 2}}, 50},
		{"IDLE with two Acks", Packet{}, LinkFields{Acks: []uint64{1, 2}}, 26},
		{"empty IDLE", Packet{}, LinkFields{}, 2},
		{"bare Data", Packet{Data: segData(1024)}, LinkFields{}, 1087},
		// Fragment 50 fd 043f + 1087 (1091) + mark 5: 64 fd 0448 + 1096.
		{"marked Data", Packet{Data: segData(1024), CongestionMark: 1}, LinkFields{}, 1100},
	}
	var s Sizer
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := s.FrameSize(&tt.p, &tt.lf); got != tt.want {
				t.Errorf("FrameSize = %d, want %d", got, tt.want)
			}
			if got := s.PacketSize(&tt.p); tt.lf.IsZero() && got != tt.want {
				t.Errorf("PacketSize = %d, want %d", got, tt.want)
			}
			if tt.p.Data != nil {
				return // a simulated Data has no bytes to encode; see TestSizerMatchesEncoding
			}
			wire, err := EncodeLinkFrame(&tt.p, tt.lf)
			if err != nil {
				t.Fatal(err)
			}
			if len(wire) != tt.want {
				t.Errorf("len(EncodeLinkFrame) = %d, want %d", len(wire), tt.want)
			}
		})
	}
}

// TestSizerMatchesEncoding checks the Sizer against real encodings of
// random packets. One Sizer serves them all, so most answers come from a
// shape another packet put in the cache.
func TestSizerMatchesEncoding(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 1405))
	var s Sizer
	for n := range 5000 {
		sim, live, lf := randomPacket(r)
		wire, err := EncodeLinkFrame(&live, lf)
		if err != nil {
			t.Fatalf("packet %d: %v", n, err)
		}
		if got := s.FrameSize(&sim, &lf); got != len(wire) {
			t.Fatalf("packet %d (%s): FrameSize = %d, encoded %d bytes", n, live.Name(), got, len(wire))
		}
		if got := s.FrameSize(&live, &lf); got != len(wire) {
			t.Fatalf("packet %d (%s): FrameSize with bytes = %d, encoded %d bytes", n, live.Name(), got, len(wire))
		}
		if lf.IsZero() {
			if got := s.PacketSize(&sim); got != len(wire) {
				t.Fatalf("packet %d (%s): PacketSize = %d, encoded %d bytes", n, live.Name(), got, len(wire))
			}
		}
	}
	t.Logf("%d Interest, %d Data, %d LpPacket shapes", len(s.interests), len(s.data), len(s.frames))
}

func TestPacketSizeCacheHitDoesNotAllocate(t *testing.T) {
	var s Sizer
	packets := []Packet{
		{Interest: segInterest()},
		{Interest: segInterest(), Nack: NackCongestion},
		{Data: segData(1024)},
		{Data: segData(1024), CongestionMark: 1},
	}
	lfs := []*LinkFields{nil, nil, {TxSeq: 3}, {TxSeq: 9, Acks: []uint64{3, 4}}}
	for i := range packets {
		s.PacketSize(&packets[i])
		s.FrameSize(&packets[i], lfs[i])
	}
	allocs := testing.AllocsPerRun(100, func() {
		for i := range packets {
			s.PacketSize(&packets[i])
			s.FrameSize(&packets[i], lfs[i])
		}
	})
	if allocs != 0 {
		t.Errorf("PacketSize allocates %v times per run on cache hits", allocs)
	}
}

func TestDataSizeCachesInData(t *testing.T) {
	var s Sizer
	d := segData(100)
	s.DataSize(d)
	if d.size != 159 {
		t.Errorf("d.size = %d after DataSize, want 159", d.size)
	}
}

func BenchmarkPacketSize(b *testing.B) {
	var s Sizer
	cases := []struct {
		name string
		p    Packet
	}{
		{"Interest", Packet{Interest: segInterest()}},
		{"Data", Packet{Data: segData(1024)}},
		{"MarkedData", Packet{Data: segData(1024), CongestionMark: 1}},
		{"Nack", Packet{Interest: segInterest(), Nack: NackCongestion}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s.PacketSize(&c.p)
			b.ReportAllocs()
			for b.Loop() {
				s.PacketSize(&c.p)
			}
		})
	}
}

func BenchmarkDataSizeNewPacket(b *testing.B) {
	var s Sizer
	b.ReportAllocs()
	for b.Loop() {
		d := segData(1024)
		s.DataSize(d)
	}
}

// TestSizerSameShapeDifferentPackets checks cache hits: packets of one
// shape but different contents (segment numbers of the same length, other
// marks, sequence numbers and nonces) must all have the cached size.
func TestSizerSameShapeDifferentPackets(t *testing.T) {
	var segs []uint64
	for _, base := range []uint64{0, 250, 65530, 1<<32 - 3} {
		for d := range uint64(8) {
			segs = append(segs, base+d)
		}
	}
	var s Sizer
	for round := range 2 {
		for _, seg := range segs {
			in := NewSegmentInterest(name("example", "file"), seg)
			in.Nonce = uint32(seg)
			d := &Data{Name: in.Name, Content: make([]byte, 100+round), Freshness: time.Duration(seg%300) * time.Millisecond}
			if _, err := EncodeData(d, nil); err != nil {
				t.Fatal(err)
			}
			sim := &Data{Name: d.Name, ContentLen: 100 + round, Freshness: d.Freshness, Sig: DigestSignature()}
			for _, pair := range [][2]Packet{
				{{Interest: in}, {Interest: in}},
				{{Interest: in, Nack: NackReason(seg%3*50 + 50)}, {Interest: in, Nack: NackReason(seg%3*50 + 50)}},
				{{Data: d, CongestionMark: seg}, {Data: sim, CongestionMark: seg}},
			} {
				live, simulated := pair[0], pair[1]
				wire, err := EncodeFrame(&live)
				if err != nil {
					t.Fatal(err)
				}
				if got := s.PacketSize(&simulated); got != len(wire) {
					t.Errorf("segment %d, round %d: PacketSize = %d, encoded %d bytes", seg, round, got, len(wire))
				}
			}
			lf := LinkFields{TxSeq: seg + 1, Acks: []uint64{seg}}
			wire, err := EncodeLinkFrame(&Packet{Data: d}, lf)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.FrameSize(&Packet{Data: sim}, &lf); got != len(wire) {
				t.Errorf("segment %d, round %d: FrameSize = %d, encoded %d bytes", seg, round, got, len(wire))
			}
		}
	}
}

// dataShape.equal tells apart two shapes that differ in any one field,
// as == does (and the test knows every field).
func TestDataShapeEqual(t *testing.T) {
	base := dataShape{nameLen: 40, finalLen: 4, contentLen: 1024, keyLocLen: 20, valueLen: 256, typeLen: 1, freshLen: 2, sigType: SigSHA256WithRSA}
	if o := base; !base.equal(&o) {
		t.Fatalf("equal shapes unequal")
	}
	change := map[string]func(*dataShape){
		"nameLen":    func(k *dataShape) { k.nameLen++ },
		"finalLen":   func(k *dataShape) { k.finalLen++ },
		"contentLen": func(k *dataShape) { k.contentLen++ },
		"keyLocLen":  func(k *dataShape) { k.keyLocLen++ },
		"valueLen":   func(k *dataShape) { k.valueLen++ },
		"typeLen":    func(k *dataShape) { k.typeLen++ },
		"freshLen":   func(k *dataShape) { k.freshLen++ },
		"sigType":    func(k *dataShape) { k.sigType++ },
	}
	typ := reflect.TypeFor[dataShape]()
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		f, ok := change[name]
		if !ok {
			t.Errorf("field %s: the test does not change it (nor, perhaps, equal compare it)", name)
			continue
		}
		o := base
		f(&o)
		if base.equal(&o) || base == o {
			t.Errorf("shapes differing in %s: equal %v, == %v", name, base.equal(&o), base == o)
		}
	}
}

// nameLen is ndnd's Name.EncodingLength for components of every size of
// type number and value length.
func TestNameLenIsEncodingLength(t *testing.T) {
	types := []enc.TLNum{1, 8, 0x32, 0xfc, 0xfd, 0xff, 0x100, 0xffff, 0x10000}
	lens := []int{0, 1, 8, 0xfc, 0xfd, 0xff, 0x100, 0xffff, 0x10000}
	var all Name
	for _, typ := range types {
		for _, l := range lens {
			c := enc.Component{Typ: typ, Val: make([]byte, l)}
			n := Name{enc.NewGenericComponent("a"), c}
			if got, want := nameLen(n), n.EncodingLength(); got != want {
				t.Errorf("type %#x, value of %d bytes: nameLen %d, EncodingLength %d", typ, l, got, want)
			}
			all = append(all, c)
		}
	}
	if got, want := nameLen(all), all.EncodingLength(); got != want {
		t.Errorf("all components: nameLen %d, EncodingLength %d", got, want)
	}
	if nameLen(nil) != 0 {
		t.Error("nameLen of no name is not 0")
	}
}
