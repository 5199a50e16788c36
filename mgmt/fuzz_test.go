package mgmt

import (
	"slices"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"

	"github.com/ndncc/ndncc/ndn"
)

// FuzzManagerRequest sends the manager command Interests with arbitrary
// module, verb and ControlParameters bytes, signed or not, from a local or
// a network face. Whatever the bytes, the manager must not panic and must
// answer exactly once with a ControlResponse of one of NFD's codes; from a
// network face the forwarder's scope control drops the /localhost
// Interest before it reaches the manager (no answer at all).
func FuzzManagerRequest(f *testing.F) {
	seeds := []struct {
		module, verb string
		args         *nfd.ControlArgs
	}{
		{"rib", "register", &nfd.ControlArgs{Name: enc.Name{enc.NewGenericComponent("a")}, Cost: some(uint64(3)), ExpirationPeriod: some(uint64(10))}},
		{"rib", "unregister", &nfd.ControlArgs{Name: enc.Name{enc.NewGenericComponent("a")}, FaceId: some(uint64(1))}},
		{"fib", "add-nexthop", &nfd.ControlArgs{Name: enc.Name{}, FaceId: some(uint64(2))}},
		{"fib", "remove-nexthop", &nfd.ControlArgs{Name: enc.Name{enc.NewGenericComponent("a")}}},
		{"faces", "create", &nfd.ControlArgs{Uri: some("udp4://192.0.2.1:6363"), Flags: some(uint64(1)), Mask: some(uint64(1))}},
		{"faces", "destroy", &nfd.ControlArgs{FaceId: some(uint64(2))}},
		{"strategy-choice", "set", &nfd.ControlArgs{Name: enc.Name{}, Strategy: &nfd.Strategy{Name: StrategyName("pcon")}}},
		{"strategy-choice", "unset", &nfd.ControlArgs{Name: enc.Name{enc.NewGenericComponent("a")}}},
		{"cs", "config", &nfd.ControlArgs{Capacity: some(uint64(10)), Flags: some(uint64(2)), Mask: some(uint64(3))}},
		{"faces", "list", &nfd.ControlArgs{}},
	}
	for i, s := range seeds {
		f.Add(s.module, s.verb, (&nfd.ControlParameters{Val: s.args}).Bytes(), i%3 != 2, i%4 != 3)
	}
	f.Add("rib", "register", []byte{0x68, 0x05, 0x07, 0xfe, 0xff, 0xff, 0xff}, true, true)
	f.Fuzz(func(t *testing.T, module, verb string, params []byte, signed, local bool) {
		h := newHarness(t)
		n := append(LocalhostPrefix(), enc.NewGenericComponent(module), enc.NewGenericComponent(verb),
			enc.NewGenericBytesComponent(params))
		var signer ndnd.Signer
		if signed {
			signer = sec.NewSha256Signer()
		}
		e, err := spec.Spec{}.MakeInterest(n, &ndnd.InterestConfig{Nonce: some(uint32(1)), SigNonce: []byte{1}},
			enc.Wire{}, signer)
		if err != nil {
			t.Skip("ndnd cannot encode this name")
		}
		p, err := ndn.DecodeFrame(e.Wire.Join())
		if err != nil {
			t.Skip("not a decodable Interest")
		}
		from := h.net
		if local {
			from = h.app
		}
		got := h.send(from, p.Interest)
		if dropped(t, h, got) {
			return
		}
		if !local {
			if len(got) != 0 {
				t.Fatalf("%d packets back for /localhost from a network face, want none", len(got))
			}
			return
		}
		res := oneAnswer(t, got)
		if res.StatusCode == 200 && (!local || !signed) {
			t.Fatalf("status 200 for a command that is unsigned (%t) or from a network face (%t)", !signed, !local)
		}
	})
}

