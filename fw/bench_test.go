package fw

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

type discardFace struct{ n int }

func (d *discardFace) Send(ndn.Packet) { d.n++ }

// benchPackets returns n segment Interests under /bench/file/v=1 and their
// Data, 1024-byte payloads as in the seeds.
func benchPackets(n int) ([]ndn.Packet, []ndn.Packet) {
	prefix := name("/bench/file").WithVersion(1)
	is, ds := make([]ndn.Packet, n), make([]ndn.Packet, n)
	for i := range n {
		it := ndn.NewSegmentInterest(prefix, uint64(i))
		it.Nonce = uint32(i + 1)
		is[i] = ndn.Packet{Interest: it}
		ds[i] = ndn.Packet{Data: &ndn.Data{Name: it.Name, ContentLen: 1024}}
	}
	return is, ds
}

// BenchmarkInterestData sends one Interest from a consumer face and its Data
// back from a producer face through one forwarder: PIT insert, FIB and
// strategy, PIT match, CS insert (when enabled), Data out.
func BenchmarkInterestData(b *testing.B) {
	for _, capacity := range []int{0, 1000} {
		b.Run(fmt.Sprintf("cs=%d", capacity), func(b *testing.B) {
			s := &fakeSched{}
			f, err := New(Config{CSCapacity: capacity}, s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			c, p := &discardFace{}, &discardFace{}
			cid, pid := f.AddFace(c, FaceLocal), f.AddFace(p, FaceNetwork)
			f.AddRoute(name("/bench"), pid, 0)
			is, ds := benchPackets(4096) // more names than the CS holds: every Data is a miss and an insert
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				j := i % len(is)
				f.Receive(cid, is[j])
				f.Receive(pid, ds[j])
			}
			b.StopTimer()
			if c.n != b.N || p.n != b.N {
				b.Fatalf("consumer got %d Data, producer %d Interests, want %d", c.n, p.n, b.N)
			}
		})
	}
}

// BenchmarkCSHit answers Interests from the Content Store.
func BenchmarkCSHit(b *testing.B) {
	s := &fakeSched{}
	f, err := New(Config{CSCapacity: 1024}, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		b.Fatal(err)
	}
	c, p := &discardFace{}, &discardFace{}
	cid, pid := f.AddFace(c, FaceLocal), f.AddFace(p, FaceNetwork)
	f.AddRoute(name("/bench"), pid, 0)
	is, ds := benchPackets(1024)
	for j := range is {
		f.Receive(cid, is[j])
		f.Receive(pid, ds[j])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		f.Receive(cid, is[i%len(is)])
	}
	b.StopTimer()
	if c.n != b.N+len(is) || p.n != len(is) {
		b.Fatalf("consumer got %d Data, producer %d Interests", c.n, p.n)
	}
}

// BenchmarkManyDownstreams has n consumer faces ask for the same name
// before its Data comes back: one PIT entry with n in-records, each
// Interest looked up among them (in-record renewal, duplicate-nonce
// check). It reports the cost per Interest.
func BenchmarkManyDownstreams(b *testing.B) {
	for _, n := range []int{1, 10, 100, 1000} {
		b.Run(fmt.Sprintf("downstreams=%d", n), func(b *testing.B) {
			s := &fakeSched{}
			f, err := New(Config{}, s, rand.New(rand.NewPCG(1, 2)))
			if err != nil {
				b.Fatal(err)
			}
			p := &discardFace{}
			pid := f.AddFace(p, FaceNetwork)
			f.AddRoute(name("/bench"), pid, 0)
			cs := make([]FaceID, n)
			for i := range cs {
				cs[i] = f.AddFace(&discardFace{}, FaceLocal)
			}
			is, ds := benchPackets(1024)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += n {
				j := (i / n) % len(is)
				for k, c := range cs {
					it := *is[j].Interest
					it.Nonce = uint32(k + 1)
					f.Receive(c, ndn.Packet{Interest: &it})
				}
				f.Receive(pid, ds[j])
			}
		})
	}
}
