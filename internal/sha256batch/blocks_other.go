//go:build !amd64

package sha256batch

// vector is false: only amd64 has the block functions.
const vector = false

// Without vector code, sumLanes is never called; it hashes one message
// after the other.
func (h *Hasher) sumLanes(out [][Size]byte, msgs [][]byte) { sumEach(out, msgs) }
