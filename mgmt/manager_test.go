package mgmt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// some wraps a value as ndnd's optional.
func some[T any](v T) optional.Optional[T] { return optional.Some(v) }

// fibOf renders the FIB entry of prefix: "face/cost face/cost".
func fibOf(t *testing.T, fwd *fw.Forwarder, prefix string) string {
	t.Helper()
	n := name(t, prefix)
	for _, e := range fwd.FIB() {
		if e.Prefix.Equal(n) {
			var parts []string
			for _, nh := range e.NextHops {
				parts = append(parts, fmt.Sprintf("%d/%d", nh.Face, nh.Cost))
			}
			return strings.Join(parts, " ")
		}
	}
	return ""
}

// TestCommands drives the manager with command Interests built by ndnd's
// own client code (mgmt_2022.MakeCmd, as ndnd's engine sends them) and
// checks the ControlResponse and the effect, command by command.
func TestCommands(t *testing.T) {
	long := strings.Repeat("/x", maxPrefixDepth+1)
	tests := []struct {
		name         string
		local        bool // /localhost/nfd (else /localhop/nfd)
		fromNet      bool // sent from the network face
		module, verb string
		args         *nfd.ControlArgs
		sign         signer
		setup        func(h *harness)
		code         uint64
		text         string // prefix of the StatusText
		check        func(t *testing.T, h *harness, body *nfd.ControlArgs)
	}{{
		name: "rib/register of the requester's face", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/app")}, code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if b.FaceId.Unwrap() != uint64(h.app.ID) || b.Origin.Unwrap() != 0 || b.Cost.Unwrap() != 0 || b.Flags.Unwrap() != 1 || !b.Name.Equal(name(t, "/app")) {
				t.Errorf("body %+v", b)
			}
			if got := fibOf(t, h.fwd, "/app"); got != fmt.Sprintf("%d/0", h.app.ID) {
				t.Errorf("FIB /app = %q", got)
			}
		},
	}, {
		name: "rib/register of another face, with cost, origin and expiry", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/far"), FaceId: some(uint64(2)), Cost: some(uint64(10)),
			Origin: some(uint64(255)), ExpirationPeriod: some(uint64(60000))}, code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if b.FaceId.Unwrap() != 2 || b.Origin.Unwrap() != 255 || b.ExpirationPeriod.Unwrap() != 60000 {
				t.Errorf("body %+v", b)
			}
			if got := fibOf(t, h.fwd, "/far"); got != "2/10" {
				t.Errorf("FIB /far = %q", got)
			}
		},
	}, {
		name: "rib/register under /localhop/nfd (ndnd's tools over TCP)", module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/hop")}, code: 200, text: "OK",
	}, {
		name: "rib/register of an unknown face", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/a"), FaceId: some(uint64(99))}, code: 410, text: "Face not found",
	}, {
		name: "rib/register without Name", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Cost: some(uint64(1))}, code: 400, text: "failed in validating parameters: Name is required but missing",
	}, {
		name: "rib/register with a forbidden field", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/a"), Uri: some("udp4://1.2.3.4:6363")}, code: 400,
		text: "failed in validating parameters: Uri is forbidden but present",
	}, {
		name: "rib/register of a too long prefix", local: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, long)}, code: 414, text: "Prefix has too many components",
	}, {
		name: "rib/unregister", local: true, module: "rib", verb: "unregister",
		args: &nfd.ControlArgs{Name: name(t, "/gone")}, code: 200, text: "OK",
		setup: func(h *harness) { h.m.Register(name(t, "/gone"), Route{Face: h.app.ID}, 0) },
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if got := fibOf(t, h.fwd, "/gone"); got != "" || len(appRIB(h.m)) != 0 || b.FaceId.Unwrap() != uint64(h.app.ID) {
				t.Errorf("after unregister FIB %q, RIB %v, body %+v", got, appRIB(h.m), b)
			}
		},
	}, {
		name: "unsigned command", local: true, module: "rib", verb: "register", sign: signNone,
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 401, text: "Signature required",
	}, {
		name: "DigestSha256 that does not verify", local: true, module: "rib", verb: "register", sign: signBad,
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 403, text: "authorization rejected",
	}, {
		name: "ECDSA-signed (an ndn-cxx application's key)", local: true, module: "rib", verb: "register", sign: signECDSA,
		args: &nfd.ControlArgs{Name: name(t, "/ecdsa")}, code: 200, text: "OK",
	}, {
		name: "older format, signature in the name (python-ndn 0.5)", local: true, module: "rib", verb: "register", sign: signLegacy,
		args: &nfd.ControlArgs{Name: name(t, "/py")}, code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if got := fibOf(t, h.fwd, "/py"); got != fmt.Sprintf("%d/0", h.app.ID) {
				t.Errorf("FIB /py = %q", got)
			}
		},
	}, {
		name: "older format under /localhop/nfd", module: "rib", verb: "register", sign: signLegacy,
		args: &nfd.ControlArgs{Name: name(t, "/pyhop")}, code: 200, text: "OK",
	}, {
		name: "older format, DigestSha256 that does not verify", local: true, module: "rib", verb: "register", sign: signLegacyBad,
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 403, text: "authorization rejected",
	}, {
		name: "older format, ECDSA (accepted unverified, as NFD's default)", local: true, module: "rib", verb: "unregister", sign: signLegacyECDSA,
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 200, text: "OK",
	}, {
		// (under /localhost the forwarder's scope control drops it first:
		// TestDatasets' "from a network face")
		name: "/localhop command from a network face", fromNet: true, module: "rib", verb: "register",
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 403, text: "authorization rejected",
	}, {
		name: "fib under /localhop/nfd", module: "fib", verb: "add-nexthop",
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 501, text: "Unknown module",
	}, {
		name: "unknown module", local: true, module: "bogus", verb: "general",
		args: &nfd.ControlArgs{}, code: 501, text: "Unknown module",
	}, {
		name: "unknown verb", local: true, module: "rib", verb: "announce",
		args: &nfd.ControlArgs{Name: name(t, "/a")}, code: 501, text: "Unknown verb",
	}, {
		name: "fib/add-nexthop of the requester's face", local: true, module: "fib", verb: "add-nexthop",
		args: &nfd.ControlArgs{Name: name(t, "/f"), Cost: some(uint64(3))}, code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if got := fibOf(t, h.fwd, "/f"); got != fmt.Sprintf("%d/3", h.app.ID) || b.Cost.Unwrap() != 3 {
				t.Errorf("FIB /f = %q, body %+v", got, b)
			}
		},
	}, {
		name: "fib/add-nexthop of an unknown face", local: true, module: "fib", verb: "add-nexthop",
		args: &nfd.ControlArgs{Name: name(t, "/f"), FaceId: some(uint64(1234))}, code: 410, text: "Face not found",
	}, {
		name: "fib/remove-nexthop", local: true, module: "fib", verb: "remove-nexthop",
		args: &nfd.ControlArgs{Name: name(t, "/f"), FaceId: some(uint64(2))}, code: 200, text: "OK",
		setup: func(h *harness) { h.fwd.AddRoute(name(t, "/f"), 2, 0); h.fwd.AddRoute(name(t, "/f"), 1, 5) },
		check: func(t *testing.T, h *harness, _ *nfd.ControlArgs) {
			if got := fibOf(t, h.fwd, "/f"); got != "1/5" {
				t.Errorf("FIB /f = %q", got)
			}
		},
	}, {
		name: "strategy-choice/set", local: true, module: "strategy-choice", verb: "set",
		args: &nfd.ControlArgs{Name: name(t, "/s"), Strategy: &nfd.Strategy{Name: name(t, "/localhost/nfd/strategy/pcon")}},
		code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if s := h.fwd.StrategyFor(name(t, "/s/x")); s != fw.StrategyPCON {
				t.Errorf("/s/x uses %s", s)
			}
			if !b.Strategy.Name.Equal(name(t, "/localhost/nfd/strategy/pcon/v=1")) {
				t.Errorf("body strategy %s", b.Strategy.Name)
			}
		},
	}, {
		name: "strategy-choice/set of the root, versioned", local: true, module: "strategy-choice", verb: "set",
		args: &nfd.ControlArgs{Name: ndn.Name{}, Strategy: &nfd.Strategy{Name: name(t, "/localhost/nfd/strategy/multicast/v=5")}},
		code: 200, text: "OK",
		check: func(t *testing.T, h *harness, _ *nfd.ControlArgs) {
			if s := h.fwd.StrategyFor(name(t, "/any")); s != fw.StrategyMulticast {
				t.Errorf("/any uses %s", s)
			}
		},
	}, {
		name: "strategy-choice/set of an unknown strategy", local: true, module: "strategy-choice", verb: "set",
		args: &nfd.ControlArgs{Name: name(t, "/s"), Strategy: &nfd.Strategy{Name: name(t, "/localhost/nfd/strategy/asf")}},
		code: 404, text: "Strategy not registered",
	}, {
		name: "strategy-choice/set of another version", local: true, module: "strategy-choice", verb: "set",
		args: &nfd.ControlArgs{Name: name(t, "/s"), Strategy: &nfd.Strategy{Name: name(t, "/localhost/nfd/strategy/best-route/v=1")}},
		code: 404, text: "Strategy not registered",
	}, {
		name: "strategy-choice/unset", local: true, module: "strategy-choice", verb: "unset",
		args: &nfd.ControlArgs{Name: name(t, "/s")}, code: 200, text: "OK",
		setup: func(h *harness) {
			if err := h.fwd.SetStrategy(name(t, "/s"), fw.StrategyPI); err != nil {
				t.Fatal(err)
			}
		},
		check: func(t *testing.T, h *harness, _ *nfd.ControlArgs) {
			if s := h.fwd.StrategyFor(name(t, "/s")); s != fw.StrategyBestRoute {
				t.Errorf("/s uses %s", s)
			}
		},
	}, {
		name: "strategy-choice/unset of the root", local: true, module: "strategy-choice", verb: "unset",
		args: &nfd.ControlArgs{Name: ndn.Name{}}, code: 400, text: "failed in validating parameters",
	}, {
		name: "cs/config", local: true, module: "cs", verb: "config",
		args: &nfd.ControlArgs{Capacity: some(uint64(5)), Flags: some(uint64(0)), Mask: some(nfd.CsEnableServe)},
		code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if c := h.fwd.CSConfig(); c != (fw.CSConfig{Capacity: 5, Admit: true, Serve: false}) {
				t.Errorf("CSConfig %+v", c)
			}
			if b.Capacity.Unwrap() != 5 || b.Flags.Unwrap() != nfd.CsEnableAdmit {
				t.Errorf("body %+v", b)
			}
		},
	}, {
		name: "cs/config with Flags but no Mask", local: true, module: "cs", verb: "config",
		args: &nfd.ControlArgs{Flags: some(uint64(1))}, code: 400, text: "failed in validating parameters: Flags must be accompanied by Mask",
	}, {
		name: "faces/create udp4", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("udp4://192.0.2.7:6363"), Mtu: some(uint64(1400)),
			Flags: some(nfd.FaceFlagCongestionMarkingEnabled), Mask: some(nfd.FaceFlagCongestionMarkingEnabled)},
		code: 200, text: "OK",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			req := h.faces.requests[0]
			if req.Scheme != "udp4" || req.IP != [4]byte{192, 0, 2, 7} || req.Port != 6363 || req.MTU.Unwrap() != 1400 ||
				req.Mask != nfd.FaceFlagCongestionMarkingEnabled || req.Persistency != nfd.PersistencyPersistent {
				t.Errorf("request %+v", req)
			}
			if b.FaceId.Unwrap() != 4 || b.Uri.Unwrap() != "udp4://192.0.2.7:6363" || b.LocalUri.Unwrap() == "" {
				t.Errorf("body %+v", b)
			}
		},
	}, {
		name: "faces/create tcp4, permanent", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("tcp4://10.1.2.3:6363"), FacePersistency: some(nfd.FacePersPermanent)},
		code: 200, text: "OK",
	}, {
		name: "faces/create of a non-canonical URI", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("udp://192.0.2.7:6363")}, code: 400, text: "Non-canonical remote URI",
	}, {
		name: "faces/create of a host name", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("tcp4://example.net:6363")}, code: 400, text: "Non-canonical remote URI",
	}, {
		name: "faces/create without a port", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("udp4://192.0.2.7")}, code: 400, text: "Non-canonical remote URI",
	}, {
		name: "faces/create of a leading-zero address", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("udp4://192.0.2.07:6363")}, code: 400, text: "Non-canonical remote URI",
	}, {
		name: "faces/create udp6", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("udp6://[::1]:6363")}, code: 406, text: "Unsupported protocol",
	}, {
		name: "faces/create of an Ethernet face", local: true, module: "faces", verb: "create",
		args: &nfd.ControlArgs{Uri: some("ether://[01:00:5e:00:17:aa]")}, code: 406, text: "Unsupported protocol",
	}, {
		name: "faces/create of a remote that has a face", local: true, module: "faces", verb: "create",
		args:  &nfd.ControlArgs{Uri: some("udp4://192.0.2.9:6363")},
		setup: func(h *harness) { h.faces.fail = &StatusError{409, "Face with remote URI already exists"} },
		code:  409, text: "Face with remote URI already exists",
		check: func(t *testing.T, h *harness, b *nfd.ControlArgs) {
			if b == nil || b.FaceId.Unwrap() != uint64(h.app.ID) {
				t.Errorf("409 body %+v, want the existing face", b)
			}
		},
	}, {
		name: "faces/create that cannot connect", local: true, module: "faces", verb: "create",
		args:  &nfd.ControlArgs{Uri: some("tcp4://192.0.2.1:6363")},
		setup: func(h *harness) { h.faces.fail = &StatusError{504, "connect failed"} },
		code:  504, text: "connect failed",
	}, {
		name: "faces/create failing in the runtime", local: true, module: "faces", verb: "create",
		args:  &nfd.ControlArgs{Uri: some("tcp4://192.0.2.1:6363")},
		setup: func(h *harness) { h.faces.fail = errors.New("no sockets left") },
		code:  500, text: "Face creation failed: no sockets left",
	}, {
		name: "faces/destroy", local: true, module: "faces", verb: "destroy",
		args:  &nfd.ControlArgs{FaceId: some(uint64(2))},
		setup: func(h *harness) { h.m.Register(name(t, "/via/net"), Route{Face: 2}, 0) },
		code:  200, text: "OK",
		check: func(t *testing.T, h *harness, _ *nfd.ControlArgs) {
			if len(h.faces.destroyed) != 1 || h.faces.destroyed[0] != 2 || len(appRIB(h.m)) != 0 || fibOf(t, h.fwd, "/via/net") != "" {
				t.Errorf("destroyed %v, RIB %v", h.faces.destroyed, appRIB(h.m))
			}
		},
	}, {
		name: "faces/destroy of a face that does not exist", local: true, module: "faces", verb: "destroy",
		args: &nfd.ControlArgs{FaceId: some(uint64(77))}, code: 200, text: "OK",
	}, {
		name: "faces/destroy of FaceId 0", local: true, module: "faces", verb: "destroy",
		args: &nfd.ControlArgs{FaceId: some(uint64(0))}, code: 400, text: "failed in validating parameters: FaceId must be valid",
	}, {
		name: "faces/destroy of the management face", local: true, module: "faces", verb: "destroy",
		args: &nfd.ControlArgs{FaceId: some(uint64(3))}, code: 403, text: "authorization rejected",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			if h.m.FaceID() != 3 {
				t.Fatalf("management face %d; the table assumes 3", h.m.FaceID())
			}
			if tt.setup != nil {
				tt.setup(h)
			}
			from := h.app
			if tt.fromNet {
				from = h.net
			}
			res := h.ask(from, h.command(tt.local, tt.module, tt.verb, tt.args, tt.sign))
			if res.StatusCode != tt.code || !strings.HasPrefix(res.StatusText, tt.text) {
				t.Fatalf("response %d %q, want %d %q", res.StatusCode, res.StatusText, tt.code, tt.text)
			}
			if tt.check != nil {
				tt.check(t, h, res.Params)
			}
		})
	}
}

