package emu

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/fwd"
	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// udpMTU is the datagram size of the faces between nodes: loopback takes
// any NDN packet in one datagram, so none is fragmented.
const udpMTU = 9000

// node is one running forwarder: ndncc's (fwd, in this process) or an
// external one (ext, a process of its own).
type node struct {
	name string
	sock string
	cfg  *fwconf.Config
	fwd  *fwd.Forwarder
	ext  *extNode
	// links are the emulated ways out, one per neighbour (sorted), with
	// their queue traces; read and sampled on the node's loop.
	links  []*sim.Channel
	queues []*sim.QueueTrace
	// faces are the forwarder's faces to the neighbours, by name.
	faces map[string]fw.FaceID
	// tunnels are the neighbours it reaches by TCP tunnel; delays are the
	// lines that delay what arrives from them, read on the node's loop.
	tunnels []string
	delays  []*sim.Channel
	// stopped is closed when the forwarder's Run returned, with err.
	stopped chan struct{}
	err     error
	// sampling says the queue sampler runs.
	sampling atomic.Bool
}

// do runs fn on the node's loop and waits for it; it fails if the
// forwarder stopped first.
func (nd *node) do(fn func()) error {
	ran := make(chan struct{})
	go nd.fwd.Loop().Post(func() { fn(); close(ran) })
	select {
	case <-ran:
		return nil
	case <-nd.stopped:
		return fmt.Errorf("node %s: forwarder stopped: %v", nd.name, nd.err)
	}
}

// config is the forwarder configuration of node name: the scenario's
// router settings, a Unix socket in dir, a UDP listener on loopback, and
// drop-tail queues on its local faces (the simulator's applications sit
// on queueless faces).
func (r *run) config(name, sock string) *fwconf.Config {
	rs := r.sc.RouterFor(name)
	cfg := fwconf.Default()
	cfg.File = r.sc.File
	cfg.Socket, cfg.UDP, cfg.TCP = sock, "127.0.0.1:0", ""
	cfg.ListenSet.Socket, cfg.ListenSet.UDP = true, true
	cfg.MTU = udpMTU
	cfg.Strategy, cfg.CSCapacity = rs.Strategy, rs.CSCapacity
	cfg.Queue, cfg.QueueParams = "droptail", map[string]string{}
	cfg.HeaderOverhead = r.sc.HeaderOverhead
	cfg.Pos = rs.Pos
	return cfg
}

