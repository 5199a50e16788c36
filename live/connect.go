package live

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"syscall"
	"time"

	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
)

// ErrBadTransport reports a transport URI (flag, environment or
// client.conf) that cannot be parsed.
var ErrBadTransport = errors.New("bad transport")

// UnreachableError reports a forwarder that could not be connected to at
// all (no connection was ever made, unlike ErrFaceDown's lost one). It
// matches ErrFaceDown with errors.Is.
type UnreachableError struct {
	Transport Transport
	Source    TransportSource
	Err       error
}

func (e *UnreachableError) Error() string {
	if errors.Is(e.Err, syscall.EMFILE) || errors.Is(e.Err, syscall.ENFILE) {
		// Not the forwarder's fault: this process (EMFILE) or the system
		// (ENFILE) has no file descriptor left for the connection.
		return fmt.Sprintf("cannot connect to the forwarder at %s: out of file descriptors (%v); raise the limit (ulimit -n) or run fewer flows at once",
			e.Transport, e.Err)
	}
	return fmt.Sprintf("cannot reach the forwarder at %s (%s): is one running? set %s or --transport (%v)",
		e.Transport, e.Source, TransportEnv, e.Err)
}

// Unwrap returns ErrFaceDown and the dial error.
func (e *UnreachableError) Unwrap() []error { return []error{ErrFaceDown, e.Err} }

// Conn is an application's connection to its forwarder: an event loop,
// the face and the endpoint that shares it.
type Conn struct {
	Loop      *eventloop.Loop
	Endpoint  *Endpoint
	Transport Transport
	// Source says where the transport came from (see ResolveTransport).
	Source TransportSource

	dial func(ctx context.Context) (*face.Face, error)
}

// Connect resolves the forwarder's address as ndn-cxx applications do
// (explicit URI, NDN_CLIENT_TRANSPORT, client.conf, default) and connects
// to it. Close the connection with Close.
func Connect(ctx context.Context, explicit string, cfg FaceConfig) (*Conn, error) {
	home, _ := os.UserHomeDir()
	t, src, err := ResolveTransport(explicit, os.Getenv, home)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadTransport, err)
	}
	loop := eventloop.New()
	f, err := Dial(ctx, loop, t, cfg)
	if err != nil {
		return nil, &UnreachableError{Transport: t, Source: src, Err: err}
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	c := &Conn{Loop: loop, Endpoint: NewEndpoint(loop, f, r), Transport: t, Source: src}
	c.dial = func(ctx context.Context) (*face.Face, error) { return Dial(ctx, loop, t, cfg) }
	return c, nil
}

// KeepAlive makes the connection reconnect to the same transport, with the
// same face configuration, when it is lost, for up to budget (0: never;
// see Reconnect). Call it before the loop runs.
func (c *Conn) KeepAlive(budget time.Duration) {
	c.Endpoint.SetReconnect(Reconnect{Budget: budget, Dial: c.dial})
}

// Close closes the connection and ends reconnection attempts.
func (c *Conn) Close() error { return c.Endpoint.Close() }
