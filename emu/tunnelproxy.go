package emu

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// A TCP tunnel between two external forwarders (nfd, ndnd) cannot be
// handed to them made, as ndncc's forwarder adopts its ends: each
// forwarder dials it itself (faces/create tcp4://ADDR:PORT, a permanent
// face with the direction's marking). The emulator listens, in the run's
// network namespace, at one address per direction (loopbackAddr): end A
// dials the first, end B the second, and a proxy joins the two
// connections, carrying each one's bytes to the other after the link's
// propagation delay. Each forwarder's own socket is therefore the sending
// end of its direction, and the namespace's loopback shapes it by
// destination address into an HTB class at the link's rate above the
// link's FIFO: the backlog builds in the forwarder's socket and send
// queue, where it reads it and marks by its own rule. As for ndncc's
// tunnels the delay is applied above TCP (the kernel here has no netem),
// so TCP's own round trip is loopback's.

// tunnelExtFace is how external forwarder from (kind) marks on its face
// of the TCP tunnel to neighbour to: by its own rule with the scenario's
// threshold and interval where the direction's queue is threshold-mark,
// not at all where it is drop-tail.
func tunnelExtFace(sc *scenario.Scenario, from, to, kind string) (extFace, error) {
	switch q, _ := sc.QueueFor(from, to); q {
	case kernelQueue:
		m, err := kernelMarkingFor(sc, from, to, kind)
		return extFace{marking: &m}, err
	case "droptail":
		return extFace{noMarking: true}, nil
	default:
		return extFace{}, fmt.Errorf("%s: emu: link %s->%s: queue %q: a TCP tunnel between external forwarders (nfd, ndnd) queues in the forwarder's own send queue and socket, which marks by its own backlog rule (threshold-mark) or not at all (droptail)", sc.File, from, to, q)
	}
}

// checkExternalTunnel reports what of the TCP tunnel of link l between
// external forwarders they cannot run: a queue discipline (tunnelExtFace),
// link-loss detection and jitter (the proxy delays a byte stream, which
// keeps its order).
func checkExternalTunnel(sc *scenario.Scenario, kinds func(string) string, l topology.Link) []error {
	var errs []error
	for _, dir := range [2][2]string{{l.A, l.B}, {l.B, l.A}} {
		if _, err := tunnelExtFace(sc, dir[0], dir[1], kinds(dir[0])); err != nil {
			errs = append(errs, err)
		}
		if err := refuseLossDetection(sc, dir[0], dir[1], "a TCP tunnel between external forwarders"); err != nil {
			errs = append(errs, err)
		}
	}
	if l.Jitter > 0 {
		errs = append(errs, fmt.Errorf("%s: emu: link %s: jitter on a TCP tunnel between external forwarders is not emulated (the tunnel's byte stream is delayed in order)", sc.File, l))
	}
	return errs
}

// end is node's direction of tunnel t, the one it sends on (0: node is
// A, 1: B), and its neighbour over it; ok is false when node is neither
// end.
func (t *tunnel) end(node string) (d int, to string, ok bool) {
	switch node {
	case t.link.A:
		return 0, t.link.B, true
	case t.link.B:
		return 1, t.link.A, true
	}
	return 0, "", false
}

// externalTunnelFaces adds to faces external forwarder nd's faces over
// its TCP tunnels: the proxy's address for its direction, marking as
// tunnelExtFace says.
func (r *run) externalTunnelFaces(nd *node, faces map[string]extFace) error {
	for _, t := range r.tunnels {
		d, to, ok := t.end(nd.name)
		if t.proxy == nil || !ok {
			continue
		}
		f, err := tunnelExtFace(r.sc, nd.name, to, nd.ext.kind)
		if err != nil { // Check refused it
			return err
		}
		f.uri = t.proxy.uri(d)
		faces[to] = f
	}
	return nil
}

// tuneExternalTunnels gives external forwarder nd's sockets of its TCP
// tunnels, once it has dialled them (configure), the tunnel's send
// buffer and CUBIC, as tuneSocket gives ndncc's ends (tuneProcessSocket:
// the forwarder sets neither itself).
func (r *run) tuneExternalTunnels(nd *node) error {
	for _, t := range r.tunnels {
		d, _, ok := t.end(nd.name)
		if t.proxy == nil || !ok {
			continue
		}
		from, err := t.proxy.dialler(d, extReadyTimeout)
		if err != nil {
			return fmt.Errorf("the TCP tunnel of link %s: %w", t.link, err)
		}
		buf := r.sc.TCPTunnelFor(t.link.A, t.link.B).SendBuffer
		if err := tuneProcessSocket(nd.ext.cmd.Process.Pid, from.Port, buf); err != nil {
			return fmt.Errorf("the TCP tunnel of link %s: its socket (port %d): %w", t.link, from.Port, err)
		}
	}
	return nil
}

