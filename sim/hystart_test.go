package sim

import (
	"fmt"
	"testing"

	"github.com/ndncc/ndncc/scenario"
)

// TestHyStartKeepsAnUnmarkedQueueShort fetches 20 MB with the default
// CUBIC and AIMD (initial ssthresh inf) through a bottleneck whose queue never
// drops or marks (100,000 packets: ndnd's unbounded channel, or NFD's
// socket queue, which nothing marks toward the producer). Without HyStart
// slow start fills the queue until RTOs fire; with it slow start ends when
// the RTT grows, before any timeout.
func TestHyStartKeepsAnUnmarkedQueueShort(t *testing.T) {
	for _, tt := range []struct {
		pipeline  string
		hystart   bool
		wantClean bool
	}{{"cubic", true, true}, {"cubic", false, false}, {"aimd", true, true}, {"aimd", false, false}} {
		src := fmt.Sprintf(`[topology]
nodes = ["c", "r", "p"]
links = [ { a = "c", b = "r", delay = "100us", bw = 10000, max-queue-size = 100000 },
          { a = "r", b = "p", delay = "100us", bw = 1000, max-queue-size = 100000 } ]

[[producer]]
node = "p"
prefix = "/x"
file-size = 20000000
segment-size = 8000

[[consumer]]
node = "c"
prefix = "/x"
pipeline = %q
params = { hystart = %v }
`, tt.pipeline, tt.hystart)
		sc, err := scenario.Parse([]byte(src), "hystart.toml")
		if err != nil {
			t.Fatal(err)
		}
		n, err := Build(sc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		f := n.Run().Flows[0]
		t.Logf("%s, hystart %v: %d timeouts, %d retransmissions of %d segments, %.0f Mbit/s, RTT max %.1f ms", tt.pipeline, tt.hystart, f.Timeouts, f.Retransmissions, f.Segments, f.GoodputKbps/1000, f.RTTMaxMs)
		if !f.Complete {
			t.Fatalf("%s, hystart %v: the transfer did not complete", tt.pipeline, tt.hystart)
		}
		clean := f.Timeouts == 0 && f.Retransmissions*100 < f.Segments
		if clean != tt.wantClean {
			t.Errorf("%s, hystart %v: %d timeouts, %d retransmissions of %d segments; want clean (no timeout, < 1%%) %v",
				tt.pipeline, tt.hystart, f.Timeouts, f.Retransmissions, f.Segments, tt.wantClean)
		}
	}
}
