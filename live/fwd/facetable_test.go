package fwd

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/ndn"
)

// TestIdleOnDemandUDPFaceExpires sends one Interest from a UDP peer: the
// listener makes an on-demand face for it, and the loop's idle timer
// closes that face once it has been silent for idle-timeout; a
// configured (permanent) UDP face stays.
func TestIdleOnDemandUDPFaceExpires(t *testing.T) {
	d := startFwConfig(t, `udp = "127.0.0.1:0"
tcp = ""
idle-timeout = "300ms"
[[face]]
id = "peer"
remote = "udp4://127.0.0.1:9"
`)
	c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(d.UDPAddr()))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b, err := ndn.EncodeInterest(&ndn.Interest{Name: ndntest.Name(t, "/idle/x"), Nonce: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write(b); err != nil {
		t.Fatal(err)
	}
	up := time.Now()
	waitFaces(t, d, 2) // the permanent face and the on-demand one
	waitFaces(t, d, 1)
	if el := time.Since(up); el < 250*time.Millisecond {
		t.Errorf("the on-demand face went after %v, before its idle timeout", el)
	}
	if _, ok := d.StaticFace("peer"); !ok {
		t.Error("the permanent face went too")
	}
}

// TestPermanentTCPFaceReconnects configures a TCP face to a forwarder
// that is not running yet: the face comes up once the peer listens, goes
// down with it, and comes back when it returns, with its route.
func TestPermanentTCPFaceReconnects(t *testing.T) {
	port := freeTCPPort(t)
	a := startFwConfig(t, fmt.Sprintf(`udp = ""
tcp = ""
[[face]]
id = "b"
remote = "tcp4://127.0.0.1:%d"
[[route]]
prefix = "/reconnect"
face = "b"
`, port))
	up := func() bool {
		var ok bool
		a.Do(func() { _, ok = a.StaticFace("b") })
		return ok
	}
	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting until %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if up() {
		t.Fatal("face up with nothing listening")
	}
	for round := range 2 {
		cfg, err := fwconf.Parse([]byte(fmt.Sprintf("udp = \"\"\ntcp = \"127.0.0.1:%d\"\n", port)), "b.toml")
		if err != nil {
			t.Fatal(err)
		}
		cfg.Socket = ""
		b, err := New(cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		ended := make(chan error, 1)
		go func() { ended <- b.Run(ctx) }()
		waitUntil(fmt.Sprintf("the face is up (round %d)", round), up)
		var routed bool
		a.Do(func() {
			id, _ := a.StaticFace("b")
			for _, e := range a.fw.FIB() {
				if e.Prefix.Equal(ndntest.Name(t, "/reconnect")) && len(e.NextHops) == 1 && e.NextHops[0].Face == id {
					routed = true
				}
			}
		})
		if !routed {
			t.Errorf("round %d: no route for /reconnect through the face", round)
		}
		cancel()
		if err := <-ended; err != nil {
			t.Fatal(err)
		}
		waitUntil(fmt.Sprintf("the face is down (round %d)", round), func() bool { return !up() })
	}
}

// freeTCPPort returns a loopback TCP port that is free now.
func freeTCPPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestArrivingFacesClosedWhenTheForwarderStops checks that a face made off
// the loop (a listener's accepted connection, a dial's) does not outlive
// the forwarder: one held on its way when the forwarder stops, whose
// posted add never runs, is closed, and so is one that arrives after.
// Otherwise the peer's face over that connection would stay up.
func TestArrivingFacesClosedWhenTheForwarderStops(t *testing.T) {
	cfg, err := fwconf.Parse([]byte("udp = \"\"\ntcp = \"\"\n"), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Socket = ""
	d, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	newFace := func() (*face.Face, net.Conn) {
		here, there := net.Pipe()
		t.Cleanup(func() { here.Close(); there.Close() })
		return face.NewTCP(d, here, "tcp4", face.OnDemand, nil), there
	}
	held, _ := newFace()
	if !d.arriving.hold(held) {
		t.Fatal("a face held before the forwarder ran was refused")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := d.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if !held.Closed() {
		t.Error("a face on its way when the forwarder stopped is not closed")
	}
	if d.arriving.take(held) {
		t.Error("a face on its way when the forwarder stopped is still held: its posted add would add it")
	}
	late, peer := newFace()
	d.Accepted(late)
	if !late.Closed() {
		t.Error("a face accepted after the forwarder stopped is not closed")
	}
	peer.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := peer.Read(make([]byte, 1)); err == nil {
		t.Error("the peer of a face accepted after the forwarder stopped can still read")
	}
}
