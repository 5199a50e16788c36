package emu

import (
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"net"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sim"
	"github.com/ndncc/ndncc/topology"
)

// relayMaxDatagram is the largest datagram a relay reads: loopback's
// whole MTU, beyond any NDN packet the forwarders send (8800 bytes).
const relayMaxDatagram = 65535

// relay carries one link whose end is an external forwarder: a UDP
// socket for each end, which that end's face points at, and between them
// the link's two directions as ndncc's link model (link.Channel: rate,
// drop-tail queue with the link's limits, delay, loss) on an event loop
// of the relay's own. A datagram from end i is decoded, sent through
// direction i (its wire size is the packet's, as the simulator counts
// it, plus the header overhead) and, when it arrives, re-encoded and sent
// from the other end's socket to that end's forwarder. The relay holds no
// forwarding state: it is the wire.
type relay struct {
	link topology.Link
	loop *eventloop.Loop
	ends [2]relayEnd
	// dirs are the directions ends[0]→ends[1] and ends[1]→ends[0].
	dirs [2]*sim.Channel
	log  *slog.Logger
	// stopped is closed when the loop's Run returned.
	stopped chan struct{}
	// kernel says the link is a kernel link (kernel.go): the kernel
	// shapes each direction before the relay's socket, in HTB class
	// 1:class[d] (0: not shaped), and the relay's directions carry the
	// delay only; marked counts the marked packets each direction carried.
	kernel bool
	class  [2]int
	marked [2]atomic.Uint64
}

// relayEnd is one end of a relayed link: the node, the relay's socket
// its face points at, and the node's UDP listener, where the other
// direction's packets go.
type relayEnd struct {
	node string
	conn *net.UDPConn
	peer *net.UDPAddr
	dec  face.Decoder
}

// relayListen opens a relay's socket for one end, at addr: in the
// process's network namespace or, for an end in the run's namespace,
// there.
type relayListen func(addr *net.UDPAddr) (*net.UDPConn, error)

// listenHere opens a relay socket in the process's namespace.
func listenHere(addr *net.UDPAddr) (*net.UDPConn, error) { return net.ListenUDP("udp4", addr) }

// listenIn opens a relay socket in namespace ns.
func listenIn(ns *netns) relayListen {
	return func(addr *net.UDPAddr) (c *net.UDPConn, err error) {
		err = ns.do(func() error {
			c, err = net.ListenUDP("udp4", addr)
			return err
		})
		return c, err
	}
}

// newRelay opens the sockets of a relay for link l (their addresses are
// the faces' remotes), end i's with listen[i] on addrs[i] (nil:
// 127.0.0.1, any port); start runs it once both ends' peers are known. A
// kernel link's relay carries its directions' delay only (relayChannel).
func (r *run) newRelay(l topology.Link, listen [2]relayListen, addrs [2]net.IP, kernel bool) (*relay, error) {
	rl := &relay{link: l, loop: eventloop.New(), stopped: make(chan struct{}), log: r.log.With("relay", l.A+"-"+l.B), kernel: kernel}
	for i, n := range [2]string{l.A, l.B} {
		ip := addrs[i]
		if ip == nil {
			ip = net.IPv4(127, 0, 0, 1)
		}
		c, err := listen[i](&net.UDPAddr{IP: ip})
		if err != nil {
			rl.closeSockets()
			return nil, fmt.Errorf("emu: link %s: relay socket: %w", l, err)
		}
		rl.ends[i] = relayEnd{node: n, conn: c}
		rl.ends[i].dec.Name, rl.ends[i].dec.Logger = n, rl.log
	}
	for i := range 2 {
		from, to := rl.ends[i].node, rl.ends[1-i].node
		ch, err := r.relayChannel(rl.loop, l, from, to, kernel)
		if err != nil {
			rl.closeSockets()
			return nil, fmt.Errorf("emu: link %s->%s: %w", from, to, err)
		}
		out := &rl.ends[1-i]
		ch.OnDeliver(func(f *link.Frame) { rl.send(out, f) })
		rl.dirs[i] = &sim.Channel{Channel: ch, From: from, To: to}
	}
	return rl, nil
}

