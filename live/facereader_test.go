package live

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/ndncc/ndncc/internal/ndntest"
	"github.com/ndncc/ndncc/ndn"
)

// decoded returns a received DigestSha256 Data of n content bytes, as a
// reader decodes it, with a byte of its content, name or signature value
// changed (change: "content", "name", "signature"; "" changes nothing).
func decoded(t *testing.T, name string, n int, change string) received {
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
	return received{pkt: pkt, digest: digestPending}
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
				batch := make([]received, 0, size+1)
				for i := range size {
					change := ""
					if i == bad {
						change = where
					}
					batch = append(batch, decoded(t, fmt.Sprintf("/batch/seg=%d", i), 100+1000*(i%9), change))
				}
				interest := received{pkt: ndn.Packet{Interest: &ndn.Interest{Name: ndntest.Name(t, "/i")}}}
				batch = append(batch, interest)
				v.check(batch)
				for i, r := range batch {
					want := digestOK
					switch {
					case i == size:
						want = digestUnchecked
					case i == bad:
						want = digestBad
					}
					if r.digest != want {
						t.Errorf("packet %d of %d: digest %d, want %d", i, len(batch), r.digest, want)
					}
				}
			})
		}
	}
}

// TestDigestBatchAllocatesNothing: once its buffers have grown, checking a
// batch allocates nothing.
func TestDigestBatchAllocatesNothing(t *testing.T) {
	batch := make([]received, 0, maxReadBatch)
	for i := range maxReadBatch {
		batch = append(batch, decoded(t, fmt.Sprintf("/batch/seg=%d", i), 8000, ""))
	}
	var v digestBatch
	v.check(batch)
	allocs := testing.AllocsPerRun(10, func() {
		for i := range batch {
			batch[i].digest = digestPending
		}
		v.check(batch)
	})
	if allocs != 0 {
		t.Fatalf("checking a batch of %d allocated %v times", len(batch), allocs)
	}
	for i, r := range batch {
		if r.digest != digestOK {
			t.Fatalf("packet %d: digest %d, want digestOK", i, r.digest)
		}
	}
}
