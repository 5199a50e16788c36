// Package fwd is `ndncc fw`: the sans-IO forwarder of package fw bound to
// real time and real sockets, as package sim binds it to virtual time and
// modelled links.
//
// One loop goroutine (an eventloop.Loop) owns the fw.Forwarder and runs every
// pipeline, timer and strategy; the faces of package face read and decode
// on goroutines of their own and hand packets to the loop, and write from
// send queues of the simulator's disciplines. This package only wires
// them: it opens the listeners and the configured faces, keeps the face
// table (adding the faces listeners accept, removing failed and idle
// ones), applies the configuration's strategies, routes and queues, and
// reports counters. It holds no forwarding logic: PIT, Content Store,
// FIB, strategies, queue management and marking are fw's and aqm's.
package fwd

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/mgmt"
	"github.com/ndncc/ndncc/ndn"
)

// Forwarder is a running `ndncc fw`. Create it with New, run it with
// Run; every other method must be called on its loop (from a callback, or
// through Do).
type Forwarder struct {
	cfg  *fwconf.Config
	loop *eventloop.Loop
	fw   *fw.Forwarder
	log  *slog.Logger

	faces    map[fw.FaceID]*entry
	static   map[string]*entry // configured faces by id, while up
	unix     *face.StreamListener
	tcp      *face.StreamListener
	udp      *face.UDPListener
	idleTick time.Duration
	started  time.Time
	closing  bool
	// listening says Listen ran.
	listening bool
	mgmt      *mgmt.Manager
	sizer     *ndn.Sizer // emulated links' frame sizes
	seed      uint64     // emulated links' loss
	// adopted are the connections Adopt gave, opened by Run.
	adopted []adoption
	// refusedFaces counts the listeners' new faces closed at once because
	// the face table held MaxFaces.
	refusedFaces uint64
	// arriving are the faces made off the loop (a listener's, a dial's)
	// on their way to the table.
	arriving arrivals
}

// arrivals are faces made off the loop that a posted function will add to
// the face table. A function posted as the loop ends may never run: the
// faces it would have added are closed when the forwarder stops, so that
// the peer sees the connection end rather than a face that stays up.
type arrivals struct {
	mu      sync.Mutex
	faces   map[*face.Face]bool
	stopped bool
}

// hold records f on its way; once the forwarder has stopped it closes f
// instead and reports false.
func (a *arrivals) hold(f *face.Face) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopped {
		f.Close()
		return false
	}
	if a.faces == nil {
		a.faces = map[*face.Face]bool{}
	}
	a.faces[f] = true
	return true
}

// take ends f's way (on the loop); it reports false if the forwarder
// stopped and closed f meanwhile.
func (a *arrivals) take(f *face.Face) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	held := a.faces[f]
	delete(a.faces, f)
	return held
}

// stop closes every face on its way and every one held from now on.
func (a *arrivals) stop() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.stopped = true
	for f := range a.faces {
		f.Close()
	}
	a.faces = nil
}

// adoption is a configured face over a connection made elsewhere (Adopt).
type adoption struct {
	ff   *fwconf.Face
	conn net.Conn
	down func(error)
}

// entry is one face of the face table.
type entry struct {
	id     fw.FaceID
	f      *face.Face
	lastRx time.Duration
	// conf is the [[face]] a configured face came from, nil otherwise.
	conf *fwconf.Face
	// rel is the face's link reliability (link-loss detection), nil
	// without.
	rel *link.Reliability
	// out and in emulate the link's two directions (nil: not emulated):
	// out shapes what the face sends, in what it receives before the
	// link layer and the forwarder see it.
	out, in *link.Channel
	// adopted is an Adopt's face, never reopened; down is told when it
	// fails (nil for other faces).
	adopted bool
	down    func(error)
}

