package fwd

import (
	"bytes"
	"errors"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live"
)

// TestServeFetchThroughForwarder moves an object from a producer to a
// consumer through the forwarder's Unix faces with every pipeline, and
// checks the bytes and the forwarder's counters.
func TestServeFetchThroughForwarder(t *testing.T) {
	d := startFw(t, nil)
	uri := d.UnixURI()
	content := ndntest.RandomBytes(3<<20+17, 1)
	s := serveOn(t, uri, "/fwd/test", content)
	ids := waitFaces(t, d, 1)
	prefix := s.name[:len(s.name)-1]
	d.Do(func() { d.Core().AddRoute(prefix, ids[0], 0) })
	for _, pipeline := range cc.Pipelines() {
		t.Run(pipeline, func(t *testing.T) {
			params := map[string]string{}
			if pipeline == "fixed" {
				params["window"] = "32"
			}
			got, res, err := fetchOn(t, uri, prefix, pipeline, params)
			if err != nil {
				t.Fatalf("fetch: %v (stats %+v)", err, res.Stats)
			}
			if !bytes.Equal(got, content) {
				t.Fatalf("fetched %d bytes, differ from the %d served", len(got), len(content))
			}
			if !res.Name.Equal(s.name) {
				t.Errorf("discovered %s, want %s", res.Name, s.name)
			}
		})
	}
	var c struct{ in, out uint64 }
	d.Do(func() {
		fc := d.Core().Counters()
		c.in, c.out = fc.InData, fc.OutData
	})
	segments := uint64(len(content)/8000 + 1)
	if n := uint64(len(cc.Pipelines())); c.out < n*segments || c.in < n*segments {
		t.Errorf("forwarder counted %d Data in, %d out; want at least %d each", c.in, c.out, n*segments)
	}
}

// TestRemovedFaceIsForgotten closes a producer's connection: its face
// leaves the table and the forwarder, its route goes with it (an Interest
// for its prefix is Nacked), and the next face reuses its ID.
func TestRemovedFaceIsForgotten(t *testing.T) {
	d := startFw(t, nil)
	s := serveOn(t, d.UnixURI(), "/fwd/gone", []byte("x"))
	ids := waitFaces(t, d, 1)
	prefix := s.name[:len(s.name)-1]
	d.Do(func() { d.Core().AddRoute(prefix, ids[0], 0) })
	if _, err := expressOn(t, d.UnixURI(), s.name.Append(enc.NewSegmentComponent(0))); err != nil {
		t.Fatalf("before the producer left: %v", err)
	}
	s.conn.Close()
	waitFaces(t, d, 0)
	if _, err := expressOn(t, d.UnixURI(), s.name.Append(enc.NewSegmentComponent(0))); !errors.Is(err, live.ErrNacked) {
		t.Errorf("after the producer left: %v, want a Nack (no route)", err)
	}
	serveOn(t, d.UnixURI(), "/fwd/next", []byte("y"))
	if got := waitFaces(t, d, 1); got[0] != ids[0] {
		t.Errorf("the next face got ID %d, want the freed %d", got[0], ids[0])
	}
}
