package face

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"sync"
)

// UDPListener is one unconnected UDP socket. Its faces are the peers it
// exchanges datagrams with, told apart by their address: a datagram from
// a new address creates an on-demand face, and Face creates one for a
// peer to contact first. One reader goroutine reads the socket for all
// its faces (and reassembles their fragments); each face has its own
// writer, which sends from the shared socket.
//
// The socket's kernel send queue is shared by its faces: a
// backlog-marking face counts all of it.
type UDPListener struct {
	host    Host
	conn    *net.UDPConn
	scheme  string
	local   string
	mtu     int
	log     *slog.Logger
	backlog func() int
	sndbuf  int

	mu    sync.Mutex
	faces map[netip.AddrPort]*Face
}

// udpBuffer is the receive buffer size a listener asks for (the kernel
// caps it at net.core.rmem_max): a window's burst of fragments. The send
// buffer keeps the kernel's default (net.core.wmem_default), as NFD's UDP
// faces do: a backlog-marking face counts the socket's send queue in its
// backlog, so a larger buffer would let a burst queue deeper in the
// kernel before the writer holds packets back, and change when marks
// fall. A full send buffer blocks the writer; nothing is dropped.
const udpBuffer = 4 << 20

// ListenUDP opens a UDP listener on addr ("host:port") of network "udp4"
// or "udp6"; its faces fragment to mtu (0: DefaultUDPMTU).
func ListenUDP(host Host, network, addr string, mtu int, log *slog.Logger) (*UDPListener, error) {
	if mtu == 0 {
		mtu = DefaultUDPMTU
	}
	if mtu < MinUDPMTU || mtu > MaxUDPMTU {
		return nil, fmt.Errorf("face: udp listener %s: MTU %d not in %d..%d", addr, mtu, MinUDPMTU, MaxUDPMTU)
	}
	ua, err := net.ResolveUDPAddr(network, addr)
	if err != nil {
		return nil, fmt.Errorf("face: udp listener: %w", err)
	}
	conn, err := net.ListenUDP(network, ua)
	if err != nil {
		return nil, fmt.Errorf("face: udp listener: %w", err)
	}
	_ = conn.SetReadBuffer(udpBuffer)
	l := &UDPListener{
		host: host, conn: conn, scheme: network, mtu: mtu, log: orDiscard(log),
		local: network + "://" + conn.LocalAddr().String(),
		faces: map[netip.AddrPort]*Face{},
	}
	l.backlog, l.sndbuf = kernelBacklog(conn, network)
	return l, nil
}

// URI returns the listener's local URI (udp4://ip:port).
func (l *UDPListener) URI() string { return l.local }

// Addr returns the listening address.
func (l *UDPListener) Addr() netip.AddrPort { return l.conn.LocalAddr().(*net.UDPAddr).AddrPort() }

// Face returns the face of peer remote, creating it (not started) with
// persistency p if there is none; created reports which. An existing
// on-demand face asked for with a stronger persistency takes it, as NFD's
// faces/create does.
func (l *UDPListener) Face(remote netip.AddrPort, p Persistency) (f *Face, created bool) {
	remote = netip.AddrPortFrom(remote.Addr().Unmap(), remote.Port())
	l.mu.Lock()
	defer l.mu.Unlock()
	if f := l.faces[remote]; f != nil {
		if f.cfg.Persistency == OnDemand && p != OnDemand {
			f.cfg.Persistency = p
		}
		return f, false
	}
	f = l.newFace(remote, p)
	l.faces[remote] = f
	return f, true
}

// newFace builds the face of peer remote (l.mu held).
func (l *UDPListener) newFace(remote netip.AddrPort, p Persistency) *Face {
	ua := net.UDPAddrFromAddrPort(remote)
	cfg := Config{
		Scheme: l.scheme, Local: l.local, Remote: l.scheme + "://" + remote.String(),
		Persistency: p, Scope: scopeOf(ua), MTU: l.mtu, Logger: l.log,
	}
	f := newHosted(l.host, cfg, func(b []byte) error {
		_, err := l.conn.WriteToUDPAddrPort(b, remote)
		return err
	})
	f.backlog, f.sndbuf = l.backlog, l.sndbuf
	f.closeTx = func() error {
		l.mu.Lock()
		if l.faces[remote] == f {
			delete(l.faces, remote)
		}
		l.mu.Unlock()
		return nil
	}
	return f
}

// Serve reads datagrams until Close: each goes to its peer's face (a new
// on-demand one for a new peer, handed to Host.Accepted), which decodes
// it and delivers the packet.
func (l *UDPListener) Serve() {
	buf := make([]byte, 1<<16)
	for {
		n, from, err := l.conn.ReadFromUDPAddrPort(buf)
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// An ICMP error for an earlier datagram, or the like: the
			// socket still works.
			l.log.Debug("udp read", "listener", l.local, "err", err)
			continue
		}
		from = netip.AddrPortFrom(from.Addr().Unmap(), from.Port())
		l.mu.Lock()
		f := l.faces[from]
		created := false
		if f == nil {
			f, created = l.newFace(from, OnDemand), true
			l.faces[from] = f
		}
		l.mu.Unlock()
		if created {
			l.host.Accepted(f)
			f.Start()
		}
		b := make([]byte, n)
		copy(b, buf[:n])
		f.receiveDatagram(b)
	}
}

// Close closes the socket; its faces can no longer send or receive.
func (l *UDPListener) Close() error { return l.conn.Close() }
