package mgmt

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Config configures a Manager.
type Config struct {
	// Forwarder is the forwarder the manager manages; it gets the
	// manager's internal face and the routes to it.
	Forwarder *fw.Forwarder
	// Scheduler is the forwarder's scheduler. The manager handles each
	// request in a zero-delay callback, outside the forwarder's pipelines,
	// and times out RIB routes with it.
	Scheduler sched.Scheduler
	// Faces is the runtime's face table (faces/create, faces/destroy,
	// faces/list).
	Faces Faces
	// Epoch is the wall-clock time at which Scheduler's time was zero,
	// given by the runtime (the live runtime passes the time it started).
	// Status dataset versions are Epoch plus the scheduler's time in
	// microseconds since the Unix epoch, as ndnd's forwarder numbers them;
	// the zero Epoch numbers them from 0 (tests, simulations).
	Epoch time.Time
	// Version is the NfdVersion that status/general reports (the
	// runtime's version); "" reports DefaultVersion.
	Version string
	// Logger receives a line per refused request; nil discards them.
	Logger *slog.Logger
}

// Manager is the NFD management application of one forwarder, attached to
// it as an internal local face. It is not safe for concurrent use: call it
// on the forwarder's loop only.
type Manager struct {
	fwd     *fw.Forwarder
	sched   sched.Scheduler
	faces   Faces
	log     *slog.Logger
	epoch   int64 // microseconds since the Unix epoch at scheduler time 0
	face    fw.FaceID
	mods    map[string]module
	rib     *rib
	store   datasetStore
	stats   Stats
	queue   []request
	timer   sched.Timer
	lastVs  uint64 // last status dataset version
	version string // NfdVersion of status/general
}

// Stats counts what the manager did.
type Stats struct {
	// Requests is the number of Interests the manager handled.
	Requests uint64
	// Responses counts the ControlResponses sent, by status code.
	Responses map[uint64]uint64
	// Datasets counts the status datasets generated.
	Datasets uint64
	// Segments counts dataset segments sent (first segments included).
	Segments uint64
	// Dropped counts Interests dropped unanswered: names the manager does
	// not serve, dataset segments no longer (or never) held, requests
	// beyond MaxQueued within one loop iteration, and answers no Data can
	// carry (a name component over 252 bytes, which ndnd cannot encode).
	Dropped uint64
}

// MaxQueued bounds the requests that wait for the manager's next turn on
// the loop; more are dropped (Stats.Dropped).
const MaxQueued = 256

// LocalhostPrefix returns /localhost/nfd, where every module is served.
func LocalhostPrefix() ndn.Name {
	return ndn.Name{enc.LOCALHOST, enc.NewGenericComponent("nfd")}
}

// LocalhopPrefix returns /localhop/nfd, where only rib commands are served
// (ndnd's tools use it when they reach the forwarder over TCP).
func LocalhopPrefix() ndn.Name {
	return ndn.Name{enc.LOCALHOP, enc.NewGenericComponent("nfd")}
}

// request is one management Interest and the face it came from.
type request struct {
	in   *ndn.Interest
	from fw.FaceID
}

// New attaches a manager to cfg.Forwarder: it adds the manager's internal
// face (local, with local fields so that the forwarder tells it each
// requester's face) and routes /localhost/nfd and /localhop/nfd to it. The
// RIB forgets a face's routes when the forwarder removes the face
// (Forwarder.OnFaceRemoved).
func New(cfg Config) (*Manager, error) {
	if cfg.Forwarder == nil || cfg.Scheduler == nil || cfg.Faces == nil {
		return nil, errors.New("mgmt: new: Forwarder, Scheduler and Faces are required")
	}
	m := &Manager{
		fwd:   cfg.Forwarder,
		sched: cfg.Scheduler,
		faces: cfg.Faces,
		log:   cfg.Logger,
		stats: Stats{Responses: map[uint64]uint64{}},
	}
	m.version = cfg.Version
	if m.version == "" {
		m.version = DefaultVersion
	}
	if m.log == nil {
		m.log = slog.New(slog.DiscardHandler)
	}
	if !cfg.Epoch.IsZero() {
		m.epoch = cfg.Epoch.UnixMicro()
	}
	m.rib = newRIB(m.fwd, m.sched)
	m.fwd.OnFaceRemoved(m.rib.removeFace)
	m.mods = m.modules()
	if err := m.setDefaultChoices(); err != nil {
		return nil, fmt.Errorf("mgmt: new: %w", err)
	}
	m.face = m.fwd.AddFace(m, fw.FaceLocal)
	m.fwd.SetLocalFields(m.face, true)
	m.fwd.AddRoute(LocalhostPrefix(), m.face, 0)
	m.fwd.AddRoute(LocalhopPrefix(), m.face, 0)
	// As NFD's RIB manager does, register <top>/rib in the RIB (origin
	// app, ChildInherit): rib/list, and nfdc's route list, show them.
	for _, top := range []ndn.Name{LocalhostPrefix(), LocalhopPrefix()} {
		m.Register(append(top.Clone(), enc.NewGenericComponent("rib")),
			Route{Face: m.face, Flags: uint64(nfd.RouteFlagChildInherit)}, 0)
	}
	return m, nil
}

