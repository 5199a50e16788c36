package emu

import (
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"time"

	"github.com/ndncc/ndncc/live/fwd/fwconf"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// A TCP tunnel runs over real kernel TCP (docs/emulation.md, "TCP
// tunnels"): one TCP connection per link between the two forwarders,
// made in a network namespace of the run's own whose loopback interface
// sends each direction of the connection through an HTB class at the
// link's rate, so that the bottleneck is beneath TCP and the sending
// socket's queue fills as it would before a slow link. Each forwarder's
// face is the connection's end, with the direction's queue discipline as
// its send queue (unbounded, NFD's m_sendQueue) counting the socket's
// unsent bytes, as the simulator's tunnel does (sim/tcptunnel.go).

// loopbackHeaders is what a TCP segment carries on loopback besides its
// payload, as the qdisc counts it: an Ethernet header (loopback has one)
// and IPv4 and TCP (with timestamps) headers.
const loopbackHeaders = 14 + sim.IPv4HeaderBytes + sim.TCPHeaderBytes

// tunnelMTU is the loopback MTU in the tunnels' namespace: TCP segments
// of an Ethernet link (the simulator's MSS, scenario.DefaultMSS).
const tunnelMTU = 1500

// unboundedQueue is the packet limit of a tunnel face's send queue: none
// that matters (the simulator's is unlimited).
const unboundedQueue = 1 << 30

// tunnel is one TCP tunnel: its link; between ndncc forwarders the
// connection's two ends, A's (dialled) and B's (accepted), between
// external ones the proxy they dial (tunnelproxy.go); and the minor
// numbers of its two directions' HTB classes (A→B, B→A; 0: not shaped),
// which are also their FIFOs' handles.
type tunnel struct {
	link  topology.Link
	conn  [2]*net.TCPConn
	proxy *tunnelProxy
	class [2]int
}

// tunnelLinks are the scenario's TCP tunnels' links, and whether one
// joins external forwarders (whose processes must then be born in the
// tunnels' namespace).
func (r *run) tunnelLinks() (links []topology.Link, external bool) {
	for _, l := range r.sc.Topology.Links {
		if r.sc.TCPTunnelFor(l.A, l.B) != nil {
			links = append(links, l)
			external = external || r.externalTunnel(l)
		}
	}
	return links, external
}

// externalTunnel reports whether link l is a TCP tunnel between external
// forwarders (Check refuses one with a single external end).
func (r *run) externalTunnel(l topology.Link) bool {
	return r.sc.TCPTunnelFor(l.A, l.B) != nil && external(forwarderOf(r.sc, r.opt, l.A))
}

// startTunnelNetns makes the tunnels' network namespace and shapes its
// loopback, once.
func (r *run) startTunnelNetns() error {
	if r.ns != nil {
		return nil
	}
	ns, err := newNetns()
	if err != nil {
		return fmt.Errorf("emu: TCP tunnels: %w", err)
	}
	r.ns = ns
	if err := ns.do(r.setupTunnelLoopback); err != nil {
		return fmt.Errorf("emu: TCP tunnels: %w", err)
	}
	return nil
}

// startTunnels makes the scenario's TCP tunnels in the tunnels' network
// namespace and shapes them; it gives each end between ndncc forwarders
// to its node's forwarder (before the forwarders run) and starts the
// proxies that external forwarders dial (when configure creates their
// faces).
func (r *run) startTunnels() error {
	links, _ := r.tunnelLinks()
	if len(links) == 0 {
		return nil
	}
	if err := r.startTunnelNetns(); err != nil {
		return err
	}
	if err := r.ns.do(func() error { return r.makeTunnels(links) }); err != nil {
		return fmt.Errorf("emu: TCP tunnels: %w", err)
	}
	for _, t := range r.tunnels {
		if t.proxy != nil {
			t.proxy.run(r.netCtx.Done(), r.fail, &r.wg)
			continue
		}
		for i, dir := range [2][2]string{{t.link.A, t.link.B}, {t.link.B, t.link.A}} {
			nd := r.byName[dir[0]]
			ff := r.tunnelFace(t.link, dir[0], dir[1], t.conn[i])
			down := func(err error) {
				r.fail(fmt.Errorf("node %s: the TCP tunnel to %s failed: %w", dir[0], dir[1], err))
			}
			if err := nd.fwd.Adopt(ff, t.conn[i], down); err != nil {
				return fmt.Errorf("emu: node %s: %w", dir[0], err)
			}
			nd.tunnels = append(nd.tunnels, dir[1])
		}
	}
	return nil
}

// setupTunnelLoopback brings the namespace's loopback up with an HTB
// root. It runs in the namespace.
func (r *run) setupTunnelLoopback() error {
	root := []string{"tc", "qdisc", "add", "dev", "lo", "root", "handle", "1:"}
	// The simulator's segment is its payload plus sim.TCPOverhead bytes
	// on the wire; the qdisc sees loopbackHeaders: a size table makes up
	// the difference. Unclassified traffic (htb's default 0) is not shaped.
	if extra := sim.TCPOverhead(r.sc.HeaderOverhead) - loopbackHeaders; extra != 0 {
		root = append(root, "stab", "overhead", strconv.Itoa(extra))
	}
	for _, args := range [][]string{
		{"ip", "link", "set", "lo", "up", "mtu", strconv.Itoa(tunnelMTU)},
		// One MSS per packet through the qdisc, as on a real link, not
		// 64 KB GSO bursts that would leave as one.
		{"ip", "link", "set", "lo", "gso_max_segs", "1"},
		append(root, "htb"),
	} {
		if err := command(args...); err != nil {
			return err
		}
	}
	return nil
}

// makeTunnels runs in the namespace: it connects each link's tunnel (or
// opens its proxy, between external forwarders) and shapes its two
// directions.
func (r *run) makeTunnels(links []topology.Link) error {
	for i, l := range links {
		t := &tunnel{link: l}
		r.tunnels = append(r.tunnels, t)
		var match [2][]string
		if r.externalTunnel(l) {
			var err error
			if t.proxy, err = listenTunnelProxy(i, l); err != nil {
				return fmt.Errorf("link %s: %w", l, err)
			}
			for d := range 2 {
				match[d] = []string{"match", "ip", "dst", loopbackAddr(tunnelBlock, i, d).String() + "/32"}
			}
		} else {
			if err := t.connect(r.sc.TCPTunnelFor(l.A, l.B).SendBuffer); err != nil {
				return fmt.Errorf("link %s: %w", l, err)
			}
			ports := [2]string{strconv.Itoa(t.conn[0].LocalAddr().(*net.TCPAddr).Port), strconv.Itoa(t.conn[1].LocalAddr().(*net.TCPAddr).Port)}
			for d := range 2 {
				match[d] = []string{"match", "ip", "sport", ports[d], "0xffff", "match", "ip", "dport", ports[1-d], "0xffff"}
			}
		}
		for d := range 2 {
			if l.Bandwidth <= 0 {
				continue // no rate limiter, as in Mininet
			}
			t.class[d] = 0x10 + 2*i + d
			if err := shapeDirection(t.class[d], l, match[d]); err != nil {
				return fmt.Errorf("link %s: %w", l, err)
			}
		}
	}
	return nil
}

// connect makes the tunnel's connection on loopback, each end with a send
// buffer of sndbuf bytes.
func (t *tunnel) connect(sndbuf int) error {
	ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return err
	}
	defer ln.Close()
	if t.conn[0], err = net.DialTCP("tcp4", nil, ln.Addr().(*net.TCPAddr)); err != nil {
		return err
	}
	if t.conn[1], err = ln.AcceptTCP(); err != nil {
		return err
	}
	for _, c := range t.conn {
		if err := tuneSocket(c, sndbuf); err != nil {
			return err
		}
	}
	return nil
}

