package live

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/ndn"
)

// putObject has `ndnd put` (another process) publish size random bytes
// under prefix through fw until the test ends.
func putObject(t testing.TB, fw *ndndtest.Forwarder, prefix string, size int) {
	t.Helper()
	content := make([]byte, size)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range content {
		content[i] = byte(r.Uint32())
	}
	put := exec.Command(ndndtest.Binary(t), "put", prefix)
	put.Env = fw.Env()
	put.Stdin = bytes.NewReader(content)
	var log lockedBuffer
	put.Stdout, put.Stderr = &log, &log
	if err := put.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { put.Process.Kill(); put.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), "Registered route") {
		if time.Now().After(deadline) {
			t.Fatalf("ndnd put did not register: %s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fetchOnce fetches the object under name through the forwarder at uri
// into io.Discard and returns the Data received.
func fetchOnce(t testing.TB, uri string, name ndn.Name, pipeline string, params map[string]string) uint64 {
	t.Helper()
	loop, e := connect(t, uri)
	res, err := Fetch(context.Background(), loop, e, FetchConfig{
		Name: name, Options: options(t, pipeline, params), Discover: true, Output: io.Discard,
	})
	if err != nil {
		t.Fatalf("fetch: %v", err)
	}
	e.Face().Close()
	return res.Stats.DataReceived
}

// BenchmarkFetchPerData measures the live fetch's cost per Data: `ndnd
// put`, in another process, publishes 16 MB through `ndnd fw`, and each
// iteration fetches the object (discovery, then every segment: read,
// decode, digest check, pipeline, ordered write, the next Interest's
// encoding and write). Every allocation counted is the fetch's: the
// producer and the forwarder are other processes. allocs/Data, B/Data
// and ns/Data are the per-Data figures, a fetch's setup included: a
// segment itself allocates nothing once the loop's pools hold a window of
// receive buffers and Data (docs/live.md, "Per-Data cost of the fetch").
func BenchmarkFetchPerData(b *testing.B) {
	fw := ndndtest.Start(b, ndndtest.Options{})
	putObject(b, fw, "/bench/put", 16<<20)
	name := ndntest.Name(b, "/bench/put")
	for _, pl := range []struct {
		name   string
		params map[string]string
	}{{"fixed", map[string]string{"window": "64"}}, {"cubic", nil}} {
		b.Run(pl.name, func(b *testing.B) {
			fetchOnce(b, fw.Unix(), name, pl.name, pl.params) // warm the forwarder's and producer's caches
			var data uint64
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			for b.Loop() {
				data += fetchOnce(b, fw.Unix(), name, pl.name, pl.params)
			}
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(data), "allocs/Data")
			b.ReportMetric(float64(elapsed.Nanoseconds())/float64(data), "ns/Data")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(data), "B/Data")
		})
	}
}