// startNodes starts a forwarder per node, listening (ndncc's in this
// process, an external one as its own process), then gives each a face
// per link (to the neighbour's UDP address, emulating the direction
// towards it; to the link's relay where an end is external; or its end of
// the link's TCP tunnel) and the simulator's routes, and runs them.
func (r *run) startNodes(ctx context.Context) error {
	r.byName = map[string]*node{}
	r.failed = make(chan struct{})
	var created []*node
	abandon := func(err error) error {
		for _, nd := range created {
			if nd.fwd != nil { // close its listeners
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				nd.fwd.Run(ctx)
			}
		}
		for _, rl := range r.relays {
			rl.closeSockets()
		}
		return err
	}
	kinds := func(n string) string { return forwarderOf(r.sc, r.opt, n) }
	kernel := map[string]int{} // kernel links by "A-B": their index
	for _, l := range r.sc.Topology.Links {
		if isKernelLink(r.sc, kinds, l) {
			kernel[l.A+"-"+l.B] = len(kernel)
		}
	}
	// With kernel links or TCP tunnels between external forwarders, every
	// external forwarder runs in the run's namespace, its relayed links'
	// sockets for it too.
	if len(kernel) > 0 {
		ns, err := newNetns()
		if err != nil {
			return fmt.Errorf("emu: kernel links: %w", err)
		}
		r.ns = ns
		if err := ns.do(setupKernelLoopback); err != nil {
			return fmt.Errorf("emu: kernel links: %w", err)
		}
	}
	if _, ext := r.tunnelLinks(); ext {
		if err := r.startTunnelNetns(); err != nil {
			return err
		}
	}
	for i, tn := range r.sc.Topology.Nodes {
		sock := socketPath(r.dir, tn.Name, i)
		nd := &node{name: tn.Name, sock: sock, stopped: make(chan struct{})}
		if kind := forwarderOf(r.sc, r.opt, tn.Name); external(kind) {
			r.exts = append(r.exts, nd) // shutdown stops it, whatever happens next
			r.byName[tn.Name] = nd
			if err := r.startExt(nd, kind); err != nil {
				return abandon(fmt.Errorf("emu: node %s: %w", tn.Name, err))
			}
			continue
		}
		nd.cfg = r.config(tn.Name, sock)
		var err error
		if nd.fwd, err = fwd.New(nd.cfg, r.log.With("node", tn.Name)); err != nil {
			return abandon(fmt.Errorf("emu: node %s: %w", tn.Name, err))
		}
		if err := nd.fwd.Listen(); err != nil {
			return abandon(fmt.Errorf("emu: node %s: %w", tn.Name, err))
		}
		created = append(created, nd)
		r.byName[tn.Name] = nd
	}
	relayed := map[string]*relay{} // by "A-B"
	for _, l := range r.sc.Topology.Links {
		if r.sc.TCPTunnelFor(l.A, l.B) != nil {
			continue // startTunnels
		}
		a, b := r.byName[l.A], r.byName[l.B]
		if a.ext == nil && b.ext == nil {
			for _, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
				from, to := r.byName[dir[0]], r.byName[dir[1]]
				from.cfg.Faces = append(from.cfg.Faces, r.face(l, dir[0], dir[1], to))
			}
			continue
		}
		k, isKernel := kernel[l.A+"-"+l.B]
		var listen [2]relayListen
		var addrs [2]net.IP
		for i, end := range [2]*node{a, b} {
			listen[i] = listenHere
			if end.ext != nil && r.ns != nil {
				listen[i] = listenIn(r.ns)
			}
			if isKernel {
				addrs[i] = loopbackAddr(kernelBlock, k, i)
			}
		}
		rl, err := r.newRelay(l, listen, addrs, isKernel)
		if err != nil {
			return abandon(err)
		}
		r.relays = append(r.relays, rl)
		if isKernel {
			r.kernel = append(r.kernel, rl)
			if l.Bandwidth > 0 {
				for d := range 2 {
					rl.class[d] = 0x10 + 2*k + d
					if err := r.ns.do(func() error { return shapeKernelDirection(rl.class[d], l, addrs[d]) }); err != nil {
						return abandon(fmt.Errorf("emu: link %s: %w", l, err))
					}
				}
			}
		}
		relayed[l.A+"-"+l.B] = rl
		for _, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
			from := r.byName[dir[0]]
			if from.ext != nil {
				rl.setPeer(from.name, from.ext.addr())
				continue
			}
			rl.setPeer(from.name, net.UDPAddrFromAddrPort(from.fwd.UDPAddr()))
			from.cfg.Faces = append(from.cfg.Faces, relayFace(l, dir[1], rl.addrOf(from.name)))
		}
	}
	planner := sim.NewRoutePlanner(r.sc)
	for _, p := range r.sc.Producers {
		for _, rt := range planner.Announce(p) {
			nd := r.byName[rt.Node]
			route := fwconf.Route{Prefix: rt.Prefix, Face: rt.Neighbor, Cost: rt.Cost, Pos: p.Pos}
			if nd.ext != nil {
				nd.ext.routes = append(nd.ext.routes, route)
			} else {
				nd.cfg.Routes = append(nd.cfg.Routes, route)
			}
		}
	}
	var errs []error
	for _, nd := range created {
		if err := fwd.Check(nd.cfg); err != nil {
			errs = append(errs, fmt.Errorf("emu: node %s: %w", nd.name, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return abandon(err)
	}
	if err := r.startTunnels(); err != nil {
		return abandon(err)
	}
	r.nodes = nil
	for _, tn := range r.sc.Topology.Nodes {
		r.nodes = append(r.nodes, r.byName[tn.Name])
	}
	for _, nd := range created {
		r.runNode(nd)
	}
	for _, rl := range r.relays {
		r.startRelay(rl)
	}
	for _, nd := range created {
		if err := nd.do(func() { r.collectLinks(nd) }); err != nil {
			return fmt.Errorf("emu: %w", err)
		}
	}
	for _, nd := range r.exts {
		if err := nd.ext.waitReady(ctx, nd.sock); err != nil {
			return fmt.Errorf("emu: node %s: %w", nd.name, err)
		}
		r.watchExt(nd)
		faces := map[string]extFace{}
		for _, l := range r.sc.Topology.Links {
			if rl := relayed[l.A+"-"+l.B]; rl != nil && (l.A == nd.name || l.B == nd.name) {
				to := l.Other(nd.name)
				f := extFace{uri: "udp4://" + rl.addrOf(nd.name).String()}
				if rl.kernel {
					m, err := kernelMarkingFor(r.sc, nd.name, to, nd.ext.kind)
					if err != nil { // Check refused it
						return err
					}
					f.marking = &m
				}
				faces[to] = f
			}
		}
		if err := r.externalTunnelFaces(nd, faces); err != nil {
			return err
		}
		if err := r.configure(ctx, nd, faces); err != nil {
			return fmt.Errorf("emu: node %s (%s): %w", nd.name, nd.ext.kind, err)
		}
		if err := r.tuneExternalTunnels(nd); err != nil {
			return fmt.Errorf("emu: node %s (%s): %w", nd.name, nd.ext.kind, err)
		}
	}
	return nil
}

// relayFace is an ndncc node's face to neighbour to over link l when the
// link is relayed (the neighbour is an external forwarder): plain UDP to
// the relay's socket, which emulates the link; the face itself shapes
// nothing.
func relayFace(l topology.Link, to string, addr *net.UDPAddr) fwconf.Face {
	off := false
	return fwconf.Face{
		ID: to, Remote: "udp4://" + addr.String(), Scheme: "udp4", Address: addr.String(),
		Queue: "droptail", QueueParams: map[string]string{}, LossDetection: &off,
		Pos: l.Pos,
	}
}

// watchExt ends the run with an error naming nd when its external
// forwarder exits while the network is up.
func (r *run) watchExt(nd *node) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case <-nd.ext.exited:
			r.fail(fmt.Errorf("node %s: %s %w (%s): %s", nd.name, nd.ext.kind, errExtExited, nd.ext.cmd.ProcessState, nd.ext.logTail()))
		case <-r.netCtx.Done():
		}
	}()
}

