package fw

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// TestInIndex drives one entry through random arrivals, renewals and
// removals of up to 40 downstreams, and checks after each step that the
// index (from inIndexMin records on) finds what a scan of the records
// finds: each face's record, each nonce's loop verdict, the latest
// expiry.
func TestInIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e := &PitEntry{}
	e.in, e.out = e.in1[:0], e.out1[:0]
	var now time.Duration
	for step := range 3000 {
		now += time.Millisecond
		face := FaceID(1 + r.IntN(40))
		switch r.IntN(4) {
		case 0:
			e.removeInRecord(face)
		default:
			it := &ndn.Interest{Name: name("/a"), Nonce: uint32(r.IntN(16))}
			e.insertInRecord(face, it, 0, nil, now, time.Duration(1+r.IntN(1000))*time.Millisecond)
		}
		if (e.idx != nil) != (len(e.in) >= inIndexMin) {
			t.Fatalf("step %d: %d records, indexed %t", step, len(e.in), e.idx != nil)
		}
		var latest time.Duration
		for i := range e.in {
			latest = max(latest, e.in[i].Expiry)
		}
		if e.expiry != latest {
			t.Fatalf("step %d: expiry %v, latest record %v", step, e.expiry, latest)
		}
		for f := FaceID(1); f <= 40; f++ {
			var scan *InRecord
			for i := range e.in {
				if e.in[i].Face == f {
					scan = &e.in[i]
				}
			}
			if got := e.InRecord(f); got != scan {
				t.Fatalf("step %d: InRecord(%d) %p, scan %p", step, f, got, scan)
			}
			for nonce := range uint32(16) {
				want := false
				if scan == nil || scan.Nonce != nonce {
					for i := range e.in {
						want = want || e.in[i].Nonce == nonce
					}
				}
				if got := e.duplicateNonce(nonce, f); got != want {
					t.Fatalf("step %d: duplicateNonce(%d, %d) %t, scan %t", step, nonce, f, got, want)
				}
			}
		}
	}
}
