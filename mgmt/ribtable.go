package mgmt

import (
	"cmp"
	"slices"
	"time"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Route is one RIB route: a face that reaches a prefix, registered by an
// origin (app, static, nlsr, ...) with a cost and flags.
type Route struct {
	Face   fw.FaceID
	Origin uint64
	Cost   uint64
	// Flags are NFD's route flags: ChildInherit (1), Capture (2).
	Flags uint64
	// Expires is when the route goes (scheduler time); 0 means never.
	Expires time.Duration

	timer sched.Timer
}

// ribEntry is the routes of one prefix and the nexthops the RIB installed
// in the FIB for it.
type ribEntry struct {
	name      ndn.Name
	routes    []Route
	installed []fw.NextHop
}

func (e *ribEntry) capture() bool {
	for _, r := range e.routes {
		if nfd.RouteFlagCapture.IsSet(r.Flags) {
			return true
		}
	}
	return false
}

// rib is the Routing Information Base: routes by prefix, from which it
// computes the FIB's nexthops as NFD does. A prefix's nexthops are its own
// routes (per face, the lowest cost), then, unless one of its routes has
// Capture, the ChildInherit routes of the RIB entries above it on faces it
// does not use yet, nearest first, stopping after an entry with Capture.
// The RIB writes the FIB entries of its prefixes only; fib/add-nexthop can
// change them until the RIB next recomputes that prefix (as in NFD).
type rib struct {
	fwd     *fw.Forwarder
	sched   sched.Scheduler
	entries map[string]*ribEntry // by name TLV
}

func newRIB(fwd *fw.Forwarder, s sched.Scheduler) *rib {
	return &rib{fwd: fwd, sched: s, entries: map[string]*ribEntry{}}
}

func nameKey(n ndn.Name) string { return string(n.Bytes()) }

// add adds or replaces the route of (face, origin) for name; a route with
// expiry (> 0) is removed after it.
func (t *rib) add(name ndn.Name, r Route, expiry time.Duration) {
	e := t.entries[nameKey(name)]
	if e == nil {
		e = &ribEntry{name: name.Clone()}
		t.entries[nameKey(name)] = e
	}
	i := slices.IndexFunc(e.routes, func(x Route) bool { return x.Face == r.Face && x.Origin == r.Origin })
	if i < 0 {
		e.routes = append(e.routes, r)
		i = len(e.routes) - 1
	} else if old := e.routes[i].timer; old != nil {
		old.Stop()
	}
	if expiry > 0 {
		r.Expires = t.sched.Now() + expiry
		face, origin := r.Face, r.Origin
		r.timer = t.sched.After(expiry, func() { t.remove(e.name, face, origin) })
	}
	e.routes[i] = r
	t.update(e.name)
}

// remove removes the route of (face, origin) for name, if any.
func (t *rib) remove(name ndn.Name, face fw.FaceID, origin uint64) {
	e := t.entries[nameKey(name)]
	if e == nil {
		return
	}
	e.routes = slices.DeleteFunc(e.routes, func(x Route) bool {
		if x.Face == face && x.Origin == origin {
			if x.timer != nil {
				x.timer.Stop()
			}
			return true
		}
		return false
	})
	t.update(e.name)
}

// removeFace removes every route through face.
func (t *rib) removeFace(face fw.FaceID) {
	var touched []ndn.Name
	for _, e := range t.entries {
		n := len(e.routes)
		e.routes = slices.DeleteFunc(e.routes, func(x Route) bool {
			if x.Face == face && x.timer != nil {
				x.timer.Stop()
			}
			return x.Face == face
		})
		if len(e.routes) != n {
			touched = append(touched, e.name)
		}
	}
	for _, n := range touched {
		t.update(n)
	}
}

// update recomputes the FIB nexthops of name and of every RIB entry below
// it (they may inherit its routes), and forgets entries left without
// routes.
func (t *rib) update(name ndn.Name) {
	var below []*ribEntry
	for _, e := range t.entries {
		if name.IsPrefix(e.name) {
			below = append(below, e)
		}
	}
	for _, e := range below {
		t.install(e, t.nexthops(e))
		if len(e.routes) == 0 {
			delete(t.entries, nameKey(e.name))
		}
	}
}

// nexthops computes the FIB nexthops of e: none once e has no routes.
func (t *rib) nexthops(e *ribEntry) []fw.NextHop {
	if len(e.routes) == 0 {
		return nil
	}
	var hops []fw.NextHop
	addHop := func(face fw.FaceID, cost uint64, replace bool) {
		for i := range hops {
			if hops[i].Face == face {
				if replace && cost < hops[i].Cost {
					hops[i].Cost = cost
				}
				return
			}
		}
		hops = append(hops, fw.NextHop{Face: face, Cost: cost})
	}
	for _, r := range e.routes {
		addHop(r.Face, r.Cost, true)
	}
	if e.capture() {
		return hops
	}
	for l := len(e.name) - 1; l >= 0; l-- {
		anc := t.entries[nameKey(e.name[:l])]
		if anc == nil {
			continue
		}
		for _, r := range anc.routes {
			if nfd.RouteFlagChildInherit.IsSet(r.Flags) {
				addHop(r.Face, r.Cost, false)
			}
		}
		if anc.capture() {
			break
		}
	}
	return hops
}

// install makes the FIB entry of e hold hops, changing only what differs
// from what the RIB installed before.
func (t *rib) install(e *ribEntry, hops []fw.NextHop) {
	for _, old := range e.installed {
		if !slices.ContainsFunc(hops, func(h fw.NextHop) bool { return h.Face == old.Face }) {
			t.fwd.RemoveRoute(e.name, old.Face)
		}
	}
	for _, h := range hops {
		if !slices.Contains(e.installed, h) {
			t.fwd.AddRoute(e.name, h.Face, h.Cost)
		}
	}
	e.installed = hops
}

// RIBEntry is one prefix of the RIB with its routes.
type RIBEntry struct {
	Name   ndn.Name
	Routes []Route
}

// list returns the RIB in NDN canonical name order, routes by face then
// origin.
func (t *rib) list() []RIBEntry {
	out := make([]RIBEntry, 0, len(t.entries))
	for _, e := range t.entries {
		rs := slices.Clone(e.routes)
		slices.SortFunc(rs, func(a, b Route) int {
			if a.Face != b.Face {
				return int(a.Face) - int(b.Face)
			}
			return cmp.Compare(a.Origin, b.Origin)
		})
		out = append(out, RIBEntry{Name: e.name, Routes: rs})
	}
	slices.SortFunc(out, func(a, b RIBEntry) int { return a.Name.Compare(b.Name) })
	return out
}