// runNode runs nd's forwarder until the network stops, and reports its
// failure.
func (r *run) runNode(nd *node) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(nd.stopped)
		nd.err = nd.fwd.Run(r.netCtx)
		if r.netCtx.Err() == nil {
			if nd.err == nil {
				nd.err = errors.New("stopped")
			}
			r.fail(fmt.Errorf("node %s: forwarder stopped: %w", nd.name, nd.err))
		}
	}()
}

// face is node from's face to neighbour to over link l: UDP to the
// neighbour's listener, emulating the direction from→to with the link's
// rate, delay, queue limits and the scenario's loss, queue discipline and
// link-loss detection for it.
func (r *run) face(l topology.Link, from, to string, peer *node) fwconf.Face {
	q, params := r.sc.QueueFor(from, to)
	params = simQueueParams(q, params)
	detect := r.sc.LossDetection(l.A, l.B)
	addr := peer.fwd.UDPAddr().String()
	return fwconf.Face{
		ID: to, Remote: "udp4://" + addr, Scheme: "udp4", Address: addr,
		Queue: q, QueueParams: params, LossDetection: &detect,
		Out: fwconf.LinkEmulation{
			Bandwidth: l.Bandwidth, Delay: l.Delay, Jitter: l.Jitter, Loss: r.sc.LossFor(from, to),
			QueuePackets: l.QueuePackets, QueueBytes: l.QueueBytes,
		},
		Pos: l.Pos,
	}
}

// simQueueParams returns a discipline's parameters as the simulator uses
// them: a forwarder's face gives CoDel a default MTU of its own (the
// largest NDN packet) where the scenario sets none; the emulator keeps
// the discipline's default, as the simulator does.
func simQueueParams(name string, params map[string]string) map[string]string {
	info, err := aqm.Describe(name)
	if err != nil {
		return params // fwd.Check reports it
	}
	out := maps.Clone(params)
	if out == nil {
		out = map[string]string{}
	}
	for _, p := range info.Params {
		if p.Name == "mtu" {
			if _, set := out["mtu"]; !set {
				out["mtu"] = p.Default
			}
		}
	}
	return out
}

// collectLinks finds nd's emulated links (on its loop), in neighbour
// order, and starts their queue traces.
func (r *run) collectLinks(nd *node) {
	names := slices.Clone(nd.tunnels)
	for _, f := range nd.cfg.Faces {
		names = append(names, f.ID)
	}
	slices.Sort(names)
	nd.faces = map[string]fw.FaceID{}
	for _, to := range names {
		if id, ok := nd.fwd.StaticFace(to); ok {
			nd.faces[to] = id
		}
		if ch := nd.fwd.Link(to); ch != nil {
			nd.links = append(nd.links, &sim.Channel{Channel: ch, From: nd.name, To: to})
		}
		if ch := nd.fwd.LinkIn(to); ch != nil && slices.Contains(nd.tunnels, to) {
			nd.delays = append(nd.delays, &sim.Channel{Channel: ch, From: to, To: nd.name})
		}
	}
}

