package fwd

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/internal/realtimetest"
)

// netnsEnv marks the test binary re-run inside a network namespace.
const netnsEnv = "NDNCC_TEST_NETNS"

// inNetns runs test name in a fresh network namespace whose loopback
// interface sends through a Linux token-bucket qdisc of rate: a real
// interface slower than the sockets, so a UDP socket's kernel send queue
// fills (loopback alone never queues). It re-runs the test binary under
// `unshare -n`; the child sets the namespace up with ip and tc. It reports
// whether this process is the child (which then runs the test body);
// in the parent it skips the test when namespaces are not available.
func inNetns(t *testing.T, name, rate string) bool {
	t.Helper()
	if os.Getenv(netnsEnv) != "" {
		for _, args := range [][]string{
			{"ip", "link", "set", "lo", "up"},
			// A queue far larger than the sockets' buffers: the qdisc
			// delays, it never drops.
			{"tc", "qdisc", "add", "dev", "lo", "root", "tbf", "rate", rate, "burst", "64kb", "limit", "64mb"},
		} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				t.Skipf("cannot set the namespace up (%v: %v: %s)", args, err, out)
			}
		}
		return true
	}
	for _, tool := range []string{"unshare", "ip", "tc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: this test needs a network namespace with a rate-limited loopback (iproute2, util-linux)", tool)
		}
	}
	if err := exec.Command("unshare", "-n", "true").Run(); err != nil {
		t.Skipf("cannot create a network namespace (unshare -n: %v); run as root", err)
	}
	cmd := exec.Command("unshare", "-n", "--", os.Args[0], "-test.run", "^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), netnsEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in a network namespace:\n%s", out)
	if bytes.Contains(out, []byte("--- SKIP: "+name)) {
		t.Skip("skipped in its network namespace (see the log)")
	}
	if err != nil || !bytes.Contains(out, []byte("--- PASS: "+name)) {
		t.Fatalf("the test failed in its network namespace: %v", err)
	}
	return false
}

// cwndTrace records a pipeline's window changes.
type cwndTrace struct {
	mu  sync.Mutex
	pts [][2]float64 // cwnd, ssthresh
}

func (c *cwndTrace) Cwnd(_ time.Duration, cwnd, ssthresh float64) {
	c.mu.Lock()
	c.pts = append(c.pts, [2]float64{cwnd, ssthresh})
	c.mu.Unlock()
}
func (c *cwndTrace) RTT(time.Duration, uint64, time.Duration, time.Duration, time.Duration, time.Duration) {
}
func (c *cwndTrace) Rate(time.Duration, uint64) {}

