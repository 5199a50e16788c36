package fwd

import (
	"bytes"
	"fmt"
	"math"
	"net"
	"os"
	"strings"
	"testing"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/internal/realtimetest"
)

// freeUDPPort returns a loopback UDP port that is free now, for
// forwarders whose configurations name each other.
func freeUDPPort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

// TestPCONSplitsByUpstreamRate is PCON live: a forwarder with two UDP
// faces to two upstream forwarders whose faces back emulate 10 and
// 5 Mbit/s (5 ms, codel-mark) splits Interests by the marks each returns.
// With NDNCC_FW_LONG=1 (40 MB, over 20 s) its shares end within 10
// percentage points of 0.67/0.33 and the goodput is at least 85% of
// 15 Mbit/s; CI moves 8 MB, where slow start weighs more, and asks for
// 20 points and 60%.
func TestPCONSplitsByUpstreamRate(t *testing.T) {
	realtimetest.Require(t)
	long := os.Getenv(longEnv) != ""
	size, tolerance, minGoodput := 8<<20, 0.20, 0.6*15
	if long {
		size, tolerance, minGoodput = 40*1000*1000, 0.10, 0.85*15
	}
	rPort := freeUDPPort(t)
	p := startFwConfig(t, "udp = \"127.0.0.1:0\"\ntcp = \"\"\n")
	upstream := func(bw int) *Forwarder {
		return startFwConfig(t, fmt.Sprintf(`udp = "127.0.0.1:0"
tcp = ""
queue = "codel-mark"
[[face]]
id = "p"
remote = "udp4://%s"
[[face]]
id = "r"
remote = "udp4://127.0.0.1:%d"
link = { bw = %d, delay = "5ms", max-queue-size = 100 }
[[route]]
prefix = "/pcon"
face = "p"
`, p.UDPAddr(), rPort, bw))
	}
	u1, u2 := upstream(10), upstream(5)
	r := startFwConfig(t, fmt.Sprintf(`udp = "127.0.0.1:%d"
tcp = ""
[[strategy-choice]]
prefix = "/pcon"
strategy = "pcon"
[[face]]
id = "u1"
remote = "udp4://%s"
[[face]]
id = "u2"
remote = "udp4://%s"
[[route]]
prefix = "/pcon"
face = "u1"
[[route]]
prefix = "/pcon"
face = "u2"
`, rPort, u1.UDPAddr(), u2.UDPAddr()))
	content := ndntest.RandomBytes(size, 5)
	s := serveOn(t, p.UnixURI(), "/pcon", content)
	prefix := s.name[:len(s.name)-1]
	routeToApp(t, p, 1, prefix)
	got, res, err := fetchOn(t, r.UnixURI(), prefix, "aimd", map[string]string{"aimd-mark-beta": "0.85"})
	if err != nil {
		t.Fatalf("fetch: %v (stats %+v)", err, res.Stats)
	}
	if !bytes.Equal(got, content) {
		t.Fatal("fetched bytes differ")
	}
	var shares [2]float64
	var status strings.Builder
	r.Do(func() {
		all := r.Core().ForwardingShares(prefix)
		for i, id := range []string{"u1", "u2"} {
			fid, _ := r.StaticFace(id)
			shares[i] = all[fid]
		}
		r.Status(&status)
	})
	for _, u := range []*Forwarder{u1, u2} {
		u.Do(func() { u.Status(&status) })
	}
	st := res.Stats
	goodput := float64(size) * 8 / st.Duration().Seconds() / 1e6
	t.Logf("%.1f s, %.2f Mbit/s, shares %.3f/%.3f, marks %d, timeouts %d, RTT mean %v\n%s",
		st.Duration().Seconds(), goodput, shares[0], shares[1], st.Marks, st.Timeouts, st.RTTAvg, status.String())
	if math.Abs(shares[0]-2.0/3) > tolerance || math.Abs(shares[1]-1.0/3) > tolerance {
		t.Errorf("shares %.3f/%.3f, want within %.0f points of 0.67/0.33", shares[0], shares[1], tolerance*100)
	}
	if goodput < minGoodput {
		t.Errorf("goodput %.2f Mbit/s, want at least %.2f", goodput, minGoodput)
	}
}
