package producer

import (
	"bytes"
	"errors"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// collect is a face that keeps what is sent on it.
type collect struct{ pkts []ndn.Packet }

func (c *collect) Send(p ndn.Packet) { c.pkts = append(c.pkts, p) }

func name(t *testing.T, s string) ndn.Name {
	t.Helper()
	n, err := enc.NameFromStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSegmentation(t *testing.T) {
	tests := []struct {
		size, segSize int64
		wantSegs      uint64
		wantLast      int // payload of the last segment
	}{
		{10 << 20, 1024, 10240, 1024},
		{2049, 1024, 3, 1},
		{1000, 1024, 1, 1000},
		{1024, 1024, 1, 1024},
		{0, 1024, 1, 0}, // an empty object is one empty segment
	}
	for _, tt := range tests {
		p, err := New(Config{Prefix: name(t, "/a"), Size: tt.size, SegmentSize: int(tt.segSize)}, &collect{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Segments() != tt.wantSegs {
			t.Errorf("size %d: %d segments, want %d", tt.size, p.Segments(), tt.wantSegs)
		}
		last, err := p.Segment(tt.wantSegs - 1)
		if err != nil {
			t.Fatal(err)
		}
		if last.ContentLen != tt.wantLast {
			t.Errorf("size %d: last segment %d bytes, want %d", tt.size, last.ContentLen, tt.wantLast)
		}
		if fin, ok := last.FinalSegment(); !ok || fin != tt.wantSegs-1 {
			t.Errorf("size %d: FinalBlockId %d (%v), want %d", tt.size, fin, ok, tt.wantSegs-1)
		}
		if _, err := p.Segment(tt.wantSegs); err == nil {
			t.Errorf("size %d: segment %d beyond the end produced", tt.size, tt.wantSegs)
		}
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for _, cfg := range []Config{
		{Prefix: name(t, "/a"), Size: 10, SegmentSize: 0},
		{Prefix: name(t, "/a"), Size: 10, SegmentSize: -1},
		{Prefix: name(t, "/a"), Size: -1, SegmentSize: 1024},
	} {
		if _, err := New(cfg, &collect{}); err == nil {
			t.Errorf("New(size %d, segment size %d) succeeded", cfg.Size, cfg.SegmentSize)
		}
	}
}

func TestServesSegments(t *testing.T) {
	prefix := name(t, "/example/file").Append(enc.NewVersionComponent(7))
	sig := ndn.RSASignature(ndn.DefaultSeedKeyName())
	face := &collect{}
	p, err := New(Config{Prefix: prefix, Size: 2500, SegmentSize: 1024, Freshness: 10 * time.Second, Signature: sig}, face)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		pkt      ndn.Packet
		wantSent bool
		wantLen  int
	}{
		{"segment 0", ndn.Packet{Interest: ndn.NewSegmentInterest(prefix, 0)}, true, 1024},
		{"last segment", ndn.Packet{Interest: ndn.NewSegmentInterest(prefix, 2)}, true, 452},
		{"beyond the end", ndn.Packet{Interest: ndn.NewSegmentInterest(prefix, 3)}, false, 0},
		{"other prefix", ndn.Packet{Interest: ndn.NewSegmentInterest(name(t, "/example/other").Append(enc.NewVersionComponent(7)), 0)}, false, 0},
		{"other version", ndn.Packet{Interest: ndn.NewSegmentInterest(name(t, "/example/file").Append(enc.NewVersionComponent(8)), 0)}, false, 0},
		{"no segment", ndn.Packet{Interest: &ndn.Interest{Name: prefix}}, false, 0},
		{"generic last component", ndn.Packet{Interest: &ndn.Interest{Name: prefix.Append(enc.NewGenericComponent("0"))}}, false, 0},
	}
	for _, tt := range tests {
		face.pkts = nil
		p.OnPacket(tt.pkt)
		if !tt.wantSent {
			if len(face.pkts) != 0 {
				t.Errorf("%s: sent %d packets, want none", tt.name, len(face.pkts))
			}
			continue
		}
		if len(face.pkts) != 1 || face.pkts[0].Data == nil {
			t.Fatalf("%s: sent %v, want one Data", tt.name, face.pkts)
		}
		d := face.pkts[0].Data
		if !d.Name.Equal(tt.pkt.Interest.Name) {
			t.Errorf("%s: Data named %s, want the Interest's name %s", tt.name, d.Name, tt.pkt.Interest.Name)
		}
		if fin, ok := d.FinalSegment(); !ok || fin != 2 {
			t.Errorf("%s: FinalBlockId %d (%v), want 2", tt.name, fin, ok)
		}
		if d.ContentLen != tt.wantLen || d.Freshness != 10*time.Second || d.Sig.Type != ndn.SigSHA256WithRSA || d.Content != nil {
			t.Errorf("%s: content %d bytes, freshness %v, signature %d, Content %v; want %d, 10s, RSA, nil",
				tt.name, d.ContentLen, d.Freshness, d.Sig.Type, d.Content != nil, tt.wantLen)
		}
	}
	st := p.Stats()
	want := Stats{Interests: 7, DataSent: 2, PayloadBytes: 1024 + 452, Unknown: 5}
	if st != want {
		t.Errorf("stats %+v, want %+v", st, want)
	}
}

func TestIgnoresNacksAndData(t *testing.T) {
	prefix := name(t, "/a")
	face := &collect{}
	p, err := New(Config{Prefix: prefix, Size: 100, SegmentSize: 10}, face)
	if err != nil {
		t.Fatal(err)
	}
	in := ndn.NewSegmentInterest(prefix, 0)
	p.OnPacket(ndn.Packet{Interest: in, Nack: ndn.NackCongestion})
	d, _ := p.Segment(0)
	p.OnPacket(ndn.Packet{Data: d})
	if len(face.pkts) != 0 || p.Stats().Interests != 0 {
		t.Errorf("sent %d packets, counted %d Interests; want none", len(face.pkts), p.Stats().Interests)
	}
}

func TestContentAndFinish(t *testing.T) {
	prefix := name(t, "/a")
	body := []byte("0123456789abcdefghijklmnopqrstuvwxyz") // 36 bytes: 4 segments of 10, the last 6
	var finished []uint64
	fail := errors.New("no key")
	face := &collect{}
	p, err := New(Config{
		Prefix: prefix, Size: int64(len(body)), SegmentSize: 10, Content: bytes.NewReader(body),
		Finish: func(d *ndn.Data) error {
			seg, _ := ndn.SegmentOf(d.Name)
			if seg == 1 {
				return fail
			}
			finished = append(finished, seg)
			return nil
		},
	}, face)
	if err != nil {
		t.Fatal(err)
	}
	for seg := uint64(0); seg < 4; seg++ {
		p.OnPacket(ndn.Packet{Interest: ndn.NewSegmentInterest(prefix, seg)})
	}
	if len(face.pkts) != 3 {
		t.Fatalf("sent %d Data, want 3 (segment 1's Finish failed)", len(face.pkts))
	}
	for i, want := range []string{"0123456789", "klmnopqrst", "uvwxyz"} {
		d := face.pkts[i].Data
		if string(d.Content) != want || d.ContentLen != len(want) {
			t.Errorf("Data %d: content %q (%d), want %q", i, d.Content, d.ContentLen, want)
		}
	}
	if st := p.Stats(); st.Errors != 1 || st.DataSent != 3 || st.PayloadBytes != 26 {
		t.Errorf("stats %+v, want 1 error, 3 Data, 26 bytes", st)
	}
	if len(finished) != 3 {
		t.Errorf("Finish succeeded for %v, want segments 0, 2, 3", finished)
	}
}

func TestShortReaderIsAnError(t *testing.T) {
	prefix := name(t, "/a")
	face := &collect{}
	// The object claims 40 bytes but the reader holds 25.
	p, err := New(Config{Prefix: prefix, Size: 40, SegmentSize: 10, Content: bytes.NewReader(make([]byte, 25))}, face)
	if err != nil {
		t.Fatal(err)
	}
	for seg := uint64(0); seg < 4; seg++ {
		p.OnPacket(ndn.Packet{Interest: ndn.NewSegmentInterest(prefix, seg)})
	}
	if st := p.Stats(); st.DataSent != 2 || st.Errors != 2 {
		t.Errorf("stats %+v, want 2 Data and 2 errors", st)
	}
}

// TestNumberedContent checks the Interests a producer with a Base answers:
// Base/seq=N for any N, a Data of the segment size named as the Interest;
// other names under Base it does not answer, and without a Base it answers
// no numbered name.
func TestNumberedContent(t *testing.T) {
	base := name(t, "/videos")
	seq := func(n uint64) ndn.Name { return base.Append(enc.NewSequenceNumComponent(n)) }
	for _, tc := range []struct {
		name     string
		base     ndn.Name
		content  bool // the live runtime's: payload bytes, not only a length
		interest ndn.Name
		answered bool
	}{
		{"seq 7", base, false, seq(7), true},
		{"seq 0", base, false, seq(0), true},
		{"a huge number", base, true, seq(1 << 40), true},
		{"a generic component", base, false, base.Append(enc.NewGenericComponent("7")), false},
		{"a segment under the base", base, false, base.Append(enc.NewSegmentComponent(0)), false},
		{"two components", base, false, seq(1).Append(enc.NewSequenceNumComponent(1)), false},
		{"another prefix", base, false, name(t, "/other").Append(enc.NewSequenceNumComponent(1)), false},
		{"no base", nil, false, seq(7), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := &collect{}
			cfg := Config{Prefix: base.Append(enc.NewVersionComponent(1)), Size: 100, SegmentSize: 1200, Freshness: time.Second, Base: tc.base}
			if tc.content {
				cfg.Content = bytes.NewReader(make([]byte, 100))
			}
			p, err := New(cfg, out)
			if err != nil {
				t.Fatal(err)
			}
			p.OnPacket(ndn.Packet{Interest: &ndn.Interest{Name: tc.interest}})
			st := p.Stats()
			if !tc.answered {
				if len(out.pkts) != 0 || st.Unknown != 1 || st.Numbered != 0 {
					t.Errorf("answered %d packets, unknown %d, numbered %d: want no answer", len(out.pkts), st.Unknown, st.Numbered)
				}
				return
			}
			if len(out.pkts) != 1 || st.Numbered != 1 || st.DataSent != 1 {
				t.Fatalf("answered %d packets, numbered %d, sent %d: want one Data", len(out.pkts), st.Numbered, st.DataSent)
			}
			d := out.pkts[0].Data
			if !d.Name.Equal(tc.interest) || d.ContentLen != 1200 || d.HasFinal || d.Freshness != time.Second {
				t.Errorf("Data %s, %d bytes, final %v, freshness %v: want the Interest's name, 1200 bytes, no FinalBlockId, 1 s", d.Name, d.ContentLen, d.HasFinal, d.Freshness)
			}
			if tc.content && len(d.Content) != 1200 {
				t.Errorf("%d content bytes, want 1200", len(d.Content))
			}
		})
	}
}
