package face

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// StreamListener accepts Unix or TCP connections; each becomes an
// on-demand face.
type StreamListener struct {
	host   Host
	ln     net.Listener
	scheme string
	local  string
	path   string // Unix socket file, removed on Close
	log    *slog.Logger
}

// ListenUnix listens on the Unix stream socket at path, as NFD does for
// local applications: its directory is created if missing, a stale socket
// (a socket file nobody accepts connections on) is replaced, and the
// socket is open to every local user (mode 0666). Anything else at path —
// a regular file, a directory, a socket another program accepts on — is
// left alone and reported (ClaimUnixPath).
func ListenUnix(host Host, path string, log *slog.Logger) (*StreamListener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("face: unix listener %s: %w", path, err)
	}
	if err := ClaimUnixPath(path); err != nil {
		return nil, fmt.Errorf("face: unix listener: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("face: unix listener: %w", err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		ln.Close()
		return nil, fmt.Errorf("face: unix listener %s: %w", path, err)
	}
	return &StreamListener{host: host, ln: ln, scheme: "unix", local: "unix://" + path, path: path, log: orDiscard(log)}, nil
}

// ListenTCP listens on TCP address addr ("host:port") of network "tcp4"
// or "tcp6".
func ListenTCP(host Host, network, addr string, log *slog.Logger) (*StreamListener, error) {
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, fmt.Errorf("face: tcp listener: %w", err)
	}
	local := network + "://" + ln.Addr().String()
	return &StreamListener{host: host, ln: ln, scheme: network, local: local, log: orDiscard(log)}, nil
}

// URI returns the listener's local URI (unix:///path, tcp4://ip:port).
func (l *StreamListener) URI() string { return l.local }

// Addr returns the listening address.
func (l *StreamListener) Addr() net.Addr { return l.ln.Addr() }

// Serve accepts connections until Close, handing each to the host as an
// on-demand face (Host.Accepted) and starting it.
func (l *StreamListener) Serve() {
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			l.log.Warn("accept failed", "listener", l.local, "err", err)
			time.Sleep(50 * time.Millisecond) // EMFILE and the like: do not spin
			continue
		}
		cfg := Config{Scheme: l.scheme, Local: l.local, Persistency: OnDemand, Logger: l.log}
		if l.scheme == "unix" {
			cfg.Remote, cfg.Scope = "fd://"+fdOf(conn), Local
		} else {
			cfg.Remote, cfg.Scope = l.scheme+"://"+conn.RemoteAddr().String(), scopeOf(conn.RemoteAddr())
		}
		f := NewStream(l.host, conn, cfg)
		l.host.Accepted(f)
		f.Start()
	}
}

// Close stops accepting; faces already accepted stay.
func (l *StreamListener) Close() error {
	err := l.ln.Close()
	if l.path != "" {
		os.Remove(l.path) // net removes it too; a leftover would block a restart
	}
	return err
}

// DialTCP connects to a TCP peer at addr ("host:port") over network
// "tcp4" or "tcp6" and returns its face, not started. It blocks for the
// connection: call it off the loop.
func DialTCP(ctx context.Context, host Host, network, addr string, p Persistency, log *slog.Logger) (*Face, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, fmt.Errorf("face: connect to %s://%s: %w", network, addr, err)
	}
	return NewTCP(host, conn, network, p, log), nil
}

// NewTCP returns the face of an established TCP connection of network
// "tcp4" or "tcp6" (dialled or accepted elsewhere: the emulator makes its
// tunnels' connections in a network namespace of its own), not started.
func NewTCP(host Host, conn net.Conn, network string, p Persistency, log *slog.Logger) *Face {
	cfg := Config{
		Scheme: network, Local: network + "://" + conn.LocalAddr().String(),
		Remote: network + "://" + conn.RemoteAddr().String(), Persistency: p,
		Scope: scopeOf(conn.RemoteAddr()), Logger: log,
	}
	return NewStream(host, conn, cfg)
}

// scopeOf is the scope of a TCP or UDP face: always non-local, loopback
// peer or not. Anything on the host may send from a loopback address (a
// UDP source address is not even authenticated), so only the Unix
// socket's faces are local: they alone reach /localhost and management.
// (NFD counts loopback TCP as local, never UDP; ndncc counts neither.)
func scopeOf(net.Addr) Scope { return NonLocal }

// fdOf returns the file descriptor number of conn, for NFD's fd:// URI
// of a Unix stream face.
func fdOf(conn net.Conn) string {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return "0"
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return "0"
	}
	var fd uintptr
	_ = rc.Control(func(x uintptr) { fd = x })
	return fmt.Sprint(fd)
}

func orDiscard(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return log
}
