package fw

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
)

// fakeSched is the virtual-time scheduler the simulator runs on;
// advanceTo runs every callback due up to time t, then sets the clock to t.
type fakeSched struct{ vclock.Scheduler }

func (s *fakeSched) advanceTo(t time.Duration) { s.AdvanceTo(t) }

// recFace records what the forwarder sends on it.
type recFace struct{ sent []ndn.Packet }

func (r *recFace) Send(p ndn.Packet) { r.sent = append(r.sent, p) }

func name(s string) ndn.Name {
	n, err := enc.NameFromStr(s)
	if err != nil {
		panic(err)
	}
	return n
}

// interest builds an Interest; opts tweak it.
func interest(n string, nonce uint32, opts ...func(*ndn.Interest)) ndn.Packet {
	it := &ndn.Interest{Name: name(n), Nonce: nonce}
	for _, o := range opts {
		o(it)
	}
	return ndn.Packet{Interest: it}
}

func lifetime(d time.Duration) func(*ndn.Interest) {
	return func(it *ndn.Interest) { it.Lifetime = d }
}

func hopLimit(h uint8) func(*ndn.Interest) {
	return func(it *ndn.Interest) { it.HopLimit, it.HasHopLimit = h, true }
}

func canBePrefix(it *ndn.Interest) { it.CanBePrefix = true }
func mustBeFresh(it *ndn.Interest) { it.MustBeFresh = true }

func data(n string, freshness time.Duration) ndn.Packet {
	return ndn.Packet{Data: &ndn.Data{Name: name(n), Freshness: freshness}}
}

func nack(p ndn.Packet, reason ndn.NackReason) ndn.Packet {
	p.Nack = reason
	return p
}

func withToken(p ndn.Packet, token ...byte) ndn.Packet {
	p.PitToken = token
	return p
}

func marked(p ndn.Packet, mark uint64) ndn.Packet {
	p.CongestionMark = mark
	return p
}

// describe renders a packet for comparison: "I /a/1 nonce=1", "D /a/1",
// "N:Duplicate /a/1 nonce=1", with " hop=N", " mark=N", " token=HEX" and
// " from=FACE" (IncomingFaceID) when present.
func describe(p ndn.Packet) string {
	var b strings.Builder
	switch {
	case p.Data != nil:
		fmt.Fprintf(&b, "D %s", p.Data.Name)
	case p.Nack != ndn.NackNone:
		fmt.Fprintf(&b, "N:%s %s nonce=%d", p.Nack, p.Interest.Name, p.Interest.Nonce)
	default:
		fmt.Fprintf(&b, "I %s nonce=%d", p.Interest.Name, p.Interest.Nonce)
		if p.Interest.HasHopLimit {
			fmt.Fprintf(&b, " hop=%d", p.Interest.HopLimit)
		}
	}
	if p.CongestionMark > 0 {
		fmt.Fprintf(&b, " mark=%d", p.CongestionMark)
	}
	if p.PitToken != nil {
		fmt.Fprintf(&b, " token=%x", p.PitToken)
	}
	if p.IncomingFaceID != 0 {
		fmt.Fprintf(&b, " from=%d", p.IncomingFaceID)
	}
	return b.String()
}

// rig is one forwarder with named recording faces on a fake scheduler.
type rig struct {
	t     *testing.T
	s     *fakeSched
	f     *Forwarder
	ids   map[string]FaceID
	faces map[string]*recFace
	order []string
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	s := &fakeSched{}
	f, err := New(cfg, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return &rig{t: t, s: s, f: f, ids: map[string]FaceID{}, faces: map[string]*recFace{}}
}

// face adds a recording face called n.
func (r *rig) face(n string, kind FaceKind) FaceID {
	rf := &recFace{}
	id := r.f.AddFace(rf, kind)
	r.ids[n], r.faces[n] = id, rf
	r.order = append(r.order, n)
	return id
}

func (r *rig) route(prefix, face string, cost uint64) {
	r.f.AddRoute(name(prefix), r.ids[face], cost)
}

// sent returns, per face, what was sent since the last call.
func (r *rig) sent() map[string][]string {
	out := map[string][]string{}
	for _, n := range r.order {
		rf := r.faces[n]
		for _, p := range rf.sent {
			out[n] = append(out[n], describe(p))
		}
		rf.sent = rf.sent[:0]
	}
	return out
}

// step is one line of a forwarding script: at time at, packet pkt arrives
// on face on (no packet if on is ""); afterwards each face has sent exactly
// want and the PIT holds pit entries.
type step struct {
	at   time.Duration
	on   string
	pkt  ndn.Packet
	want map[string][]string
	pit  int
}

func (r *rig) run(steps []step) {
	r.t.Helper()
	for i, st := range steps {
		r.s.advanceTo(st.at)
		if st.on != "" {
			id, ok := r.ids[st.on]
			if !ok {
				r.t.Fatalf("step %d: no face %q", i, st.on)
			}
			r.f.Receive(id, st.pkt)
		}
		got := r.sent()
		want := st.want
		if want == nil {
			want = map[string][]string{}
		}
		if !equalSent(got, want) {
			r.t.Errorf("step %d (t=%v, on %s): sent %v, want %v", i, st.at, st.on, got, want)
		}
		if n := r.f.Counters().PITSize; n != st.pit {
			r.t.Errorf("step %d (t=%v): PIT size %d, want %d", i, st.at, n, st.pit)
		}
	}
}

func equalSent(a, b map[string][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

const ms = time.Millisecond
