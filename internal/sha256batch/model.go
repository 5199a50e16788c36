package sha256batch

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// blocksGo is the model of the vector code, blocks16 (lanes 16) and
// blocks8 (lanes 8): each lane below lanes, busy or not, runs the n blocks
// from ptrs[l] on through the scalar compression function, reading the
// same n*BlockSize bytes the vector code reads. The tests run the lanes
// with it on every processor.
func blocksGo(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int) {
	for l := range lanes {
		var s [8]uint32
		for k := range s {
			s[k] = state[k][l]
		}
		data := unsafe.Slice((*byte)(ptrs[l]), n*BlockSize)
		for len(data) > 0 {
			compress(&s, (*[BlockSize]byte)(data))
			data = data[BlockSize:]
		}
		for k := range s {
			state[k][l] = s[k]
		}
	}
}

// roundK are SHA-256's round constants (FIPS 180-4, 4.2.2), as the
// standard lists them; gen.go computes its own from their definition.
var roundK = [64]uint32{
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
}

// compress runs one block through SHA-256's compression function (FIPS
// 180-4, 6.2.2), adding its result to the hash value s.
func compress(s *[8]uint32, block *[BlockSize]byte) {
	var w [64]uint32
	for t := range 16 {
		w[t] = binary.BigEndian.Uint32(block[4*t:])
	}
	for t := 16; t < 64; t++ {
		x, y := w[t-15], w[t-2]
		s0 := bits.RotateLeft32(x, -7) ^ bits.RotateLeft32(x, -18) ^ x>>3
		s1 := bits.RotateLeft32(y, -17) ^ bits.RotateLeft32(y, -19) ^ y>>10
		w[t] = s1 + w[t-7] + s0 + w[t-16]
	}
	a, b, c, d, e, f, g, h := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	for t := range 64 {
		sum1 := bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)
		ch := e&f ^ ^e&g
		t1 := h + sum1 + ch + roundK[t] + w[t]
		sum0 := bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)
		maj := a&b ^ a&c ^ b&c
		t2 := sum0 + maj
		h, g, f, e, d, c, b, a = g, f, e, d+t1, c, b, a, t1+t2
	}
	for i, v := range [8]uint32{a, b, c, d, e, f, g, h} {
		s[i] += v
	}
}
