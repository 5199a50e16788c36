package mgmt

import (
	"time"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/ndn"
)

// ribModule is NFD's rib module: register and unregister (also under
// /localhop/nfd), and the rib/list dataset.
func (m *Manager) ribModule() module {
	return module{
		localhop: true,
		commands: map[string]command{
			"register": {
				required: fName,
				optional: fFaceID | fOrigin | fCost | fFlags | fExpiration,
				run:      m.register,
			},
			"unregister": {
				required: fName,
				optional: fFaceID | fOrigin,
				run:      m.unregister,
			},
		},
		datasets: map[string]func() ([]byte, error){"list": m.ribList},
	}
}

// register adds a route (NFD's rib/register). FaceId 0 or absent is the
// requester's face; Origin defaults to app (0), Cost to 0, Flags to
// ChildInherit; ExpirationPeriod (milliseconds) removes the route after
// that long.
func (m *Manager) register(r request, a *nfd.ControlArgs, done func(response)) {
	face, res, ok := m.routeTarget(r, a)
	if !ok {
		done(res)
		return
	}
	route := Route{
		Face:   face,
		Origin: a.Origin.GetOr(uint64(nfd.RouteOriginApp)),
		Cost:   a.Cost.GetOr(0),
		Flags:  a.Flags.GetOr(uint64(nfd.RouteFlagChildInherit)),
	}
	var expiry time.Duration
	body := &nfd.ControlArgs{Name: a.Name, FaceId: optional.Some(uint64(face)),
		Origin: optional.Some(route.Origin), Cost: optional.Some(route.Cost), Flags: optional.Some(route.Flags)}
	if ms, ok := a.ExpirationPeriod.Get(); ok {
		expiry = time.Duration(min(ms, uint64(maxExpiry/time.Millisecond))) * time.Millisecond
		if expiry == 0 {
			expiry = time.Nanosecond // an immediate expiry, not "never"
		}
		body.ExpirationPeriod = optional.Some(ms)
	}
	m.rib.add(a.Name, route, expiry)
	done(success(body))
}

// maxExpiry caps a route's ExpirationPeriod (NFD treats the largest
// values as never; here they last a century).
const maxExpiry = 100 * 365 * 24 * time.Hour

// unregister removes a route (NFD's rib/unregister): FaceId 0 or absent
// is the requester's face, Origin defaults to app. Removing a route that
// does not exist succeeds.
func (m *Manager) unregister(r request, a *nfd.ControlArgs, done func(response)) {
	face := faceOrRequester(a, r)
	origin := a.Origin.GetOr(uint64(nfd.RouteOriginApp))
	m.rib.remove(a.Name, face, origin)
	done(success(&nfd.ControlArgs{Name: a.Name, FaceId: optional.Some(uint64(face)), Origin: optional.Some(origin)}))
}

// ribList is the rib/list dataset: a RibEntry per prefix.
func (m *Manager) ribList() ([]byte, error) {
	now := m.sched.Now()
	var st nfd.RibStatus
	for _, e := range m.rib.list() {
		re := &nfd.RibEntry{Name: e.Name}
		for _, r := range e.Routes {
			nr := &nfd.Route{FaceId: uint64(r.Face), Origin: r.Origin, Cost: r.Cost, Flags: r.Flags}
			if r.Expires > 0 {
				nr.ExpirationPeriod = optional.Some(uint64(max(0, r.Expires-now) / time.Millisecond))
			}
			re.Routes = append(re.Routes, nr)
		}
		st.Entries = append(st.Entries, re)
	}
	return st.Encode().Join(), nil
}

// RIB returns the RIB in NDN canonical name order.
func (m *Manager) RIB() []RIBEntry { return m.rib.list() }

// Register adds a route as rib/register does, for a runtime that
// registers routes of its own (configuration file, static routes). An
// expiry of 0 means never.
func (m *Manager) Register(name ndn.Name, r Route, expiry time.Duration) {
	m.rib.add(name, Route{Face: r.Face, Origin: r.Origin, Cost: r.Cost, Flags: r.Flags}, expiry)
}
