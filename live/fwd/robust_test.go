package fwd

import (
	"bytes"
	"math/rand/v2"
	"net"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// randomFrames returns n frames of every kind a hostile or broken peer
// sends: random bytes; real Interests, Data, Nacks, fragments and IDLE
// frames with random bytes flipped or cut; and well-formed Interests for
// random names and selectors (which the forwarder Nacks: no route).
func randomFrames(t *testing.T, n int, r *rand.Rand) [][]byte {
	t.Helper()
	d := ndntest.Data(t, "/robust/data/seg=3", 3000)
	var seeds [][]byte
	add := func(p ndn.Packet, lf ndn.LinkFields) {
		b, err := ndn.EncodeLinkFrame(&p, lf)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	it := ndn.NewSegmentInterest(ndntest.Name(t, "/robust/data"), 3)
	it.Nonce = 1
	add(ndn.Packet{Interest: it}, ndn.LinkFields{})
	add(ndn.Packet{Interest: it, Nack: ndn.NackCongestion, CongestionMark: 1}, ndn.LinkFields{TxSeq: 9})
	add(ndn.Packet{Data: d, CongestionMark: 1}, ndn.LinkFields{TxSeq: 4, Acks: []uint64{1, 2, 3}})
	add(ndn.Packet{}, ndn.LinkFields{Acks: []uint64{1 << 40}})
	seq := uint64(77)
	frags, err := face.Fragment(&ndn.Packet{Data: d}, ndn.LinkFields{TxSeq: 3}, 1000, &seq)
	if err != nil {
		t.Fatal(err)
	}
	seeds = append(seeds, frags...)
	out := make([][]byte, 0, n)
	for len(out) < n {
		switch r.IntN(4) {
		case 0: // random bytes, sometimes starting like a packet
			b := make([]byte, 1+r.IntN(1500))
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			if r.IntN(2) == 0 {
				b[0] = []byte{0x05, 0x06, 0x64}[r.IntN(3)]
			}
			out = append(out, b)
		case 1, 2: // a real frame with bytes flipped, or cut short
			b := bytes.Clone(seeds[r.IntN(len(seeds))])
			if r.IntN(3) == 0 {
				b = b[:r.IntN(len(b))+1]
			}
			for range 1 + r.IntN(4) {
				b[r.IntN(len(b))] = byte(r.Uint32())
			}
			out = append(out, b)
		case 3: // a well-formed Interest nothing answers
			name := ndntest.Name(t, "/robust/nowhere").Append(ndn.Component{Typ: 8, Val: []byte{byte(r.Uint32()), byte(r.Uint32())}})
			in := &ndn.Interest{Name: name, Nonce: r.Uint32(), CanBePrefix: r.IntN(2) == 0, MustBeFresh: r.IntN(2) == 0,
				Lifetime: time.Duration(1+r.IntN(100)) * time.Millisecond}
			b, err := ndn.EncodeInterest(in)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
	}
	return out
}

// TestRandomFramesKeepForwarding sends 10,000 random and broken frames to
// a running forwarder, over UDP (from several source ports: several
// on-demand faces), over Unix and TCP stream connections (each ends at its
// first undelimitable frame, as it must), then fetches an object through
// it: every byte arrives, and the forwarder counted the malformed frames.
func TestRandomFramesKeepForwarding(t *testing.T) {
	d := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"127.0.0.1:0\"\n")
	content := ndntest.RandomBytes(1<<20+3, 11)
	s := serveOn(t, d.UnixURI(), "/robust/object", content)
	routeToApp(t, d, 1, s.name[:len(s.name)-1])
	r := rand.New(rand.NewPCG(1, 2))
	frames := randomFrames(t, 10000, r)
	var udp [4]*net.UDPConn
	for i := range udp {
		c, err := net.DialUDP("udp4", nil, net.UDPAddrFromAddrPort(d.UDPAddr()))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		udp[i] = c
	}
	streams := 0
	var conn net.Conn
	for i, b := range frames {
		switch i % 3 {
		case 0, 1:
			udp[i%len(udp)].Write(b)
			if i%200 == 0 {
				time.Sleep(time.Millisecond) // do not just overflow the socket buffer
			}
		case 2:
			if conn == nil {
				network, addr := "unix", d.cfg.Socket
				if streams%2 == 1 {
					network, addr = "tcp", d.TCPAddr()
				}
				var err error
				if conn, err = net.Dial(network, addr); err != nil {
					t.Fatal(err)
				}
				streams++
			}
			conn.SetWriteDeadline(time.Now().Add(time.Second))
			if _, err := conn.Write(b); err != nil { // the forwarder closed it: a new one
				conn.Close()
				conn = nil
			}
		}
	}
	if conn != nil {
		conn.Close()
	}
	got, res, err := fetchOn(t, d.UnixURI(), s.name[:len(s.name)-1], "cubic", nil)
	if err != nil {
		t.Fatalf("fetch after the random frames: %v (stats %+v)", err, res.Stats)
	}
	if !bytes.Equal(got, content) {
		t.Fatal("fetched bytes differ")
	}
	var malformed, faces uint64
	d.Do(func() {
		for _, f := range d.Faces() {
			st := f.Stats()
			malformed += st.Malformed + st.Unsupported
			faces++
		}
	})
	t.Logf("%d stream connections, %d faces now, %d malformed frames counted on them", streams, faces, malformed)
	if malformed < 1000 {
		t.Errorf("only %d malformed frames counted on the faces still up", malformed)
	}
}
