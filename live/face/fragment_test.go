package face

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/ndn"
)

func TestFragmentRoundTrip(t *testing.T) {
	d := ndntest.Data(t, "/frag/test/seg=1", 8000)
	tests := []struct {
		name      string
		pkt       ndn.Packet
		lf        ndn.LinkFields
		mtu       int
		wantFrags int
	}{
		{"fits", ndn.Packet{Data: d}, ndn.LinkFields{}, 9000, 1},
		{"fits with link fields", ndn.Packet{Data: d}, ndn.LinkFields{TxSeq: 9, Acks: []uint64{1, 2}}, 9000, 1},
		{"ndnd's UDP MTU", ndn.Packet{Data: d}, ndn.LinkFields{}, 1420, 6},
		{"marked", ndn.Packet{Data: d, CongestionMark: 1}, ndn.LinkFields{}, 1420, 6},
		{"with local fields", ndn.Packet{Data: d, PitToken: bytes.Repeat([]byte{7}, 32), IncomingFaceID: 1 << 40}, ndn.LinkFields{}, 1420, 7},
		{"with 16 acks and a TxSequence", ndn.Packet{Data: d, CongestionMark: 1}, ndn.LinkFields{TxSeq: 1 << 50, Acks: bytes16()}, 1420, 8},
		{"small MTU", ndn.Packet{Data: d}, ndn.LinkFields{}, 576, 17},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seq := uint64(100)
			frames, err := Fragment(&tc.pkt, tc.lf, tc.mtu, &seq)
			if err != nil {
				t.Fatal(err)
			}
			if len(frames) != tc.wantFrags {
				t.Fatalf("%d frames, want %d", len(frames), tc.wantFrags)
			}
			r := NewReassembler(time.Second, 8, MaxPacketSize)
			var (
				got   ndn.Packet
				gotLF ndn.LinkFields
			)
			for i, b := range frames {
				if len(b) > tc.mtu {
					t.Fatalf("frame %d is %d bytes, over the MTU", i, len(b))
				}
				if len(frames) == 1 {
					if got, gotLF, err = ndn.DecodeLinkFrame(b); err != nil {
						t.Fatal(err)
					}
					break
				}
				lp, err := ndn.DecodeLp(b)
				if err != nil {
					t.Fatal(err)
				}
				// ndnd's forwarder reads the per-hop fields of the fragment
				// that completes a packet: every fragment carries them.
				if lp.CongestionMark != tc.pkt.CongestionMark || lp.Nack != tc.pkt.Nack || !bytes.Equal(lp.PitToken, tc.pkt.PitToken) {
					t.Errorf("fragment %d: mark %d, Nack %v, PitToken %x; want the packet's", i, lp.CongestionMark, lp.Nack, lp.PitToken)
				}
				if i > 0 && !lp.LinkFields.IsZero() {
					t.Errorf("fragment %d carries link fields %+v; only the first should", i, lp.LinkFields)
				}
				whole, done, err := r.Add(lp, 0)
				if err != nil {
					t.Fatal(err)
				}
				if done != (i == len(frames)-1) {
					t.Fatalf("frame %d: done %t", i, done)
				}
				if done {
					if got, err = whole.Packet(); err != nil {
						t.Fatal(err)
					}
					gotLF = whole.LinkFields
				}
			}
			if got.Data == nil || !bytes.Equal(got.Data.Wire, d.Wire) {
				t.Fatal("reassembled Data differs")
			}
			if got.CongestionMark != tc.pkt.CongestionMark {
				t.Errorf("mark %d, want %d", got.CongestionMark, tc.pkt.CongestionMark)
			}
			if !bytes.Equal(got.PitToken, tc.pkt.PitToken) || got.IncomingFaceID != tc.pkt.IncomingFaceID {
				t.Errorf("PitToken %x, IncomingFaceID %d; want %x, %d", got.PitToken, got.IncomingFaceID, tc.pkt.PitToken, tc.pkt.IncomingFaceID)
			}
			if gotLF.TxSeq != tc.lf.TxSeq || !slices.Equal(gotLF.Acks, tc.lf.Acks) {
				t.Errorf("link fields %+v, want %+v", gotLF, tc.lf)
			}
			if want := uint64(100 + tc.wantFrags); tc.wantFrags > 1 && seq != want {
				t.Errorf("next sequence %d, want %d", seq, want)
			}
			if r.Pending() != 0 {
				t.Errorf("%d partial packets left", r.Pending())
			}
		})
	}
}

// bytes16 returns 16 large Ack numbers (each 8 bytes on the wire).
func bytes16() []uint64 {
	acks := make([]uint64, 16)
	for i := range acks {
		acks[i] = 1<<60 + uint64(i)
	}
	return acks
}

// frag builds a fragment frame.
func frag(seq, idx, count uint64, b []byte) ndn.LpFrame {
	return ndn.LpFrame{Sequence: seq, HasSequence: true, FragIndex: idx, FragCount: count, Fragment: b}
}

