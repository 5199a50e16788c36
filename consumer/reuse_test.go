package consumer

import (
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// encodingNet is a fakeNet behind an ndn.EncodingFace: like a live face,
// it is done with each Interest when Send returns (it hands the network a
// copy), and it records which Interest structs it was given.
type encodingNet struct {
	*fakeNet
	given map[*ndn.Interest]bool
	names []string
}

func (e *encodingNet) EncodesOnSend() {}

func (e *encodingNet) Send(pkt ndn.Packet) {
	e.given[pkt.Interest] = true
	in := *pkt.Interest
	in.Name = pkt.Interest.Name.Clone()
	e.names = append(e.names, in.Name.String())
	e.fakeNet.Send(ndn.Packet{Interest: &in})
}

// TestEncodingFaceReusesTheInterest runs one lossy fetch twice, over a
// face that keeps the Interests it is given and over an EncodingFace: the
// pipeline must send the same Interests (segment, attempt, nonce, time)
// and deliver the same segments, and over the EncodingFace reuse one
// Interest struct for all of them.
func TestEncodingFaceReusesTheInterest(t *testing.T) {
	script := func(seg uint64, attempt int) action {
		return action{drop: seg%7 == 3 && attempt == 0, delay: ms(20), mark: seg%50 == 10}
	}
	kept := newFetch(t, "cubic", nil, 300, script)
	kept.run(t)

	var e *encodingNet
	reused := newFetchVia(t, "cubic", nil, 300, script, func(n *fakeNet) ndn.Face {
		e = &encodingNet{fakeNet: n, given: map[*ndn.Interest]bool{}}
		return e
	})
	reused.run(t)

	if len(e.given) != 1 {
		t.Fatalf("the pipeline gave the EncodingFace %d Interest structs, want 1", len(e.given))
	}
	if len(kept.net.log) != len(reused.net.log) {
		t.Fatalf("%d Interests sent over the EncodingFace, %d otherwise", len(reused.net.log), len(kept.net.log))
	}
	for i, s := range kept.net.log {
		if reused.net.log[i] != s {
			t.Fatalf("Interest %d: %+v over the EncodingFace, %+v otherwise", i, reused.net.log[i], s)
		}
	}
	if len(kept.order) != len(reused.order) || len(kept.order) != 301 {
		t.Fatalf("%d segments delivered over the EncodingFace, %d otherwise", len(reused.order), len(kept.order))
	}
	if e.names[5] != "/example/file/v=1/seg=5" {
		t.Fatalf("Interest 5 named %s", e.names[5])
	}
}
