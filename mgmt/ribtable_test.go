package mgmt

import (
	"testing"
	"time"

	"github.com/ndncc/ndncc/fw"
)

// TestRIBToFIB registers routes and checks the FIB entries the RIB
// computes, as NFD would: own routes (lowest cost per face), inherited
// ChildInherit routes of the entries above, Capture blocking them.
func TestRIBToFIB(t *testing.T) {
	const inherit, capture = 1, 2
	type reg struct {
		prefix string
		route  Route
	}
	type unreg struct {
		prefix string
		face   fw.FaceID
		origin uint64
	}
	tests := []struct {
		name   string
		regs   []reg
		unregs []unreg
		want   map[string]string // prefix -> FIB nexthops
	}{{
		name: "child inherits",
		regs: []reg{{"/a", Route{Face: 1, Cost: 5, Flags: inherit}}, {"/a/b", Route{Face: 2, Cost: 1}}},
		want: map[string]string{"/a": "1/5", "/a/b": "2/1 1/5"},
	}, {
		name: "no ChildInherit, no inheritance",
		regs: []reg{{"/a", Route{Face: 1, Cost: 5}}, {"/a/b", Route{Face: 2, Cost: 1}}},
		want: map[string]string{"/a": "1/5", "/a/b": "2/1"},
	}, {
		name: "Capture blocks what is above",
		regs: []reg{{"/a", Route{Face: 1, Flags: inherit}}, {"/a/b", Route{Face: 2, Flags: capture | inherit}},
			{"/a/b/c", Route{Face: 4, Cost: 4}}},
		want: map[string]string{"/a/b": "2/0", "/a/b/c": "2/0 4/4"},
	}, {
		name: "own route wins over an inherited one on the same face",
		regs: []reg{{"/a", Route{Face: 1, Cost: 1, Flags: inherit}}, {"/a/b", Route{Face: 1, Cost: 9}}},
		want: map[string]string{"/a": "1/1", "/a/b": "1/9"},
	}, {
		name: "two origins on one face: the lower cost",
		regs: []reg{{"/a", Route{Face: 1, Origin: 0, Cost: 8}}, {"/a", Route{Face: 1, Origin: 255, Cost: 3}}},
		want: map[string]string{"/a": "1/3"},
	}, {
		name: "inheritance from two levels up, through an entry without routes of its own",
		regs: []reg{{"/", Route{Face: 1, Flags: inherit}}, {"/a/b/c", Route{Face: 2}}},
		want: map[string]string{"/": "1/0", "/a/b/c": "2/0 1/0"},
	}, {
		name:   "unregistering the parent takes its routes out of the child",
		regs:   []reg{{"/a", Route{Face: 1, Flags: inherit}}, {"/a/b", Route{Face: 2}}},
		unregs: []unreg{{"/a", 1, 0}},
		want:   map[string]string{"/a": "", "/a/b": "2/0"},
	}, {
		name:   "unregistering one origin keeps the other",
		regs:   []reg{{"/a", Route{Face: 1, Origin: 0, Cost: 8}}, {"/a", Route{Face: 1, Origin: 255, Cost: 3}}},
		unregs: []unreg{{"/a", 1, 255}},
		want:   map[string]string{"/a": "1/8"},
	}, {
		name:   "re-registering replaces the route",
		regs:   []reg{{"/a", Route{Face: 1, Cost: 8}}, {"/a", Route{Face: 1, Cost: 2}}},
		unregs: []unreg{{"/nothing", 1, 0}},
		want:   map[string]string{"/a": "1/2"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			// Faces 1 (app), 2 (net), 3 (the manager's) and 4.
			if f := h.faces.add(FaceInfo{Remote: "udp4://192.0.2.3:6363"}, fw.FaceNetwork); f.ID != 4 {
				t.Fatalf("face %d, want 4", f.ID)
			}
			for _, r := range tt.regs {
				h.m.Register(name(t, r.prefix), r.route, 0)
			}
			for _, u := range tt.unregs {
				h.m.rib.remove(name(t, u.prefix), u.face, u.origin)
			}
			for prefix, want := range tt.want {
				if got := fibOf(t, h.fwd, prefix); got != want {
					t.Errorf("FIB %s = %q, want %q", prefix, got, want)
				}
			}
		})
	}
}

// TestRouteExpiry: a route with an ExpirationPeriod leaves the RIB and the
// FIB when it expires; re-registering pushes the expiry back.
func TestRouteExpiry(t *testing.T) {
	h := newHarness(t)
	h.m.Register(name(t, "/e"), Route{Face: h.app.ID}, 100*time.Millisecond)
	h.s.AdvanceTo(60 * time.Millisecond)
	h.m.Register(name(t, "/e"), Route{Face: h.app.ID}, 100*time.Millisecond) // now expires at 160 ms
	h.s.AdvanceTo(150 * time.Millisecond)
	if got := fibOf(t, h.fwd, "/e"); got != "1/0" {
		t.Fatalf("FIB /e at 150 ms = %q", got)
	}
	h.s.AdvanceTo(160 * time.Millisecond)
	if got := fibOf(t, h.fwd, "/e"); got != "" || len(appRIB(h.m)) != 0 {
		t.Fatalf("FIB /e after expiry = %q, RIB %v", got, appRIB(h.m))
	}
}

// TestRemovedFaceLosesRoutes: a face the forwarder removes loses its RIB
// routes, and what other prefixes inherited from them is recomputed.
func TestRemovedFaceLosesRoutes(t *testing.T) {
	h := newHarness(t)
	h.m.Register(name(t, "/a"), Route{Face: h.net.ID, Flags: 1}, time.Second)
	h.m.Register(name(t, "/a/b"), Route{Face: h.app.ID}, 0)
	h.fwd.RemoveFace(h.net.ID)
	if got := fibOf(t, h.fwd, "/a/b"); got != "1/0" {
		t.Errorf("FIB /a/b = %q", got)
	}
	rib := appRIB(h.m)
	if len(rib) != 1 || !rib[0].Name.Equal(name(t, "/a/b")) {
		t.Errorf("RIB %v", rib)
	}
	h.s.AdvanceTo(2 * time.Second) // the removed route's expiry timer was stopped
	if got := fibOf(t, h.fwd, "/a/b"); got != "1/0" {
		t.Errorf("FIB /a/b after the old expiry = %q", got)
	}
}
