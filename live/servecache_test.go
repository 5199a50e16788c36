package live

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/ndndtest"
)

// TestServeCache serves 40 segments with a cache of prepared Data for
// the first 20 and fetches them twice with MustBeFresh through a real
// forwarder (the Data carry no freshness, so its Content Store answers
// none): the second fetch is answered from the cache for those 20, and
// both are byte-identical. In the first, the segments the server prepared
// ahead with those asked for (it signs with DigestSha256, signAhead) are
// answered from the cache too, never more than the 20. An Interest naming a cached segment in a
// longer encoding gets a Data of its own name, not the cached one.
func TestServeCache(t *testing.T) {
	const segSize, segs, cached = 1000, 40, 20
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(segs*segSize, 5)
	s := serveWith(t, fw.Unix(), "/ndncc/cache", content, ServeConfig{
		SegmentSize: segSize, CacheBytes: cached * (segSize + cacheEntryOverhead),
	})
	opt := options(t, "fixed", map[string]string{"window": "8", "must-be-fresh": "true"})
	var hits []uint64
	for i := range 2 {
		// Nonces of their own: the forwarder drops an Interest whose name
		// and nonce it has seen (its dead nonce list).
		f := fetchObject(t, fw.Unix(), s.name, opt, FetchConfig{Rand: rand.New(rand.NewPCG(uint64(i), 9))})
		if f.err != nil {
			t.Fatalf("fetch %d: %v", i, f.err)
		}
		if !bytes.Equal(f.data, content) {
			t.Fatalf("fetch %d: %d bytes, differ from the %d served", i, len(f.data), len(content))
		}
		if f.res.Stats.Retransmissions != 0 {
			t.Logf("fetch %d: %d retransmissions", i, f.res.Stats.Retransmissions)
		}
		hits = append(hits, s.serverStats().CacheHits)
	}
	st := s.serverStats()
	if hits[0] == 0 || hits[0] >= cached || hits[1]-hits[0] < cached {
		t.Errorf("cache hits after each fetch: %v, want 1 to %d, then %d more", hits, cached-1, cached)
	}
	if st.DataSent < 2*segs || st.PayloadBytes < 2*segs*segSize {
		t.Errorf("server counters %+v, want at least %d Data and %d payload bytes sent", st, 2*segs, 2*segs*segSize)
	}

	long := s.name.Append(enc.Component{Typ: enc.TypeSegmentNameComponent, Val: []byte{0, 5}})
	d, err := expressOnce(t, fw.Unix(), Request{Name: long, MustBeFresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Name.Equal(long) || !bytes.Equal(d.Content, content[5*segSize:6*segSize]) {
		t.Errorf("Interest %s answered by %s with %d bytes, want its own name and segment 5", long, d.Name, len(d.Content))
	}
	if got := s.serverStats().CacheHits; got != hits[1] {
		t.Errorf("the long-encoded Interest was answered from the cache (%d hits, %d before)", got, hits[1])
	}
}

// TestServePresigned: with Presign, every cached segment is ready before
// the first Interest, so the first fetch is answered from the cache
// (with the object's bytes).
func TestServePresigned(t *testing.T) {
	const segSize, segs, cached = 1000, 40, 30
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(segs*segSize, 6)
	s := serveWith(t, fw.Unix(), "/ndncc/presigned", content, ServeConfig{
		SegmentSize: segSize, CacheBytes: cached * (segSize + cacheEntryOverhead), Presign: true,
	})
	opt := options(t, "fixed", map[string]string{"window": "8"})
	f := fetchObject(t, fw.Unix(), s.name, opt, FetchConfig{})
	if f.err != nil || !bytes.Equal(f.data, content) {
		t.Fatalf("fetch: %v, %d bytes of the %d served", f.err, len(f.data), len(content))
	}
	if hits := s.serverStats().CacheHits; hits < cached {
		t.Errorf("first fetch: %d cache hits, want the %d presigned segments", hits, cached)
	}
}

// TestServePrepared: a server given another's prepared Data
// (ServeConfig.Prepared) keeps them as they are and presigns only the
// rest, and ends with the same cache, byte for byte.
func TestServePrepared(t *testing.T) {
	const segSize, segs, cached, given = 1000, 40, 30, 12
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(segs*segSize, 7)
	signing, err := LoadSigning(SignDigest, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := ServeConfig{
		Name: ndntest.Name(t, "/ndncc/prepared").Append(NewVersion(time.Unix(1, 0))), Content: bytes.NewReader(content), Size: segs * segSize,
		SegmentSize: segSize, CacheBytes: cached * (segSize + cacheEntryOverhead), Presign: true, Signing: signing,
	}
	_, e1 := connect(t, fw.Unix())
	first, err := NewServer(e1, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := first.Prepared()
	cfg.Prepared = want[:given]
	_, e2 := connect(t, fw.Unix())
	second, err := NewServer(e2, cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := second.Prepared()
	if len(got) != cached {
		t.Fatalf("%d prepared segments, want %d", len(got), cached)
	}
	for i := range got {
		switch {
		case !bytes.Equal(got[i], want[i]):
			t.Errorf("segment %d: %d bytes, differ from the first server's %d", i, len(got[i]), len(want[i]))
		case i < given && &got[i][0] != &want[i][0]:
			t.Errorf("segment %d was given prepared but made again", i)
		case i >= given && &got[i][0] == &want[i][0]:
			t.Errorf("segment %d was not given but shares the first server's bytes", i)
		}
	}
}
