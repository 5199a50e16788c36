package live

import (
	"fmt"
	"io"

	"github.com/ndncc/ndncc/ndn"
)

// orderedWriter writes segment payloads in segment order, holding the
// ones that arrive early. What it holds is bounded by the pipeline's
// window: segments above the lowest missing one.
type orderedWriter struct {
	w       io.Writer
	next    uint64
	held    map[uint64]*ndn.Data
	written uint64 // bytes written
	// done, if set, is given each Data once its payload is written.
	done func(*ndn.Data)
}

func newOrderedWriter(w io.Writer) *orderedWriter {
	return &orderedWriter{w: w, held: map[uint64]*ndn.Data{}}
}

// put accepts segment seg (each segment once) and writes the payload of
// every segment that is now in order.
func (o *orderedWriter) put(seg uint64, d *ndn.Data) error {
	if seg < o.next {
		return nil
	}
	if seg > o.next {
		o.held[seg] = d
		return nil
	}
	for {
		n, err := o.w.Write(d.Content)
		o.written += uint64(n)
		if err != nil {
			return fmt.Errorf("write segment %d: %w", o.next, err)
		}
		if o.done != nil {
			o.done(d)
		}
		o.next++
		var ok bool
		if d, ok = o.held[o.next]; !ok {
			return nil
		}
		delete(o.held, o.next)
	}
}

// complete reports whether segments 0..last have all been written.
func (o *orderedWriter) complete(last uint64) bool { return o.next == last+1 }
