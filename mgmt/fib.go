package mgmt

import (
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"
)

// fibModule is NFD's fib module: add-nexthop, remove-nexthop and the
// fib/list dataset.
func (m *Manager) fibModule() module {
	return module{
		commands: map[string]command{
			"add-nexthop": {
				required: fName,
				optional: fFaceID | fCost,
				run:      m.addNextHop,
			},
			"remove-nexthop": {
				required: fName,
				optional: fFaceID,
				run:      m.removeNextHop,
			},
		},
		datasets: map[string]func() ([]byte, error){"list": m.fibList},
	}
}

// addNextHop adds or updates a FIB nexthop (NFD's fib/add-nexthop); FaceId
// 0 or absent is the requester's face, Cost defaults to 0.
func (m *Manager) addNextHop(r request, a *nfd.ControlArgs, done func(response)) {
	face, res, ok := m.routeTarget(r, a)
	if !ok {
		done(res)
		return
	}
	cost := a.Cost.GetOr(0)
	m.fwd.AddRoute(a.Name, face, cost)
	done(success(&nfd.ControlArgs{Name: a.Name, FaceId: optional.Some(uint64(face)), Cost: optional.Some(cost)}))
}

// removeNextHop removes a FIB nexthop (NFD's fib/remove-nexthop); FaceId
// 0 or absent is the requester's face. Removing what is not there
// succeeds.
func (m *Manager) removeNextHop(r request, a *nfd.ControlArgs, done func(response)) {
	face := faceOrRequester(a, r)
	m.fwd.RemoveRoute(a.Name, face)
	done(success(&nfd.ControlArgs{Name: a.Name, FaceId: optional.Some(uint64(face))}))
}

// fibList is the fib/list dataset: a FibEntry per prefix, nexthops lowest
// cost first.
func (m *Manager) fibList() ([]byte, error) {
	var st nfd.FibStatus
	for _, e := range m.fwd.FIB() {
		fe := &nfd.FibEntry{Name: e.Prefix}
		for _, nh := range e.NextHops {
			fe.NextHopRecords = append(fe.NextHopRecords, &nfd.NextHopRecord{FaceId: uint64(nh.Face), Cost: nh.Cost})
		}
		st.Entries = append(st.Entries, fe)
	}
	return st.Encode().Join(), nil
}
