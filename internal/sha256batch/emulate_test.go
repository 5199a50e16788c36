package sha256batch

import (
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"
)

// emulatorCall is one call of a block function, as testdata/emulate.py
// reads it: the lanes, the blocks, the state before (hex of the 512 bytes
// of [8][16]uint32, little-endian), each lane's n*BlockSize bytes, the
// state the model leaves, and which lanes had no message.
type emulatorCall struct {
	Lanes int      `json:"lanes"`
	N     int      `json:"n"`
	State string   `json:"state"`
	Data  []string `json:"data"`
	Want  string   `json:"want"`
	Idle  []int    `json:"idle,omitempty"`
}

// TestEmulatorCalls writes, when SHA256BATCH_EMULATOR_CALLS names a file,
// calls of the block functions with the model's results: random states
// and blocks, and every call sumLanes makes for the mixed batches.
// testdata/emulate.py runs them through the vector code on an emulated
// processor with AVX-512, for processors without it.
func TestEmulatorCalls(t *testing.T) {
	path := os.Getenv("SHA256BATCH_EMULATOR_CALLS")
	if path == "" {
		t.Skip("SHA256BATCH_EMULATOR_CALLS names no file")
	}
	var calls []emulatorCall
	var h *Hasher // the Hasher whose calls record records, if any
	record := func(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int) {
		c := emulatorCall{Lanes: lanes, N: n, State: hex.EncodeToString(unsafe.Slice((*byte)(unsafe.Pointer(state)), unsafe.Sizeof(*state)))}
		for l := range lanes {
			c.Data = append(c.Data, hex.EncodeToString(unsafe.Slice((*byte)(ptrs[l]), n*BlockSize)))
			if h != nil && h.lanes[l].msg < 0 {
				c.Idle = append(c.Idle, l)
			}
		}
		blocksGo(state, ptrs, n, lanes)
		c.Want = hex.EncodeToString(unsafe.Slice((*byte)(unsafe.Pointer(state)), unsafe.Sizeof(*state)))
		calls = append(calls, c)
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, lanes := range []int{maxLanes, maxLanes / 2} {
		for _, n := range []int{1, 2, 3} {
			for range 3 {
				var state [8][maxLanes]uint32
				for k := range state {
					for l := range state[k] {
						state[k][l] = r.Uint32()
					}
				}
				var ptrs [maxLanes]unsafe.Pointer
				for l := range lanes {
					ptrs[l] = unsafe.Pointer(unsafe.SliceData(message(r.Uint64(), n*BlockSize)))
				}
				record(&state, &ptrs, n, lanes)
			}
		}
	}
	for _, tt := range mixed {
		msgs := make([][]byte, len(tt.lengths))
		for i, n := range tt.lengths {
			msgs[i] = message(uint64(i), n)
		}
		h = new(Hasher)
		h.sumLanes(make([][Size]byte, len(msgs)), msgs, record)
	}
	b, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d calls in %s", len(calls), path)
}
