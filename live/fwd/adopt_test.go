package fwd

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
)

// TestAdoptedTCPFace: a TCP connection made outside the forwarders
// becomes a configured face at each end (Adopt), with its routes: a fetch
// through it gets the producer's bytes. When the connection breaks, each
// forwarder reports it once through its down function and never
// reconnects, though the address still accepts connections.
func TestAdoptedTCPFace(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close() // open to the end: a reconnection would succeed
	ca, err := net.Dial("tcp4", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cb, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	downs := make(chan error, 4)
	adopt := func(id string, conn net.Conn) func(*Forwarder) {
		return func(d *Forwarder) {
			addr := conn.RemoteAddr().String()
			ff := &fwconf.Face{ID: id, Remote: "tcp4://" + addr, Scheme: "tcp4", Address: addr}
			if err := d.Adopt(ff, conn, func(err error) { downs <- err }); err != nil {
				t.Fatal(err)
			}
		}
	}
	cfg := func(routes ...fwconf.Route) *fwconf.Config {
		c := fwconf.Default()
		c.UDP, c.TCP = "", ""
		c.Routes = routes
		return c
	}
	a := startFwAfter(t, cfg(fwconf.Route{Prefix: "/adopt", Face: "b"}), adopt("b", ca))
	b := startFwAfter(t, cfg(), adopt("a", cb))
	content := ndntest.RandomBytes(1<<20, 3)
	s := serveOn(t, b.UnixURI(), "/adopt", content)
	routeToApp(t, b, 2, s.name[:len(s.name)-1])
	got, _, err := fetchOn(t, a.UnixURI(), s.name[:len(s.name)-1], "aimd", nil)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("fetch through the adopted face: %v, %d bytes of %d", err, len(got), len(content))
	}

	cb.Close() // the connection breaks
	for _, side := range []string{"one end", "the other"} {
		select {
		case err := <-downs:
			t.Logf("down: %v", err)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s never reported the broken connection", side)
		}
	}
	time.Sleep(1500 * time.Millisecond) // a configured TCP face reconnects after 1 s
	for _, d := range []*Forwarder{a, b} {
		d.Do(func() {
			for _, f := range d.Faces() {
				if f.Config().Scheme == "tcp4" {
					t.Errorf("a TCP face %s is up again", f.Config().Remote)
				}
			}
		})
	}
	select {
	case err := <-downs:
		t.Errorf("reported again: %v", err)
	default:
	}
}
