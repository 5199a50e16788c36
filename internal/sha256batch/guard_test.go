//go:build unix

package sha256batch

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime/debug"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestGuardPage: the lanes read nothing past the end of a message or of
// the Hasher. The Hasher and every message lie at the end of a mapping of
// their own, against a page the process may not read, and a read there
// fails the test. The lanes run with the model, which reads what the
// vector code reads, on every processor, and with the vector code where
// the processor has it.
func TestGuardPage(t *testing.T) {
	var g guards
	engines := []struct {
		name   string
		blocks blocksFunc
	}{{"model", blocksGo}}
	if vector {
		engines = append(engines, struct {
			name   string
			blocks blocksFunc
		}{"vector", blocksVector})
	}
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			h := (*Hasher)(unsafe.Pointer(unsafe.SliceData(g.alloc(t, int(unsafe.Sizeof(Hasher{})), "the Hasher"))))
			for _, tt := range mixed {
				t.Run(tt.name, func(t *testing.T) {
					msgs := make([][]byte, len(tt.lengths))
					for i, n := range tt.lengths {
						msgs[i] = g.alloc(t, n, fmt.Sprintf("message %d (%d bytes)", i, n))
						copy(msgs[i], message(uint64(i), n))
					}
					out := make([][Size]byte, len(msgs))
					g.run(t, func() { h.sumLanes(out, msgs, e.blocks) })
					for i, m := range msgs {
						if want := sha256.Sum256(m); out[i] != want {
							t.Fatalf("message %d of %d (%d bytes): got %x, want %x", i, len(msgs), len(m), out[i], want)
						}
					}
				})
			}
		})
	}
}

// guards are the pages no one may read, each after a buffer, by where
// each begins.
type guards map[uintptr]string

// alloc returns n bytes, zero, that end where a page the process may not
// read begins; the mapping is removed when t ends.
func (g *guards) alloc(t *testing.T, n int, what string) []byte {
	t.Helper()
	page := os.Getpagesize()
	size := (n+page-1)/page*page + page
	mem, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() {
		if err := unix.Munmap(mem); err != nil {
			t.Errorf("munmap: %v", err)
		}
	})
	guard := mem[size-page:]
	if err := unix.Mprotect(guard, unix.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	if *g == nil {
		*g = guards{}
	}
	(*g)[uintptr(unsafe.Pointer(unsafe.SliceData(guard)))] = what
	return mem[size-page-n : size-page : size-page]
}

// run calls f and fails t if f reads a guard page (or faults elsewhere).
func (g guards) run(t *testing.T, f func()) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		fault, ok := r.(interface{ Addr() uintptr })
		if !ok {
			panic(r)
		}
		page := uintptr(os.Getpagesize())
		at := fault.Addr()
		if what, ok := g[at&^(page-1)]; ok {
			t.Fatalf("read past the end of %s (byte %d after it): %v", what, at&(page-1), r)
		}
		t.Fatalf("fault at %#x, in no guard page: %v", at, r)
	}()
	f()
}
