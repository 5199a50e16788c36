package ndn

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// TestInterestWriterIsEncodeFrame sends an InterestWriter runs of segment
// Interests (segment numbers crossing the component's length steps, new
// nonces), with changes of prefix, selectors, lifetime and HopLimit and
// other packets between them: every frame must be EncodeFrame's, byte for
// byte.
func TestInterestWriterIsEncodeFrame(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	prefixes := []Name{
		name("bench", "put", "v"),
		append(name("bench", "put"), enc.NewVersionComponent(1700000000000)),
		append(name("bench", "puT"), enc.NewVersionComponent(1700000000000)),
		name("x"),
	}
	var w InterestWriter
	var dst []byte
	reused := 0
	var shape struct {
		prefix                   Name
		mustBeFresh, canBePrefix bool
		lifetime                 time.Duration
		hasHop                   bool
		hop                      uint8
	}
	for n := range 3000 {
		if n == 0 || r.IntN(30) == 0 { // another shape
			shape.prefix = prefixes[r.IntN(len(prefixes))]
			shape.mustBeFresh, shape.canBePrefix = r.IntN(2) == 0, r.IntN(4) == 0
			shape.lifetime = time.Duration(r.IntN(3)) * time.Second
			shape.hasHop, shape.hop = r.IntN(4) == 0, uint8(r.IntN(256))
		}
		var p Packet
		switch k := r.IntN(40); k {
		case 0:
			_, p, _ = randomPacket(r)
		case 1:
			p.Interest = randomInterest(r)
		default:
			seg := uint64(r.IntN(600))
			if r.IntN(50) == 0 {
				seg = r.Uint64() >> r.IntN(64)
			}
			i := NewSegmentInterest(shape.prefix, seg)
			i.Nonce = r.Uint32()
			i.MustBeFresh, i.CanBePrefix, i.Lifetime = shape.mustBeFresh, shape.canBePrefix, shape.lifetime
			i.HasHopLimit, i.HopLimit = shape.hasHop, shape.hop
			p.Interest = i
			if w.tpl != nil && w.fits(i) {
				reused++
			}
		}
		want, err := EncodeFrame(&p)
		prev := len(dst)
		var err2 error
		dst, err2 = w.AppendFrame(dst, &p)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("packet %d: EncodeFrame: %v, InterestWriter: %v", n, err, err2)
		}
		if err != nil {
			continue
		}
		if got := dst[prev:]; !bytes.Equal(got, want) {
			t.Fatalf("packet %d (%+v): InterestWriter wrote\n%x\nwant %x", n, p, got, want)
		}
		if len(dst) > 1<<16 {
			dst = dst[:0]
		}
	}
	if reused < 1000 {
		t.Fatalf("only %d Interests written from the template", reused)
	}
}

// TestInterestWriterAllocations checks that an Interest written from the
// template allocates nothing.
func TestInterestWriterAllocations(t *testing.T) {
	prefix := append(name("bench", "put"), enc.NewVersionComponent(1700000000000))
	in := NewSegmentInterest(prefix, 300)
	var w InterestWriter
	buf := make([]byte, 0, 1024)
	seg := uint16(300)
	allocs := testing.AllocsPerRun(100, func() {
		seg++
		binary.BigEndian.PutUint16(in.Name[len(in.Name)-1].Val, seg)
		in.Nonce = uint32(seg)
		var err error
		if buf, err = w.AppendFrame(buf[:0], &Packet{Interest: in}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per Interest, want 0", allocs)
	}
}
