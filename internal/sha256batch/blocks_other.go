//go:build !amd64

package sha256batch

import "unsafe"

// vector is false: only amd64 has the block functions.
const vector = false

// blocksVector is never called where there is no vector code.
func blocksVector(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int) {
	panic("sha256batch: no vector code on this architecture")
}
