package fwd

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/ndn"
)

// startFw runs a forwarder with cfg (fwconf.Default with a temporary
// socket and no UDP or TCP listener when cfg is nil) until the test ends.
func startFw(t testing.TB, cfg *fwconf.Config) *Forwarder {
	t.Helper()
	return startFwAfter(t, cfg, nil)
}

// startFwAfter is startFw calling before, if set, with the forwarder
// before it runs.
func startFwAfter(t testing.TB, cfg *fwconf.Config, before func(*Forwarder)) *Forwarder {
	t.Helper()
	if cfg == nil {
		cfg = fwconf.Default()
		cfg.UDP, cfg.TCP = "", ""
	}
	if cfg.Socket == fwconf.DefaultSocket {
		dir, err := os.MkdirTemp("", "ndnccfw-") // short: socket paths are limited to 108 bytes
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		cfg.Socket = filepath.Join(dir, "fw.sock")
	}
	d, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if before != nil {
		before(d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	go func() { ended <- d.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-ended; err != nil {
			t.Errorf("forwarder: %v", err)
		}
	})
	d.Do(func() {}) // the listeners are open once the loop runs
	return d
}

// waitFaces waits until the forwarder has n faces and returns their IDs.
func waitFaces(t testing.TB, d *Forwarder, n int) []fw.FaceID {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ids []fw.FaceID
		d.Do(func() {
			for id := range d.Faces() {
				ids = append(ids, id)
			}
		})
		if len(ids) == n {
			return ids
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d faces after 10 s, want %d", len(ids), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// served is a producer connected to a forwarder, on its own loop.
type served struct {
	name ndn.Name // versioned
	conn *live.Conn
}

// serveOn serves content under prefix through the forwarder at uri in
// 8000-byte segments (ndncc serve's default) without registering it (the
// caller adds the route).
func serveOn(t testing.TB, uri, prefix string, content []byte) *served {
	t.Helper()
	return serveSegments(t, uri, prefix, content, 8000)
}

// serveSegments is serveOn with segments of segSize bytes.
func serveSegments(t testing.TB, uri, prefix string, content []byte, segSize int) *served {
	t.Helper()
	return startServer(t, uri, prefix, content, segSize, false)
}

// serveRegistered serves content under prefix through the forwarder at
// uri, registering the prefix with NFD management, and waits until the
// forwarder has confirmed the registration.
func serveRegistered(t testing.TB, uri, prefix string, content []byte) *served {
	t.Helper()
	return startServer(t, uri, prefix, content, 8000, true)
}

// startServer serves content, registering its prefix if register is set.
func startServer(t testing.TB, uri, prefix string, content []byte, segSize int, register bool) *served {
	t.Helper()
	conn, err := live.Connect(context.Background(), uri, live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	signing, err := live.LoadSigning(live.SignDigest, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	name, err := ndn.ParseName(prefix)
	if err != nil {
		t.Fatal(err)
	}
	name = name.Append(live.NewVersion(time.Now()))
	srv, err := live.NewServer(conn.Endpoint, live.ServeConfig{
		Name: name, Content: bytes.NewReader(content), Size: int64(len(content)),
		SegmentSize: segSize, Freshness: 10 * time.Second, Signing: signing, Register: register,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan error, 1)
	ready := make(chan error, 1)
	conn.Loop.After(0, func() { srv.Start(func(err error) { ready <- err }) })
	go func() { ended <- conn.Loop.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-ended
		conn.Close()
	})
	select {
	case err := <-ready:
		if err != nil {
			t.Fatalf("serve %s: %v", prefix, err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("serve %s: not registered after 10 s", prefix)
	}
	return &served{name: name, conn: conn}
}

// fetchOn fetches name (discovering its version) through the forwarder at
// uri with a pipeline.
func fetchOn(t testing.TB, uri string, name ndn.Name, pipeline string, params map[string]string) ([]byte, live.FetchResult, error) {
	t.Helper()
	return fetchTraced(t, uri, name, pipeline, params, nil)
}

// fetchTraced is fetchOn with a tracer of the pipeline's window.
func fetchTraced(t testing.TB, uri string, name ndn.Name, pipeline string, params map[string]string, tr consumer.Tracer) ([]byte, live.FetchResult, error) {
	t.Helper()
	conn, err := live.Connect(context.Background(), uri, live.FaceConfig{VerifyDigests: true})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	opt, err := consumer.ParseParams(pipeline, params)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := live.Fetch(ctx, conn.Loop, conn.Endpoint, live.FetchConfig{
		Name: name, Options: opt, Output: &out, Discover: true, Rand: rand.New(rand.NewPCG(3, 4)), Tracer: tr,
	})
	return out.Bytes(), res, err
}

// expressOn sends one Interest for name through the forwarder at uri and
// returns the Data or the error that answers it.
func expressOn(t testing.TB, uri string, name ndn.Name) (*ndn.Data, error) {
	t.Helper()
	conn, err := live.Connect(context.Background(), uri, live.FaceConfig{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var (
		got    *ndn.Data
		gotErr error
	)
	conn.Loop.After(0, func() {
		conn.Endpoint.Express(live.Request{Name: name, Lifetime: 2 * time.Second}, func(d *ndn.Data, err error) {
			got, gotErr = d, err
			conn.Loop.Stop(nil)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := conn.Loop.Run(ctx); err != nil {
		t.Fatal(err)
	}
	return got, gotErr
}

// startFwConfig runs a forwarder configured by the TOML src (with a
// temporary socket unless src sets one).
func startFwConfig(t testing.TB, src string) *Forwarder {
	t.Helper()
	cfg, err := fwconf.Parse([]byte(src), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	return startFw(t, cfg)
}

// routeToApp waits for the forwarder's n-th face (an application that
// just connected) and routes prefix to it.
func routeToApp(t testing.TB, d *Forwarder, n int, prefix ndn.Name) fw.FaceID {
	t.Helper()
	var app fw.FaceID
	deadline := time.Now().Add(10 * time.Second)
	for app == 0 {
		d.Do(func() {
			for id, f := range d.Faces() {
				if f.Config().Scheme == "unix" {
					app = max(app, id)
				}
			}
			if len(d.Faces()) < n {
				app = 0
			}
		})
		if time.Now().After(deadline) {
			t.Fatal("the application's face did not come up")
		}
		time.Sleep(2 * time.Millisecond)
	}
	d.Do(func() { d.Core().AddRoute(prefix, app, 0) })
	return app
}