// FaceID returns the manager's internal face.
func (m *Manager) FaceID() fw.FaceID { return m.face }

// Stats returns a copy of the manager's counters.
func (m *Manager) Stats() Stats {
	s := m.stats
	s.Responses = make(map[uint64]uint64, len(m.stats.Responses))
	for k, v := range m.stats.Responses {
		s.Responses[k] = v
	}
	return s
}

// Send is the internal face's output: the forwarder hands the manager the
// Interests routed to it (ndn.Face). Each is handled in a zero-delay
// callback; Data and Nacks are ignored (the manager sends no Interests).
func (m *Manager) Send(p ndn.Packet) {
	if p.Interest == nil || p.IsNack() {
		return
	}
	if len(m.queue) >= MaxQueued {
		m.stats.Dropped++
		return
	}
	m.queue = append(m.queue, request{in: p.Interest, from: fw.FaceID(p.IncomingFaceID)})
	if m.timer == nil {
		m.timer = m.sched.After(0, m.drain)
	}
}

// drain handles the queued requests.
func (m *Manager) drain() {
	m.timer = nil
	q := m.queue
	m.queue = nil
	for _, r := range q {
		m.handle(r)
	}
}

// reply sends the ControlResponse that answers r.
func (m *Manager) reply(r request, res response) {
	if res.code != 200 {
		m.log.Debug("management request refused", "name", r.in.Name.String(), "face", r.from,
			"code", res.code, "text", res.text)
	}
	content := (&nfd.ControlResponse{Val: &nfd.ControlResponseVal{
		StatusCode: res.code, StatusText: res.text, Params: res.body,
	}}).Encode().Join()
	d := &ndn.Data{Name: r.in.Name, Content: content, Freshness: time.Second}
	if m.sendData(d) {
		m.stats.Responses[res.code]++
	}
}

// sendData signs d (DigestSha256) and hands it to the forwarder. It
// reports false, and counts the request dropped, for a Data it cannot
// encode: a name with a component ndnd cannot write (over 252 bytes,
// which an Interest can carry), so that no answer can carry it.
func (m *Manager) sendData(d *ndn.Data) bool {
	if _, err := ndn.EncodeData(d, nil); err != nil {
		m.stats.Dropped++
		m.log.Warn("management response not encoded: request dropped", "name", d.Name.String(), "err", err)
		return false
	}
	m.fwd.Receive(m.face, ndn.Packet{Data: d})
	return true
}

// response is a ControlResponse: a status code, its text and the
// ControlParameters echoed in the body (nil for none).
type response struct {
	code uint64
	text string
	body *nfd.ControlArgs
}

// success is a status 200 response with body.
func success(body *nfd.ControlArgs) response { return response{200, "OK", body} }

// fail is an error response; detail, if not empty, follows NFD's text.
func fail(code uint64, text, detail string) response {
	if detail != "" {
		text = fmt.Sprintf("%s: %s", text, detail)
	}
	return response{code: code, text: text}
}

// version returns a status dataset version larger than any before.
func (m *Manager) nextVersion() uint64 {
	v := uint64(m.epoch + m.sched.Now().Microseconds())
	if v <= m.lastVs {
		v = m.lastVs + 1
	}
	m.lastVs = v
	return v
}
