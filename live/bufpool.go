package live

import "sync"

// framePool recycles the receive buffers of stream faces: a fetch hands a
// Data back once its payload is written, and a later frame reuses the
// buffer instead of allocating (and later collecting) a new one.
//
// A Data usually arrives inside an NDNLPv2 header, so what comes back is
// the buffer from the Data's first byte on: the buffer loses the header's
// few bytes each round, and leaves the pool once it is too short for the
// largest frame.
type framePool struct {
	pool sync.Pool
}

// poolBufSize is the capacity of new pooled buffers: the largest frame plus
// room for many rounds of header loss.
const poolBufSize = MaxPacketSize + 1024

// get returns a buffer of length n.
func (p *framePool) get(n int) []byte {
	if n > MaxPacketSize {
		return make([]byte, n)
	}
	if b, ok := p.pool.Get().(*[]byte); ok {
		return (*b)[:n]
	}
	return make([]byte, n, poolBufSize)
}

// put takes back the tail of a buffer that get returned; the caller must
// not use any part of that buffer again. Buffers too short for the largest
// frame are left to the garbage collector.
func (p *framePool) put(b []byte) {
	if cap(b) < MaxPacketSize {
		return
	}
	b = b[:0]
	p.pool.Put(&b)
}
