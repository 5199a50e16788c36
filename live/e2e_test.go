package live

import (
	"bytes"
	"testing"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// TestServeFetchEveryPipeline moves a 20 MB object through a real ndnd
// forwarder over Unix sockets with every pipeline, and checks the bytes.
func TestServeFetchEveryPipeline(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(20<<20, 1)
	for _, pipeline := range cc.Pipelines() {
		t.Run(pipeline, func(t *testing.T) {
			s := serve(t, fw.Unix(), "/ndncc/test/"+pipeline, content, Signing{}, 8000)
			params := map[string]string{}
			if pipeline == "fixed" {
				params["window"] = "64"
			}
			f := fetchObject(t, fw.Unix(), s.name[:len(s.name)-1], options(t, pipeline, params), FetchConfig{Discover: true})
			if f.err != nil {
				t.Fatalf("fetch: %v (stats %+v)", f.err, f.res.Stats)
			}
			if !bytes.Equal(f.data, content) {
				t.Fatalf("fetched %d bytes, differ from the %d served", len(f.data), len(content))
			}
			if !f.res.Name.Equal(s.name) {
				t.Errorf("discovered %s, want %s", f.res.Name, s.name)
			}
			st := f.res.Stats
			t.Logf("%s: %.2f s, %.0f Mbit/s, marks %d, timeouts %d, retx %d, decreases %v, rtt %v/%v/%v",
				pipeline, st.Duration().Seconds(), float64(len(content))*8/st.Duration().Seconds()/1e6,
				st.Marks, st.Timeouts, st.Retransmissions, st.Decreases, st.RTTMin, st.RTTAvg, st.RTTMax)
		})
	}
}

// TestServeFetchOverUDPAndTCP moves an object through loopback UDP faces
// (Data larger than the MTU are fragmented by the producer's face and by
// the forwarder, and reassembled) and over TCP.
func TestServeFetchOverUDPAndTCP(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(2<<20+123, 2)
	for _, tc := range []struct{ name, uri string }{{"udp", fw.UDP()}, {"tcp", fw.TCP()}} {
		t.Run(tc.name, func(t *testing.T) {
			s := serve(t, tc.uri, "/ndncc/"+tc.name, content, Signing{}, 8000)
			f := fetchObject(t, tc.uri, s.name[:len(s.name)-1], options(t, "aimd", nil), FetchConfig{Discover: true})
			if f.err != nil {
				t.Fatalf("fetch: %v (stats %+v, face %+v)", f.err, f.res.Stats, f.res.Face)
			}
			if !bytes.Equal(f.data, content) {
				t.Fatalf("fetched %d bytes, differ from the %d served", len(f.data), len(content))
			}
			face := f.res.Face
			t.Logf("%s: %.2f s, timeouts %d, face %+v", tc.name, f.res.Stats.Duration().Seconds(), f.res.Stats.Timeouts, face)
			if tc.name == "udp" && face.FragmentsIn == 0 {
				t.Error("no fragments received over UDP")
			}
			if tc.name == "udp" && s.faceStats().FragmentsOut == 0 {
				t.Error("the producer sent no fragments over UDP")
			}
		})
	}
}
