package fwd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"

	"github.com/ndncc/ndncc/live/fwd/fwconf"
)

// resolveTimeout bounds the name lookups of a configuration's faces.
const resolveTimeout = 5 * time.Second

// resolveFaces checks, before the forwarder starts, that every configured
// face's remote host resolves to an address of its scheme's family, and
// gives UDP faces that address (a UDP face is a peer address on the
// listener's socket, resolved once, as NFD does); TCP faces keep the name,
// resolved again at each connection. Every failure names the face's remote
// key (file:line).
func resolveFaces(cfg *fwconf.Config, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var errs []error
	for i := range cfg.Faces {
		ff := &cfg.Faces[i]
		if ff.Address == "" {
			continue // not parsed: the parser reported it
		}
		ap, err := resolveAddr(ctx, ff.Scheme, ff.Address)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: face[%d].remote: %s: %w", ff.RemotePos, i, ff.Remote, err))
			continue
		}
		if listen := listenerFor(cfg, ff.Scheme); listen != "" && pointsAt(ap, listen) {
			errs = append(errs, fmt.Errorf("%s: face[%d].remote: %s is this forwarder's own %s listener (%s): every packet would loop",
				ff.RemotePos, i, ff.Remote, ff.Scheme[:3], listen))
			continue
		}
		if ff.Scheme == "udp4" || ff.Scheme == "udp6" {
			ff.Address = ap.String()
		}
	}
	return errors.Join(errs...)
}

// resolveAddr resolves "host:port" to an address of scheme's family
// ("udp4", "tcp6", ...): the first the resolver returns.
func resolveAddr(ctx context.Context, scheme, hostport string) (netip.AddrPort, error) {
	host, portText, err := net.SplitHostPort(hostport)
	if err != nil {
		return netip.AddrPort{}, err
	}
	port, err := net.DefaultResolver.LookupPort(ctx, "udp", portText)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("port %q: %w", portText, err)
	}
	network := "ip4"
	if scheme == "udp6" || scheme == "tcp6" {
		network = "ip6"
	}
	if a, err := netip.ParseAddr(host); err == nil {
		a = a.Unmap()
		if a.Is4() != (network == "ip4") {
			return netip.AddrPort{}, fmt.Errorf("%s is not an %s address (the scheme is %s)", host, network, scheme)
		}
		return netip.AddrPortFrom(a, uint16(port)), nil
	}
	addrs, err := net.DefaultResolver.LookupNetIP(ctx, network, host)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("cannot resolve %q: %w", host, err)
	}
	if len(addrs) == 0 {
		return netip.AddrPort{}, fmt.Errorf("%q has no %s address", host, network)
	}
	return netip.AddrPortFrom(addrs[0].Unmap(), uint16(port)), nil
}

// listenerFor returns the configured listening address ("host:port") of
// scheme's transport, "" if that listener is off.
func listenerFor(cfg *fwconf.Config, scheme string) string {
	if len(scheme) >= 3 && scheme[:3] == "udp" {
		return cfg.UDP
	}
	return cfg.TCP
}

// pointsAt reports whether a face to remote would reach the listener on
// listen ("host:port" with a literal host; port 0 reaches nothing): the
// same address, or for a listener on 0.0.0.0 a loopback or local address
// with its port.
func pointsAt(remote netip.AddrPort, listen string) bool {
	l, err := netip.ParseAddrPort(listen)
	if err != nil || l.Port() == 0 || l.Port() != remote.Port() {
		return false
	}
	ip := remote.Addr().Unmap()
	if lip := l.Addr().Unmap(); !lip.IsUnspecified() {
		return ip == lip
	}
	return ip.IsLoopback() || hostHasAddr(ip)
}
