package sha256batch

import (
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// TestVector: the vector code runs exactly where Linux reports AVX-512 F,
// VL and BW and no SHA extensions; Sum then hashes two messages or more
// with it; and it computes what its model does, for random states and
// blocks in 16 and 8 lanes.
func TestVector(t *testing.T) {
	t.Run("processor", func(t *testing.T) {
		b, err := os.ReadFile("/proc/cpuinfo")
		if err != nil {
			t.Skipf("no /proc/cpuinfo: %v", err)
		}
		var flags []string
		for line := range strings.Lines(string(b)) {
			if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
				flags = strings.Fields(value)
				break
			}
		}
		has := func(f string) bool { return slices.Contains(flags, f) }
		if got, want := hasSHA(), has("sha_ni"); got != want {
			t.Errorf("hasSHA() = %v, /proc/cpuinfo says sha_ni: %v", got, want)
		}
		want := has("avx512f") && has("avx512vl") && has("avx512bw") && !has("sha_ni")
		if vector != want {
			t.Errorf("vector = %v, want %v from the flags %v", vector, want, flags)
		}
		t.Logf("vector code: %v", vector)
	})
	t.Run("Sum", func(t *testing.T) {
		for _, n := range []int{0, 1, 2, 8, 9, 16, 40} {
			got := engine(n)
			want := vector && n >= 2
			switch {
			case got == nil && want:
				t.Errorf("%d messages: Sum hashes them one by one on a processor with the vector code", n)
			case got != nil && !want:
				t.Errorf("%d messages: Sum runs lanes (vector %v)", n, vector)
			case got != nil && reflect.ValueOf(got).Pointer() != reflect.ValueOf(blocksFunc(blocksVector)).Pointer():
				t.Errorf("%d messages: Sum runs a block function other than the vector code", n)
			}
		}
	})
	t.Run("matches the model", func(t *testing.T) {
		if !vector {
			t.Skip("no vector code on this processor: the lanes are tested with the model only")
		}
		r := rand.New(rand.NewPCG(7, 8))
		data := message(5, 16*5*BlockSize+64)
		for _, lanes := range []int{maxLanes, maxLanes / 2} {
			for _, n := range []int{1, 2, 3, 5} {
				for range 20 {
					var state [8][maxLanes]uint32
					for k := range state {
						for l := range state[k] {
							state[k][l] = r.Uint32()
						}
					}
					// Blocks at any offset, some lanes sharing them, as
					// idle lanes share a busy lane's.
					var ptrs [maxLanes]unsafe.Pointer
					for l := range lanes {
						ptrs[l] = unsafe.Pointer(&data[r.IntN(len(data)-n*BlockSize+1)])
					}
					if r.IntN(2) == 0 {
						ptrs[r.IntN(lanes)] = ptrs[r.IntN(lanes)]
					}
					want := state
					blocksGo(&want, &ptrs, n, lanes)
					blocksVector(&state, &ptrs, n, lanes)
					if state != want {
						t.Fatalf("%d blocks in %d lanes: vector code\n%x\nmodel\n%x", n, lanes, state, want)
					}
				}
			}
		}
	})
}
