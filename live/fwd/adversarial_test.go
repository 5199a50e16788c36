package fwd

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/ndn"
)

// The adversarial tests attack a running `ndncc fw` from non-local
// addresses (UDP and TCP peers, which are never local, loopback or not)
// and check what docs/security.md promises. Each runs in seconds.

// rawPeer is a UDP socket that plays a remote NDN node: it sends frames
// to the forwarder and records what the forwarder sends it.
type rawPeer struct {
	t    testing.TB
	conn *net.UDPConn
	mu   sync.Mutex
	got  []ndn.Packet
	n    int // frames received
}

// newRawPeer opens a peer on a loopback port of its own that reads until
// the test ends and records what it receives.
func newRawPeer(t testing.TB) *rawPeer { return openRawPeer(t, true) }

// newCountingPeer is newRawPeer keeping only the count of frames: in a
// flood, what the attacker gets back stays out of the process's memory.
func newCountingPeer(t testing.TB) *rawPeer { return openRawPeer(t, false) }

func openRawPeer(t testing.TB, keep bool) *rawPeer {
	t.Helper()
	c, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	p := &rawPeer{t: t, conn: c}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 1<<16)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			p.mu.Lock()
			p.n++
			p.mu.Unlock()
			if !keep {
				continue
			}
			if pkt, err := ndn.DecodeFrame(bytes.Clone(buf[:n])); err == nil {
				p.mu.Lock()
				p.got = append(p.got, pkt)
				p.mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { c.Close(); <-done })
	return p
}

// addr returns the peer's address.
func (p *rawPeer) addr() netip.AddrPort { return p.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// send encodes pkt and sends it to the forwarder at to.
func (p *rawPeer) send(to netip.AddrPort, pkt ndn.Packet) {
	p.t.Helper()
	b, err := ndn.EncodeFrame(&pkt)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.conn.WriteToUDPAddrPort(b, to); err != nil {
		p.t.Fatal(err)
	}
}

// interests returns the names of the Interests (not Nacks) received.
func (p *rawPeer) interests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, pkt := range p.got {
		if pkt.Interest != nil && pkt.Nack == ndn.NackNone {
			out = append(out, pkt.Interest.Name.String())
		}
	}
	return out
}

// counters reads the forwarder's counters on its loop.
func counters(d *Forwarder) fw.Counters {
	var c fw.Counters
	d.Do(func() { c = d.Core().Counters() })
	return c
}

