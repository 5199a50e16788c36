package fw

import (
	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// Namespace-based scope control, as NFD's (its fw::scope_prefix and the
// face scope):
//
//   - /localhost: Interests and Data only from and to local faces. A
//     /localhost Interest or Data that arrives on a network face is
//     dropped; a /localhost Interest is never sent on a network face, nor a
//     /localhost Data.
//   - /localhop: an Interest that arrived on a network face is never sent
//     on another network face (it reaches this node's applications only);
//     one from a local face may go anywhere. Data under /localhop is not
//     restricted.
//
// Local faces (FaceLocal) are applications on this node and the
// management module; every network face (FaceNetwork) is non-local,
// whatever its address: a UDP or TCP peer on a loopback address is still a
// network face, since anything on the host may send from there.

// scope is the scope class of a name.
type scope uint8

const (
	scopeNone      scope = iota // not under /localhost or /localhop
	scopeLocalhost              // under /localhost
	scopeLocalhop               // under /localhop
)

// scopeOf returns the scope class of name, from its first component
// only: a constant cost per packet. The value is looked at first: for
// most names its length alone rules both scopes out.
func scopeOf(name ndn.Name) scope {
	if len(name) == 0 {
		return scopeNone
	}
	var s scope
	switch string(name[0].Val) {
	case "localhost":
		s = scopeLocalhost
	case "localhop":
		s = scopeLocalhop
	default:
		return scopeNone
	}
	if name[0].Typ != enc.TypeGenericNameComponent {
		return scopeNone
	}
	return s
}

// isLocal reports whether face id is up and local.
func (f *Forwarder) isLocal(id FaceID) bool {
	return f.faceUp(id) && f.faces[id].kind == FaceLocal
}

// violatesScope reports whether an Interest of entry e that arrived on
// face in may not be sent on face out (NFD's wouldViolateScope).
func (f *Forwarder) violatesScope(e *PitEntry, in, out FaceID) bool {
	switch e.scope {
	case scopeNone:
		return false
	case scopeLocalhost:
		return !f.isLocal(out)
	default: // scopeLocalhop
		return !f.isLocal(out) && !f.isLocal(in)
	}
}

// scopeNexthops returns the nexthops an Interest of e (a scoped name)
// that arrived on face in may use, counting those it may not. The slice
// is the forwarder's scratch space, valid until the next Interest.
func (f *Forwarder) scopeNexthops(e *PitEntry, in FaceID, nexthops []NextHop) []NextHop {
	out := f.scoped[:0]
	for _, nh := range nexthops {
		if f.violatesScope(e, in, nh.Face) {
			f.counters.ScopeDeniedNexthops++
			continue
		}
		out = append(out, nh)
	}
	f.scoped = out
	return out
}