// close closes both ends (the forwarders close them too once adopted) or
// the proxy.
func (t *tunnel) close() {
	if t.proxy != nil {
		t.proxy.shut()
	}
	for _, c := range t.conn {
		if c != nil {
			c.Close()
		}
	}
}

// shapeDirection sends the segments match selects (tc u32 match
// arguments) through HTB class 1:minor at the link's rate, into a FIFO
// (handle minor:) of the link's queue limit.
func shapeDirection(minor int, l topology.Link, match []string) error {
	class, leaf := fmt.Sprintf("1:%x", minor), fmt.Sprintf("%x:", minor)
	rate := strconv.FormatFloat(l.Bandwidth, 'f', 0, 64) + "bit"
	fifo := []string{"pfifo", "limit", strconv.Itoa(max(l.QueuePackets, 1))}
	if l.QueuePackets == 0 && l.QueueBytes > 0 {
		fifo = []string{"bfifo", "limit", strconv.Itoa(l.QueueBytes)}
	}
	for _, args := range [][]string{
		{"tc", "class", "add", "dev", "lo", "parent", "1:", "classid", class, "htb", "rate", rate, "ceil", rate, "quantum", strconv.Itoa(tunnelMTU + 14)},
		append([]string{"tc", "qdisc", "add", "dev", "lo", "parent", class, "handle", leaf}, fifo...),
		append(append([]string{"tc", "filter", "add", "dev", "lo", "parent", "1:", "protocol", "ip", "prio", "1", "u32"},
			match...), "flowid", class),
	} {
		if err := command(args...); err != nil {
			return err
		}
	}
	return nil
}

