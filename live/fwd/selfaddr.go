package fwd

import (
	"net"
	"net/netip"
)

// isOwnListener reports whether remote, on scheme's transport ("udp4",
// "tcp4"), is where this forwarder's own listener of that transport
// listens: its address, or, for a listener on 0.0.0.0, any address of
// this host (loopback included) with the listener's port.
func (d *Forwarder) isOwnListener(scheme string, remote netip.AddrPort) bool {
	var own netip.AddrPort
	switch {
	case scheme == "udp4" && d.udp != nil:
		own = d.udp.Addr()
	case scheme == "tcp4" && d.tcp != nil:
		if a, ok := d.tcp.Addr().(*net.TCPAddr); ok {
			own = a.AddrPort()
		}
	default:
		return false
	}
	ip := remote.Addr().Unmap()
	if remote.Port() != own.Port() {
		return false
	}
	if ownIP := own.Addr().Unmap(); !ownIP.IsUnspecified() {
		return ip == ownIP
	}
	return ip.IsLoopback() || hostHasAddr(ip)
}

// hostHasAddr reports whether ip is one of this host's interface
// addresses.
func hostHasAddr(ip netip.Addr) bool {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			if x, ok := netip.AddrFromSlice(n.IP); ok && x.Unmap() == ip {
				return true
			}
		}
	}
	return false
}
