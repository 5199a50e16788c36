package live

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/internal/realtimetest"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/live/ndndtest"
	"github.com/ndncc/ndncc/ndn"
)

// rawProducer registers prefix and answers every Interest with what
// answer returns (nothing when it returns nil).
func rawProducer(t *testing.T, uri string, prefix ndn.Name, answer func(in *ndn.Interest) *ndn.Data) {
	t.Helper()
	loop, e := connect(t, uri)
	e.Handle(func(p ndn.Packet) {
		if p.Interest == nil || p.IsNack() {
			return
		}
		if d := answer(p.Interest); d != nil {
			e.Send(ndn.Packet{Data: d})
		}
	})
	ready := make(chan error, 1)
	loop.After(0, func() { e.Register(Route{Prefix: prefix}, func(err error) { ready <- err }) })
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() { loop.Run(ctx); close(ended) }()
	t.Cleanup(func() { cancel(); <-ended })
	if err := <-ready; err != nil {
		t.Fatalf("register %s: %v", prefix, err)
	}
}

// segmentData returns segment seg of a 4-segment object under prefix,
// signed with a digest.
func segmentData(t *testing.T, prefix ndn.Name, seg uint64) *ndn.Data {
	t.Helper()
	d := &ndn.Data{
		Name:         prefix.Append(enc.NewSegmentComponent(seg)),
		Content:      bytes.Repeat([]byte{byte('a' + seg)}, 1000),
		FinalBlockID: enc.NewSegmentComponent(3), HasFinal: true,
	}
	if _, err := ndn.EncodeData(d, nil); err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCorruptDataRejected serves a 4-segment object one of whose segments
// is damaged, and expects the fetch to fail its integrity check.
func TestCorruptDataRejected(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	damage := map[string]func(t *testing.T, d *ndn.Data) *ndn.Data{
		"tampered content": func(t *testing.T, d *ndn.Data) *ndn.Data {
			w := bytes.Clone(d.Wire)
			i := bytes.Index(w, d.Content)
			w[i+10] ^= 0xff // the digest no longer matches
			got, err := decodeData(w)
			if err != nil {
				t.Fatal(err)
			}
			return got
		},
		"truncated signature": func(t *testing.T, d *ndn.Data) *ndn.Data {
			short := &ndn.Data{Name: d.Name, Content: d.Content, FinalBlockID: d.FinalBlockID, HasFinal: true,
				Sig: ndn.Signature{Type: ndn.SigDigestSHA256, Value: d.Sig.Value[:31], ValueLen: 31}}
			w, err := ndn.EncodeFrame(&ndn.Packet{Data: short})
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeData(w)
			if err != nil {
				t.Fatal(err)
			}
			return got
		},
		"no signature": func(t *testing.T, d *ndn.Data) *ndn.Data {
			bare := &ndn.Data{Name: d.Name, Content: d.Content, FinalBlockID: d.FinalBlockID, HasFinal: true,
				Sig: ndn.Signature{Type: ndn.SigNone}}
			w, err := ndn.EncodeFrame(&ndn.Packet{Data: bare})
			if err != nil {
				t.Fatal(err)
			}
			got, err := decodeData(w)
			if err != nil {
				t.Fatal(err)
			}
			return got
		},
	}
	for name, bad := range damage {
		t.Run(name, func(t *testing.T) {
			prefix := ndntest.Name(t, "/corrupt/"+strings.ReplaceAll(name, " ", "-")).Append(enc.NewVersionComponent(1))
			rawProducer(t, fw.Unix(), prefix[:len(prefix)-1], func(in *ndn.Interest) *ndn.Data {
				seg, ok := ndn.SegmentOf(in.Name)
				if !ok || seg > 3 {
					return nil
				}
				d := segmentData(t, prefix, seg)
				if seg == 2 {
					return bad(t, d)
				}
				return d
			})
			for _, inReader := range []bool{true, false} {
				f := fetchObjectWith(t, fw.Unix(), FaceConfig{VerifyDigests: inReader}, prefix,
					options(t, "fixed", map[string]string{"window": "4"}), FetchConfig{})
				if !errors.Is(f.err, ErrIntegrity) {
					t.Fatalf("digests verified by the reader: %t: got %v, want ErrIntegrity", inReader, f.err)
				}
				if len(f.data) > 2000 {
					t.Fatalf("%d bytes written; nothing from segment 2 on may be", len(f.data))
				}
			}
		})
	}
}

// TestFaceDropsMalformedFrames feeds a stream face a Data whose inner
// TLVs overrun it, then a good one: the first is counted and dropped, the
// second delivered.
func TestFaceDropsMalformedFrames(t *testing.T) {
	loop := eventloop.New()
	ours, theirs := net.Pipe()
	f := newFace(loop, Transport{Network: "unix", Address: "pipe"}, ours, FaceConfig{})
	defer f.Close()
	good := ndntest.Data(t, "/pipe/seg=0", 100)
	v := enc.NewBufferView(good.Wire)
	v.ReadTLNum()
	v.ReadTLNum()
	// Cut the SignatureValue short, with an outer length that still
	// delimits the frame.
	bad := tlv(0x06, good.Wire[v.Pos():len(good.Wire)-20])
	var got []ndn.Packet
	f.OnPacket(func(p ndn.Packet) {
		got = append(got, p)
		loop.Stop(nil)
	})
	go func() {
		theirs.Write(append(bad, good.Wire...))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := loop.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !bytes.Equal(got[0].Data.Wire, good.Wire) {
		t.Fatalf("delivered %d packets, want only the good one", len(got))
	}
	if st := f.Stats(); st.Malformed != 1 || st.PacketsIn != 1 || st.FramesIn != 2 {
		t.Fatalf("stats %+v, want 2 frames in, 1 malformed, 1 delivered", st)
	}
}

// TestSignedObjects serves objects signed with Ed25519 and ECDSA keys: the
// fetch gets the certificate from the producer and verifies every
// segment; a pinned certificate of another key rejects them.
func TestSignedObjects(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(300_000, 3)
	for _, scheme := range []string{SignEd25519, SignECDSA} {
		t.Run(scheme, func(t *testing.T) {
			prefix := "/signed/" + scheme
			signing, err := LoadSigning(scheme, "", ndntest.Name(t, prefix))
			if err != nil {
				t.Fatal(err)
			}
			s := serve(t, fw.Unix(), prefix, content, signing, 4000)
			// A CanBePrefix probe of the object's name gets segment 0, not
			// the certificate that is also under it (asked before the
			// certificate is in the forwarder's cache, where it would
			// rightly match too).
			d, err := expressOnce(t, fw.Unix(), Request{Name: ndntest.Name(t, prefix), CanBePrefix: true, MustBeFresh: true})
			if want := s.name.Append(enc.NewSegmentComponent(0)); err != nil || !d.Name.Equal(want) {
				t.Errorf("probe of %s: got %v, %v; want %s", prefix, d.Name, err, want)
			}
			f := fetchObject(t, fw.Unix(), ndntest.Name(t, prefix), options(t, "cubic", nil), FetchConfig{Discover: true})
			if f.err != nil || !bytes.Equal(f.data, content) {
				t.Fatalf("fetch: %v, %d bytes", f.err, len(f.data))
			}
			if n := s.serverStats().Certificates; n != 1 {
				t.Errorf("certificate served %d times, want 1", n)
			}

			pinned := NewVerifier()
			if _, err := pinned.addCert(signing.Cert); err != nil {
				t.Fatal(err)
			}
			pinned.anchor = keyNameOf(signing.Cert.Name)
			f = fetchObject(t, fw.Unix(), ndntest.Name(t, prefix), options(t, "cubic", nil), FetchConfig{Discover: true, Verifier: pinned})
			if f.err != nil || !bytes.Equal(f.data, content) {
				t.Fatalf("fetch with the pinned certificate: %v", f.err)
			}

			other, err := LoadSigning(scheme, "", ndntest.Name(t, "/someone/else"))
			if err != nil {
				t.Fatal(err)
			}
			wrong := NewVerifier()
			if _, err := wrong.addCert(other.Cert); err != nil {
				t.Fatal(err)
			}
			wrong.anchor = keyNameOf(other.Cert.Name)
			f = fetchObject(t, fw.Unix(), ndntest.Name(t, prefix), options(t, "cubic", nil), FetchConfig{Discover: true, Verifier: wrong})
			if !errors.Is(f.err, ErrIntegrity) {
				t.Fatalf("fetch with another key pinned: got %v, want ErrIntegrity", f.err)
			}
		})
	}
}

// TestCongestionMarksReduceWindow starts AIMD with a window of 100
// segments: the forwarder's queue towards the consumer exceeds its
// marking threshold, it marks Data, and the window decreases.
func TestCongestionMarksReduceWindow(t *testing.T) {
	realtimetest.Require(t)
	fw := ndndtest.Start(t, ndndtest.Options{})
	content := ndntest.RandomBytes(20<<20, 4)
	s := serve(t, fw.Unix(), "/marks", content, Signing{}, 8000)
	var events bytes.Buffer
	log := NewEventLog(&events, nil)
	f := fetchObject(t, fw.Unix(), s.name, options(t, "aimd", map[string]string{"init-cwnd": "100"}),
		FetchConfig{Tracer: log, OnPipeline: log.Attach})
	if f.err != nil {
		t.Fatal(f.err)
	}
	st := f.res.Stats
	t.Logf("marks %d, decreases %v\n%s", st.Marks, st.Decreases, events.String())
	if st.Marks == 0 || st.Decreases[cc.CauseMark] == 0 {
		t.Fatalf("%d marks, %d decreases by marks; want both > 0", st.Marks, st.Decreases[cc.CauseMark])
	}
	reacted := 0
	for _, line := range strings.Split(events.String(), "\n") {
		_, rest, ok := strings.Cut(line, "congestion mark (total ")
		var total int
		var before, after float64
		if ok {
			if n, _ := fmt.Sscanf(rest, "%d): window %g -> %g", &total, &before, &after); n == 3 && after < before {
				reacted++
			}
		}
	}
	if reacted != int(st.Decreases[cc.CauseMark]) {
		t.Errorf("%d reported window decreases on marks, want %d:\n%s", reacted, st.Decreases[cc.CauseMark], events.String())
	}
}

// TestNotFound fetches a name nobody serves.
func TestNotFound(t *testing.T) {
	fw := ndndtest.Start(t, ndndtest.Options{})
	opt := options(t, "cubic", map[string]string{"lifetime": "200ms", "retries": "1", "initial-rto": "200ms"})
	start := time.Now()
	f := fetchObject(t, fw.Unix(), ndntest.Name(t, "/nobody/serves/this"), opt, FetchConfig{Discover: true})
	if !errors.Is(f.err, ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", f.err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("took %v for two 200 ms attempts", el)
	}
	f = fetchObject(t, fw.Unix(), ndntest.Name(t, "/nobody/serves/this/v=1"), opt, FetchConfig{})
	if !errors.Is(f.err, ErrTimedOut) {
		t.Fatalf("explicit version: got %v, want ErrTimedOut", f.err)
	}
}

// patternReader is a large object generated on demand.
type patternReader struct{ size int64 }

func (p patternReader) ReadAt(b []byte, off int64) (int, error) {
	for i := range b {
		b[i] = byte((off + int64(i)) * 31 >> 3)
	}
	return len(b), nil
}

// TestForwarderKilled kills the forwarder in the middle of a fetch: the
// fetch ends at once with ErrFaceDown.
func TestForwarderKilled(t *testing.T) {
	for _, transport := range []string{"unix", "udp"} {
		t.Run(transport, func(t *testing.T) {
			fw := ndndtest.Start(t, ndndtest.Options{})
			uri := fw.Unix()
			if transport == "udp" {
				uri = fw.UDP()
			}
			s := serveReader(t, fw.Unix(), "/killed", patternReader{1 << 30}, 1<<30)
			loop, e := connect(t, uri)
			opt := options(t, "fixed", map[string]string{"window": "4", "lifetime": "300ms", "retries": "3"})
			killed := false
			killedAt := make(chan time.Time, 1)
			cfg := FetchConfig{Name: s.name, Options: opt, Output: &bytes.Buffer{},
				OnProgress: func(p Progress) {
					if p.Segments == 50 && !killed {
						killed = true
						go func() { fw.Kill(); killedAt <- time.Now() }()
					}
				}}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			_, err := Fetch(ctx, loop, e, cfg)
			if !killed {
				t.Fatal("the forwarder was not killed")
			}
			if !errors.Is(err, ErrFaceDown) && !errors.Is(err, ErrTimedOut) {
				t.Fatalf("got %v, want ErrFaceDown (or ErrTimedOut)", err)
			}
			el := time.Since(<-killedAt)
			t.Logf("%v after the kill: %v", el, err)
			if el > 5*time.Second {
				t.Errorf("the fetch took %v to notice", el)
			}
		})
	}
}

// serveReader serves a ReaderAt (like serve, without holding the bytes).
func serveReader(t *testing.T, uri, prefix string, r interface {
	ReadAt([]byte, int64) (int, error)
}, size int64) *serving {
	t.Helper()
	loop, e := connect(t, uri)
	signing, _ := LoadSigning(SignDigest, "", nil)
	name := ndntest.Name(t, prefix).Append(NewVersion(time.Now()))
	srv, err := NewServer(e, ServeConfig{Name: name, Content: r, Size: size, SegmentSize: 8000,
		Freshness: time.Second, Signing: signing, Register: true})
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan error, 1)
	loop.After(0, func() { srv.Start(func(err error) { ready <- err }) })
	ctx, cancel := context.WithCancel(context.Background())
	ended := make(chan struct{})
	go func() { loop.Run(ctx); close(ended) }()
	t.Cleanup(func() { cancel(); <-ended })
	if err := <-ready; err != nil {
		t.Fatal(err)
	}
	return &serving{name: name, server: srv, loop: loop, stop: cancel}
}

// TestExpressRetriesCongestionNacks answers a one-shot Interest with a
// Nack Congestion, then a Nack Duplicate, then the Data: the request is
// sent again after each Nack (with a new nonce) and ends with the Data; a
// Nack NoRoute ends a request at once.
func TestExpressRetriesCongestionNacks(t *testing.T) {
	for _, tc := range []struct {
		name    string
		nacks   []ndn.NackReason
		wantErr bool
	}{
		{"congestion then duplicate, then Data", []ndn.NackReason{ndn.NackCongestion, ndn.NackDuplicate}, false},
		{"no route", []ndn.NackReason{ndn.NackNoRoute}, true},
		{"more Nacks than retries", []ndn.NackReason{ndn.NackCongestion, ndn.NackCongestion, ndn.NackCongestion}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			loop := eventloop.New()
			ours, theirs := net.Pipe()
			f := newFace(loop, Transport{Network: "unix", Address: "pipe"}, ours, FaceConfig{})
			defer f.Close()
			e := NewEndpoint(loop, f, rand.New(rand.NewPCG(1, 2)))
			d := ndntest.Data(t, "/nack/x", 10)
			nonces := make(chan uint32, 8)
			go func() { // the forwarder's side
				fr := face.NewFrameReader(theirs, MaxPacketSize)
				for i := 0; ; i++ {
					b, err := fr.Next()
					if err != nil {
						return
					}
					p, err := ndn.DecodeFrame(b)
					if err != nil || p.Interest == nil {
						return
					}
					nonces <- p.Interest.Nonce
					reply := ndn.Packet{Data: d}
					if i < len(tc.nacks) {
						reply = ndn.Packet{Interest: p.Interest, Nack: tc.nacks[i]}
					}
					out, _ := ndn.EncodeFrame(&reply)
					theirs.Write(out)
				}
			}()
			var (
				got    *ndn.Data
				gotErr error
			)
			loop.After(0, func() {
				e.Express(Request{Name: d.Name, Lifetime: 5 * time.Second, Retries: 2}, func(d *ndn.Data, err error) {
					got, gotErr = d, err
					loop.Stop(nil)
				})
			})
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second) // below the lifetime: no timeout retry
			defer cancel()
			if err := loop.Run(ctx); err != nil {
				t.Fatal(err)
			}
			if tc.wantErr != (gotErr != nil) || (gotErr == nil && got == nil) {
				t.Fatalf("Data %v, error %v; want an error: %v", got != nil, gotErr, tc.wantErr)
			}
			if gotErr != nil && !errors.Is(gotErr, ErrNacked) {
				t.Errorf("error %v, want ErrNacked", gotErr)
			}
			close(nonces)
			seen := map[uint32]bool{}
			for n := range nonces {
				if seen[n] {
					t.Errorf("nonce %d sent twice", n)
				}
				seen[n] = true
			}
		})
	}
}
