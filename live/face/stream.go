package face

import (
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/ndncc/ndncc/link"
)

// maxReadBatch bounds the packets a reader hands the loop at once.
const maxReadBatch = 32

// NewStream returns a face over an established stream connection (a Unix
// or TCP socket). Start it once the loop knows it.
func NewStream(host Host, conn net.Conn, cfg Config) *Face {
	f := newFace(host, cfg, false, func(b []byte) error {
		_, err := conn.Write(b)
		return err
	})
	f.closeTx = conn.Close
	f.backlog, f.sndbuf = kernelBacklog(conn, cfg.Scheme)
	f.direct = directWriter(conn)
	f.reader = func() { f.readStream(conn) }
	return f
}

// readStream delimits TLV frames on the connection and hands the loop the
// packets of each read in one batch.
func (f *Face) readStream(conn net.Conn) {
	fr := NewFrameReader(conn, MaxPacketSize)
	var batch []link.Frame
	for {
		b, err := fr.Next()
		if err != nil {
			if len(batch) > 0 {
				f.host.Deliver(f, batch)
			}
			if errors.Is(err, io.EOF) {
				err = fmt.Errorf("face %s: the peer closed the connection: %w", f.cfg.Remote, err)
			} else {
				err = fmt.Errorf("face %s: read: %w", f.cfg.Remote, err)
			}
			f.fail(err)
			return
		}
		if fr, ok := f.dec.Decode(b, 0); ok {
			batch = append(batch, fr)
		}
		if len(batch) > 0 && (len(batch) == maxReadBatch || !fr.Buffered()) {
			if f.isClosing() {
				return
			}
			f.host.Deliver(f, batch)
			batch = nil
		}
	}
}
