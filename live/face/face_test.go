package face_test

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// host is a face.Host on an eventloop.Loop that records what reaches it.
type host struct {
	loop     *eventloop.Loop
	mu       sync.Mutex
	accepted []*face.Face
	got      map[*face.Face][]ndn.Packet
	failed   map[*face.Face]error
}

func newHost(t *testing.T) *host {
	h := &host{loop: eventloop.New(), got: map[*face.Face][]ndn.Packet{}, failed: map[*face.Face]error{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.loop.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return h
}

func (h *host) Now() time.Duration { return h.loop.Now() }
func (h *host) Accepted(f *face.Face) {
	h.mu.Lock()
	h.accepted = append(h.accepted, f)
	h.mu.Unlock()
}
func (h *host) Deliver(f *face.Face, frames []link.Frame) {
	h.mu.Lock()
	for _, fr := range frames {
		h.got[f] = append(h.got[f], fr.Pkt)
	}
	h.mu.Unlock()
}
func (h *host) Failed(f *face.Face, err error) {
	h.mu.Lock()
	h.failed[f] = err
	h.mu.Unlock()
}
func (h *host) Dirty(f *face.Face) { h.loop.MarkDirty(f) }
func (h *host) Wake(f *face.Face)  { h.loop.Post(f.Flush) }

// do runs fn on the loop and waits for it.
func (h *host) do(fn func()) {
	done := make(chan struct{})
	h.loop.Post(func() { fn(); close(done) })
	<-done
}

// received returns what f delivered so far.
func (h *host) received(f *face.Face) []ndn.Packet {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]ndn.Packet(nil), h.got[f]...)
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func dataPacket(t *testing.T, name string, size int) ndn.Packet {
	t.Helper()
	n, err := enc.NameFromStr(name)
	if err != nil {
		t.Fatal(err)
	}
	d := &ndn.Data{Name: n, Content: bytes.Repeat([]byte{0xab}, size)}
	if _, err := ndn.EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	return ndn.Packet{Data: d}
}

// TestStreamFaceRoundTrip sends packets both ways over a Unix socket pair:
// what one face sends, in order and marked as sent, the other delivers.
func TestStreamFaceRoundTrip(t *testing.T) {
	h := newHost(t)
	a, b := socketPair(t)
	fa := face.NewStream(h, a, face.Config{Scheme: "unix", Remote: "fd://a"})
	fb := face.NewStream(h, b, face.Config{Scheme: "unix", Remote: "fd://b"})
	fa.Start()
	fb.Start()
	const n = 500
	h.do(func() {
		for i := range n {
			p := dataPacket(t, "/rt/"+itoa(i), 1000)
			p.CongestionMark = uint64(i % 2)
			fa.Send(p)
		}
	})
	waitFor(t, "all packets", func() bool { return len(h.received(fb)) == n })
	for i, p := range h.received(fb) {
		if p.Data == nil || p.CongestionMark != uint64(i%2) || p.Data.Name[len(p.Data.Name)-1].String() != itoa(i) {
			t.Fatalf("packet %d: %+v", i, p)
		}
	}
	var st face.Counters
	h.do(func() { st = fa.Stats() })
	if st.OutData != n || st.FramesOut != n || st.Queue.Enqueued != n {
		t.Errorf("sender counters %+v", st)
	}
	if got := fb.Stats().InData; got != n {
		t.Errorf("receiver counted %d Data, want %d", got, n)
	}
	h.do(func() { fa.Close(); fb.Close() })
}

// TestSlowPeerNeverStallsTheLoop fills a face whose peer does not read:
// Send keeps returning at once, the face's queue fills and drops at its
// limit, and the loop stays free (a timer on it still runs on time).
func TestSlowPeerNeverStallsTheLoop(t *testing.T) {
	h := newHost(t)
	a, b := socketPair(t)
	defer b.Close()
	f := face.NewStream(h, a, face.Config{Scheme: "unix", Remote: "fd://slow"})
	q, err := aqm.NewDropTail(aqm.Limits{Packets: 50})
	if err != nil {
		t.Fatal(err)
	}
	h.do(func() { f.SetQueue(q) })
	f.Start()
	const n = 2000 // 16 MB: far beyond the socket buffers
	start := time.Now()
	for range n / 100 {
		h.do(func() {
			for range 100 {
				f.Send(dataPacket(t, "/slow/x", 8000))
			}
		})
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("sending took %v: the loop waited for the socket", el)
	}
	fired := make(chan time.Duration, 1)
	h.do(func() {
		at := h.loop.Now()
		h.loop.After(10*time.Millisecond, func() { fired <- h.loop.Now() - at })
	})
	select {
	case late := <-fired:
		if late > time.Second {
			t.Errorf("a 10 ms timer fired after %v", late)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the loop is stalled")
	}
	var st face.Counters
	h.do(func() { st = f.Stats() })
	if st.Queue.TailDrops == 0 || st.QueueLen > 50 {
		t.Errorf("counters %+v: want tail drops and at most 50 queued", st)
	}
	t.Logf("sent %d, dropped %d, queued %d", st.OutData, st.Queue.TailDrops, st.QueueLen)
	h.do(func() { f.Close() })
}

// TestBacklogMarkingCountsTheSocket checks NFD's rule on a stream face:
// the face's marker decides as Send hands it a packet (NFD's point of
// decision), from the backlog ahead of it; packets leave the face's
// queue at once, 16 KB at a time, so that the queue and the writer never
// hold 64 KiB; with the peer not reading, the
// kernel's send queue grows past the threshold and, as it stays there for
// NFD's 100 ms interval, the face marks (the 10 rounds span 250 ms). With
// the peer reading, the same sending sets no mark.
func TestBacklogMarkingCountsTheSocket(t *testing.T) {
	for _, tc := range []struct {
		name      string
		reading   bool
		wantMarks bool
	}{{"peer not reading", false, true}, {"peer reading", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHost(t)
			a, b := socketPair(t)
			f := face.NewStream(h, a, face.Config{Scheme: "unix", Remote: "fd://backlog"})
			q, err := aqm.NewBacklogMarker(aqm.DefaultBacklogParams(), aqm.Limits{Packets: 1000})
			if err != nil {
				t.Fatal(err)
			}
			h.do(func() { f.SetQueue(q) })
			if !q.ChecksAtEnqueue() {
				t.Fatal("the face's marker decides at dequeue; NFD decides as the packet is handed over")
			}
			f.Start()
			fb := face.NewStream(h, b, face.Config{Scheme: "unix", Remote: "fd://reader"})
			if tc.reading {
				fb.Start()
			}
			const rounds = 10
			for range rounds {
				h.do(func() {
					f.Send(dataPacket(t, "/backlog/x", 8000))
					f.Send(dataPacket(t, "/backlog/x", 8000))
				})
				time.Sleep(25 * time.Millisecond)
			}
			var st face.Counters
			h.do(func() { st = f.Stats() })
			if (st.Queue.Marks > 0) != tc.wantMarks {
				t.Fatalf("%d marks, want marks: %v (%+v)", st.Queue.Marks, tc.wantMarks, st)
			}
			if st.Queue.MaxBytes > 2*8100 {
				t.Errorf("the face's queue held %d bytes: the writer fell behind, the test proves nothing", st.Queue.MaxBytes)
			}
			fb.Start() // the peer reads everything now: the marks arrive
			waitFor(t, "every packet", func() bool { return len(h.received(fb)) == 2*rounds })
			marked := 0
			for _, p := range h.received(fb) {
				if p.CongestionMark > 0 {
					marked++
				}
			}
			h.do(func() { st = f.Stats() })
			if uint64(marked) != st.Queue.Marks {
				t.Errorf("%d packets arrived marked, the queue set %d marks", marked, st.Queue.Marks)
			}
			h.do(func() { f.Close(); fb.Close() })
		})
	}
}

// TestUDPListenerDemultiplexes runs two UDP listeners: a face created on
// one for the other's address sends fragmented Data; the other makes an
// on-demand face for the sender and delivers the reassembled packets, and
// its answer goes back through the first face.
func TestUDPListenerDemultiplexes(t *testing.T) {
	h := newHost(t)
	l1, err := face.ListenUDP(h, "udp4", "127.0.0.1:0", 1000, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l1.Close()
	l2, err := face.ListenUDP(h, "udp4", "127.0.0.1:0", 1000, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	go l1.Serve()
	go l2.Serve()
	f1, created := l1.Face(l2.Addr(), face.Permanent)
	if !created {
		t.Fatal("no face created")
	}
	if again, created := l1.Face(l2.Addr(), face.Persistent); again != f1 || created {
		t.Error("a second Face call for the same peer made another face")
	}
	f1.Start()
	h.do(func() {
		f1.Send(dataPacket(t, "/udp/big", 5000))
		f1.Send(dataPacket(t, "/udp/small", 100))
	})
	var f2 *face.Face
	waitFor(t, "an on-demand face", func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		if len(h.accepted) == 1 {
			f2 = h.accepted[0]
		}
		return f2 != nil
	})
	waitFor(t, "two packets", func() bool { return len(h.received(f2)) == 2 })
	if got := h.received(f2); len(got[0].Data.Content) != 5000 || len(got[1].Data.Content) != 100 {
		t.Errorf("received %d and %d bytes of content", len(got[0].Data.Content), len(got[1].Data.Content))
	}
	c := f2.Config()
	if c.Persistency != face.OnDemand || c.Remote != "udp4://"+netip.AddrPortFrom(netip.MustParseAddr("127.0.0.1"), l1.Addr().Port()).String() || c.Scope != face.NonLocal { // UDP is never local, loopback or not
		t.Errorf("on-demand face config %+v", c)
	}
	if f2.Stats().FragmentsIn < 6 {
		t.Errorf("%d fragments in, want at least 6 for 5000 bytes at MTU 1000", f2.Stats().FragmentsIn)
	}
	h.do(func() { f2.Send(dataPacket(t, "/udp/back", 10)) })
	waitFor(t, "the answer", func() bool { return len(h.received(f1)) == 1 })
	h.do(func() { f1.Close(); f2.Close() })
}

// socketPair returns the two ends of a connected Unix stream socket.
func socketPair(t *testing.T) (net.Conn, net.Conn) {
	t.Helper()
	dir := t.TempDir()
	ln, err := net.Listen("unix", dir+"/s")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	type res struct {
		c   net.Conn
		err error
	}
	ch := make(chan res, 1)
	go func() { c, err := ln.Accept(); ch <- res{c, err} }()
	a, err := net.Dial("unix", dir+"/s")
	if err != nil {
		t.Fatal(err)
	}
	r := <-ch
	if r.err != nil {
		t.Fatal(r.err)
	}
	return a, r.c
}

func itoa(i int) string { return strconv.Itoa(i) }
