package emu

import (
	"context"
	"errors"
	"fmt"
	"time"

	mgmt "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/live"
	"github.com/ndncc/ndncc/ndn"
)

// mgmtConn is the emulator's management connection to one node's
// forwarder (NFD, ndnd or ndncc fw), over its Unix socket. Its calls
// block until the forwarder answers, the forwarder exits or ctx ends.
type mgmtConn struct {
	ctx  context.Context
	conn *live.Conn
	nd   *node
}

// manage connects to nd's forwarder, runs fn with the connection and
// closes it.
func (r *run) manage(ctx context.Context, nd *node, fn func(m *mgmtConn) error) error {
	conn, err := live.Connect(ctx, nd.transport(), live.FaceConfig{})
	if err != nil {
		return err
	}
	loopCtx, stop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); conn.Loop.Run(loopCtx) }()
	defer func() { stop(); <-loopDone; conn.Close() }()
	return fn(&mgmtConn{ctx: ctx, conn: conn, nd: nd})
}

// wait waits for ch's answer, or says why none will come.
func wait[T any](m *mgmtConn, ch <-chan T) (T, error) {
	var zero T
	var exited <-chan struct{}
	if x := m.nd.ext; x != nil {
		exited = x.exited
	} else {
		exited = m.nd.stopped
	}
	select {
	case a := <-ch:
		return a, nil
	case <-exited:
		if x := m.nd.ext; x != nil {
			return zero, fmt.Errorf("%s exited: %s", x.kind, x.logTail())
		}
		return zero, fmt.Errorf("the forwarder of node %s stopped", m.nd.name)
	case <-m.ctx.Done():
		return zero, m.ctx.Err()
	}
}

// call starts a request on the connection's loop and waits for its
// answer, or says why none will come.
func call[T any](m *mgmtConn, start func(done func(T, error))) (T, error) {
	type answer struct {
		v   T
		err error
	}
	ch := make(chan answer, 1)
	m.conn.Loop.Post(func() { start(func(v T, err error) { ch <- answer{v, err} }) })
	a, err := wait(m, ch)
	if err != nil {
		return a.v, err
	}
	return a.v, a.err
}

// command sends the management command MODULE/VERB with args and returns
// the forwarder's ControlParameters.
func (m *mgmtConn) command(module, verb string, args *mgmt.ControlArgs) (*mgmt.ControlArgs, error) {
	return call(m, func(done func(*mgmt.ControlArgs, error)) { m.conn.Endpoint.Command(module, verb, args, done) })
}

// fib fetches the forwarder's FIB (the fib/list dataset).
func (m *mgmtConn) fib() ([]live.FIBEntry, error) {
	b, err := call(m, func(done func([]byte, error)) { m.conn.Endpoint.Dataset("fib", "list", done) })
	if err != nil {
		return nil, err
	}
	return live.ParseFIB(b)
}

// routePoll is how often waitRegistered reads the FIB.
const routePoll = 50 * time.Millisecond

// errNotRegistered reports a serving program whose prefix never reached
// its node's FIB.
var errNotRegistered = errors.New("no route to an application face")

// waitRegistered waits until nd's FIB routes prefix (or a prefix of it)
// to a face the emulator did not create: the face of the application
// that registered it. A serving program may say it serves before its
// registration is confirmed (ndnputchunks does), and under load the
// confirmation can take long; a consumer started before it would meet a
// forwarder with no route.
func (r *run) waitRegistered(ctx context.Context, nd *node, prefix ndn.Name, timeout time.Duration) error {
	ours := map[uint64]bool{}
	if x := nd.ext; x != nil {
		for _, id := range x.faces {
			ours[id] = true
		}
	} else {
		for _, id := range nd.faces {
			ours[uint64(id)] = true
		}
	}
	deadline := time.Now().Add(timeout)
	return r.manage(ctx, nd, func(m *mgmtConn) error {
		for {
			fib, err := m.fib()
			if err != nil {
				return err
			}
			for _, e := range fib {
				if !e.Prefix.IsPrefix(prefix) {
					continue
				}
				for _, f := range e.Faces {
					if !ours[f] {
						return nil
					}
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%w for %s within %v", errNotRegistered, prefix, timeout)
			}
			select {
			case <-time.After(routePoll):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	})
}
