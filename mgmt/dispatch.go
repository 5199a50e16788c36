package mgmt

import (
	"errors"
	"fmt"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// Status codes and texts of NFD's ControlResponses.
const (
	textMalformed  = "Malformed command"               // 400: unparsable name or ControlParameters
	textInvalid    = "failed in validating parameters" // 400: fields missing, forbidden or out of range
	textUnsigned   = "Signature required"              // 401
	textRejected   = "authorization rejected"          // 403
	textUnknownMod = "Unknown module"                  // 501
	textUnknownVrb = "Unknown verb"                    // 501
)

// maxPrefixDepth is the most components a FIB or RIB prefix, or a
// strategy-choice prefix, may have (NFD's FIB depth limit).
const maxPrefixDepth = 32

// module is one NFD management module: its commands and status datasets
// by verb.
type module struct {
	commands map[string]command
	datasets map[string]func() ([]byte, error)
	// queries are datasets whose name has a parameter after the verb (a
	// filter, such as faces/query's FaceQueryFilter); a *StatusError
	// from one is the response (NFD's 400 "Malformed filter").
	queries map[string]func(param []byte) ([]byte, error)
	// localhop: the module is also served under /localhop/nfd.
	localhop bool
}

// command is one control command: the ControlParameters fields it
// requires and allows (NFD's request format), extra validation, and what
// it does. run answers exactly once through done, possibly later (a face
// creation waits for the runtime).
type command struct {
	required, optional fields
	validate           func(a *nfd.ControlArgs) error
	run                func(r request, a *nfd.ControlArgs, done func(response))
}

// modules returns the modules the manager serves, by name.
func (m *Manager) modules() map[string]module {
	return map[string]module{
		"rib":             m.ribModule(),
		"faces":           m.facesModule(),
		"fib":             m.fibModule(),
		"strategy-choice": m.strategyChoiceModule(),
		"cs":              m.csModule(),
		"status":          m.statusModule(),
	}
}

// handle answers one management Interest: /localhost/nfd/<module>/<verb>
// followed, for a command, by the ControlParameters component (and the
// ParametersSha256Digest of the signed Interest), or, for a dataset, by
// nothing (a new version) or a version and segment (a stored one).
func (m *Manager) handle(r request) {
	m.stats.Requests++
	name := r.in.Name
	top, ok := topPrefix(name)
	if !ok {
		m.stats.Dropped++ // not routed here by the manager's FIB entries
		return
	}
	if n := len(name); n < len(top)+2 ||
		(n == len(top)+2 && name[n-1].Typ == enc.TypeParametersSha256DigestComponent) {
		m.reply(r, fail(400, textMalformed, "the name has no module and verb"))
		return
	}
	if kind, up := m.fwd.FaceKind(r.from); !up || kind != fw.FaceLocal {
		m.reply(r, fail(403, textRejected, fmt.Sprintf("face %d is not a local face", r.from)))
		return
	}
	mod, ok := m.mods[componentString(name[len(top)])]
	if !ok || (top.Equal(LocalhopPrefix()) && !mod.localhop) {
		m.reply(r, fail(501, textUnknownMod, ""))
		return
	}
	verb := componentString(name[len(top)+1])
	if build, ok := mod.datasets[verb]; ok {
		m.serveDataset(r, len(top)+2, build)
		return
	}
	if query, ok := mod.queries[verb]; ok {
		at := len(top) + 2
		if len(name) == at || name[at].Typ != enc.TypeGenericNameComponent {
			m.reply(r, fail(400, "Malformed filter", ""))
			return
		}
		param := name[at].Val
		m.serveDataset(r, at+1, func() ([]byte, error) { return query(param) })
		return
	}
	cmd, ok := mod.commands[verb]
	if !ok {
		m.reply(r, fail(501, textUnknownVrb, ""))
		return
	}
	m.runCommand(r, len(top)+2, cmd)
}

// runCommand checks a control command and runs it. The ControlParameters
// are the name component at index at.
func (m *Manager) runCommand(r request, at int, cmd command) {
	name := r.in.Name
	if len(name) <= at || name[at].Typ == enc.TypeParametersSha256DigestComponent {
		m.reply(r, fail(400, textMalformed, "no ControlParameters in the name"))
		return
	}
	args, err := parseControlParameters(name[at].Val)
	if err != nil {
		m.reply(r, fail(400, textMalformed, err.Error()))
		return
	}
	if res, ok := authenticate(r.in, at); !ok {
		m.reply(r, res)
		return
	}
	if err := cmd.check(args); err != nil {
		m.reply(r, fail(400, textInvalid, err.Error()))
		return
	}
	cmd.run(r, args, func(res response) { m.reply(r, res) })
}

// authenticate applies the signature policy to a command, accepting
// both formats NFD accepts: a signed Interest of the packet format v0.3
// (InterestSignatureInfo and InterestSignatureValue, which ndn has checked
// against the ParametersSha256Digest), or, when the Interest has none, the
// older format with the signature in the name's last four components after
// the ControlParameters at index at (legacysig.go). A DigestSha256
// signature must verify. Other signature types are accepted without
// verification, as NFD's default configuration accepts them (no trust
// anchor, "certfile any"): the manager serves local faces only.
func authenticate(in *ndn.Interest, at int) (response, bool) {
	if in.Signed() {
		if in.Ext.Sig.Type == ndn.SigDigestSHA256 {
			if err := ndn.VerifyInterestDigest(in); err != nil {
				return fail(403, textRejected, "DigestSha256 signature does not verify"), false
			}
		}
		return response{}, true
	}
	if len(in.Name) == at+1 {
		return fail(401, textUnsigned, "the command is not a signed Interest"), false
	}
	sig, err := parseLegacySignature(in.Name, at)
	if err != nil {
		return fail(401, textUnsigned, fmt.Sprintf("no signature in the name: %v", err)), false
	}
	if sig.sigType == uint64(ndn.SigDigestSHA256) {
		if err := verifyLegacyDigest(in.Name, sig); err != nil {
			return fail(403, textRejected, fmt.Sprintf("DigestSha256 signature does not verify: %v", err)), false
		}
	}
	return response{}, true
}

// parseControlParameters decodes a ControlParameters element.
func parseControlParameters(b []byte) (*nfd.ControlArgs, error) {
	cp, err := ndn.ParseSafely(func() (*nfd.ControlParameters, error) {
		return nfd.ParseControlParameters(enc.NewBufferView(b), false)
	})
	if err != nil {
		return nil, fmt.Errorf("ControlParameters: %w", err)
	}
	if cp.Val == nil {
		return nil, errors.New("no ControlParameters element")
	}
	return cp.Val, nil
}

// topPrefix returns the management prefix name starts with.
func topPrefix(name ndn.Name) (ndn.Name, bool) {
	switch {
	case LocalhostPrefix().IsPrefix(name):
		return LocalhostPrefix(), true
	case LocalhopPrefix().IsPrefix(name):
		return LocalhopPrefix(), true
	}
	return nil, false
}

// componentString is the text of a generic name component ("" for any
// other type).
func componentString(c enc.Component) string {
	if c.Typ != enc.TypeGenericNameComponent {
		return ""
	}
	return string(c.Val)
}

// checkDepth reports a prefix longer than the FIB allows (NFD's 414).
func checkDepth(name ndn.Name) (response, bool) {
	if len(name) > maxPrefixDepth {
		return fail(414, "Prefix has too many components", fmt.Sprintf("limit is %d", maxPrefixDepth)), false
	}
	return response{}, true
}

// routeTarget checks the prefix and the face of a route to add (rib/
// register, fib/add-nexthop): the prefix within the FIB's depth (414), the
// face (the requester's when FaceId is 0 or absent) up (410).
func (m *Manager) routeTarget(r request, a *nfd.ControlArgs) (fw.FaceID, response, bool) {
	if res, ok := checkDepth(a.Name); !ok {
		return 0, res, false
	}
	face := faceOrRequester(a, r)
	if _, up := m.fwd.FaceKind(face); !up {
		return 0, fail(410, "Face not found", ""), false
	}
	return face, response{}, true
}

// faceOrRequester returns the FaceId of a command, the requester's face
// when it is 0 or absent (NFD's self-registration).
func faceOrRequester(a *nfd.ControlArgs, r request) fw.FaceID {
	if id := a.FaceId.GetOr(0); id != 0 {
		return fw.FaceID(min(id, 1<<32-1))
	}
	return r.from
}
