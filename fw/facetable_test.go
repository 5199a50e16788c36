package fw

import (
	"math"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

// TestRemoveFaceCleansThePIT removes a downstream and an upstream that PIT
// entries name: an entry left without downstreams goes, the others lose
// the face's records, and the face's ID is reused by the next face, which
// inherits nothing.
func TestRemoveFaceCleansThePIT(t *testing.T) {
	r := newRig(t, Config{})
	c1 := r.face("c1", FaceLocal)
	c2 := r.face("c2", FaceLocal)
	p1 := r.face("p1", FaceNetwork)
	p2 := r.face("p2", FaceNetwork)
	r.route("/a", "p1", 0)
	r.route("/b", "p2", 0)
	r.f.Receive(c1, interest("/a/1", 1))
	r.f.Receive(c1, interest("/b/1", 2))
	r.f.Receive(c2, interest("/b/1", 3)) // aggregated: c1 and c2 downstream of /b/1
	r.sent()
	if got := r.f.Counters().PITSize; got != 2 {
		t.Fatalf("PIT size %d, want 2", got)
	}

	r.f.RemoveFace(c1)
	if got := r.f.Counters().PITSize; got != 1 {
		t.Errorf("after removing c1: PIT size %d, want 1 (/a/1 had only c1 downstream)", got)
	}
	if got := r.f.PendingInterests(p1); got != 0 {
		t.Errorf("p1 pending %d after its only entry went, want 0", got)
	}
	if got := r.f.PendingInterests(p2); got != 1 {
		t.Errorf("p2 pending %d, want 1 (/b/1 still awaited for c2)", got)
	}

	// The ID comes back for the next face; Data for c1's old Interests
	// goes to c2 only, never to the newcomer.
	c3 := r.face("c3", FaceLocal)
	if c3 != c1 {
		t.Errorf("new face got ID %d, want the freed %d", c3, c1)
	}
	r.f.Receive(p2, data("/b/1", 0))
	r.f.Receive(p1, data("/a/1", 0))
	got := r.sent()
	if len(got["c3"]) != 0 || len(got["c2"]) != 1 || got["c2"][0] != "D /b/1" {
		t.Errorf("sent %v, want only D /b/1 to c2", got)
	}
	if got := r.f.Counters().UnsolicitedData; got != 1 {
		t.Errorf("unsolicited Data %d, want 1 (/a/1, whose entry went with c1)", got)
	}

	// Removing an upstream drops its out-records; the entry stays for its
	// downstream and the Interest can go elsewhere.
	r.f.Receive(c2, interest("/b/2", 4))
	r.sent()
	r.f.RemoveFace(p2)
	e := r.f.pit.find(&ndn.Interest{Name: name("/b/2")}, ndn.NameHash(name("/b/2")))
	if e == nil || len(e.OutRecords()) != 0 || len(e.InRecords()) != 1 {
		t.Fatalf("entry /b/2 after removing its upstream: %+v", e)
	}
}

// removingFace is a face whose Send removes another face, as a runtime
// might when a write fails while the forwarder is busy.
type removingFace struct {
	f      *Forwarder
	victim FaceID
	sent   int
}

func (x *removingFace) Send(ndn.Packet) {
	x.sent++
	x.f.RemoveFace(x.victim)
}

// TestRemoveFaceWhileBusy removes a face from inside a pipeline: it is
// down at once, and its cleanup and ID reuse wait until the packet is done.
func TestRemoveFaceWhileBusy(t *testing.T) {
	r := newRig(t, Config{})
	c := r.face("c", FaceLocal)
	victim := r.face("v", FaceLocal)
	rf := &removingFace{f: r.f}
	up := r.f.AddFace(rf, FaceNetwork)
	r.f.AddRoute(name("/a"), up, 0)
	r.f.Receive(victim, interest("/a/1", 1)) // the victim waits for /a/1
	rf.victim = victim
	r.f.Receive(c, interest("/a/2", 2)) // sending /a/2 upstream removes the victim
	if rf.sent != 2 {
		t.Fatalf("upstream sent %d Interests, want 2", rf.sent)
	}
	if r.f.faceUp(victim) {
		t.Error("victim still up")
	}
	if got := r.f.Counters().PITSize; got != 1 {
		t.Errorf("PIT size %d, want 1 (/a/1 went with its only downstream)", got)
	}
	if id := r.face("next", FaceLocal); id != victim {
		t.Errorf("next face got %d, want the victim's %d", id, victim)
	}
}

// TestRemoveFaceLowestIDFirst checks that freed IDs are reused lowest
// first, and new IDs are issued only when none is free.
func TestRemoveFaceLowestIDFirst(t *testing.T) {
	r := newRig(t, Config{})
	var ids []FaceID
	for range 5 {
		ids = append(ids, r.f.AddFace(&recFace{}, FaceLocal))
	}
	r.f.RemoveFace(ids[3])
	r.f.RemoveFace(ids[1])
	r.f.RemoveFace(ids[1]) // twice: no effect
	for i, want := range []FaceID{ids[1], ids[3], ids[4] + 1} {
		if got := r.f.AddFace(&recFace{}, FaceLocal); got != want {
			t.Errorf("AddFace #%d = %d, want %d", i, got, want)
		}
	}
}

// TestRemoveFaceForgottenByPCON checks that pcon's shares drop a removed
// face and still sum to 1.
func TestRemoveFaceForgottenByPCON(t *testing.T) {
	r := newRig(t, Config{DefaultStrategy: StrategyPCON})
	c := r.face("c", FaceLocal)
	a := r.face("a", FaceNetwork)
	b := r.face("b", FaceNetwork)
	x := r.face("x", FaceNetwork)
	r.route("/p", "a", 0)
	r.route("/p", "b", 1)
	r.route("/p", "x", 2)
	r.f.Receive(c, interest("/p/1", 1))
	if got := len(r.f.ForwardingShares(name("/p"))); got != 3 {
		t.Fatalf("%d shares before removal, want 3", got)
	}
	r.f.RemoveFace(x)
	shares := r.f.ForwardingShares(name("/p"))
	if _, ok := shares[x]; ok || len(shares) != 2 {
		t.Fatalf("shares after removing x: %v", shares)
	}
	if sum := shares[a] + shares[b]; math.Abs(sum-1) > 1e-12 {
		t.Errorf("shares %v sum to %v, want 1", shares, sum)
	}
}