// New checks cfg (strategy and queue names, which fw and aqm know) and
// builds a forwarder with no faces yet; Run opens them. log receives the
// forwarder's diagnostics (nil discards them).
func New(cfg *fwconf.Config, log *slog.Logger) (*Forwarder, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := errors.Join(Check(cfg), resolveFaces(cfg, resolveTimeout)); err != nil {
		return nil, err
	}
	loop := eventloop.New()
	seed := rand.Uint64()
	core, err := fw.New(fw.Config{Name: "ndncc-fw", CSCapacity: cfg.CSCapacity, DefaultStrategy: cfg.Strategy,
		MaxInterestLifetime: cfg.MaxInterestLifetime, PITCapacity: cfg.PITCapacity, PITFaceLimit: cfg.PITFaceLimit,
		MaxNameComponents: cfg.MaxNameComponents, DeadNonceCapacity: cfg.DeadNonceCapacity},
		loop, rand.New(rand.NewPCG(seed, seed^0x5eed)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", cfg.Pos, err)
	}
	d := &Forwarder{
		cfg: cfg, loop: loop, fw: core, log: log,
		faces: map[fw.FaceID]*entry{}, static: map[string]*entry{},
		idleTick: min(cfg.IdleTimeout/4, time.Minute),
		sizer:    ndn.NewSizer(), seed: seed,
	}
	if d.mgmt, err = mgmt.New(mgmt.Config{Forwarder: core, Scheduler: loop, Faces: d, Epoch: time.Now(), Logger: log}); err != nil {
		return nil, err
	}
	for _, sc := range cfg.StrategyChoices {
		prefix, _ := ndn.ParseName(sc.Prefix) // checked by the parser
		if err := core.SetStrategy(prefix, sc.Strategy); err != nil {
			return nil, fmt.Errorf("%s: strategy-choice: %w", sc.Pos, err)
		}
	}
	return d, nil
}

// Check reports the names in cfg that the forwarder does not know: the
// strategies and the queue disciplines with their parameters, at the
// position of the entry that names them.
func Check(cfg *fwconf.Config) error {
	var errs []error
	strategies := fw.BuiltinStrategies()
	known := func(name string) bool { _, ok := strategies[name]; return ok }
	if !known(cfg.Strategy) {
		errs = append(errs, fmt.Errorf("%s: strategy: unknown strategy %q (want one of %s)", cfg.Pos, cfg.Strategy, strategyNames()))
	}
	for i, sc := range cfg.StrategyChoices {
		if !known(sc.Strategy) {
			errs = append(errs, fmt.Errorf("%s: strategy-choice[%d].strategy: unknown strategy %q (want one of %s)", sc.Pos, i, sc.Strategy, strategyNames()))
		}
	}
	if _, err := aqm.New(cfg.Queue, cfg.QueueParams, aqm.Limits{}); err != nil {
		errs = append(errs, fmt.Errorf("%s: queue: %w", cfg.Pos, err))
	}
	for i := range cfg.Faces {
		ff := &cfg.Faces[i]
		switch {
		case ff.Scheme == "udp6":
			errs = append(errs, fmt.Errorf("%s: face[%d]: %s: UDP faces share the IPv4 UDP listener's socket; udp6 is not supported", ff.Pos, i, ff.Remote))
		case ff.Scheme == "udp4" && cfg.UDP == "":
			errs = append(errs, fmt.Errorf("%s: face[%d]: %s: a UDP face sends from the UDP listener's socket, and the UDP listener is off (udp = \"\" or --udp none)", ff.Pos, i, ff.Remote))
		}
		for _, dir := range []fwconf.LinkEmulation{ff.Out, ff.In} {
			if _, err := newQueue(cfg, ff, dir); err != nil {
				errs = append(errs, fmt.Errorf("%s: face[%d]: %w", ff.Pos, i, err))
				break
			}
		}
	}
	return errors.Join(errs...)
}

func strategyNames() string {
	return strings.Join([]string{fw.StrategyBestRoute, fw.StrategyMulticast, fw.StrategyPCON, fw.StrategyPI, fw.StrategyCF}, ", ")
}

// newQueue builds the queue of one direction of a face: the face's
// discipline (the configuration's unless ff sets one; ff nil for an
// on-demand face) with the direction's limits (DefaultQueueLimit packets
// when it sets none).
func newQueue(cfg *fwconf.Config, ff *fwconf.Face, dir fwconf.LinkEmulation) (aqm.Queue, error) {
	name, params := cfg.Queue, cfg.QueueParams
	if ff != nil {
		name, params = cfg.QueueFor(ff)
	}
	lim := aqm.Limits{Packets: dir.QueuePackets, Bytes: dir.QueueBytes}
	if lim.Packets == 0 {
		lim.Packets = face.DefaultQueueLimit
	}
	if _, set := params["mtu"]; !set && (name == "codel-drop" || name == "codel-mark") {
		// CoDel never acts on a queue of at most one packet of "mtu"
		// bytes: a face queues whole NDN packets, up to 8800 bytes.
		withMTU := map[string]string{"mtu": strconv.Itoa(face.MaxPacketSize)}
		maps.Copy(withMTU, params)
		params = withMTU
	}
	return aqm.New(name, params, lim)
}

// Core returns the forwarding core (on the loop).
func (d *Forwarder) Core() *fw.Forwarder { return d.fw }

// Loop returns the forwarder's event loop.
func (d *Forwarder) Loop() *eventloop.Loop { return d.loop }

// Do runs fn on the loop and waits until it has run. Call it from any
// goroutine but the loop's, while Run runs.
func (d *Forwarder) Do(fn func()) {
	done := make(chan struct{})
	d.loop.Post(func() { fn(); close(done) })
	<-done
}

// Run opens the listeners and the configured faces, then forwards until
// ctx ends; it closes everything before it returns. A listener the
// configuration asked for that cannot open is an error; a default one
// (NFD's port 6363, say, already taken) is logged and skipped.
func (d *Forwarder) Run(ctx context.Context) error {
	if !d.listening {
		if err := d.Listen(); err != nil {
			return err
		}
	}
	d.started = time.Now()
	for i := range d.cfg.Faces {
		d.openStatic(&d.cfg.Faces[i], 0)
	}
	for _, a := range d.adopted {
		f := face.NewTCP(d, a.conn, a.ff.Scheme, face.Permanent, d.log)
		if e := d.staticUp(f, a.ff); e != nil {
			e.adopted, e.down = true, a.down
		}
	}
	d.adopted = nil
	d.loop.After(d.idleTick, d.expireIdle)
	err := d.loop.Run(ctx)
	d.closing = true
	d.closeListeners()
	for _, e := range d.faces {
		e.f.Close()
	}
	d.arriving.stop()
	if errors.Is(err, eventloop.ErrStopped) && ctx.Err() != nil {
		return nil
	}
	return err
}

// Listen opens the configured listeners, before Run (which otherwise
// opens them), so that their addresses are known before any face opens:
// the emulator (package emu) learns every node's UDP address this way
// before it configures the faces between them. On error, none stays open.
func (d *Forwarder) Listen() error {
	d.listening = true
	if err := d.listen(); err != nil {
		d.closeListeners()
		return err
	}
	return nil
}

// listen opens the configured listeners.
func (d *Forwarder) listen() error {
	c := d.cfg
	open := func(what string, set bool, fn func() error) error {
		err := fn()
		if err != nil && !set {
			d.log.Warn("listener not opened", "listener", what, "err", err)
			return nil
		}
		return err
	}
	if c.Socket != "" {
		if err := open("unix", c.ListenSet.Socket, func() (err error) {
			d.unix, err = face.ListenUnix(d, c.Socket, d.log)
			return err
		}); err != nil {
			return err
		}
	}
	if c.UDP != "" {
		// Configured UDP faces send from the listener's socket: it is
		// required when there are any.
		needed := c.ListenSet.UDP || slices.ContainsFunc(c.Faces, func(ff fwconf.Face) bool { return ff.Scheme == "udp4" })
		if err := open("udp", needed, func() (err error) {
			d.udp, err = face.ListenUDP(d, "udp4", c.UDP, c.MTU, d.log)
			return err
		}); err != nil {
			return err
		}
	}
	if c.TCP != "" {
		if err := open("tcp", c.ListenSet.TCP, func() (err error) {
			d.tcp, err = face.ListenTCP(d, "tcp4", c.TCP, d.log)
			return err
		}); err != nil {
			return err
		}
	}
	for _, l := range []interface{ Serve() }{d.unix, d.udp, d.tcp} {
		switch l := l.(type) {
		case *face.StreamListener:
			if l != nil {
				d.log.Info("listening", "uri", l.URI())
				go l.Serve()
			}
		case *face.UDPListener:
			if l != nil {
				d.log.Info("listening", "uri", l.URI())
				go l.Serve()
			}
		}
	}
	return nil
}

func (d *Forwarder) closeListeners() {
	if d.unix != nil {
		d.unix.Close()
	}
	if d.tcp != nil {
		d.tcp.Close()
	}
	if d.udp != nil {
		d.udp.Close()
	}
}

// UnixURI, UDPAddr and TCPAddr tell where the listeners are (valid once
// Run has opened them; zero values for a listener that is not open).
func (d *Forwarder) UnixURI() string {
	if d.unix == nil {
		return ""
	}
	return d.unix.URI()
}

// UDPAddr returns the UDP listener's address.
func (d *Forwarder) UDPAddr() netip.AddrPort {
	if d.udp == nil {
		return netip.AddrPort{}
	}
	return d.udp.Addr()
}

// TCPAddr returns the TCP listener's address ("" if none).
func (d *Forwarder) TCPAddr() string {
	if d.tcp == nil {
		return ""
	}
	return d.tcp.Addr().String()
}

// Now implements face.Host.
func (d *Forwarder) Now() time.Duration { return d.loop.Now() }

// Accepted implements face.Host: a listener's new face joins the table.
func (d *Forwarder) Accepted(f *face.Face) {
	if d.arriving.hold(f) {
		d.loop.Post(func() {
			if d.arriving.take(f) {
				d.add(f, nil)
			}
		})
	}
}

// Deliver implements face.Host: the frames go to the forwarder on the
// loop.
func (d *Forwarder) Deliver(f *face.Face, frames []link.Frame) {
	d.loop.Post(func() { d.deliver(f, frames) })
}

// Failed implements face.Host: the face leaves the table.
func (d *Forwarder) Failed(f *face.Face, err error) { d.loop.Post(func() { d.removeFace(f, err) }) }

// Dirty implements face.Host.
func (d *Forwarder) Dirty(f *face.Face) { d.loop.MarkDirty(f) }

// Wake implements face.Host.
func (d *Forwarder) Wake(f *face.Face) { d.loop.Post(f.Flush) }

// entryOf returns the table entry of f, nil if it is not (or no longer)
// in the table.
func (d *Forwarder) entryOf(f *face.Face) *entry {
	id, ok := f.Tag().(fw.FaceID)
	if !ok {
		return nil
	}
	if e := d.faces[id]; e != nil && e.f == f {
		return e
	}
	return nil
}

// add puts face f in the table (once; a face already there is left as it
// is) with its queue; ff is its [[face]] entry, nil for an on-demand face.
func (d *Forwarder) add(f *face.Face, ff *fwconf.Face) *entry {
	if e := d.entryOf(f); e != nil {
		return e
	}
	if d.closing || f.Closed() {
		f.Close()
		return nil
	}
	if ff == nil && d.cfg.MaxFaces > 0 && len(d.faces) >= d.cfg.MaxFaces {
		// a listener's new face, the table full: a peer that sends from
		// many addresses makes no more state than max-faces faces
		d.refusedFaces++
		d.log.Debug("face refused: the face table is full", "remote", f.Config().Remote, "max-faces", d.cfg.MaxFaces)
		f.Close()
		return nil
	}
	var out fwconf.LinkEmulation
	if ff != nil {
		out = ff.Out
	}
	q, err := newQueue(d.cfg, ff, out)
	if err != nil { // checked by New: a bug
		panic(fmt.Sprintf("fwd: queue of %s: %v", f.Config().Remote, err))
	}
	f.SetQueue(q)
	kind := fw.FaceNetwork // HopLimit counts down on it; never /localhost
	if f.Config().Scope == face.Local {
		kind = fw.FaceLocal // the Unix socket's: /localhost and management
	}
	id := d.fw.AddFace(f, kind)
	f.SetTag(id)
	e := &entry{id: id, f: f, lastRx: d.loop.Now(), conf: ff}
	d.faces[id] = e
	if ff != nil {
		if err := d.emulate(e, ff); err != nil { // checked by New: a bug
			panic(fmt.Sprintf("fwd: link emulation of %s: %v", ff.ID, err))
		}
	}
	detect := d.cfg.LossDetection && f.Datagram() // on-demand UDP faces follow the global setting
	if ff != nil {
		detect = d.cfg.LossDetectionFor(ff)
	}
	if detect {
		if err := d.detectLinkLoss(e); err != nil {
			d.log.Error("link-loss detection not started", "id", id, "err", err)
		}
	}
	d.log.Info("face up", "id", id, "remote", f.Config().Remote, "local", f.Config().Local,
		"persistency", f.Config().Persistency.String())
	return e
}

// emulate puts the emulated link of a configured face in place: a
// link.Channel per emulated direction, with the face's queue discipline
// and the direction's limits, on the loop's clock. The way out replaces
// the face's send queue; the way in holds arriving frames, link fields
// and all, before the link layer sees them.
func (d *Forwarder) emulate(e *entry, ff *fwconf.Face) error {
	var err error
	if e.out, err = d.channel(ff, ff.Out); err != nil {
		return err
	}
	if e.out != nil {
		e.out.OnDeliver(func(fr *link.Frame) { e.f.Transmit(*fr) })
		e.f.SetShaper(e.out)
	}
	in := ff
	if ff.InQueue != "" {
		in = &fwconf.Face{Queue: ff.InQueue}
	}
	if e.in, err = d.channel(in, ff.In); err != nil {
		return err
	}
	if e.in != nil {
		e.in.OnDeliver(func(fr *link.Frame) { d.receive(e, *fr) })
	}
	return nil
}

// channel returns the emulated link of one direction of ff, nil if the
// direction is not emulated.
func (d *Forwarder) channel(ff *fwconf.Face, dir fwconf.LinkEmulation) (*link.Channel, error) {
	if !dir.Emulated() {
		return nil, nil
	}
	q, err := newQueue(d.cfg, ff, dir)
	if err != nil {
		return nil, err
	}
	p := link.Params{Bandwidth: dir.Bandwidth, Delay: dir.Delay, Jitter: dir.Jitter, Loss: dir.Loss, HeaderOverhead: d.cfg.HeaderOverhead}
	return link.NewChannel(d.loop, p, q, d.sizer, rand.New(rand.NewPCG(d.seed, uint64(len(d.faces)))))
}

// detectLinkLoss runs PCON's local link-loss detection on face e, as the
// simulator wires it on a link with loss-detection (link.Reliability's
// doc): the face's NDNLPv2 reliability numbers and acknowledges frames,
// and the forwarder turns a frame the peer never got into an unmarked
// Nack Congestion, and a packet the face's own queue dropped into a
// marked one.
func (d *Forwarder) detectLinkLoss(e *entry) error {
	cfg := link.DefaultReliabilityConfig()
	sendIdle := e.f.SendIdle
	if e.out != nil {
		sendIdle = e.out.SendFrame // IDLE frames cross the emulated link too
	}
	rel, err := link.NewReliability(cfg, d.loop, sendIdle, func(p ndn.Packet) {
		if d.faces[e.id] == e {
			d.fw.OnSendFailure(e.id, p, fw.CauseLinkLoss)
		}
	})
	if err != nil {
		return err
	}
	if err := d.fw.EnableLossNacks(e.id, cfg.Window); err != nil {
		return err
	}
	e.rel = rel
	dropped := func(p ndn.Packet) {
		if d.faces[e.id] == e {
			d.fw.OnSendFailure(e.id, p, fw.CauseQueueDrop)
		}
	}
	if e.out != nil {
		e.out.SetReliability(rel) // numbered as they leave the emulated queue
		e.out.OnDrop(dropped)
	} else {
		e.f.SetReliability(rel)
		e.f.OnDrop(dropped)
	}
	return nil
}

// deliver hands received frames to the face's link reliability, if it
// runs any, and their packets to the forwarder.
func (d *Forwarder) deliver(f *face.Face, frames []link.Frame) {
	e := d.entryOf(f)
	if e == nil {
		return
	}
	e.lastRx = d.loop.Now()
	for _, fr := range frames {
		if e.in != nil {
			e.in.SendFrame(fr) // d.receive once through the emulated link
			continue
		}
		d.receive(e, fr)
	}
}

// receive passes a frame that arrived on face e to its link reliability,
// if any, and its packet to the forwarder.
func (d *Forwarder) receive(e *entry, fr link.Frame) {
	if d.faces[e.id] != e {
		return // the face went while the frame crossed the emulated link
	}
	if e.rel != nil {
		if !e.rel.OnReceive(fr) {
			return // IDLE, or a duplicate
		}
	} else if fr.IsIdle() {
		return
	}
	d.fw.Receive(e.id, fr.Pkt)
}

// removeFace takes f out of the table and the forwarder and closes it.
func (d *Forwarder) removeFace(f *face.Face, err error) {
	e := d.entryOf(f)
	f.Close()
	if e == nil {
		return
	}
	delete(d.faces, e.id)
	d.fw.RemoveFace(e.id)
	d.log.Info("face down", "id", e.id, "remote", f.Config().Remote, "err", err)
	if e.down != nil && !d.closing {
		e.down(err)
	}
	if e.conf != nil && d.static[e.conf.ID] == e {
		delete(d.static, e.conf.ID)
		if !d.closing && !e.adopted && e.conf.Scheme != "udp4" && e.conf.Scheme != "udp6" {
			d.loop.After(time.Second, func() { d.openStatic(e.conf, 1) })
		}
	}
}

// expireIdle closes on-demand UDP faces that received nothing for the idle
// timeout, and runs again a quarter of it later.
func (d *Forwarder) expireIdle() {
	now := d.loop.Now()
	for _, e := range d.faces {
		c := e.f.Config()
		if c.Persistency == face.OnDemand && e.f.Datagram() && now-e.lastRx >= d.cfg.IdleTimeout {
			d.removeFace(e.f, fmt.Errorf("idle for %v", d.cfg.IdleTimeout))
		}
	}
	d.loop.After(d.idleTick, d.expireIdle)
}

// openStatic opens a configured face (retrying a TCP connection that
// fails, one more second each time up to a minute) and adds its routes.
func (d *Forwarder) openStatic(ff *fwconf.Face, attempt int) {
	if d.closing || d.static[ff.ID] != nil {
		return
	}
	switch ff.Scheme {
	case "udp4", "udp6":
		if d.udp == nil {
			d.log.Error("face needs a UDP listener", "face", ff.ID, "remote", ff.Remote)
			return
		}
		ap, err := netip.ParseAddrPort(ff.Address)
		if err != nil {
			d.log.Error("face address", "face", ff.ID, "err", err)
			return
		}
		f, _ := d.udp.Face(ap, face.Permanent)
		d.staticUp(f, ff)
	default:
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			f, err := face.DialTCP(ctx, d, ff.Scheme, ff.Address, face.Permanent, d.log)
			if err == nil && !d.arriving.hold(f) {
				return
			}
			d.loop.Post(func() {
				if err != nil {
					wait := min(time.Duration(attempt+1)*time.Second, time.Minute)
					d.log.Warn("face not connected", "face", ff.ID, "err", err, "retry in", wait)
					d.loop.After(wait, func() { d.openStatic(ff, attempt+1) })
					return
				}
				if d.arriving.take(f) {
					d.staticUp(f, ff)
				}
			})
		}()
	}
}

