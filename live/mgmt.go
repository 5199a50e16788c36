package live

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"
	mgmt "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	spec "github.com/named-data/ndnd/std/ndn/spec_2022"
	"github.com/named-data/ndnd/std/security/signer"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/live/face"
	"github.com/ndncc/ndncc/ndn"
)

// ErrCommandFailed reports a management command the forwarder refused.
var ErrCommandFailed = errors.New("forwarder refused the command")

// Route is a RIB entry to register for this face.
type Route struct {
	Prefix ndn.Name
	// Cost is the route cost (default 0).
	Cost uint64
	// Origin is the route origin (default 0, "app", as applications
	// register).
	Origin uint64
}

// Register asks the forwarder to add a route for r.Prefix towards this
// face with NFD's signed /localhost/nfd/rib/register command (/localhop
// when the forwarder is not on this host), and calls done with nil once
// the forwarder confirmed it (status 200). The command is built and signed
// (DigestSha256, SignatureNonce and SignatureTime) by ndnd's mgmt_2022, as
// ndnd's own tools do.
func (e *Endpoint) Register(r Route, done func(error)) {
	e.command("rib", "register", &mgmt.ControlArgs{
		Name:   r.Prefix,
		Cost:   optional.Some(r.Cost),
		Origin: optional.Some(r.Origin),
	}, ignoreParams(done))
}

// Unregister removes the route Register added.
func (e *Endpoint) Unregister(r Route, done func(error)) {
	e.command("rib", "unregister", &mgmt.ControlArgs{
		Name:   r.Prefix,
		Origin: optional.Some(r.Origin),
	}, ignoreParams(done))
}

// Command sends the management command /localhost/nfd/MODULE/VERB with
// args, built and signed as Register's, and calls done with the
// ControlParameters of the forwarder's response once it confirmed the
// command (status 200): e.g. faces/create, whose response holds the new
// face's FaceId. It is how a program drives NFD's or ndnd's management.
func (e *Endpoint) Command(module, verb string, args *mgmt.ControlArgs, done func(*mgmt.ControlArgs, error)) {
	e.command(module, verb, args, done)
}

// ignoreParams adapts a callback that wants only the outcome.
func ignoreParams(done func(error)) func(*mgmt.ControlArgs, error) {
	return func(_ *mgmt.ControlArgs, err error) { done(err) }
}

// commandLifetime is the lifetime of a management command Interest.
const commandLifetime = time.Second

// command sends one signed management command and checks the response.
func (e *Endpoint) command(module, verb string, args *mgmt.ControlArgs, done func(*mgmt.ControlArgs, error)) {
	cfg := mgmt.NewConfig(e.face.Config().Scope == face.Local, signer.NewSha256Signer(), spec.Spec{})
	first, err := e.makeCommand(cfg, module, verb, args)
	if err != nil {
		done(nil, err)
		return
	}
	// The answer's name starts with the command name up to the digest
	// of the parameters, which differs between attempts.
	match := first.FinalName[:len(first.FinalName)-1]
	attempt := 0
	e.Express(Request{
		Name:     match,
		Lifetime: commandLifetime,
		Retries:  2,
		Wire: func() ([]byte, error) {
			attempt++
			in := first
			if attempt > 1 {
				if in, err = e.makeCommand(cfg, module, verb, args); err != nil {
					return nil, err
				}
			}
			return in.Wire.Join(), nil
		},
	}, func(d *ndn.Data, err error) {
		if err != nil {
			done(nil, fmt.Errorf("%s %s %s: %w", module, verb, args.Name, err))
			return
		}
		done(checkResponse(module, verb, args.Name, d))
	})
}

func (e *Endpoint) makeCommand(cfg *mgmt.MgmtConfig, module, verb string, args *mgmt.ControlArgs) (*ndnd.EncodedInterest, error) {
	var sigNonce [8]byte
	binary.BigEndian.PutUint64(sigNonce[:], e.rand.Uint64())
	in, err := cfg.MakeCmd(module, verb, args, &ndnd.InterestConfig{
		Lifetime:    optional.Some(commandLifetime),
		Nonce:       optional.Some(e.rand.Uint32()),
		MustBeFresh: true,
		SigNonce:    sigNonce[:],
		SigTime:     optional.Some(time.Duration(time.Now().UnixMilli()) * time.Millisecond),
	})
	if err != nil {
		return nil, fmt.Errorf("%s %s %s: build command: %w", module, verb, args.Name, err)
	}
	return in, nil
}

// checkResponse parses a ControlResponse, requires status 200 and
// returns its ControlParameters (nil if it has none).
func checkResponse(module, verb string, name ndn.Name, d *ndn.Data) (*mgmt.ControlArgs, error) {
	resp, err := safely(func() (*mgmt.ControlResponse, error) {
		return mgmt.ParseControlResponse(enc.NewBufferView(d.Content), true)
	})
	if err != nil || resp.Val == nil {
		return nil, fmt.Errorf("%s %s %s: malformed ControlResponse: %v", module, verb, name, err)
	}
	if resp.Val.StatusCode != 200 {
		return nil, fmt.Errorf("%s %s %s: %w: %d %s", module, verb, name, ErrCommandFailed, resp.Val.StatusCode, resp.Val.StatusText)
	}
	return resp.Val.Params, nil
}

// safely runs an ndnd parser, turning a panic on hostile input into an
// error.
func safely[T any](parse func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, fmt.Errorf("ndnd parser failed: %v", r)
		}
	}()
	return parse()
}
