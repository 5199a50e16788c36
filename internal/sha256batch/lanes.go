package sha256batch

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// blocksFunc runs n blocks of each of the first lanes lanes (8 or 16)
// through the compression function: lane l reads n*BlockSize bytes from
// ptrs[l] on, and its state from and to column l of state. blocksVector
// (the assembly) and blocksGo (its model) are the two.
type blocksFunc func(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int)

// sumLanes hashes msgs in the lanes of blocks, 16 of them while more than
// 8 messages are left, then 8.
func (h *Hasher) sumLanes(out [][Size]byte, msgs [][]byte, blocks blocksFunc) {
	width := maxLanes
	if len(msgs) <= maxLanes/2 {
		width = maxLanes / 2
	}
	next, active := 0, 0
	for l := range maxLanes {
		if l < width && next < len(msgs) {
			h.start(l, next, msgs[next])
			next++
			active++
		} else {
			h.setIdle(l)
		}
	}
	for active > 0 {
		if width == maxLanes && active <= maxLanes/2 && next == len(msgs) {
			h.compact()
			width = maxLanes / 2
		}
		n := h.plan(width)
		blocks(&h.state, &h.ptrs, n, width)
		for l := range width {
			ln := &h.lanes[l]
			if ln.msg < 0 {
				continue
			}
			ln.left -= n
			switch {
			case ln.left > 0:
				h.ptrs[l] = unsafe.Add(h.ptrs[l], n*BlockSize)
			case !ln.inTail:
				ln.inTail, ln.left = true, ln.tail
				h.ptrs[l] = unsafe.Pointer(&h.tails[l][0])
			default:
				h.digest(l, &out[ln.msg])
				active--
				if next < len(msgs) {
					h.start(l, next, msgs[next])
					next++
					active++
				} else {
					h.setIdle(l)
				}
			}
		}
	}
	// Idle lanes still point into the messages: keep none of them alive.
	h.ptrs = [maxLanes]unsafe.Pointer{}
}

// plan returns how many blocks the lanes run next: the fewest any busy
// lane among the first width has left in its current part (at least one
// lane is busy). It points every idle lane among them at the blocks of
// the busy lane with the fewest: the block functions read n blocks in
// every lane, and an idle lane reads them where a busy lane reads them
// too, inside a message or a tail.
func (h *Hasher) plan(width int) int {
	n, busy, idle := -1, -1, uint(0)
	for l := range width {
		switch ln := &h.lanes[l]; {
		case ln.msg < 0:
			idle |= 1 << l
		case n < 0 || ln.left < n:
			n, busy = ln.left, l
		}
	}
	for ; idle != 0; idle &= idle - 1 {
		h.ptrs[bits.TrailingZeros(idle)] = h.ptrs[busy]
	}
	return n
}

// start puts message i, m, in lane l: its initial hash value, and its
// tail padded as FIPS 180-4 5.1.1 says (a 1 bit, zeros, and the length in
// bits as a 64-bit big-endian integer ending the last block).
func (h *Hasher) start(l, i int, m []byte) {
	for k, v := range initial() {
		h.state[k][l] = v
	}
	full := len(m) / BlockSize
	rest := m[full*BlockSize:]
	t := &h.tails[l]
	tail := 1
	if len(rest) > BlockSize-9 {
		tail = 2
	}
	end := tail * BlockSize
	n := copy(t[:], rest)
	t[n] = 0x80
	clear(t[n+1 : end-8])
	binary.BigEndian.PutUint64(t[end-8:end], uint64(len(m))*8)
	h.lanes[l] = lane{msg: i, tail: tail, left: full}
	if full > 0 {
		h.ptrs[l] = unsafe.Pointer(unsafe.SliceData(m))
		return
	}
	h.lanes[l].inTail, h.lanes[l].left = true, tail
	h.ptrs[l] = unsafe.Pointer(&t[0])
}

// setIdle leaves lane l without a message, and without blocks until plan
// gives it a busy lane's.
func (h *Hasher) setIdle(l int) {
	h.lanes[l] = lane{msg: -1}
	h.ptrs[l] = nil
}

// compact moves the busy lanes among 8-15 to idle lanes among 0-7, for the
// 8-lane code to finish them.
func (h *Hasher) compact() {
	free := 0
	for l := maxLanes / 2; l < maxLanes; l++ {
		ln := h.lanes[l]
		if ln.msg < 0 {
			continue
		}
		for h.lanes[free].msg >= 0 {
			free++
		}
		for k := range h.state {
			h.state[k][free] = h.state[k][l]
		}
		h.tails[free] = h.tails[l]
		h.lanes[free] = ln
		h.ptrs[free] = h.ptrs[l]
		if ln.inTail {
			h.ptrs[free] = unsafe.Pointer(&h.tails[free][(ln.tail-ln.left)*BlockSize])
		}
		h.setIdle(l)
	}
}

// digest writes lane l's hash value to out.
func (h *Hasher) digest(l int, out *[Size]byte) {
	for k := range h.state {
		binary.BigEndian.PutUint32(out[4*k:], h.state[k][l])
	}
}