// startSampling samples every node's queues on its loop, every
// sim.QueueSampleInterval, until stopSampling; times count from t0.
func (r *run) startSampling(t0 time.Time) {
	if r.traces == nil {
		return
	}
	for _, rl := range r.relays {
		queues := []*sim.QueueTrace{r.traces.Queue(rl.dirs[0]), r.traces.Queue(rl.dirs[1])}
		every(rl.loop, 0, sim.QueueSampleInterval, &r.relaySampling, func() {
			now := since(t0)
			for i, c := range rl.dirs {
				queues[i].Sample(now, c)
			}
		})
	}
	r.relaySampling.Store(true)
	for _, nd := range r.nodes {
		if nd.fwd == nil {
			continue // an external forwarder: its links are its relays'
		}
		for _, c := range nd.links {
			nd.queues = append(nd.queues, r.traces.Queue(c))
		}
		nd.sampling.Store(true)
		loop := nd.fwd.Loop()
		every(loop, 0, sim.QueueSampleInterval, &nd.sampling, func() {
			now := since(t0)
			for i, c := range nd.links {
				nd.queues[i].Sample(now, c)
			}
		})
		out := map[string]*sim.Channel{}
		for _, c := range nd.links {
			out[c.To] = c
		}
		ft := r.traces.Forwarding(r.sc, sim.Router{Name: nd.name, FW: nd.fwd.Core(), Out: out, Faces: nd.faces})
		if ft != nil {
			every(loop, sim.ForwardingSampleInterval, sim.ForwardingSampleInterval, &nd.sampling, func() { ft.Sample(since(t0)) })
		}
	}
}

// every runs fn on loop after first, then every interval, while on holds
// (as the simulator's samplers run).
func every(loop *eventloop.Loop, first, interval time.Duration, on *atomic.Bool, fn func()) {
	var tick func()
	tick = func() {
		if !on.Load() {
			return
		}
		fn()
		loop.After(interval, tick)
	}
	go loop.Post(func() { loop.After(first, tick) })
}

// linkResults stops the samplers and summarises every node's links (each
// on its loop) over a run of length now, sorted as the simulator sorts
// them.
func (r *run) linkResults(now time.Duration) ([]sim.LinkResult, []LinkLateness, error) {
	var out []sim.LinkResult
	var late []LinkLateness
	var errs []error
	r.relaySampling.Store(false)
	for _, rl := range r.relays {
		if err := rl.do(func() {
			for i, c := range rl.dirs {
				lr := sim.NewLinkResult(c, now)
				if rl.kernel {
					// The senders' marks (the delay line makes none), and
					// the link's rate, which the kernel gives.
					lr.Marks = rl.marked[i].Load()
					if bw := rl.link.Bandwidth; bw > 0 && now > 0 {
						lr.Utilization = sim.Round(float64(lr.Bytes)*8/bw/now.Seconds(), 6)
					}
				}
				out = append(out, lr)
				l := c.Stats().Lateness
				late = append(late, LinkLateness{From: c.From, To: c.To, Wakes: l.Wakes,
					MeanMs: msOf(l.Mean()), MaxMs: msOf(l.Max), Overruns: l.Overruns})
			}
		}); err != nil {
			errs = append(errs, err)
		}
		if n := rl.malformed(); n > 0 {
			r.log.Warn("relay dropped datagrams it could not decode", "link", rl.link.String(), "datagrams", n)
		}
	}
	for _, nd := range r.nodes {
		if nd.fwd == nil {
			continue
		}
		nd.sampling.Store(false)
		if err := nd.do(func() {
			for _, c := range nd.links {
				out = append(out, sim.NewLinkResult(c, now))
			}
			for _, c := range slices.Concat(nd.links, nd.delays) {
				l := c.Stats().Lateness
				late = append(late, LinkLateness{From: c.From, To: c.To, Wakes: l.Wakes,
					MeanMs: msOf(l.Mean()), MaxMs: msOf(l.Max), Overruns: l.Overruns})
			}
		}); err != nil {
			errs = append(errs, err)
		}
	}
	tunnels, err := r.tunnelLinkResults(now)
	errs = append(errs, err)
	out = append(out, tunnels...)
	slices.SortStableFunc(out, func(a, b sim.LinkResult) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	slices.SortStableFunc(late, func(a, b LinkLateness) int {
		return cmp.Or(strings.Compare(a.From, b.From), strings.Compare(a.To, b.To))
	})
	return out, late, errors.Join(errs...)
}

// msOf is d in milliseconds, to the microsecond.
func msOf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
