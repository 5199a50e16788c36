package live

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// DefaultTransport is where NFD and ndnd's forwarder listen by default on
// Linux (ndn-cxx's and ndnd's built-in default).
const DefaultTransport = "unix:///run/nfd/nfd.sock"

// TransportEnv is the environment variable ndn-cxx applications read the
// forwarder's address from.
const TransportEnv = "NDN_CLIENT_TRANSPORT"

// Transport is the address of a forwarder: a Unix stream socket, a TCP or
// a UDP unicast endpoint.
type Transport struct {
	// Network is "unix", "tcp", "tcp4", "tcp6", "udp", "udp4" or "udp6"
	// (the names package net dials).
	Network string
	// Address is the socket path or host:port.
	Address string
}

// String returns the transport as a URI (unix:///path, tcp://host:port).
func (t Transport) String() string {
	if t.Network == "unix" {
		return "unix://" + t.Address
	}
	return t.Network + "://" + t.Address
}

// Datagram reports whether the transport carries one packet per datagram.
func (t Transport) Datagram() bool { return strings.HasPrefix(t.Network, "udp") }

// Local reports whether the forwarder is on this host (a Unix socket or a
// loopback address), which NFD requires for /localhost management.
func (t Transport) Local() bool {
	if t.Network == "unix" {
		return true
	}
	host, _, err := net.SplitHostPort(t.Address)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// defaultPort is NDN's registered port for TCP and UDP.
const defaultPort = "6363"

// ParseTransport parses a transport URI as ndn-cxx accepts it:
// unix:///path, tcp://host[:port], tcp4://, tcp6://, udp://host[:port],
// udp4://, udp6://. The port defaults to 6363.
func ParseTransport(uri string) (Transport, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return Transport{}, fmt.Errorf("transport %q: %w", uri, err)
	}
	switch u.Scheme {
	case "unix":
		p := u.Path
		if p == "" {
			p = u.Opaque
		}
		if p == "" || u.Host != "" {
			return Transport{}, fmt.Errorf("transport %q: want unix:///absolute/path/to/socket", uri)
		}
		return Transport{Network: "unix", Address: p}, nil
	case "tcp", "tcp4", "tcp6", "udp", "udp4", "udp6":
		if u.Host == "" || (u.Path != "" && u.Path != "/") {
			return Transport{}, fmt.Errorf("transport %q: want %s://host[:port]", uri, u.Scheme)
		}
		host, port := u.Hostname(), u.Port()
		if port == "" {
			port = defaultPort
		}
		return Transport{Network: u.Scheme, Address: net.JoinHostPort(host, port)}, nil
	case "":
		return Transport{}, fmt.Errorf("transport %q: no scheme (want unix://, tcp:// or udp://)", uri)
	}
	return Transport{}, fmt.Errorf("transport %q: unsupported scheme %q (want unix, tcp, tcp4, tcp6, udp, udp4 or udp6)", uri, u.Scheme)
}

// TransportSource says where ResolveTransport found the transport.
type TransportSource string

// Where a transport came from, in the order ResolveTransport looks.
const (
	FromFlag    TransportSource = "--transport"
	FromEnv     TransportSource = TransportEnv
	FromDefault TransportSource = "default"
)

// ResolveTransport finds the forwarder the way ndn-cxx applications do:
// the explicit URI (a command-line flag) if not empty, else the
// NDN_CLIENT_TRANSPORT variable, else the `transport=` line of the first
// client.conf found in ~/.ndn, /usr/local/etc/ndn and /etc/ndn, else
// DefaultTransport. getenv and home are injected for tests (os.Getenv and
// os.UserHomeDir's result in production; home may be empty). The source
// is the flag, the variable, the client.conf path, or "default".
func ResolveTransport(explicit string, getenv func(string) string, home string) (Transport, TransportSource, error) {
	if explicit != "" {
		t, err := ParseTransport(explicit)
		return t, FromFlag, err
	}
	if v := getenv(TransportEnv); v != "" {
		t, err := ParseTransport(v)
		if err != nil {
			return t, FromEnv, fmt.Errorf("%s: %w", TransportEnv, err)
		}
		return t, FromEnv, nil
	}
	var dirs []string
	if home != "" {
		dirs = append(dirs, filepath.Join(home, ".ndn"))
	}
	dirs = append(dirs, "/usr/local/etc/ndn", "/etc/ndn")
	for _, dir := range dirs {
		path := filepath.Join(dir, "client.conf")
		uri, found, err := readClientConf(path)
		if err != nil {
			return Transport{}, TransportSource(path), err
		}
		if !found {
			continue
		}
		if uri == "" {
			break // a client.conf without transport= means the default
		}
		t, err := ParseTransport(uri)
		if err != nil {
			return t, TransportSource(path), fmt.Errorf("%s: %w", path, err)
		}
		return t, TransportSource(path), nil
	}
	t, err := ParseTransport(DefaultTransport)
	return t, FromDefault, err
}

// readClientConf returns the transport= value of an ndn-cxx client.conf
// (INFO format: `key=value` lines, `;` comments). found is false when the
// file does not exist.
func readClientConf(path string) (uri string, found bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("client.conf: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		key, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if strings.TrimSpace(key) == "transport" {
			uri = strings.TrimSpace(val)
		}
	}
	if err := sc.Err(); err != nil {
		return "", true, fmt.Errorf("read %s: %w", path, err)
	}
	return uri, true, nil
}
