package mgmt

import (
	"crypto/elliptic"
	"crypto/sha256"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	sec "github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/internal/vclock"
	"github.com/ndncc/ndncc/ndn"
)

// recFace records what the forwarder sends on it.
type recFace struct{ sent []ndn.Packet }

func (r *recFace) Send(p ndn.Packet) { r.sent = append(r.sent, p) }

// take returns and forgets what was sent.
func (r *recFace) take() []ndn.Packet {
	s := r.sent
	r.sent = nil
	return s
}

// fakeFaces is the runtime's face table: faces it creates are recording
// faces of the forwarder.
type fakeFaces struct {
	fwd   *fw.Forwarder
	infos []FaceInfo
	out   map[fw.FaceID]*recFace
	// fail, when set, is what Create reports; async holds Create's done
	// until finish is called.
	fail      error
	async     bool
	pending   func()
	requests  []FaceRequest
	destroyed []fw.FaceID
}

func (f *fakeFaces) List() []FaceInfo { return slices.Clone(f.infos) }

// Channels implements Channels: a Unix and a UDP listener.
func (f *fakeFaces) Channels() []string {
	return []string{"unix:///run/nfd/nfd.sock", "udp4://192.0.2.1:6363"}
}

// add adds a face to the forwarder and the table.
func (f *fakeFaces) add(info FaceInfo, kind fw.FaceKind) FaceInfo {
	out := &recFace{}
	info.ID = f.fwd.AddFace(out, kind)
	f.out[info.ID] = out
	f.infos = append(f.infos, info)
	return info
}

func (f *fakeFaces) Create(req FaceRequest, done func(FaceInfo, error)) {
	f.requests = append(f.requests, req)
	finish := func() {
		var se *StatusError
		switch {
		case errors.As(f.fail, &se) && se.Code == 409:
			done(f.infos[0], f.fail)
		case f.fail != nil:
			done(FaceInfo{}, f.fail)
		default:
			done(f.add(FaceInfo{Remote: req.Remote, Local: "udp4://10.0.0.1:6363",
				Scope: nfd.FaceScopeNonLocal, Persistency: uint64(req.Persistency), MTU: optional.Some(uint64(1420))},
				fw.FaceNetwork), nil)
		}
	}
	if f.async {
		f.pending = finish
		return
	}
	finish()
}

func (f *fakeFaces) Destroy(id fw.FaceID) bool {
	i := slices.IndexFunc(f.infos, func(x FaceInfo) bool { return x.ID == id })
	if i < 0 {
		return false
	}
	f.infos = slices.Delete(f.infos, i, i+1)
	f.fwd.RemoveFace(id)
	f.destroyed = append(f.destroyed, id)
	return true
}

