package consumer

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// echo is a face that keeps the Interests a pipeline sends, in order, so
// that the test can answer the oldest one.
type echo struct {
	q    []*ndn.Interest
	head int
}

func (e *echo) Send(p ndn.Packet) {
	if e.head > 0 && e.head*2 >= len(e.q) {
		n := copy(e.q, e.q[e.head:])
		clear(e.q[n:])
		e.q, e.head = e.q[:n], 0
	}
	e.q = append(e.q, p.Interest)
}

func (e *echo) pop() *ndn.Interest {
	in := e.q[e.head]
	e.q[e.head] = nil
	e.head++
	return in
}

// steady is a pipeline in steady state: every step answers the oldest
// outstanding Interest 10 µs after the previous step, and the pipeline
// sends the next one.
type steady struct {
	s     *fakeSched
	face  *echo
	p     *Pipeline
	final ndn.Component
	sig   ndn.Signature
	data  ndn.Data // reused: the pipeline keeps no reference to a Data
}

func newSteady(t testing.TB, pipeline string, params map[string]string) *steady {
	t.Helper()
	opts, err := ParseParams(pipeline, params)
	if err != nil {
		t.Fatal(err)
	}
	prefix, _ := enc.NameFromStr("/example/file")
	prefix = prefix.Append(enc.NewVersionComponent(1))
	st := &steady{s: &fakeSched{}, face: &echo{}, final: enc.NewSegmentComponent(1 << 40),
		sig: ndn.RSASignature(ndn.DefaultSeedKeyName())}
	// Wire sizes as the simulator computes them, with a seed-shaped
	// signature.
	sizer := ndn.NewSizer()
	st.p, err = New(Config{
		Prefix:   prefix,
		Options:  opts,
		Rand:     rand.New(rand.NewPCG(1, 2)),
		WireSize: func(p ndn.Packet) int { return sizer.PacketSize(&p) + 44 },
	}, st.s, st.face)
	if err != nil {
		t.Fatal(err)
	}
	st.p.Start()
	for i := 0; i < 20000; i++ { // warm up: window, ring and queues at size
		st.step()
	}
	return st
}

func (st *steady) step() {
	st.s.AdvanceTo(st.s.Now() + 10*time.Microsecond)
	// A fresh value each time (no cached size), in place.
	st.data = ndn.Data{
		Name: st.face.pop().Name, ContentLen: 1024, HasFinal: true, FinalBlockID: st.final,
		Sig: st.sig,
	}
	st.p.OnPacket(ndn.Packet{Data: &st.data})
}

var perDataPipelines = []struct {
	name   string
	params map[string]string
}{
	// No Data is lost, so aimd and cubic grow for ever: a threshold of 200
	// moves them to congestion avoidance, whose window grows by about one
	// segment per window, as in a long transfer.
	{"fixed", map[string]string{"window": "32"}},
	{"aimd", map[string]string{"init-ssthresh": "200"}},
	{"cubic", map[string]string{"init-ssthresh": "200"}},
	{"vegas", nil},
	// The same with the time-based loss detection on: it runs at every
	// Data.
	{"fixed+rack", map[string]string{"window": "32", "rack": "true"}},
	{"cubic+rack", map[string]string{"init-ssthresh": "200", "rack": "true"}},
}

// pipelineOf is the pipeline a perDataPipelines name runs.
func pipelineOf(name string) string {
	pl, _, _ := strings.Cut(name, "+")
	return pl
}

// BenchmarkPipelinePerData measures the pipeline's cost per Data in steady
// state: take the RTT sample, update the window, send the next Interest.
func BenchmarkPipelinePerData(b *testing.B) {
	for _, pl := range perDataPipelines {
		b.Run(pl.name, func(b *testing.B) {
			st := newSteady(b, pipelineOf(pl.name), pl.params)
			b.ReportAllocs()
			for b.Loop() {
				st.step()
			}
			if done, err := st.p.Done(); done {
				b.Fatalf("fetch ended: %v", err)
			}
		})
	}
}

// TestPipelineAllocsPerData checks issue 3's bound: at most one allocation
// per Data in steady state (the next Interest).
func TestPipelineAllocsPerData(t *testing.T) {
	for _, pl := range perDataPipelines {
		t.Run(pl.name, func(t *testing.T) {
			st := newSteady(t, pipelineOf(pl.name), pl.params)
			before := st.p.Stats().Interests
			allocs := testing.AllocsPerRun(10000, st.step)
			if allocs > 1 {
				t.Errorf("%v allocations per Data, want <= 1", allocs)
			}
			if sent := st.p.Stats().Interests - before; sent < 10000 {
				t.Errorf("sent %d Interests in 10001 steps: not in steady state", sent)
			}
		})
	}
}