// tunnelFace is node from's face over its end of the tunnel of link l
// (to neighbour to): the direction's queue discipline and parameters on
// an unbounded send queue, no link-loss shim (a tunnel runs none), and
// the link's propagation delay on the way in (the kernel shapes the rate;
// docs/emulation.md says why the delay is applied above TCP).
func (r *run) tunnelFace(l topology.Link, from, to string, conn *net.TCPConn) *fwconf.Face {
	q, params := r.sc.QueueFor(from, to)
	off := false
	addr := conn.RemoteAddr().String()
	return &fwconf.Face{
		ID: to, Remote: "tcp4://" + addr, Scheme: "tcp4", Address: addr,
		Queue: q, QueueParams: simQueueParams(q, params), LossDetection: &off,
		Out: fwconf.LinkEmulation{QueuePackets: unboundedQueue},
		In:  fwconf.LinkEmulation{Delay: l.Delay, Jitter: l.Jitter}, InQueue: "droptail",
		Pos: l.Pos,
	}
}

// tunnelLinkResults are the TCP tunnels' link directions, in the
// simulator's schema, from their FIFOs' counters in the namespace: the
// segments and ACKs that left, their bytes (as the simulator counts them
// on the wire) and drops, and the utilisation over a run of length now.
// The kernel keeps no queue maxima and the run samples none: MaxQueue and
// MeanQueue stay 0. An unshaped tunnel has no row.
func (r *run) tunnelLinkResults(now time.Duration) ([]sim.LinkResult, error) {
	if r.ns == nil {
		return nil, nil
	}
	var stats map[string]qdiscStats
	if err := r.ns.do(func() (err error) {
		stats, err = fifoStats()
		return err
	}); err != nil {
		return nil, fmt.Errorf("emu: TCP tunnels' counters: %w", err)
	}
	var out []sim.LinkResult
	for _, t := range r.tunnels {
		for d, dir := range [2][2]string{{t.link.A, t.link.B}, {t.link.B, t.link.A}} {
			if t.class[d] == 0 {
				continue
			}
			st := stats[fmt.Sprintf("%x:", t.class[d])]
			lr := sim.LinkResult{From: dir[0], To: dir[1], Packets: st.Packets, Bytes: st.Bytes, Drops: st.Drops, TailDrops: st.Drops}
			if now > 0 {
				lr.Utilization = sim.Round(float64(st.Bytes)*8/t.link.Bandwidth/now.Seconds(), 6)
			}
			out = append(out, lr)
		}
	}
	return out, nil
}

// qdiscStats are a qdisc's counters as `tc -s -j qdisc show` prints them.
type qdiscStats struct {
	Handle  string `json:"handle"`
	Bytes   uint64 `json:"bytes"`
	Packets uint64 `json:"packets"`
	Drops   uint64 `json:"drops"`
}

// fifoStats reads the counters of loopback's qdiscs (in the namespace),
// by handle.
func fifoStats() (map[string]qdiscStats, error) {
	b, err := exec.Command("tc", "-s", "-j", "qdisc", "show", "dev", "lo").Output()
	if err != nil {
		return nil, fmt.Errorf("tc -s -j qdisc show dev lo: %w", err)
	}
	var qs []qdiscStats
	if err := json.Unmarshal(b, &qs); err != nil {
		return nil, fmt.Errorf("tc -s -j qdisc show dev lo: %w", err)
	}
	out := map[string]qdiscStats{}
	for _, q := range qs {
		out[q.Handle] = q
	}
	return out, nil
}