// TestMalformedRequests: requests the manager cannot even parse get NFD's
// error responses, or are dropped when they are not the manager's.
func TestMalformedRequests(t *testing.T) {
	sha := sec.NewSha256Signer()
	signed := func(t *testing.T, n string, params []byte) *ndn.Interest {
		e, err := spec.Spec{}.MakeInterest(name(t, n), &ndnd.InterestConfig{Nonce: some(uint32(9)),
			SigNonce: []byte{1}}, enc.Wire{params}, sha)
		if err != nil {
			t.Fatal(err)
		}
		return decodeInterest(t, e.Wire.Join())
	}
	tests := []struct {
		name string
		in   func(t *testing.T) *ndn.Interest
		code uint64 // 0: no response
		text string
	}{
		{"no module and verb", func(t *testing.T) *ndn.Interest { return signed(t, "/localhost/nfd/rib", nil) }, 400, "Malformed command"},
		{"no ControlParameters", func(t *testing.T) *ndn.Interest { return signed(t, "/localhost/nfd/rib/register", nil) }, 400, "Malformed command"},
		{"garbage ControlParameters", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/rib/register/%FF%01%02", nil)
		}, 400, "Malformed command"},
		{"ControlParameters of the wrong type", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/rib/register/%65%00", nil)
		}, 400, "Malformed command"},
		{"empty ControlParameters component", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/rib/register/8=", nil)
		}, 400, "Malformed command"},
		{"ControlParameters with a forged length", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/fib/add-nexthop/%68%05%07%fe%ff%ff%ff", nil)
		}, 400, "Malformed command"},
		{"unknown critical field", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/rib/register/%68%05%07%00%11%01%00", nil)
		}, 400, "Malformed command"},
		{"module as a typed component", func(t *testing.T) *ndn.Interest {
			return signed(t, "/localhost/nfd/seg=1/register", nil)
		}, 501, "Unknown module"},
		{"dataset with trailing junk", func(t *testing.T) *ndn.Interest {
			return &ndn.Interest{Name: name(t, "/localhost/nfd/faces/list/junk"), Nonce: 1}
		}, 400, "Malformed command"},
		{"dataset version never published", func(t *testing.T) *ndn.Interest {
			return &ndn.Interest{Name: name(t, "/localhost/nfd/faces/list/v=5/seg=0"), Nonce: 1}
		}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			got := h.send(h.app, tt.in(t))
			if tt.code == 0 {
				if len(got) != 0 || h.m.Stats().Dropped != 1 {
					t.Fatalf("%d packets back, %d dropped; want none back, one dropped", len(got), h.m.Stats().Dropped)
				}
				return
			}
			if len(got) != 1 || got[0].Data == nil {
				t.Fatalf("%d packets back", len(got))
			}
			res := controlResponse(t, got[0].Data)
			if res.StatusCode != tt.code || !strings.HasPrefix(res.StatusText, tt.text) {
				t.Fatalf("response %d %q, want %d %q", res.StatusCode, res.StatusText, tt.code, tt.text)
			}
		})
	}
}