// staticUp adds a configured face and its routes (static routes of the
// RIB, origin 255, child-inherit, as nfdc adds them), and starts it; it
// returns the face's entry, nil if the forwarder is closing.
func (d *Forwarder) staticUp(f *face.Face, ff *fwconf.Face) *entry {
	e := d.add(f, ff)
	if e == nil {
		return nil
	}
	e.conf = ff
	d.static[ff.ID] = e
	for _, r := range d.cfg.Routes {
		if r.Face == ff.ID { // into the RIB, as nfdc route add puts them
			prefix, _ := ndn.ParseName(r.Prefix) // checked by the parser
			d.mgmt.Register(prefix, mgmt.Route{Face: e.id, Origin: uint64(nfd.RouteOriginStatic), Cost: r.Cost,
				Flags: uint64(nfd.RouteFlagChildInherit)}, 0)
		}
	}
	f.Start()
	return e
}

// Adopt makes conn, an established TCP connection made elsewhere, the
// configured face ff (its ID, queue, link emulation and routes as for a
// [[face]]; ff.Scheme "tcp4" or "tcp6"): the emulator's TCP tunnels,
// whose connections live in a network namespace of their own, join their
// forwarders this way. Call it before Run, which opens the face with the
// configured ones. The face is never reopened: when it fails while the
// forwarder runs, down (if not nil) is called on the loop with the error.
// Without Run, conn stays the caller's to close.
func (d *Forwarder) Adopt(ff *fwconf.Face, conn net.Conn, down func(error)) error {
	if ff.Scheme != "tcp4" && ff.Scheme != "tcp6" {
		return fmt.Errorf("%s: face %s: adopt a tcp4 or tcp6 connection, not %q", ff.Pos, ff.ID, ff.Scheme)
	}
	for _, dir := range []fwconf.LinkEmulation{ff.Out, ff.In} {
		if _, err := newQueue(d.cfg, ff, dir); err != nil {
			return fmt.Errorf("%s: face %s: %w", ff.Pos, ff.ID, err)
		}
	}
	d.adopted = append(d.adopted, adoption{ff: ff, conn: conn, down: down})
	return nil
}

// Faces returns the face table's faces (on the loop), by ID.
func (d *Forwarder) Faces() map[fw.FaceID]*face.Face {
	out := make(map[fw.FaceID]*face.Face, len(d.faces))
	for id, e := range d.faces {
		out[id] = e.f
	}
	return out
}

// Link returns the emulated link (the way out) of configured face id
// while it is up, nil if the face is down or emulates no link out.
func (d *Forwarder) Link(id string) *link.Channel {
	if e := d.static[id]; e != nil {
		return e.out
	}
	return nil
}

// LinkIn returns the emulated way in of configured face id while it is
// up, nil if the face is down or emulates no way in.
func (d *Forwarder) LinkIn(id string) *link.Channel {
	if e := d.static[id]; e != nil {
		return e.in
	}
	return nil
}

// StaticFace returns the ID of configured face id while it is up.
func (d *Forwarder) StaticFace(id string) (fw.FaceID, bool) {
	e := d.static[id]
	if e == nil {
		return 0, false
	}
	return e.id, true
}