// waitCounter waits up to 5 s for cond on the forwarder's counters.
func waitCounter(t testing.TB, d *Forwarder, what string, cond func(fw.Counters) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond(counters(d)) {
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s, not yet %s: %+v", what, counters(d))
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func mustName(t testing.TB, s string) ndn.Name {
	t.Helper()
	n, err := ndn.ParseName(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAdversarialScopeRemoteFetch: an object served under /localhost by a
// local application is fetched over the Unix socket, never over UDP or
// TCP, from loopback or not.
func TestAdversarialScopeRemoteFetch(t *testing.T) {
	d := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"127.0.0.1:0\"\n")
	s := serveRegistered(t, d.UnixURI(), "/localhost/secret", []byte("the secret"))
	seg0 := s.name.Append(enc.NewSegmentComponent(0))
	if data, err := expressOn(t, d.UnixURI(), seg0); err != nil || data == nil {
		t.Fatalf("over the Unix socket: %v (the local application must get it)", err)
	}
	for _, uri := range []string{"udp://" + d.UDPAddr().String(), "tcp://" + d.TCPAddr()} {
		t.Run(strings.SplitN(uri, ":", 2)[0], func(t *testing.T) {
			before := counters(d).ScopeInterestDrops
			data, err := expressOn(t, uri, seg0)
			if data != nil {
				t.Fatalf("%s got the Data of %s", uri, seg0)
			}
			if err == nil {
				t.Fatal("no Data and no error")
			}
			if c := counters(d); c.ScopeInterestDrops <= before {
				t.Errorf("ScopeInterestDrops %d, want more than %d", c.ScopeInterestDrops, before)
			}
		})
	}
}

// TestAdversarialScopeToPeer: with a route for / to a peer, the peer
// receives no /localhost Interest from a local application and no
// /localhost or /localhop Interest from another remote; the controls (a
// local application's /localhop, a remote's ordinary Interest) do reach
// it, so the route works.
func TestAdversarialScopeToPeer(t *testing.T) {
	peer := newRawPeer(t)
	d := startFwConfig(t, fmt.Sprintf("udp = \"127.0.0.1:0\"\ntcp = \"\"\n[[face]]\nid = \"peer\"\nremote = \"udp4://%s\"\n[[route]]\nprefix = \"/\"\nface = \"peer\"\n", peer.addr()))
	waitFaces(t, d, 1)
	remote := newRawPeer(t)
	app, err := live.Connect(context.Background(), d.UnixURI(), live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go app.Loop.Run(ctx)
	express := func(name string) {
		app.Loop.Post(func() {
			app.Endpoint.Express(live.Request{Name: mustName(t, name), Lifetime: time.Second}, func(*ndn.Data, error) {})
		})
	}
	express("/localhost/private/key2")
	express("/localhop/from-app")
	for i, n := range []string{"/localhost/from-remote", "/localhop/from-remote", "/ok/from-remote"} {
		remote.send(d.UDPAddr(), ndn.Packet{Interest: &ndn.Interest{Name: mustName(t, n), Nonce: uint32(100 + i), Lifetime: time.Second}})
	}
	deadline := time.Now().Add(5 * time.Second)
	for len(peer.interests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // anything that would follow
	got := peer.interests()
	want := map[string]bool{"/localhop/from-app": true, "/ok/from-remote": true}
	for _, n := range got {
		if !want[n] {
			t.Errorf("the peer received %s", n)
		}
		delete(want, n)
	}
	if len(want) > 0 {
		t.Errorf("the peer did not receive the controls %v (got %v)", want, got)
	}
	if c := counters(d); c.ScopeInterestDrops < 1 || c.ScopeDeniedNexthops < 2 {
		t.Errorf("counters: %d /localhost Interests dropped (want 1), %d nexthops denied (want 2 or more)", c.ScopeInterestDrops, c.ScopeDeniedNexthops)
	}
}

// TestAdversarialScopeData: a remote's Data for /localhost/... never
// reaches the local application that asked for that name, even while the
// application's Interest is pending.
func TestAdversarialScopeData(t *testing.T) {
	d := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\n")
	// a silent local producer keeps the Interest pending
	silent, err := live.Connect(context.Background(), d.UnixURI(), live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	key := mustName(t, "/localhost/private/key2")
	routeToApp(t, d, 1, key)
	remote := newRawPeer(t)
	type result struct {
		data *ndn.Data
		err  error
	}
	res := make(chan result, 1)
	go func() {
		data, err := expressOn(t, d.UnixURI(), key)
		res <- result{data, err}
	}()
	waitCounter(t, d, "the application's Interest pending", func(c fw.Counters) bool { return c.PITSize == 1 })
	for range 5 {
		remote.send(d.UDPAddr(), ndn.Packet{Data: &ndn.Data{Name: key, Content: []byte("forged key")}})
		time.Sleep(10 * time.Millisecond)
	}
	waitCounter(t, d, "the remote's Data dropped", func(c fw.Counters) bool { return c.ScopeDataDrops >= 5 })
	r := <-res
	if r.data != nil {
		t.Fatalf("the local application got the remote's Data %s (%q)", r.data.Name, r.data.Content)
	}
	if r.err == nil {
		t.Fatal("no Data and no error")
	}
}

// TestAdversarialLifetimeFlood: 100,000 Interests of lifetime 2^40 ms
// from one remote UDP face, for a prefix whose upstream never answers,
// while a local application fetches 1 MB through the same forwarder. The
// PIT stays within the face's fair share (the Interests beyond it get
// Nack Congestion), the process's RSS under 100 MB, and the fetch
// arrives byte-identical.
func TestAdversarialLifetimeFlood(t *testing.T) {
	sink := newCountingPeer(t)
	d := startFwConfig(t, fmt.Sprintf("udp = \"127.0.0.1:0\"\ntcp = \"\"\n[[face]]\nid = \"sink\"\nremote = \"udp4://%s\"\n[[route]]\nprefix = \"/flood\"\nface = \"sink\"\n", sink.addr()))
	waitFaces(t, d, 1)
	content := ndntest.RandomBytes(1<<20, 5)
	s := serveOn(t, d.UnixURI(), "/legit/object", content)
	routeToApp(t, d, 2, s.name[:len(s.name)-1])
	attacker := newCountingPeer(t)

	const floods, floodAhead = 100_000, 2_000
	huge := time.Duration(1<<40) * time.Millisecond
	type fetched struct {
		got []byte
		err error
	}
	fetchDone := make(chan fetched, 1)
	go func() {
		got, _, err := fetchOn(t, d.UnixURI(), s.name[:len(s.name)-1], "aimd", nil)
		fetchDone <- fetched{got, err}
	}()
	var maxPIT, maxRSS int
	start := time.Now()
	for i := range floods {
		it := &ndn.Interest{Name: mustName(t, "/flood/"+strconv.Itoa(i)), Nonce: uint32(i), Lifetime: huge}
		attacker.send(d.UDPAddr(), ndn.Packet{Interest: it})
		if i%500 == 499 {
			// Stay at most floodAhead Interests ahead of the forwarder,
			// well within its socket's buffer: a fixed pace overflowed it
			// on a loaded machine, and the flood is about the PIT, not
			// about the kernel's buffer.
			for wait := time.Now(); counters(d).InInterests+floodAhead < uint64(i+1) && time.Since(wait) < 5*time.Second; {
				time.Sleep(time.Millisecond)
			}
		}
		if i%10_000 == 9_999 {
			maxPIT = max(maxPIT, counters(d).PITSize)
			maxRSS = max(maxRSS, rssBytes(t))
		}
	}
	sent := time.Since(start)
	f := <-fetchDone
	if f.err != nil {
		t.Fatalf("the legitimate fetch failed during the flood: %v", f.err)
	}
	if !bytes.Equal(f.got, content) {
		t.Fatalf("the legitimate fetch got %d bytes, not the %d served", len(f.got), len(content))
	}
	time.Sleep(200 * time.Millisecond) // the last Interests reach the loop
	c := counters(d)
	maxPIT, maxRSS = max(maxPIT, c.PITSize), max(maxRSS, rssBytes(t))
	t.Logf("%d Interests sent in %v; forwarder: %d in, PIT now %d (max seen %d), %d refused with Nack Congestion; RSS max %.1f MB",
		floods, sent.Round(time.Millisecond), c.InInterests, c.PITSize, maxPIT, c.PITLimitNacks, float64(maxRSS)/1e6)
	if c.InInterests < floods*95/100 {
		t.Errorf("the forwarder received %d Interests of the %d sent: the flood did not arrive", c.InInterests, floods)
	}
	if limit := fwconf.DefaultPITFaceLimit + 64; maxPIT > limit {
		t.Errorf("PIT reached %d entries, want at most the face's share plus the fetch's (%d)", maxPIT, limit)
	}
	if c.InInterests > fwconf.DefaultPITFaceLimit+1000 && c.PITLimitNacks == 0 {
		t.Error("no Interest was refused")
	}
	if maxRSS >= 100e6 && !raceDetector {
		t.Errorf("RSS reached %.1f MB, want under 100 MB", float64(maxRSS)/1e6)
	}
}

// rssBytes returns the process's resident set size (VmRSS).
func rssBytes(t testing.TB) int {
	t.Helper()
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			if err != nil {
				t.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// TestAdversarialLongNames: Interests whose names have 4,300 empty
// components (the most an 8800-byte packet holds) from a remote are
// dropped on arrival, counted, and cost the forwarder so little that an
// ordinary request right after them is answered at once.
func TestAdversarialLongNames(t *testing.T) {
	d := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\n")
	s := serveOn(t, d.UnixURI(), "/after/long", []byte("still here"))
	routeToApp(t, d, 1, s.name[:len(s.name)-1])
	remote := newRawPeer(t)
	long := make(ndn.Name, 4300)
	for i := range long {
		long[i] = enc.NewGenericBytesComponent(nil)
	}
	const n = 1000
	for i := range n {
		remote.send(d.UDPAddr(), ndn.Packet{Interest: &ndn.Interest{Name: long, Nonce: uint32(i)}})
		if i%100 == 99 {
			time.Sleep(time.Millisecond)
		}
	}
	waitCounter(t, d, "the long names dropped", func(c fw.Counters) bool { return c.NameTooLongDrops > n/2 })
	start := time.Now()
	if data, err := expressOn(t, "udp://"+d.UDPAddr().String(), s.name.Append(enc.NewSegmentComponent(0))); err != nil || data == nil {
		t.Fatalf("an ordinary Interest after the long names: %v", err)
	}
	c := counters(d)
	t.Logf("%d of %d long names dropped; the next Interest answered in %v", c.NameTooLongDrops, n, time.Since(start).Round(time.Millisecond))
	if c.PITSize != 0 {
		t.Errorf("PIT holds %d entries", c.PITSize)
	}
}

// TestLimitDefaultsAgree: `ndncc fw`'s configuration defaults are package
// fw's (docs/forwarder.md and docs/security.md state them once).
func TestLimitDefaultsAgree(t *testing.T) {
	for _, c := range []struct {
		key       string
		cfg, core int64
	}{
		{"max-interest-lifetime", int64(fwconf.DefaultMaxInterestLifetime), int64(fw.DefaultMaxInterestLifetime)},
		{"pit-capacity", fwconf.DefaultPITCapacity, fw.DefaultPITCapacity},
		{"pit-face-limit", fwconf.DefaultPITFaceLimit, fw.DefaultPITFaceLimit},
		{"max-name-components", fwconf.DefaultMaxNameComponents, fw.DefaultMaxNameComponents},
		{"dead-nonce-capacity", fwconf.DefaultDeadNonceCapacity, fw.DefaultDeadNonceCapacity},
	} {
		if c.cfg != c.core {
			t.Errorf("%s: the configuration's default %d, the forwarder's %d", c.key, c.cfg, c.core)
		}
	}
}

// TestAdversarialFaceTable: a remote sending from many UDP addresses (here
// ports) makes no more than max-faces faces; the rest are closed at once
// and counted.
func TestAdversarialFaceTable(t *testing.T) {
	d := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\nmax-faces = 3\n")
	for i := range 8 {
		p := newCountingPeer(t)
		p.send(d.UDPAddr(), ndn.Packet{Interest: &ndn.Interest{Name: mustName(t, "/many/addresses"), Nonce: uint32(i)}})
	}
	deadline := time.Now().Add(5 * time.Second)
	var faces int
	var refused uint64
	for {
		d.Do(func() { faces, refused = len(d.faces), d.refusedFaces })
		if faces+int(refused) >= 8 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if faces != 3 || refused != 5 {
		t.Errorf("%d faces, %d refused; want 3 and 5", faces, refused)
	}
}
