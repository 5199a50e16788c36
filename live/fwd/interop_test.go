package fwd

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// ndndControl runs `ndnd fw ARGS...` (ndnd's own management client)
// against the forwarder whose Unix socket is uri.
func ndndControl(t *testing.T, uri string, args ...string) string {
	t.Helper()
	cmd := exec.Command(ndndtest.Binary(t), append([]string{"fw"}, args...)...)
	cmd.Env = append(os.Environ(), "NDN_CLIENT_TRANSPORT="+uri)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ndnd fw %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestInteropWithNdndOverUDP joins `ndncc fw` and ndnd's forwarder by UDP,
// both ways. A consumer behind ndncc fw fetches from a producer behind
// ndnd fw over ndncc fw's configured UDP face, through a route that
// ndnd's own control tool registered on ndncc fw through its NFD
// management; again over a TCP face the tool created there (faces/create).
// Then a consumer behind ndnd fw fetches from a producer behind ndncc fw,
// whose face to ndnd emulates a 20 Mbit/s, 5 ms link with codel-mark: the
// marks ndncc fw sets (on every fragment of a Data, where ndnd reads them)
// cross ndnd's forwarder and reach the consumer.
func TestInteropWithNdndOverUDP(t *testing.T) {
	// ndnd marks nothing itself: every mark the consumer sees is ours.
	n := ndndtest.Start(t, ndndtest.Options{NoCongestionMarking: true})
	f := startFwConfig(t, fmt.Sprintf(`udp = "127.0.0.1:0"
tcp = ""
[[face]]
id = "ndnd"
remote = "udp4://127.0.0.1:%d"
queue = "codel-mark"
link = { out = { bw = 20, delay = "5ms" } }
`, n.UDPPort))
	size := transferSize(4 << 20)

	t.Run("ndncc fw to ndnd fw", func(t *testing.T) {
		content := ndntest.RandomBytes(size, 31)
		s := serveRegistered(t, n.Unix(), "/interop/a", content)
		prefix := s.name[:len(s.name)-1]
		udp := fmt.Sprintf("udp4://127.0.0.1:%d", n.UDPPort)
		out := ndndControl(t, f.UnixURI(), "route-add", "prefix=/interop/a", "face="+udp)
		t.Logf("ndnd fw route-add on ndncc fw (its UDP face exists): %s", strings.TrimSpace(out))
		got, res, err := fetchOn(t, f.UnixURI(), prefix, "cubic", nil)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("fetch through ndncc fw then ndnd fw over UDP: %v (stats %+v)", err, res.Stats)
		}
		t.Logf("over UDP: %.2f s, timeouts %d", res.Stats.Duration().Seconds(), res.Stats.Timeouts)
		var udpID fw.FaceID
		f.Do(func() { udpID, _ = f.StaticFace("ndnd") })
		ndndControl(t, f.UnixURI(), "route-remove", "prefix=/interop/a", fmt.Sprintf("face=%d", udpID))
		tcp := fmt.Sprintf("tcp4://127.0.0.1:%d", n.TCPPort)
		out = ndndControl(t, f.UnixURI(), "route-add", "prefix=/interop/a", "face="+tcp)
		t.Logf("ndnd fw route-add on ndncc fw (a new TCP face): %s", strings.TrimSpace(out))
		got, res, err = fetchOn(t, f.UnixURI(), prefix, "cubic", nil)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("fetch through ndncc fw then ndnd fw over TCP: %v (stats %+v)", err, res.Stats)
		}
		faces := ndndControl(t, f.UnixURI(), "face-list")
		if !strings.Contains(faces, udp) || !strings.Contains(faces, tcp) {
			t.Errorf("ndnd fw face-list on ndncc fw lacks the UDP or the TCP face:\n%s", faces)
		}
		var tcpIn uint64
		f.Do(func() {
			if e := f.byRemote(tcp); e != nil {
				tcpIn = e.f.Stats().InData
			}
		})
		if tcpIn == 0 {
			t.Error("no Data came in over the TCP face management created")
		}
	})

	t.Run("ndnd fw to ndncc fw, marks", func(t *testing.T) {
		content := ndntest.RandomBytes(size, 32)
		s := serveRegistered(t, f.UnixURI(), "/interop/b", content)
		prefix := s.name[:len(s.name)-1]
		ndndControl(t, n.Unix(), "route-add", "prefix=/interop/b", fmt.Sprintf("face=udp://127.0.0.1:%d", f.UDPAddr().Port()))
		got, res, err := fetchOn(t, n.Unix(), prefix, "cubic", nil)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("fetch through ndnd fw then ndncc fw: %v (stats %+v)", err, res.Stats)
		}
		var set uint64
		var status strings.Builder
		f.Do(func() {
			id, _ := f.StaticFace("ndnd")
			set = f.faces[id].out.Stats().Marks
			f.Status(&status)
		})
		st := res.Stats
		t.Logf("%.2f s, %.2f Mbit/s, marks set by ndncc fw %d, received by the consumer %d, timeouts %d\n%s",
			st.Duration().Seconds(), float64(size)*8/st.Duration().Seconds()/1e6, set, st.Marks, st.Timeouts, status.String())
		if set == 0 || st.Marks == 0 || st.Marks > set {
			t.Errorf("ndncc fw set %d marks, the consumer behind ndnd fw received %d: want some, and no more than were set", set, st.Marks)
		}
	})
}
