package sha256batch

import (
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// message returns n pseudo-random bytes drawn from seed.
func message(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// check hashes msgs with h in every way the package can (ways) and
// compares every digest with crypto/sha256's.
func check(t *testing.T, h *Hasher, msgs [][]byte) {
	t.Helper()
	want := make([][Size]byte, len(msgs))
	for i, m := range msgs {
		want[i] = sha256.Sum256(m)
	}
	out := make([][Size]byte, len(msgs))
	for _, w := range ways(t) {
		clear(out)
		w.sum(h, out, msgs)
		for i, m := range msgs {
			if out[i] != want[i] {
				t.Fatalf("%s: message %d of %d (%d bytes): got %x, want %x", w.name, i, len(msgs), len(m), out[i], want[i])
			}
		}
	}
}

// way is one way to hash a batch.
type way struct {
	name string
	sum  func(h *Hasher, out [][Size]byte, msgs [][]byte)
}

// ways returns Sum; the lanes run by the model, on every processor; and,
// where the processor has the vector code, the lanes run by it with every
// call compared with the model's (diffed).
func ways(t *testing.T) []way {
	ws := []way{
		{"Sum", (*Hasher).Sum},
		{"lanes with the model", func(h *Hasher, out [][Size]byte, msgs [][]byte) { h.sumLanes(out, msgs, blocksGo) }},
	}
	if vector {
		blocks := diffed(t)
		ws = append(ws, way{"lanes with the vector code", func(h *Hasher, out [][Size]byte, msgs [][]byte) { h.sumLanes(out, msgs, blocks) }})
	}
	return ws
}

// diffed returns a block function that runs the vector code and fails t
// unless the model, given the same state and pointers, leaves the same
// state: every lane's, busy or idle, and in 8-lane calls lanes 8-15
// untouched.
func diffed(t *testing.T) blocksFunc {
	return func(state *[8][maxLanes]uint32, ptrs *[maxLanes]unsafe.Pointer, n, lanes int) {
		t.Helper()
		want, in := *state, *ptrs
		blocksGo(&want, &in, n, lanes)
		blocksVector(state, ptrs, n, lanes)
		if *state != want {
			t.Fatalf("%d blocks in %d lanes: the vector code left the state\n%x\nthe model\n%x", n, lanes, *state, want)
		}
		if *ptrs != in {
			t.Fatalf("%d blocks in %d lanes: the vector code changed the pointers", n, lanes)
		}
	}
}

// TestLengths: every length from 0 to 300 and around the block and
// padding boundaries, each in batches of 1 to 17 messages of that length;
// lengths of 1,024 blocks, whose lanes run all their blocks in one call,
// only in batches of 1, 2, 8, 9, 16 and 17 (either side of the two
// widths), to keep the model's work small.
func TestLengths(t *testing.T) {
	all := make([]int, 17)
	for i := range all {
		all[i] = i + 1
	}
	tests := []struct {
		lengths, counts []int
	}{
		{lengths: upTo(300), counts: all},
		{lengths: around(8, 64, 137), counts: all},
		// A long message: the lengths where the padding fits the last
		// block (55 mod 64), spills into a new one (56) and is a whole block.
		{lengths: []int{1023*BlockSize + 55, 1023*BlockSize + 56, 1024 * BlockSize}, counts: []int{1, 8, 9, 16, 17}},
	}
	var h Hasher
	for _, tt := range tests {
		for _, n := range tt.lengths {
			msgs := make([][]byte, 17)
			for i := range msgs {
				msgs[i] = message(uint64(i), n)
			}
			for _, count := range tt.counts {
				check(t, &h, msgs[:count])
			}
		}
	}
}

// upTo returns the lengths 0 to n.
func upTo(n int) []int {
	s := make([]int, n+1)
	for i := range s {
		s[i] = i
	}
	return s
}

// around returns the lengths within 10 bytes of each number of blocks.
func around(blocks ...int) []int {
	var s []int
	for _, b := range blocks {
		for d := -10; d <= 10; d++ {
			s = append(s, b*BlockSize+d)
		}
	}
	return s
}

// TestMixed: batches whose messages differ in length, so lanes finish at
// different blocks, take new messages and move to the 8-lane code.
func TestMixed(t *testing.T) {
	var h Hasher
	for _, tt := range mixed {
		t.Run(tt.name, func(t *testing.T) {
			msgs := make([][]byte, len(tt.lengths))
			for i, n := range tt.lengths {
				msgs[i] = message(uint64(i), n)
			}
			check(t, &h, msgs)
		})
	}
}

// mixed are batches of messages of different lengths (TestMixed,
// TestGuardPage).
var mixed = []struct {
	name    string
	lengths []int
}{
	{"two", []int{0, 1000}},
	{"short and long", []int{8800, 3, 8800, 55, 56, 64, 119, 120, 8800}},
	{"16 of one length, one longer", append(repeat(16, 640), 6400)},
	{"17 descending", descending(17, 700)},
	{"40 ascending", ascending(40, 300)},
	{"9 with empty ones", []int{0, 0, 64, 0, 8800, 0, 65, 0, 1}},
	{"33 segments", append(repeat(32, 8800), 1200)},
	{"one long, 16 short", append([]int{8800}, repeat(16, 10)...)},
	{"two long, one short", []int{5000, 5000, 0}},
}

func repeat(count, n int) []int {
	s := make([]int, count)
	for i := range s {
		s[i] = n
	}
	return s
}

func descending(count, step int) []int {
	s := make([]int, count)
	for i := range s {
		s[i] = (count - i) * step
	}
	return s
}

func ascending(count, step int) []int {
	s := make([]int, count)
	for i := range s {
		s[i] = i*step + i%7
	}
	return s
}

// TestSubslices: messages that are parts of one buffer, starting at odd
// offsets and overlapping.
func TestSubslices(t *testing.T) {
	buf := message(1, 20000)
	var msgs [][]byte
	for i := range 20 {
		msgs = append(msgs, buf[i*7+1:i*7+1+i*613])
	}
	var h Hasher
	check(t, &h, msgs)
}

// TestRandomBatches: seeded batches of 0-39 messages of 0-765 bytes at
// random places in one buffer.
func TestRandomBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := message(9, 1<<16)
	var h Hasher
	for range 3000 {
		msgs := make([][]byte, r.IntN(40))
		for i := range msgs {
			n := r.IntN(766)
			o := r.IntN(len(data) - n)
			msgs[i] = data[o : o+n]
		}
		check(t, &h, msgs)
	}
}

func TestSumPanicsOnShortOut(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Sum with fewer digests than messages did not panic")
		}
	}()
	var h Hasher
	h.Sum(make([][Size]byte, 1), [][]byte{nil, nil})
}

