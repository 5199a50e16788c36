package sha256batch

import (
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
// function: lane l reads its blocks from ptrs[l] on (n*64 bytes), and its
// state from and to column l of state. blocksGo is its model.
//
//go:noescape
func blocks16(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n int)

// blocks8 is blocks16 for lanes 0-7 only, in 256-bit registers; it
// neither reads ptrs[8:] nor touches columns 8-15 of state.
//
//go:noescape
func blocks8(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n int)

// blocksVector runs the first lanes lanes (8 or 16) in the vector code.
func blocksVector(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int) {
	if lanes == maxLanes {
		blocks16(state, ptrs, n)
	} else {
		blocks8(state, ptrs, n)
	}
}
