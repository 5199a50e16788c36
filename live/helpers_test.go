package live

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/ndn"
)

// connect dials the forwarder at uri with a new loop, with a face that
// verifies digests in its reader.
func connect(t testing.TB, uri string) (*eventloop.Loop, *Endpoint) {
	t.Helper()
	return connectWith(t, uri, FaceConfig{VerifyDigests: true})
}

// connectWith dials the forwarder at uri with a new loop.
func connectWith(t testing.TB, uri string, cfg FaceConfig) (*eventloop.Loop, *Endpoint) {
	t.Helper()
	tr, err := ParseTransport(uri)
	if err != nil {
		t.Fatal(err)
	}
	loop := eventloop.New()
	face, err := Dial(context.Background(), loop, tr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { face.Close() })
	return loop, NewEndpoint(loop, face, rand.New(rand.NewPCG(1, 2)))
}

// serving is a server running on its own loop goroutine.
type serving struct {
	name   ndn.Name // versioned
	server *Server
	loop   *eventloop.Loop
	stop   context.CancelFunc
	ended  chan error
}

// serve starts a server for content under prefix (a fresh version) and
// waits until its route is registered.
func serve(t testing.TB, uri string, prefix string, content []byte, signing Signing, segSize int) *serving {
	t.Helper()
	return serveWith(t, uri, prefix, content, ServeConfig{
		SegmentSize: segSize, Freshness: 10 * time.Second, Signing: signing,
	})
}

// serveWith is serve with a configuration, whose Name, Content, Size and
// Register it sets (and Signing, a digest, when not given).
func serveWith(t testing.TB, uri string, prefix string, content []byte, cfg ServeConfig) *serving {
	t.Helper()
	loop, e := connect(t, uri)
	if cfg.Signing.Signer == nil {
		var err error
		if cfg.Signing, err = LoadSigning(SignDigest, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	name := ndntest.Name(t, prefix).Append(NewVersion(time.Now()))
	cfg.Name, cfg.Content, cfg.Size, cfg.Register = name, bytes.NewReader(content), int64(len(content)), true
	srv, err := NewServer(e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &serving{name: name, server: srv, loop: loop, stop: cancel, ended: make(chan error, 1)}
	ready := make(chan error, 1)
	loop.After(0, func() { srv.Start(func(err error) { ready <- err }) })
	go func() { s.ended <- loop.Run(ctx) }()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatalf("register: %v", err)
		}
	case err := <-s.ended:
		t.Fatalf("server loop ended before registration: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("registration timed out")
	}
	t.Cleanup(func() {
		cancel()
		<-s.ended
	})
	return s
}

// faceStats reads the server's face counters on its loop goroutine, where
// they are written (reading them from the test's goroutine is a race).
func (s *serving) faceStats() FaceStats {
	got := make(chan FaceStats, 1)
	s.loop.Post(func() { got <- s.server.e.Face().Stats() })
	return <-got
}

// serverStats reads the server's counters on its loop goroutine.
func (s *serving) serverStats() ServerStats {
	got := make(chan ServerStats, 1)
	s.loop.Post(func() { got <- s.server.Stats() })
	return <-got
}

// fetched is the outcome of one fetch.
type fetched struct {
	data []byte
	res  FetchResult
	err  error
}

// fetchObject runs one fetch of name through the forwarder at uri.
func fetchObject(t testing.TB, uri string, name ndn.Name, opt consumer.Options, cfg FetchConfig) fetched {
	t.Helper()
	return fetchObjectWith(t, uri, FaceConfig{VerifyDigests: true}, name, opt, cfg)
}

// fetchObjectWith is fetchObject with a face configuration.
func fetchObjectWith(t testing.TB, uri string, fc FaceConfig, name ndn.Name, opt consumer.Options, cfg FetchConfig) fetched {
	t.Helper()
	loop, e := connectWith(t, uri, fc)
	var out bytes.Buffer
	cfg.Name, cfg.Options, cfg.Output = name, opt, &out
	if cfg.Rand == nil {
		cfg.Rand = rand.New(rand.NewPCG(3, 4))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := Fetch(ctx, loop, e, cfg)
	return fetched{data: out.Bytes(), res: res, err: err}
}

// options returns a pipeline's options with parameters by name.
func options(t testing.TB, pipeline string, params map[string]string) consumer.Options {
	t.Helper()
	o, err := consumer.ParseParams(pipeline, params)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// expressOnce sends one Interest through the forwarder at uri and returns
// the Data that answers it.
func expressOnce(t testing.TB, uri string, r Request) (*ndn.Data, error) {
	t.Helper()
	loop, e := connect(t, uri)
	var (
		got *ndn.Data
		err error
	)
	loop.After(0, func() {
		e.Express(r, func(d *ndn.Data, e error) {
			got, err = d, e
			loop.Stop(nil)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if runErr := loop.Run(ctx); runErr != nil {
		return nil, runErr
	}
	return got, err
}

// tlv encodes one TLV element.
func tlv(typ uint64, value []byte) []byte {
	var hdr [18]byte
	n := enc.TLNum(typ).EncodeInto(hdr[:])
	n += enc.TLNum(len(value)).EncodeInto(hdr[n:])
	return append(hdr[:n:n], value...)
}