func TestSumAllocatesNothing(t *testing.T) {
	msgs := make([][]byte, 20)
	for i := range msgs {
		msgs[i] = message(uint64(i), 8800+i)
	}
	out := make([][Size]byte, len(msgs))
	var h Hasher
	if n := testing.AllocsPerRun(10, func() { h.Sum(out, msgs) }); n != 0 {
		t.Fatalf("Sum allocated %v times per call", n)
	}
}

// FuzzSum splits the input into messages at the given lengths and
// compares every digest with crypto/sha256's, from Sum, from the lanes
// run by the model (on every processor), and from the lanes run by the
// vector code, diffed against the model, where the processor has it.
func FuzzSum(f *testing.F) {
	f.Add([]byte("abc"), []byte{3})
	f.Add(make([]byte, 2000), []byte{0, 55, 56, 64, 200, 255, 1})
	f.Add(message(3, 9000), []byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 9})
	f.Fuzz(func(t *testing.T, data []byte, lengths []byte) {
		var msgs [][]byte
		for _, l := range lengths {
			n := min(int(l)*3, len(data))
			msgs = append(msgs, data[:n])
			data = data[n:]
		}
		var h Hasher
		check(t, &h, msgs)
	})
}

// BenchmarkSum: 16 messages of 8 KiB per call, with this package and with
// crypto/sha256 one after the other.
func BenchmarkSum(b *testing.B) {
	for _, count := range []int{16, 8, 4} {
		msgs := make([][]byte, count)
		for i := range msgs {
			msgs[i] = message(uint64(i), 8192)
		}
		out := make([][Size]byte, count)
		b.Run(fmt.Sprintf("batch/%dx8KiB", count), func(b *testing.B) {
			var h Hasher
			b.SetBytes(int64(count * 8192))
			for b.Loop() {
				h.Sum(out, msgs)
			}
		})
		b.Run(fmt.Sprintf("crypto-sha256/%dx8KiB", count), func(b *testing.B) {
			b.SetBytes(int64(count * 8192))
			for b.Loop() {
				sumEach(out, msgs)
			}
		})
	}
}

// TestSumKeepsNoPointers: after Sum, the Hasher points into none of the
// messages, which the garbage collector may then free.
func TestSumKeepsNoPointers(t *testing.T) {
	msgs := [][]byte{message(1, 1000), message(2, 10), nil}
	for _, w := range ways(t) {
		var h Hasher
		w.sum(&h, make([][Size]byte, len(msgs)), msgs)
		for l, p := range h.ptrs {
			if p != nil {
				t.Errorf("%s: lane %d still points at %p", w.name, l, p)
			}
		}
	}
}
