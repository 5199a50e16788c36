package face

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// decoded returns a frame with a DigestSha256 Data of n content bytes, as
// a reader decodes it, with a byte of its content, name or signature value
// changed (change: "content", "name", "signature"; "" changes nothing).
func decoded(t *testing.T, name string, n int, change string) link.Frame {
	t.Helper()
	d := ndntest.Data(t, name, n)
	wire := d.Wire
	switch change {
	case "content":
		wire[bytes.Index(wire, d.Content)+n/2] ^= 0x10
	case "name":
		wire[bytes.Index(wire, []byte("batch"))] ^= 0x10
	case "signature":
		wire[len(wire)-3] ^= 0x10
	}
	pkt, err := ndn.DecodeFrame(wire)
	if err != nil {
		t.Fatal(err)
	}
	return link.Frame{Pkt: pkt}
}

// TestDigestBatchFindsTheBadData: in batches of 1 to 32 Data, of lengths
// that differ, one Data changed in its content, its name or its
// signature value is digestBad and every other digestOK; a packet the
// reader does not check stays digestUnchecked.
func TestDigestBatchFindsTheBadData(t *testing.T) {
	var v digestBatch
	for _, size := range []int{1, 2, 7, 16, 17, 32} {
		for _, where := range []string{"content", "name", "signature"} {
			t.Run(fmt.Sprintf("%d/%s", size, where), func(t *testing.T) {
				bad := size / 2
				batch := make([]link.Frame, 0, size+1)
				checks := make([]digestCheck, 0, size+1)
				for i := range size {
					change := ""
					if i == bad {
						change = where
					}
					batch = append(batch, decoded(t, fmt.Sprintf("/batch/seg=%d", i), 100+1000*(i%9), change))
					checks = append(checks, digestPending)
				}
				interest := link.Frame{Pkt: ndn.Packet{Interest: &ndn.Interest{Name: ndntest.Name(t, "/i")}}}
				batch = append(batch, interest)
				checks = append(checks, digestUnchecked)
				v.check(batch, checks)
				for i, got := range checks {
					want := digestOK
					switch {
					case i == size:
						want = digestUnchecked
					case i == bad:
						want = digestBad
					}
					if got != want {
						t.Errorf("packet %d of %d: digest %d, want %d", i, len(batch), got, want)
					}
				}
			})
		}
	}
}

// TestDigestBatchAllocatesNothing: once its buffers have grown, checking a
// batch allocates nothing.
func TestDigestBatchAllocatesNothing(t *testing.T) {
	n := readBatchLimit()
	batch := make([]link.Frame, 0, n)
	checks := make([]digestCheck, n)
	for i := range n {
		batch = append(batch, decoded(t, fmt.Sprintf("/batch/seg=%d", i), 8000, ""))
		checks[i] = digestPending
	}
	var v digestBatch
	v.check(batch, checks)
	allocs := testing.AllocsPerRun(10, func() {
		for i := range checks {
			checks[i] = digestPending
		}
		v.check(batch, checks)
	})
	if allocs != 0 {
		t.Fatalf("checking a batch of %d allocated %v times", len(batch), allocs)
	}
	for i, got := range checks {
		if got != digestOK {
			t.Fatalf("packet %d: digest %d, want digestOK", i, got)
		}
	}
}
