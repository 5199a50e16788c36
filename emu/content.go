package emu

import (
	"encoding/binary"
	"hash/fnv"
	"io"
)

// Content returns the bytes the emulator's producer of prefix serves in a
// run of the given seed: size bytes of a pseudo-random sequence that
// depends on both, generated on demand (a consumer checks what it
// fetched against it, as can a test of a foreign client).
func Content(seed uint64, prefix string, size int64) io.ReaderAt {
	h := fnv.New64a()
	h.Write([]byte(prefix))
	return &content{key: seed ^ h.Sum64(), size: size}
}

// content is the pseudo-random object: word i (8 bytes) is a mix of key
// and i, so any range is computed without the bytes before it.
type content struct {
	key  uint64
	size int64
}

// ReadAt implements io.ReaderAt.
func (c *content) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off < c.size {
		w := uint64(off / 8)
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], mix(c.key+w*0x9e3779b97f4a7c15))
		k := copy(p[n:], b[off%8:])
		if rest := c.size - off; int64(k) > rest {
			k = int(rest)
		}
		n += k
		off += int64(k)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// mix is SplitMix64's finaliser.
func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// checker is an io.Writer that compares what is written, in order, with
// the content it should be, and remembers the first difference.
type checker struct {
	want io.ReaderAt
	off  int64
	diff int64 // offset of the first byte that differs, -1 if none
	buf  []byte
}

func newChecker(want io.ReaderAt) *checker { return &checker{want: want, diff: -1} }

func (c *checker) Write(p []byte) (int, error) {
	if c.diff < 0 {
		if cap(c.buf) < len(p) {
			c.buf = make([]byte, len(p))
		}
		b := c.buf[:len(p)]
		n, _ := c.want.ReadAt(b, c.off)
		for i := range p {
			if i >= n || p[i] != b[i] {
				c.diff = c.off + int64(i)
				break
			}
		}
	}
	c.off += int64(len(p))
	return len(p), nil
}
