package fwd

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"net"
	"testing"
	"time"

	ndnd "github.com/named-data/ndnd/std/ndn"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	"github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/mgmt"
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
// a running forwarder over each face type: UDP (from several source ports:
// several on-demand faces), Unix and TCP stream connections (each ends at
// its first undelimitable frame, as it must, and the next frame opens a
// new one); then it fetches an object through the forwarder: every byte
// arrives, and the forwarder counted the malformed frames.
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
	for i, b := range frames { // every frame over UDP
		udp[i%len(udp)].Write(b)
		if i%200 == 0 {
			time.Sleep(time.Millisecond) // do not just overflow the socket buffer
		}
	}
	streams := 0
	for _, network := range []string{"unix", "tcp"} { // and over each stream face type
		addr := d.cfg.Socket
		if network == "tcp" {
			addr = d.TCPAddr()
		}
		var conn net.Conn
		for _, b := range frames {
			if conn == nil {
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
		if conn != nil {
			conn.Close()
		}
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

// badCommands returns n malformed management requests: real signed
// commands (rib/register, faces/create, strategy-choice/set, cs/config)
// with bytes flipped; unsigned commands with random ControlParameters;
// requests for modules and verbs NFD does not have; dataset requests with
// junk after their name.
func badCommands(t *testing.T, n int, r *rand.Rand) [][]byte {
	t.Helper()
	cfg := nfd.NewConfig(true, signer.NewSha256Signer(), spec.Spec{})
	prefix := ndntest.Name(t, "/robust/cmd")
	signed := func(module, verb string, args *nfd.ControlArgs) []byte {
		var sigNonce [8]byte
		binary.BigEndian.PutUint64(sigNonce[:], r.Uint64())
		in, err := cfg.MakeCmd(module, verb, args, &ndnd.InterestConfig{
			Nonce: optional.Some(r.Uint32()), SigNonce: sigNonce[:],
			SigTime: optional.Some(time.Duration(time.Now().UnixMilli()) * time.Millisecond),
		})
		if err != nil {
			t.Fatal(err)
		}
		return in.Wire.Join()
	}
	valid := [][]byte{
		signed("rib", "register", &nfd.ControlArgs{Name: prefix, Cost: optional.Some(uint64(1))}),
		signed("faces", "create", &nfd.ControlArgs{Uri: optional.Some("udp4://127.0.0.1:9")}),
		signed("strategy-choice", "set", &nfd.ControlArgs{Name: prefix,
			Strategy: &nfd.Strategy{Name: ndntest.Name(t, "/localhost/nfd/strategy/pcon/v=1")}}),
		signed("cs", "config", &nfd.ControlArgs{Capacity: optional.Some(uint64(10))}),
	}
	interest := func(comps ...ndn.Component) []byte {
		name := append(ndntest.Name(t, "/localhost/nfd"), comps...)
		b, err := ndn.EncodeInterest(&ndn.Interest{Name: name, Nonce: r.Uint32(), Lifetime: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	junk := func(k int) []byte {
		b := make([]byte, 1+r.IntN(k))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	out := make([][]byte, 0, n)
	for len(out) < n {
		switch r.IntN(4) {
		case 0: // a real command, damaged
			b := bytes.Clone(valid[r.IntN(len(valid))])
			for range 1 + r.IntN(3) {
				b[4+r.IntN(len(b)-4)] = byte(r.Uint32())
			}
			out = append(out, b)
		case 1: // unsigned, with random ControlParameters
			module := []string{"rib", "faces", "fib", "strategy-choice", "cs"}[r.IntN(5)]
			out = append(out, interest(ndn.Component{Typ: 8, Val: []byte(module)}, ndn.Component{Typ: 8, Val: []byte("create")},
				ndn.Component{Typ: 8, Val: junk(200)}))
		case 2: // no such module or verb
			out = append(out, interest(ndn.Component{Typ: 8, Val: junk(12)}, ndn.Component{Typ: 8, Val: junk(12)}))
		case 3: // a dataset with junk after its name
			out = append(out, interest(ndn.Component{Typ: 8, Val: []byte("faces")}, ndn.Component{Typ: 8, Val: []byte("list")},
				ndn.Component{Typ: 8, Val: junk(30)}))
		}
	}
	return out
}

// TestMalformedManagementKeepsForwarding sends 1,000 malformed management
// requests from a local application to a running forwarder: management
// answers them with NFD's error responses, the forwarder keeps its routes
// and a fetch through it gets every byte.
func TestMalformedManagementKeepsForwarding(t *testing.T) {
	d := startFwConfig(t, "udp = \"\"\ntcp = \"\"\n")
	content := ndntest.RandomBytes(1<<20+5, 13)
	s := serveRegistered(t, d.UnixURI(), "/robust/mgmt", content)
	r := rand.New(rand.NewPCG(3, 4))
	var conn net.Conn
	for _, b := range badCommands(t, 1000, r) {
		if conn == nil {
			var err error
			if conn, err = net.Dial("unix", d.cfg.Socket); err != nil {
				t.Fatal(err)
			}
			go io.Copy(io.Discard, conn) // take the responses
		}
		conn.SetWriteDeadline(time.Now().Add(time.Second))
		if _, err := conn.Write(b); err != nil {
			conn.Close()
			conn = nil
		}
	}
	time.Sleep(200 * time.Millisecond) // let management answer the last ones
	if conn != nil {
		conn.Close()
	}
	got, res, err := fetchOn(t, d.UnixURI(), s.name[:len(s.name)-1], "cubic", nil)
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("fetch after the bad commands: %v (stats %+v)", err, res.Stats)
	}
	var st mgmt.Stats
	d.Do(func() { st = d.mgmt.Stats() })
	t.Logf("management: %d requests, responses %v, %d unanswered", st.Requests, st.Responses, st.Dropped)
	errors := uint64(0)
	for code, k := range st.Responses {
		if code >= 400 {
			errors += k
		}
	}
	if errors < 500 {
		t.Errorf("%d error responses to 1000 bad requests (responses %v)", errors, st.Responses)
	}
}
