package face

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/ndn"
)

// The loop's limits these tests go past (package eventloop's maxBatch and
// stallThreshold).
const (
	loopMaxBatch       = 16
	loopStallThreshold = 10 * time.Millisecond
)

// nopBatch is input with nothing in it.
type nopBatch struct{}

func (nopBatch) Handle() {}

// appSocketPair returns an application's face on one end of a Unix stream
// socket pair, on a new loop, and the other end.
func appSocketPair(t *testing.T) (*eventloop.Loop, *Face, net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conns := make([]net.Conn, 2)
	for i, fd := range fds {
		file := os.NewFile(uintptr(fd), "socketpair")
		conns[i], err = net.FileConn(file)
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	loop := eventloop.New()
	f := NewApp(loop, conns[0], Config{Scheme: "unix", Remote: "unix://socketpair"})
	t.Cleanup(func() { f.Close(); conns[1].Close() })
	return loop, f, conns[1]
}

// TestLoopHandlesReadPacketsBeforeDueTimers: Data the reader took from
// the socket while a callback kept the loop busy are handled before a
// timer that became due meanwhile (a timeout must not fire while its Data
// waits in the inbox), more of them than the loop handles in one batch.
func TestLoopHandlesReadPacketsBeforeDueTimers(t *testing.T) {
	loop, f, peer := appSocketPair(t)
	var got []string
	f.OnPacket(func(p ndn.Packet) { got = append(got, p.Data.Name.String()) })
	const n = loopMaxBatch + 4
	var want []string
	loop.After(5*time.Millisecond, func() {
		got = append(got, "timer")
		loop.Stop(nil)
	})
	loop.After(0, func() {
		for i := range n {
			d := ndntest.Data(t, fmt.Sprintf("/order/seg=%d", i), 100)
			want = append(want, d.Name.String())
			if _, err := peer.Write(d.Wire); err != nil {
				t.Error(err)
			}
			for loop.Queued() <= i { // the reader has read it and handed it on
				time.Sleep(100 * time.Microsecond)
			}
		}
		time.Sleep(6 * time.Millisecond) // the timer is due
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := loop.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if want = append(want, "timer"); !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if st := loop.Stats(); st.InputFirst == 0 && st.CatchUps == 0 {
		t.Fatalf("loop stats %+v, want the batches past one drain handled before the timer by runDue (or a catch-up, if the writes took over 10 ms)", st)
	}
}

// TestLoopCatchesUpAfterStall: the loop did not run for 5 stall thresholds (10 ms) (as when
// its process is stopped) while a Data waited in the socket's kernel
// buffer, its reader blocked behind a full inbox: before the overdue timer
// runs, the loop reads that Data in and handles it.
func TestLoopCatchesUpAfterStall(t *testing.T) {
	loop, f, peer := appSocketPair(t)
	var got []string
	f.OnPacket(func(p ndn.Packet) { got = append(got, p.Data.Name.String()) })
	for range eventloop.InboxSize { // nothing to deliver, but the inbox is full
		loop.Deliver(nopBatch{}, 0, nil)
	}
	if _, err := peer.Write(ndntest.Data(t, "/stall/seg=0", 100).Wire); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return f.in.read.Load() > 0 }) // read; its post waits
	time.Sleep(10 * time.Millisecond)
	if _, err := peer.Write(ndntest.Data(t, "/stall/seg=1", 100).Wire); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, func() bool { return f.in.queued() > 0 }) // in the kernel's buffer
	loop.After(0, func() {
		got = append(got, "timer")
		loop.Stop(nil)
	})
	time.Sleep(5 * loopStallThreshold)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := loop.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if want := []string{"/stall/seg=0", "/stall/seg=1", "timer"}; !slices.Equal(got, want) {
		t.Fatalf("ran %v, want %v", got, want)
	}
	if st := loop.Stats(); st.CatchUps != 1 || st.CatchUpTimeouts != 0 {
		t.Fatalf("loop stats %+v, want one catch-up that ended", st)
	}
	if s := loop.Stalls(); s < 5*loopStallThreshold {
		t.Fatalf("stalls %v, want at least the %v the loop did not run", s, 5*loopStallThreshold)
	}
}

// waitUntil polls cond for up to 5 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 5 s")
		}
	}
}
