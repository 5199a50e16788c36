package fwd

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
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
	waitFaces(t, d, 0) // the Interest's own face is gone too, or it could hold the freed ID
	serveOn(t, d.UnixURI(), "/fwd/next", []byte("y"))
	if got := waitFaces(t, d, 1); got[0] != ids[0] {
		t.Errorf("the next face got ID %d, want the freed %d", got[0], ids[0])
	}
}

// TestTwoForwardersOverUDP joins two forwarders by a configured UDP face
// with link-loss detection at both ends: an object fetched through both
// arrives intact, and the frames one end numbered the other acknowledged.
// The loopback loses nothing, but an ack that a busy machine delays past
// the ack timeout makes its frame look lost: at most 2% may, checked with
// the real-time tests (internal/realtimetest).
func TestTwoForwardersOverUDP(t *testing.T) {
	b := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\nloss-detection = true\n")
	a := startFwConfig(t, fmt.Sprintf(`udp = "127.0.0.1:0"
tcp = ""
[[face]]
id = "b"
remote = "udp4://%s"
loss-detection = true
[[route]]
prefix = "/fwd/udp"
face = "b"
`, b.UDPAddr()))
	content := ndntest.RandomBytes(2<<20+5, 7)
	s := serveOn(t, b.UnixURI(), "/fwd/udp", content)
	routeToApp(t, b, 1, s.name[:len(s.name)-1])
	got, res, err := fetchOn(t, a.UnixURI(), s.name[:len(s.name)-1], "aimd", nil)
	if err != nil {
		t.Fatalf("fetch: %v (stats %+v)", err, res.Stats)
	}
	if !bytes.Equal(got, content) {
		t.Fatalf("fetched %d bytes, differ from the %d served", len(got), len(content))
	}
	var status strings.Builder
	a.Do(func() { a.Status(&status) })
	var (
		rel     link.ReliabilityStats
		unacked int
	)
	a.Do(func() {
		id, ok := a.StaticFace("b")
		if !ok {
			t.Error("face b is not up")
			return
		}
		rel, unacked = a.faces[id].rel.Stats(), a.faces[id].rel.Unacked()
	})
	t.Logf("%s", status.String())
	segments := uint64(len(content)/8000 + 1)
	if rel.Sent < segments || rel.Received < segments {
		t.Errorf("link frames sent %d, received %d; want at least %d each", rel.Sent, rel.Received, segments)
	}
	lost := rel.LostByGap + rel.LostByTimeout
	if rel.Acked+lost+rel.Evicted+uint64(unacked) < rel.Sent {
		t.Errorf("%d of %d frames neither acked, lost, evicted nor in flight", rel.Sent-rel.Acked-lost-rel.Evicted-uint64(unacked), rel.Sent)
	}
	// How many acks come late depends on how busy the machine is: the
	// bound holds on a machine that gives the test its real time.
	if realtimetest.Enabled() && lost > rel.Sent/50 {
		t.Errorf("over loopback: %d frames reported lost, %d of %d acked", lost, rel.Acked, rel.Sent)
	}
	if !strings.Contains(status.String(), "link frames sent") {
		t.Errorf("status lacks the link's counters:\n%s", status.String())
	}
}

// TestExampleConfigurations loads every configuration in examples/fw:
// each parses and the forwarder accepts its strategies and queues.
func TestExampleConfigurations(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "fw", "*.toml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("found %v (%v), want the 3 examples", files, err)
	}
	for _, file := range files {
		cfg, err := fwconf.Load(file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if err := Check(cfg); err != nil {
			t.Errorf("%s: %v", file, err)
		}
	}
}

// TestCoDelMTUDefaultsToTheLargestPacket checks the one default a face's
// CoDel queue takes from the live forwarder rather than the simulator: a
// packet of up to 8800 bytes alone in the queue is never marked; a value
// the configuration sets is kept.
func TestCoDelMTUDefaultsToTheLargestPacket(t *testing.T) {
	for _, tc := range []struct {
		params map[string]string
		want   int
	}{{nil, 8800}, {map[string]string{"mtu": "1500"}, 1500}} {
		cfg := fwconf.Default()
		cfg.Queue, cfg.QueueParams = "codel-mark", tc.params
		q, err := newQueue(cfg, nil, fwconf.LinkEmulation{})
		if err != nil {
			t.Fatal(err)
		}
		if got := q.(*aqm.CoDel).Params().MTU; got != tc.want {
			t.Errorf("params %v: mtu %d, want %d", tc.params, got, tc.want)
		}
		if tc.params != nil && len(tc.params) != 1 {
			t.Errorf("the configuration's parameters changed: %v", tc.params)
		}
	}
}