// harness is a forwarder with a manager, a local application face (app)
// and a network face (net).
type harness struct {
	t     *testing.T
	s     *vclock.Scheduler
	fwd   *fw.Forwarder
	m     *Manager
	faces *fakeFaces
	app   FaceInfo
	net   FaceInfo
	nonce uint32
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	s := &vclock.Scheduler{}
	fwd, err := fw.New(fw.Config{Name: "test", CSCapacity: 100}, s, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	faces := &fakeFaces{fwd: fwd, out: map[fw.FaceID]*recFace{}}
	h := &harness{t: t, s: s, fwd: fwd, faces: faces}
	h.app = faces.add(FaceInfo{Remote: "fd://7", Local: "unix:///run/nfd/nfd.sock", Scope: nfd.FaceScopeLocal,
		Persistency: nfd.FacePersOnDemand, InBytes: 100, OutBytes: 200}, fw.FaceLocal)
	h.net = faces.add(FaceInfo{Remote: "udp4://192.0.2.9:6363", Local: "udp4://192.0.2.1:6363",
		Scope: nfd.FaceScopeNonLocal, Persistency: nfd.FacePersPersistent, MTU: optional.Some(uint64(1420)),
		BaseCongestionMarkingInterval: optional.Some(100 * time.Millisecond),
		DefaultCongestionThreshold:    optional.Some(uint64(65536)),
		Marked:                        7, Dropped: 3, QueueLen: 12}, fw.FaceNetwork)
	h.m, err = New(Config{Forwarder: fwd, Scheduler: s, Faces: faces})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// signer chooses how command Interests are signed.
type signer int

const (
	signSha256      signer = iota // DigestSha256, as ndnd's engine and ndncc serve sign
	signNone                      // not signed at all
	signBad                       // DigestSha256 with a wrong value
	signECDSA                     // an ECDSA key, as an ndn-cxx application's default identity
	signLegacy                    // the older format, DigestSha256 in the name (python-ndn 0.5)
	signLegacyBad                 // the older format with a wrong DigestSha256
	signLegacyECDSA               // the older format, an ECDSA SignatureInfo (unverified, as NFD's default)
)

// command builds a command Interest exactly as ndnd's engine does
// (mgmt_2022.MakeCmd, SignatureNonce and SignatureTime), for top prefix
// /localhost/nfd (local) or /localhop/nfd, and decodes it as the forwarder
// receives it.
func (h *harness) command(local bool, module, verb string, args *nfd.ControlArgs, how signer) *ndn.Interest {
	h.t.Helper()
	h.nonce++
	cfg := &ndnd.InterestConfig{
		Lifetime: optional.Some(time.Second), Nonce: optional.Some(h.nonce), MustBeFresh: true,
		SigNonce: []byte{1, 2, 3, 4, 5, 6, 7, byte(h.nonce)},
		SigTime:  optional.Some((1700000000000 + time.Duration(h.nonce)) * time.Millisecond),
	}
	var s ndnd.Signer
	switch how {
	case signSha256:
		s = sec.NewSha256Signer()
	case signBad:
		s = badDigestSigner{}
	case signECDSA:
		var err error
		if s, err = sec.KeygenEcc(ndn.Name{enc.NewGenericComponent("op"), enc.NewGenericComponent("KEY"),
			enc.NewGenericComponent("k1")}, elliptic.P256()); err != nil {
			h.t.Fatal(err)
		}
	}
	var w []byte
	if how == signNone || how >= signLegacy {
		top := LocalhostPrefix()
		if !local {
			top = LocalhopPrefix()
		}
		name := append(top.Clone(), enc.NewGenericComponent(module), enc.NewGenericComponent(verb),
			enc.NewGenericBytesComponent((&nfd.ControlParameters{Val: args}).Bytes()))
		if how >= signLegacy {
			name = legacySign(name, h.nonce, how)
		}
		e, err := spec.Spec{}.MakeInterest(name, cfg, nil, nil)
		if err != nil {
			h.t.Fatal(err)
		}
		w = e.Wire.Join()
	} else {
		e, err := nfd.NewConfig(local, s, spec.Spec{}).MakeCmd(module, verb, args, cfg)
		if err != nil {
			h.t.Fatal(err)
		}
		w = e.Wire.Join()
	}
	return decodeInterest(h.t, w)
}

func decodeInterest(t testing.TB, w []byte) *ndn.Interest {
	t.Helper()
	p, err := ndn.DecodeFrame(w)
	if err != nil || p.Interest == nil {
		t.Fatalf("decode %x: %v", w, err)
	}
	return p.Interest
}

// badDigestSigner signs with a DigestSha256 of zeros.
type badDigestSigner struct{}

func (badDigestSigner) Type() ndnd.SigType            { return ndnd.SignatureDigestSha256 }
func (badDigestSigner) KeyName() enc.Name             { return nil }
func (badDigestSigner) KeyLocator() enc.Name          { return nil }
func (badDigestSigner) EstimateSize() uint            { return 32 }
func (badDigestSigner) Sign(enc.Wire) ([]byte, error) { return make([]byte, 32), nil }
func (badDigestSigner) Public() ([]byte, error)       { return nil, ndnd.ErrNoPubKey }

// send delivers in to the forwarder from face and runs the manager;
// it returns what came back on that face.
func (h *harness) send(face FaceInfo, in *ndn.Interest) []ndn.Packet {
	h.t.Helper()
	h.fwd.Receive(face.ID, ndn.Packet{Interest: in})
	h.s.AdvanceTo(h.s.Now())
	return h.faces.out[face.ID].take()
}

// ask sends a command from face and returns the ControlResponse that
// answered it (failing the test unless exactly one Data came back).
func (h *harness) ask(face FaceInfo, in *ndn.Interest) *nfd.ControlResponseVal {
	h.t.Helper()
	got := h.send(face, in)
	if len(got) != 1 || got[0].Data == nil {
		h.t.Fatalf("%s: %d packets back, want one Data", in.Name, len(got))
	}
	return controlResponse(h.t, got[0].Data)
}

func controlResponse(t testing.TB, d *ndn.Data) *nfd.ControlResponseVal {
	t.Helper()
	if err := ndn.VerifyDigest(d); err != nil {
		t.Fatalf("response %s: %v", d.Name, err)
	}
	r, err := nfd.ParseControlResponse(enc.NewBufferView(d.Content), false)
	if err != nil || r.Val == nil {
		t.Fatalf("response %s does not parse: %v", d.Name, err)
	}
	return r.Val
}

// fetchDataset requests /localhost/nfd/<module>/<verb> from face as
// ndnd's nfdc does (CanBePrefix, MustBeFresh), then every further segment
// by name, and returns the dataset's content and its segments. extra
// follows the verb (faces/query's filter).
func (h *harness) fetchDataset(face FaceInfo, module, verb string, extra ...enc.Component) ([]byte, []*ndn.Data) {
	h.t.Helper()
	h.nonce++
	name := append(LocalhostPrefix(), enc.NewGenericComponent(module), enc.NewGenericComponent(verb))
	name = append(name, extra...)
	got := h.send(face, &ndn.Interest{Name: name, Nonce: h.nonce, CanBePrefix: true, MustBeFresh: true})
	if len(got) != 1 || got[0].Data == nil {
		h.t.Fatalf("%s: %d packets back, want one Data", name, len(got))
	}
	segs := []*ndn.Data{got[0].Data}
	for {
		last := segs[len(segs)-1]
		if err := ndn.VerifyDigest(last); err != nil {
			h.t.Fatal(err)
		}
		if !last.HasFinal || last.FinalBlockID.Equal(last.Name[len(last.Name)-1]) {
			break
		}
		h.nonce++
		next := append(last.Name[:len(last.Name)-1].Clone(), enc.NewSegmentComponent(uint64(len(segs))))
		got = h.send(face, &ndn.Interest{Name: next, Nonce: h.nonce})
		if len(got) != 1 || got[0].Data == nil {
			h.t.Fatalf("%s: %d packets back, want one Data", next, len(got))
		}
		segs = append(segs, got[0].Data)
	}
	var content []byte
	for _, s := range segs {
		content = append(content, s.Content...)
	}
	return content, segs
}

// name parses a name URI.
func name(t testing.TB, s string) ndn.Name {
	t.Helper()
	n, err := enc.NameFromStr(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// legacySign appends the older format's four signature components to
// name, as python-ndn 0.5 does: a timestamp, a nonce, the SignatureInfo
// and the SignatureValue (DigestSha256 of the components before it;
// zeros for signLegacyBad; an ECDSA SignatureInfo with a KeyLocator and
// an unchecked value for signLegacyECDSA).
func legacySign(name ndn.Name, nonce uint32, how signer) ndn.Name {
	name = append(name.Clone(), enc.NewNumberComponent(enc.TypeGenericNameComponent, 1700000000000+uint64(nonce)),
		enc.NewGenericBytesComponent([]byte{1, 2, 3, 4, 5, 6, 7, byte(nonce)}))
	info := appendTLV(nil, 0x1b, enc.Nat(0).Bytes()) // SignatureType DigestSha256
	if how == signLegacyECDSA {
		kl := appendTLV(nil, 0x07, ndn.Name{enc.NewGenericComponent("op"), enc.NewGenericComponent("KEY")}.BytesInner())
		info = append(appendTLV(nil, 0x1b, enc.Nat(3).Bytes()), appendTLV(nil, 0x1c, kl)...)
	}
	name = append(name, enc.NewGenericBytesComponent(appendTLV(nil, 0x16, info)))
	value := make([]byte, 32)
	if how == signLegacy {
		sum := sha256.Sum256(name.BytesInner())
		value = sum[:]
	}
	return append(name, enc.NewGenericBytesComponent(appendTLV(nil, 0x17, value)))
}

// appRIB is the RIB without the manager's own routes (<top>/rib).
func appRIB(m *Manager) []RIBEntry {
	var out []RIBEntry
	for _, e := range m.RIB() {
		if !LocalhostPrefix().IsPrefix(e.Name) && !LocalhopPrefix().IsPrefix(e.Name) {
			out = append(out, e)
		}
	}
	return out
}
