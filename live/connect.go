package live

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
)

// ErrBadTransport reports a transport URI (flag, environment or
// client.conf) that cannot be parsed.
var ErrBadTransport = errors.New("bad transport")

// Conn is an application's connection to its forwarder: an event loop,
// the face and the endpoint that shares it.
type Conn struct {
	Loop      *Loop
	Endpoint  *Endpoint
	Transport Transport
	// Source says where the transport came from (see ResolveTransport).
	Source TransportSource
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
	loop := NewLoop()
	face, err := Dial(ctx, loop, t, cfg)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFaceDown, err)
	}
	r := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	return &Conn{Loop: loop, Endpoint: NewEndpoint(loop, face, r), Transport: t, Source: src}, nil
}

// Close closes the face.
func (c *Conn) Close() error { return c.Endpoint.Face().Close() }
