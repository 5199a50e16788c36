package fw

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// longName returns a name of n generic components of size bytes each.
func longName(n, size int) ndn.Name {
	out := make(ndn.Name, n)
	for i := range out {
		out[i] = enc.NewGenericBytesComponent(bytes.Repeat([]byte{byte('a' + i%26)}, size))
	}
	return out
}

// Long names get the hashes ndn.NameHash gives each of their prefixes,
// whether the name shares a prefix with the previous one or not.
func TestNameHasherLongNames(t *testing.T) {
	h := newNameHasher()
	for _, n := range []ndn.Name{
		longName(128, 66),
		append(longName(128, 66)[:100:100], longName(5, 3)...), // shares 100 components with the previous
		longName(4300, 0),
		longName(3, 10),
		longName(40, 200),
	} {
		if got, want := slices.Clone(h.prefixes(n)), hashesOf(n); !slices.Equal(got, want) {
			t.Errorf("%d components: hashes differ from ndn.NameHash's", len(n))
		}
	}
}

// interestCost returns the forwarder's time per Interest for Interests
// named base plus a distinct last component, from a network face, with a
// route to a face that discards them: the least of three rounds of 4,096
// Interests, each through a new forwarder.
func interestCost(t testing.TB, cfg Config, base ndn.Name) time.Duration {
	names := make([]ndn.Name, 1<<12)
	for i := range names {
		names[i] = append(slices.Clone(base), enc.NewSegmentComponent(uint64(i)))
	}
	best := time.Duration(1 << 62)
	for range 3 {
		f, err := New(cfg, &fakeSched{}, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			t.Fatal(err)
		}
		in := f.AddFace(&discardFace{}, FaceNetwork)
		out := f.AddFace(&discardFace{}, FaceNetwork)
		f.AddRoute(ndn.Name{}, out, 0)
		pkts := make([]ndn.Packet, len(names))
		for i, n := range names {
			pkts[i] = ndn.Packet{Interest: &ndn.Interest{Name: n, Nonce: uint32(i)}}
		}
		start := time.Now()
		for _, p := range pkts {
			f.Receive(in, p)
		}
		best = min(best, time.Since(start)/time.Duration(len(pkts)))
	}
	return best
}

// TestLongNameCost measures the forwarder's time per Interest for a name
// of 4,300 empty components (the most an 8800-byte packet holds), dropped
// on arrival at the default component limit: it must cost at most 10
// times a 3-component name. It also reports the longest name the limit
// lets through (128 components, 127 of 66 bytes: 8.5 KB), whose cost
// grows with its bytes, linearly (hashed in one pass): not checked here
// against a bound, as its ratio to a 30-byte name is one of sizes.
func TestLongNameCost(t *testing.T) {
	if testing.Short() {
		t.Skip("measures; -short")
	}
	short := interestCost(t, Config{}, longName(2, 8))
	refused := interestCost(t, Config{}, longName(4299, 0))
	processed := interestCost(t, Config{}, longName(DefaultMaxNameComponents-1, 66))
	ratio := float64(refused) / float64(short)
	t.Logf("per Interest: 3 components %v; 4,300 empty components (refused) %v, %.2f×; 128 components of 66 bytes (processed) %v, %.1f×",
		short, refused, ratio, processed, float64(processed)/float64(short))
	if ratio > 10 {
		t.Errorf("a 4,300-component name costs %.1f× a 3-component one, want at most 10×", ratio)
	}
}

// BenchmarkLongNames reports TestLongNameCost's measure per name length,
// and for 4,300 components processed (the limit raised): hashed in one
// pass, not refused.
func BenchmarkLongNames(b *testing.B) {
	for _, tc := range []struct {
		comps, size int
		cfg         Config
	}{
		{2, 8, Config{}},
		{4299, 0, Config{}},
		{DefaultMaxNameComponents - 1, 66, Config{}},
		{4299, 0, Config{MaxNameComponents: 5000}},
	} {
		limit := DefaultMaxNameComponents
		if tc.cfg.MaxNameComponents > 0 {
			limit = tc.cfg.MaxNameComponents
		}
		b.Run(fmt.Sprintf("comps=%d,size=%d,limit=%d", tc.comps+1, tc.size, limit), func(b *testing.B) {
			for b.Loop() {
				b.ReportMetric(float64(interestCost(b, tc.cfg, longName(tc.comps, tc.size))), "ns/Interest")
			}
		})
	}
}