// relayChannel is the link model of direction from→to of l: the link's
// rate, delay and queue limits, the scenario's loss for the direction,
// its drop-tail queue (checkRelayed refuses others) and header overhead.
// A kernel link's direction (kernel) has the delay, jitter and loss only,
// with no rate and an unbounded drop-tail line: the kernel's FIFO before
// it is the link's queue.
func (r *run) relayChannel(loop *eventloop.Loop, l topology.Link, from, to string, kernel bool) (*link.Channel, error) {
	name, params := r.sc.QueueFor(from, to)
	lim := aqm.Limits{Packets: l.QueuePackets, Bytes: l.QueueBytes}
	if lim.Packets == 0 {
		lim.Packets = face.DefaultQueueLimit
	}
	bw := l.Bandwidth
	if kernel {
		name, params, lim, bw = "droptail", nil, aqm.Limits{Packets: unboundedQueue}, 0
	}
	q, err := aqm.New(name, params, lim)
	if err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte(from + "->" + to))
	p := link.Params{Bandwidth: bw, Delay: l.Delay, Jitter: l.Jitter, Loss: r.sc.LossFor(from, to), HeaderOverhead: r.sc.HeaderOverhead}
	return link.NewChannel(loop, p, q, ndn.NewSizer(), rand.New(rand.NewPCG(r.seed, h.Sum64())))
}

// addrOf is the address of the relay's socket that node's face points at.
func (rl *relay) addrOf(node string) *net.UDPAddr {
	for i := range rl.ends {
		if rl.ends[i].node == node {
			return rl.ends[i].conn.LocalAddr().(*net.UDPAddr)
		}
	}
	return nil
}

// setPeer gives the UDP listener of node, where the relay sends what
// arrives for it.
func (rl *relay) setPeer(node string, addr *net.UDPAddr) {
	for i := range rl.ends {
		if rl.ends[i].node == node {
			rl.ends[i].peer = addr
		}
	}
}

// start runs the relay's loop and readers until the network stops (r's
// netCtx), then closes its sockets.
func (r *run) startRelay(rl *relay) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		defer close(rl.stopped)
		err := rl.loop.Run(r.netCtx)
		rl.closeSockets()
		if r.netCtx.Err() == nil {
			r.fail(fmt.Errorf("link %s: relay stopped: %v", rl.link, err))
		}
	}()
	for i := range rl.ends {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			rl.read(i)
		}()
	}
}

// read reads end i's datagrams until its socket closes and puts each on
// direction i, on the loop.
func (rl *relay) read(i int) {
	end := &rl.ends[i]
	for {
		buf := make([]byte, relayMaxDatagram)
		n, _, err := end.conn.ReadFromUDP(buf)
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				rl.log.Warn("relay read", "from", end.node, "err", err)
			}
			return
		}
		b := buf[:n:n]
		rl.loop.Post(func() {
			fr, ok := end.dec.Decode(b, rl.loop.Now())
			if ok && !fr.IsIdle() {
				if fr.Pkt.CongestionMark != 0 {
					rl.marked[i].Add(1)
				}
				rl.dirs[i].Send(fr.Pkt)
			}
		})
	}
}

// send writes a frame that arrived at the far end of a direction to out's
// forwarder, from out's socket (the one its face points at).
func (rl *relay) send(out *relayEnd, f *link.Frame) {
	wire, err := ndn.EncodeFrame(&f.Pkt)
	if err != nil {
		rl.log.Warn("relay encode", "to", out.node, "err", err)
		return
	}
	if _, err := out.conn.WriteToUDP(wire, out.peer); err != nil {
		rl.log.Debug("relay write", "to", out.node, "err", err)
	}
}

// do runs fn on the relay's loop and waits for it; it fails if the loop
// stopped first.
func (rl *relay) do(fn func()) error {
	ran := make(chan struct{})
	go rl.loop.Post(func() { fn(); close(ran) })
	select {
	case <-ran:
		return nil
	case <-rl.stopped:
		return fmt.Errorf("link %s: relay stopped", rl.link)
	case <-time.After(10 * time.Second):
		return fmt.Errorf("link %s: relay did not answer", rl.link)
	}
}

// closeSockets closes the relay's sockets, ending its readers.
func (rl *relay) closeSockets() {
	for i := range rl.ends {
		if rl.ends[i].conn != nil {
			rl.ends[i].conn.Close()
		}
	}
}

// malformed is how many datagrams the relay could not decode (dropped).
func (rl *relay) malformed() uint64 {
	return rl.ends[0].dec.Malformed.Load() + rl.ends[1].dec.Malformed.Load() +
		rl.ends[0].dec.Unsupported.Load() + rl.ends[1].dec.Unsupported.Load()
}