// TestAsyncFaceCreation: the response to faces/create waits for the
// runtime, and goes back through the forwarder to the requester.
func TestAsyncFaceCreation(t *testing.T) {
	h := newHarness(t)
	h.faces.async = true
	in := h.command(true, "faces", "create", &nfd.ControlArgs{Uri: some("tcp4://192.0.2.5:6363")}, signSha256)
	if got := h.send(h.app, in); len(got) != 0 {
		t.Fatalf("%d packets back before the face exists", len(got))
	}
	h.faces.pending()
	got := h.faces.out[h.app.ID].take()
	if len(got) != 1 || got[0].Data == nil {
		t.Fatalf("%d packets back after the face was created", len(got))
	}
	if res := controlResponse(t, got[0].Data); res.StatusCode != 200 || res.Params.FaceId.Unwrap() != 4 {
		t.Errorf("response %d %s %+v", res.StatusCode, res.StatusText, res.Params)
	}
	if s := h.m.Stats(); s.Requests != 1 || s.Responses[200] != 1 {
		t.Errorf("stats %+v", s)
	}
}

// TestQueueBound: requests beyond MaxQueued in one loop turn are dropped.
func TestQueueBound(t *testing.T) {
	h := newHarness(t)
	in := &ndn.Interest{Name: name(t, "/localhost/nfd/faces/list"), CanBePrefix: true}
	for i := range MaxQueued + 10 {
		h.m.Send(ndn.Packet{Interest: in, IncomingFaceID: uint64(h.app.ID) + uint64(i)*0})
	}
	h.s.AdvanceTo(h.s.Now())
	if s := h.m.Stats(); s.Requests != MaxQueued || s.Dropped != 10 {
		t.Errorf("requests %d, dropped %d", s.Requests, s.Dropped)
	}
}
