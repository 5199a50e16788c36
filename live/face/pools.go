package face

import (
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/ndn"
)

// framePool recycles the receive buffers of an application's stream face: a fetch hands a
// Data back once its payload is written, and a later frame reuses the
// buffer instead of allocating (and later collecting) a new one.
//
// A Data usually arrives inside an NDNLPv2 header, so what comes back is
// the buffer from the Data's first byte on: the buffer loses the header's
// few bytes each round, and leaves the pool once it is too short for the
// largest frame.
//
// The free list is a buffered channel: the reader goroutine takes, the
// loop gives back, and neither allocates (a sync.Pool of slices allocates
// a slice header per Put). At most framePoolSize buffers wait in it.
type framePool struct {
	free chan []byte
}

// framePoolSize bounds the idle buffers a pool keeps (about 5 MB).
const framePoolSize = 512

// poolBufSize is the capacity of new pooled buffers: the largest frame plus
// room for many rounds of header loss.
const poolBufSize = MaxPacketSize + 1024

func newFramePool() framePool { return framePool{free: make(chan []byte, framePoolSize)} }

// get returns a buffer of length n.
func (p *framePool) get(n int) []byte {
	if n > MaxPacketSize {
		return make([]byte, n)
	}
	select {
	case b := <-p.free:
		return b[:n]
	default:
		return make([]byte, n, poolBufSize)
	}
}

// put takes back the tail of a buffer that get returned; the caller must
// not use any part of that buffer again. Buffers too short for the largest
// frame are left to the garbage collector, and so are those a full pool
// has no room for.
func (p *framePool) put(b []byte) {
	if cap(b) < MaxPacketSize {
		return
	}
	select {
	case p.free <- b[:0]:
	default:
	}
}

// dataPool recycles the Data structs of a fetch's segments along with
// their buffers (framePool): the loop gives a Data back once its payload
// is written, and a reader decodes a later Data into it
// (ndn.DecodeLinkFrameWith) instead of allocating one.
type dataPool struct {
	free chan *ndn.Data
}

func newDataPool() dataPool { return dataPool{free: make(chan *ndn.Data, framePoolSize)} }

// get returns a Data to decode into, or nil when none is free.
func (p *dataPool) get() *ndn.Data {
	select {
	case d := <-p.free:
		return d
	default:
		return nil
	}
}

// put takes back a Data nothing uses any more.
func (p *dataPool) put(d *ndn.Data) {
	select {
	case p.free <- d:
	default:
	}
}

// pools are an application's face's free lists: the receive buffers and
// Data its reader decodes into, its reader's batches, and the Data handed
// back during the current loop iteration (Face.Recycle), which return to
// the lists once the iteration is over (Flush).
type pools struct {
	frames  framePool
	datas   dataPool
	batches chan *readBatch
	recycle []*ndn.Data
}

func newPools() *pools {
	return &pools{frames: newFramePool(), datas: newDataPool(), batches: make(chan *readBatch, eventloop.InboxSize)}
}

// Flush returns the Data handed back this iteration, and their frames, to
// the free lists (eventloop.Flusher).
func (p *pools) Flush() {
	for i, d := range p.recycle {
		p.frames.put(d.Wire)
		p.datas.put(d)
		p.recycle[i] = nil
	}
	p.recycle = p.recycle[:0]
}
