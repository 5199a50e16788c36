package face

import (
	"bytes"
	"errors"
	"io"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"
)

// chunkReader returns its data in reads of at most n bytes.
type chunkReader struct {
	data []byte
	n    int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(len(p), c.n, len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// tlv encodes one TLV element with ndnd's TL encoders.
func tlv(typ uint64, value []byte) []byte {
	t, l := enc.TLNum(typ), enc.TLNum(len(value))
	b := make([]byte, t.EncodingLength()+l.EncodingLength()+len(value))
	n := t.EncodeInto(b)
	n += l.EncodeInto(b[n:])
	copy(b[n:], value)
	return b
}

func TestFrameReaderDelimits(t *testing.T) {
	big := bytes.Repeat([]byte{7}, 8000)
	frames := [][]byte{
		tlv(0x05, []byte{1, 2, 3}),
		tlv(0x06, big),                          // 3-byte length
		tlv(0x64, nil),                          // empty value
		tlv(0x0320, []byte{9}),                  // 3-byte type
		tlv(0x06, bytes.Repeat([]byte{1}, 253)), // length just past 1 byte
	}
	stream := bytes.Join(frames, nil)
	for _, chunk := range []int{1, 2, 3, 7, 100, 1 << 20} {
		fr := NewFrameReader(&chunkReader{data: stream, n: chunk}, MaxPacketSize)
		for i, want := range frames {
			got, err := fr.Next()
			if err != nil {
				t.Fatalf("chunk %d, frame %d: %v", chunk, i, err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("chunk %d, frame %d: got %d bytes, want %d", chunk, i, len(got), len(want))
			}
		}
		if _, err := fr.Next(); err != io.EOF {
			t.Fatalf("chunk %d: after the last frame got %v, want io.EOF", chunk, err)
		}
	}
}

func TestFrameReaderErrors(t *testing.T) {
	tests := []struct {
		name   string
		stream []byte
		want   error
	}{
		{"truncated value", tlv(0x06, make([]byte, 100))[:50], io.ErrUnexpectedEOF},
		{"truncated length", []byte{0x06, 0xfd, 0x01}, io.ErrUnexpectedEOF},
		{"length over the limit", []byte{0x06, 0xfd, 0x22, 0x61}, ErrFrameTooLarge}, // 8801
		{"huge length", []byte{0x06, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, ErrFrameTooLarge},
		{"header plus value over the limit", append([]byte{0x06, 0xfd, 0x22, 0x5e}, make([]byte, 8798)...), ErrFrameTooLarge},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fr := NewFrameReader(bytes.NewReader(tc.stream), MaxPacketSize)
			_, err := fr.Next()
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// FuzzFrameReader feeds arbitrary streams in arbitrary read sizes: every
// frame returned must be one whole TLV element of at most the limit, and
// the frames must be the stream's prefix, in order.
func FuzzFrameReader(f *testing.F) {
	f.Add(append(tlv(0x05, []byte{1, 2}), tlv(0x06, make([]byte, 300))...), uint8(3))
	f.Add([]byte{0x64, 0xfd, 0x00}, uint8(1))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x00}, uint8(5))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		const limit = 512
		fr := NewFrameReader(&chunkReader{data: stream, n: int(chunk) + 1}, limit)
		var joined []byte
		for {
			b, err := fr.Next()
			if err != nil {
				break
			}
			if len(b) == 0 || len(b) > limit {
				t.Fatalf("frame of %d bytes (limit %d)", len(b), limit)
			}
			v := enc.NewBufferView(b)
			if _, err := v.ReadTLNum(); err != nil {
				t.Fatal(err)
			}
			l, err := v.ReadTLNum()
			if err != nil || v.Pos()+int(l) != len(b) {
				t.Fatalf("frame %x is not one TLV element", b)
			}
			joined = append(joined, b...)
		}
		if !bytes.HasPrefix(stream, joined) {
			t.Fatal("frames are not the stream's prefix")
		}
	})
}
