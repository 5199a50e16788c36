package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestJitterSourceIsRandInt64N checks that a processor's draws are the
// numbers rand.Rand.Int64N draws from the same generator, bounds of every
// kind included: the jitter, and with it every result, is what it was
// when the processor drew through rand.Rand.
func TestJitterSourceIsRandInt64N(t *testing.T) {
	tests := []struct {
		name string
		n    int64
	}{
		{"one", 1},
		{"power of two", 1 << 20},
		{"three", 3},
		{"default jitter", int64(DefaultProcessingJitter)},
		{"near 2^63, many rejections", math.MaxInt64/2 + 2},
		{"max", math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := rand.New(rand.NewPCG(7, 11))
			got := jitterSource{rand.NewPCG(7, 11)}
			for i := range 10000 {
				w := want.Int64N(tt.n)
				if g := got.below(uint64(tt.n)); g != uint64(w) {
					t.Fatalf("draw %d below %d: %d, rand.Rand.Int64N %d", i, tt.n, g, w)
				}
			}
		})
	}
}
