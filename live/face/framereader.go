package face

import (
	"errors"
	"fmt"
	"io"

	enc "github.com/named-data/ndnd/std/encoding"
)

// MaxPacketSize is the largest NDN packet (or NDNLPv2 frame) ndncc sends
// or accepts: NDN's customary limit, which NFD and ndnd's forwarder
// enforce on stream faces.
const MaxPacketSize = 8800

// ErrFrameTooLarge reports a TLV element whose length exceeds
// MaxPacketSize on a stream: the stream cannot be delimited any further.
var ErrFrameTooLarge = errors.New("face: TLV element exceeds the packet size limit")

// FrameReader splits a byte stream (a Unix or TCP socket) into TLV
// elements by reading each element's TLV-TYPE and TLV-LENGTH with ndnd's
// readers. Each frame it returns is a fresh slice the caller owns.
type FrameReader struct {
	r          io.Reader
	buf        []byte
	start, end int // buffered, not yet returned bytes
	max        int
	// alloc returns the buffer a frame of n bytes is copied into.
	Alloc func(n int) []byte
}

// NewFrameReader returns a reader of frames of at most limit bytes. It
// asks the socket for up to eight frames at once.
func NewFrameReader(r io.Reader, limit int) *FrameReader {
	return &FrameReader{r: r, buf: make([]byte, 8*limit+2*9), max: limit,
		Alloc: func(n int) []byte { return make([]byte, n) }}
}

// Next returns the next whole TLV element. At a clean end of the stream
// it returns io.EOF; a stream that ends inside an element gives
// io.ErrUnexpectedEOF, an element longer than max ErrFrameTooLarge.
func (fr *FrameReader) Next() ([]byte, error) {
	for {
		size, err := fr.frameSize()
		if err != nil {
			return nil, err
		}
		if size > 0 && fr.end-fr.start >= size {
			out := fr.Alloc(size)
			copy(out, fr.buf[fr.start:fr.start+size])
			fr.start += size
			if fr.start == fr.end {
				fr.start, fr.end = 0, 0
			}
			return out, nil
		}
		if err := fr.fill(size); err != nil {
			return nil, err
		}
	}
}

// buffered reports whether a whole frame is already buffered, so that
// Next returns it without reading.
func (fr *FrameReader) Buffered() bool {
	size, err := fr.frameSize()
	return err == nil && size > 0 && fr.end-fr.start >= size
}

// frameSize returns the total size of the element at the head of the
// buffer, or 0 if its header is not complete yet.
func (fr *FrameReader) frameSize() (int, error) {
	v := enc.NewBufferView(fr.buf[fr.start:fr.end])
	typ, err := v.ReadTLNum()
	if err != nil {
		return 0, nil // need more bytes
	}
	length, err := v.ReadTLNum()
	if err != nil {
		return 0, nil
	}
	if uint64(length) > uint64(fr.max) {
		return 0, fmt.Errorf("%w: type %#x, length %d (limit %d)", ErrFrameTooLarge, uint64(typ), uint64(length), fr.max)
	}
	size := v.Pos() + int(length)
	if size > fr.max {
		return 0, fmt.Errorf("%w: type %#x, %d bytes (limit %d)", ErrFrameTooLarge, uint64(typ), size, fr.max)
	}
	return size, nil
}

// fill reads more bytes, making room for an element of size bytes (0:
// unknown yet) first.
func (fr *FrameReader) fill(size int) error {
	need := max(size, 2*9) // a whole element, or the longest header
	if fr.start+need > len(fr.buf) {
		copy(fr.buf, fr.buf[fr.start:fr.end])
		fr.end -= fr.start
		fr.start = 0
	}
	n, err := fr.r.Read(fr.buf[fr.end:])
	fr.end += n
	if n > 0 {
		return nil
	}
	if err == nil {
		return nil
	}
	if errors.Is(err, io.EOF) {
		if fr.end > fr.start {
			return fmt.Errorf("stream ended inside a %d-byte partial packet: %w", fr.end-fr.start, io.ErrUnexpectedEOF)
		}
		return io.EOF
	}
	return err
}