// tunnelProxy joins the two connections of an external forwarders'
// tunnel: conn[d] is the one the sender of direction d dialled.
type tunnelProxy struct {
	link topology.Link
	ln   [2]*net.TCPListener
	// accepted[d] is closed once conn[d] is set.
	accepted [2]chan struct{}
	mu       sync.Mutex
	conn     [2]*net.TCPConn
	close    sync.Once
}

// listenTunnelProxy opens the proxy's listeners for tunnel i of link l.
// It runs in the namespace.
func listenTunnelProxy(i int, l topology.Link) (*tunnelProxy, error) {
	p := &tunnelProxy{link: l, accepted: [2]chan struct{}{make(chan struct{}), make(chan struct{})}}
	for d := range 2 {
		ln, err := net.ListenTCP("tcp4", &net.TCPAddr{IP: loopbackAddr(tunnelBlock, i, d)})
		if err != nil {
			p.shut()
			return nil, err
		}
		p.ln[d] = ln
	}
	return p, nil
}

// uri is the face URI the sender of direction d dials.
func (p *tunnelProxy) uri(d int) string {
	a := p.ln[d].Addr().(*net.TCPAddr)
	return "tcp4://" + net.JoinHostPort(a.IP.String(), strconv.Itoa(a.Port))
}

// run accepts one connection on each listener, then carries each one's
// bytes to the other after the link's delay until either closes; it
// reports a failure before the network stops with fail, and ends when
// stop is closed (closing everything).
func (p *tunnelProxy) run(stop <-chan struct{}, fail func(error), wg *sync.WaitGroup) {
	for d := range 2 {
		wg.Go(func() {
			c, err := p.ln[d].AcceptTCP()
			if err != nil {
				if !stopped(stop) {
					fail(fmt.Errorf("the TCP tunnel of link %s: accept: %w", p.link, err))
				}
				return
			}
			p.mu.Lock()
			p.conn[d] = c
			p.mu.Unlock()
			close(p.accepted[d])
		})
	}
	wg.Go(func() {
		defer p.shut()
		for d := range 2 {
			select {
			case <-p.accepted[d]:
			case <-stop:
				return
			}
		}
		for d := range 2 {
			wg.Go(func() {
				err := pipeDelayed(p.conn[1-d], p.conn[d], p.link.Delay)
				if !stopped(stop) {
					if err == nil {
						err = io.EOF
					}
					fail(fmt.Errorf("the TCP tunnel of link %s: a forwarder's connection ended: %w", p.link, err))
				}
			})
		}
		<-stop
	})
}

// dialler is the address the sender of direction d dialled from, once
// the proxy has its connection (within timeout).
func (p *tunnelProxy) dialler(d int, timeout time.Duration) (*net.TCPAddr, error) {
	select {
	case <-p.accepted[d]:
	case <-time.After(timeout):
		return nil, fmt.Errorf("no connection at %s after %v", p.uri(d), timeout)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conn[d].RemoteAddr().(*net.TCPAddr), nil
}

// stopped reports whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// shut closes the listeners and the connections.
func (p *tunnelProxy) shut() {
	p.close.Do(func() {
		for _, ln := range p.ln {
			if ln != nil {
				ln.Close()
			}
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conn {
			if c != nil {
				c.Close()
			}
		}
	})
}

// delayedChunk is what one read took from a connection, due at the far
// end at due.
type delayedChunk struct {
	due  time.Time
	data []byte
}

// pipeDelayed copies src's bytes to dst, each read's bytes written delay
// after they were read (in order: a byte stream has one). It reads as
// fast as src delivers, so the sender's socket drains at the shaped rate,
// not at dst's pace, and returns when either end fails or src ends.
func pipeDelayed(dst, src *net.TCPConn, delay time.Duration) error {
	chunks := make(chan delayedChunk, 1024)
	werr := make(chan error, 1)
	go func() {
		var err error
		for c := range chunks {
			if err != nil {
				continue // drain, so the reader never blocks
			}
			if d := time.Until(c.due); d > 0 {
				time.Sleep(d)
			}
			_, err = dst.Write(c.data)
			if err != nil {
				src.Close() // stop the reader
			}
		}
		werr <- err
	}()
	buf := make([]byte, 64<<10)
	var rerr error
	for {
		n, err := src.Read(buf)
		if n > 0 {
			chunks <- delayedChunk{due: time.Now().Add(delay), data: append([]byte(nil), buf[:n]...)}
		}
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrDeadlineExceeded) {
				rerr = err
			}
			break
		}
	}
	close(chunks)
	if err := <-werr; err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return rerr
}