// TestSeed002BacklogMarkingOverUDP is seed 002's detection on a real UDP
// socket: two forwarders joined by UDP in a network namespace whose
// loopback runs at 20 Mbit/s (a kernel qdisc; no emulation in ndncc). The
// producer-side forwarder's UDP socket fills with Data faster than the
// interface sends; its face's threshold-mark queue, counting that socket's
// kernel send queue as NFD does, marks once the backlog passes the
// threshold; the consumer (aimd) halves its window at the marks, at most
// once per RTT. Two schemes: released NFD's (64 KiB, marks spaced
// 100 ms/sqrt(k) apart) and the hackathon's that seed 002 measured (every
// packet sent while the socket holds more than 50,000 bytes), under which
// a consumer receives several marks for each halving.
func TestSeed002BacklogMarkingOverUDP(t *testing.T) {
	realtimetest.Require(t)
	if !inNetns(t, "TestSeed002BacklogMarkingOverUDP", "20mbit") {
		return
	}
	// marks under NFD's scheme, which runs first: the hackathon's must give
	// more on the same machine at the same moment.
	var spacedMarks uint64
	for _, tc := range []struct {
		name      string
		params    string // the producer side's queue-params
		threshold int
		every     bool
	}{
		{"NFD's spaced marks", "{}", 64 << 10, false},
		{"the hackathon's: every packet", `{ threshold-bytes = 50000, marking = "every" }`, 50000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := startFwConfig(t, "udp = \"127.0.0.1:6363\"\ntcp = \"\"\nqueue-params = "+tc.params+"\n")
			a := startFwConfig(t, `udp = "127.0.0.1:6364"
tcp = ""
[[face]]
id = "b"
remote = "udp4://127.0.0.1:6363"
[[route]]
prefix = "/seed002"
face = "b"
`)
			content := ndntest.RandomBytes(8<<20, 2)
			s := serveOn(t, b.UnixURI(), "/seed002", content)
			routeToApp(t, b, 1, s.name[:len(s.name)-1])
			trace := &cwndTrace{}
			got, res, err := fetchTraced(t, a.UnixURI(), s.name[:len(s.name)-1], "aimd", nil, trace)
			if err != nil {
				t.Fatalf("fetch: %v (stats %+v)", err, res.Stats)
			}
			if !bytes.Equal(got, content) {
				t.Fatal("fetched bytes differ")
			}
			var status strings.Builder
			b.Do(func() { b.Status(&status) })
			t.Logf("producer side:\n%s", status.String())
			var marks uint64
			var backlog int
			b.Do(func() {
				for _, f := range b.Faces() {
					if f.Datagram() {
						st := f.Stats()
						marks, backlog = st.Queue.Marks, st.MaxSocketBacklog
					}
				}
			})
			st := res.Stats
			goodput := float64(len(content)) * 8 / st.Duration().Seconds() / 1e6
			t.Logf("fetch: %.1f s, %.1f Mbit/s, marks %d, decreases %v, timeouts %d; UDP face: %d marks, socket backlog up to %d bytes",
				st.Duration().Seconds(), goodput, st.Marks, st.Decreases, st.Timeouts, marks, backlog)
			if marks == 0 || backlog <= tc.threshold {
				t.Fatalf("UDP face set %d marks with a socket backlog of at most %d bytes; want marks above %d bytes", marks, backlog, tc.threshold)
			}
			if st.Marks == 0 || st.Decreases[cc.CauseMark] == 0 {
				t.Errorf("consumer: %d marks, %d decreases for marks; want marks acted on", st.Marks, st.Decreases[cc.CauseMark])
			}
			// Every-packet marking gave 3.6 marks per decrease on a quiet
			// machine (151 for 42) and 1.3-1.7 under load (83 for 59, 93 for
			// 54, 79 for 55). NFD's spaced marks, decided as NFD decides
			// them, when a packet is handed to the face, are few: aimd's
			// window arrives as one burst per RTT, the backlog often drains
			// between bursts, and a burst's first packet then ends the
			// congestion period (9 for 5 decreases, 1.8 each; NFD 24.07
			// itself gives 8 for 8 on this path). So the hackathon's scheme
			// must give more marks than NFD's, and more than one per
			// decrease; a ratio of NFD's few marks would be noise.
			perDecrease := float64(st.Marks) / float64(max(st.Decreases[cc.CauseMark], 1))
			if !tc.every {
				spacedMarks = st.Marks
			} else if st.Marks <= spacedMarks || perDecrease <= 1 {
				t.Errorf("consumer: %d marks for %d decreases (%.2f each), NFD's spaced scheme %d marks; with every packet marked above the threshold, want more marks than that and more than one per decrease",
					st.Marks, st.Decreases[cc.CauseMark], perDecrease, spacedMarks)
			}
			if err := halvings(trace.pts); err != nil {
				t.Error(err)
			}
		})
	}
}

// halvings checks that every window decrease in a trace halves it (aimd's
// beta 0.5; ssthresh floors at 2).
func halvings(pts [][2]float64) error {
	n := 0
	for i := 1; i < len(pts); i++ {
		prev, cur := pts[i-1][0], pts[i][0]
		if cur >= prev {
			continue
		}
		n++
		if want := math.Max(prev*0.5, 2); math.Abs(cur-want) > 1e-9 {
			return fmt.Errorf("window went from %.3f to %.3f, want %.3f", prev, cur, want)
		}
	}
	if n == 0 {
		return fmt.Errorf("the window never decreased in %d changes", len(pts))
	}
	return nil
}