func TestReassemblerOutOfOrderAndDuplicates(t *testing.T) {
	r := NewReassembler(time.Second, 8, MaxPacketSize)
	steps := []struct {
		f    ndn.LpFrame
		done bool
	}{
		{frag(12, 2, 3, []byte("c")), false},
		{frag(10, 0, 3, []byte("a")), false},
		{frag(10, 0, 3, []byte("x")), false}, // duplicate: ignored
		{frag(11, 1, 3, []byte("b")), true},
	}
	for i, s := range steps {
		whole, done, err := r.Add(s.f, 0)
		if err != nil || done != s.done {
			t.Fatalf("step %d: done %t, err %v", i, done, err)
		}
		if done && string(whole.Fragment) != "abc" {
			t.Fatalf("reassembled %q, want abc", whole.Fragment)
		}
	}
}

func TestReassemblerRejects(t *testing.T) {
	tests := []struct {
		name  string
		first ndn.LpFrame
		then  ndn.LpFrame
		want  error
	}{
		{"count changes", frag(10, 0, 3, []byte("a")), frag(11, 1, 4, []byte("b")), errFragCount},
		{"too many fragments", frag(10, 0, 3, []byte("a")), frag(200, 0, maxFragments+1, []byte("b")), errFragTooMany},
		{"sequence below index", frag(10, 0, 3, []byte("a")), frag(1, 2, 3, []byte("b")), errFragSequence},
		{"too large", frag(10, 0, 2, make([]byte, 5000)), frag(11, 1, 2, make([]byte, 5000)), errFragTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReassembler(time.Second, 8, MaxPacketSize)
			if _, _, err := r.Add(tc.first, 0); err != nil {
				t.Fatal(err)
			}
			if _, _, err := r.Add(tc.then, 0); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

func TestReassemblerExpiresAndEvicts(t *testing.T) {
	r := NewReassembler(time.Second, 2, MaxPacketSize)
	r.Add(frag(10, 0, 2, []byte("a")), 0)
	r.Add(frag(20, 0, 2, []byte("a")), 500*time.Millisecond)
	r.Add(frag(30, 0, 2, []byte("a")), 600*time.Millisecond) // evicts base 10
	if r.Pending() != 2 {
		t.Fatalf("%d pending, want 2", r.Pending())
	}
	if _, done, _ := r.Add(frag(11, 1, 2, []byte("b")), 700*time.Millisecond); done {
		t.Fatal("completed an evicted packet")
	}
	// At 1.6 s, base 20 (500 ms) and 30 (600 ms) have expired; base 10
	// was restarted at 700 ms and is still pending.
	r.Add(frag(40, 0, 2, []byte("a")), 1600*time.Millisecond)
	if r.Pending() != 2 {
		t.Fatalf("%d pending after expiry, want 2 (bases 11 and 40)", r.Pending())
	}
}

// FuzzDecoder feeds arbitrary bytes, cut into datagrams, to a datagram
// face's decoder (NDNLPv2 decoding, reassembly, link fields): nothing may
// panic, every frame counts once, a reassembled packet never exceeds the
// size limit, and what the decoder delivers is a network packet or an
// IDLE frame with Acks.
func FuzzDecoder(f *testing.F) {
	d := ndntest.Data(f, "/fuzz/seg=0", 3000)
	seq := uint64(1)
	frames, err := Fragment(&ndn.Packet{Data: d, CongestionMark: 1}, ndn.LinkFields{TxSeq: 5, Acks: []uint64{1, 2}}, 1000, &seq)
	if err != nil {
		f.Fatal(err)
	}
	idle, err := ndn.EncodeLinkFrame(&ndn.Packet{}, ndn.LinkFields{Acks: []uint64{7}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(bytes.Join(frames, nil), uint16(1000))
	f.Add(frames[0], uint16(50))
	f.Add(idle, uint16(len(idle)))
	f.Fuzz(func(t *testing.T, stream []byte, size uint16) {
		n := int(size)%2000 + 1
		dec := Decoder{Reassembler: NewReassembler(time.Second, 4, 2048)}
		calls := uint64(0)
		for i := 0; len(stream) > 0; i++ {
			k := min(n, len(stream))
			b := stream[:k]
			stream = stream[k:]
			calls++
			fr, ok := dec.Decode(b, time.Duration(i)*time.Millisecond)
			if !ok {
				continue
			}
			p := &fr.Pkt
			switch {
			case p.Data != nil && len(p.Data.Wire) > 2048:
				t.Fatalf("reassembled %d bytes over the limit", len(p.Data.Wire))
			case p.Interest == nil && p.Data == nil && len(fr.Acks) == 0:
				t.Fatal("delivered an empty frame")
			}
		}
		if dec.Frames.Load() != calls {
			t.Fatalf("%d frames counted for %d datagrams", dec.Frames.Load(), calls)
		}
	})
}