// FuzzLegacySignedCommand sends the manager commands in the older
// signed-command format, with arbitrary ControlParameters, SignatureInfo
// and SignatureValue component values. The manager must answer exactly
// once with one of NFD's codes, and 200 only when the signature components
// are well formed.
func FuzzLegacySignedCommand(f *testing.F) {
	params := (&nfd.ControlParameters{Val: &nfd.ControlArgs{Name: enc.Name{enc.NewGenericComponent("a")}}}).Bytes()
	ok := legacySign(append(LocalhostPrefix(), enc.NewGenericComponent("rib"), enc.NewGenericComponent("register"),
		enc.NewGenericBytesComponent(params)), 1, signLegacy)
	f.Add("rib", "register", params, ok[len(ok)-2].Val, ok[len(ok)-1].Val)
	ecdsa := legacySign(ok[:len(ok)-4], 2, signLegacyECDSA)
	f.Add("rib", "unregister", params, ecdsa[len(ecdsa)-2].Val, ecdsa[len(ecdsa)-1].Val)
	f.Add("faces", "destroy", []byte{0x68, 0x03, 0x69, 0x01, 0x05}, []byte{0x16, 0x03, 0x1b, 0x01, 0x03}, []byte{0x17, 0x00})
	f.Add("cs", "config", []byte{0x68, 0x00}, []byte{0x16, 0xff}, []byte{})
	f.Fuzz(func(t *testing.T, module, verb string, params, info, value []byte) {
		h := newHarness(t)
		n := append(LocalhostPrefix(), enc.NewGenericComponent(module), enc.NewGenericComponent(verb),
			enc.NewGenericBytesComponent(params), enc.NewNumberComponent(enc.TypeGenericNameComponent, 1),
			enc.NewGenericBytesComponent([]byte{1}), enc.NewGenericBytesComponent(info), enc.NewGenericBytesComponent(value))
		e, err := spec.Spec{}.MakeInterest(n, &ndnd.InterestConfig{Nonce: some(uint32(1))}, nil, nil)
		if err != nil {
			t.Skip("ndnd cannot encode this name")
		}
		p, err := ndn.DecodeFrame(e.Wire.Join())
		if err != nil {
			t.Skip("not a decodable Interest")
		}
		got := h.send(h.app, p.Interest)
		if dropped(t, h, got) {
			return
		}
		if slices.ContainsFunc(p.Interest.Name, func(c enc.Component) bool { return len(c.Val) > 252 }) {
			// ndnd v1.5.3 cannot encode such a component (ndn's
			// maxComponentLen): no Data can carry the answer's name, and
			// the manager counts the request dropped.
			if len(got) != 0 || h.m.Stats().Dropped != 1 {
				t.Fatalf("%d packets back, %d dropped, for a name with a component over 252 bytes; want none back, one dropped", len(got), h.m.Stats().Dropped)
			}
			return
		}
		res := oneAnswer(t, got)
		if res.StatusCode == 200 {
			if _, err := parseLegacySignature(p.Interest.Name, len(LocalhostPrefix())+2); err != nil {
				t.Fatalf("status 200 with a malformed signature: %v", err)
			}
		}
	})
}

// dropped reports whether the forwarder dropped the request on arrival for
// its name's component limit (before management, docs/security.md), and
// then fails the test if anything answered it.
func dropped(t *testing.T, h *harness, got []ndn.Packet) bool {
	t.Helper()
	if h.fwd.Counters().NameTooLongDrops == 0 {
		return false
	}
	if len(got) != 0 {
		t.Fatalf("%d packets back for a name the forwarder dropped", len(got))
	}
	return true
}

// oneAnswer returns the one ControlResponse in got, failing the test unless
// there is exactly one, with one of NFD's status codes.
func oneAnswer(t *testing.T, got []ndn.Packet) *nfd.ControlResponseVal {
	t.Helper()
	if len(got) != 1 || got[0].Data == nil {
		t.Fatalf("%d packets back, want one ControlResponse", len(got))
	}
	res := controlResponse(t, got[0].Data)
	switch res.StatusCode {
	case 200, 400, 401, 403, 404, 406, 409, 410, 414, 500, 501, 504:
	default:
		t.Fatalf("status %d %q", res.StatusCode, res.StatusText)
	}
	return res
}
