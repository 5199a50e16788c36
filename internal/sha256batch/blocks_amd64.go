package sha256batch

import (
	"encoding/binary"
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:generate go run gen.go

// vector reports whether the processor (and the operating system, which
// must save the AVX-512 registers) runs the block functions, and lacks the
// SHA extensions: crypto/sha256 uses those where present, and they were
// not measured against the lanes here. Set once at start-up and never
// changed.
var vector = cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL && cpu.X86.HasAVX512BW && !hasSHA()

// hasSHA reports whether the processor has the SHA extensions (CPUID leaf
// 7, sub-leaf 0: EBX bit 29).
func hasSHA() bool {
	if max, _, _, _ := cpuid(0, 0); max < 7 {
		return false
	}
	_, ebx, _, _ := cpuid(7, 0)
	return ebx&(1<<29) != 0
}

// cpuid runs the CPUID instruction.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// blocks16 runs n blocks of each of the 16 lanes through the compression
// function: lane l reads its blocks from ptrs[l] on, and its state from and
// to column l of state.
//
//go:noescape
func blocks16(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n int)

// blocks8 is blocks16 for lanes 0-7 only, in 256-bit registers.
//
//go:noescape
func blocks8(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n int)

// sumLanes hashes msgs in the vector lanes (len(msgs) >= 2).
func (h *Hasher) sumLanes(out [][Size]byte, msgs [][]byte) {
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
		n := h.minLeft(width)
		if width == maxLanes {
			blocks16(&h.state, &h.ptrs, n)
		} else {
			blocks8(&h.state, &h.ptrs, n)
		}
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
}

// minLeft returns the fewest blocks any busy lane among the first width
// has left in its current part.
func (h *Hasher) minLeft(width int) int {
	n := -1
	for l := range width {
		if ln := h.lanes[l]; ln.msg >= 0 && (n < 0 || ln.left < n) {
			n = ln.left
		}
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

// setIdle leaves lane l without a message.
func (h *Hasher) setIdle(l int) {
	h.lanes[l] = lane{msg: -1}
	h.ptrs[l] = unsafe.Pointer(&h.idle[0])
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
