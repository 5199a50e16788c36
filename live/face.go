package live

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/live/face"
)

// UDP MTU defaults and bounds, as package face defines them.
const (
	DefaultUDPMTU = face.DefaultUDPMTU
	MinUDPMTU     = face.MinUDPMTU
	MaxUDPMTU     = face.MaxUDPMTU
)

// MaxPacketSize is the largest NDN packet (or NDNLPv2 frame) ndncc sends
// or accepts (face.MaxPacketSize).
const MaxPacketSize = face.MaxPacketSize

// CheckMTU reports an error if mtu is outside [MinUDPMTU, MaxUDPMTU].
func CheckMTU(mtu int) error {
	if mtu < MinUDPMTU || mtu > MaxUDPMTU {
		return fmt.Errorf("--mtu %d: want %d to %d bytes", mtu, MinUDPMTU, MaxUDPMTU)
	}
	return nil
}

// ErrFaceDown reports a face whose connection to the forwarder ended
// (face.ErrFaceDown).
var ErrFaceDown = face.ErrFaceDown

// FaceConfig configures an application's face (Dial). The zero value is
// usable.
type FaceConfig struct {
	// MTU is the largest datagram a UDP face sends; bigger packets are
	// fragmented (NDNLPv2). 0 means DefaultUDPMTU. Stream faces ignore it.
	MTU int
	// ReassemblyTimeout drops a partly received fragmented packet after
	// this long. 0 means 1 s.
	ReassemblyTimeout time.Duration
	// VerifyDigests makes the reader goroutine verify the DigestSha256 of
	// every Data it decodes, in parallel with the loop; a handler learns
	// the outcome from DigestChecked.
	VerifyDigests bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// FaceStats are a face's counters (face.Counters).
type FaceStats = face.Counters

// Dial connects to the forwarder at t and returns an application's face
// on loop (face.NewApp), reading. Packets are dropped until OnPacket sets
// a handler.
func Dial(ctx context.Context, loop *eventloop.Loop, t Transport, cfg FaceConfig) (*face.Face, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, t.Network, t.Address)
	if err != nil {
		return nil, fmt.Errorf("live: connect to forwarder at %s: %w", t, err)
	}
	return newFace(loop, t, conn, cfg), nil
}

// newFace makes an application's face of an established connection to
// the forwarder at t.
func newFace(loop *eventloop.Loop, t Transport, conn net.Conn, cfg FaceConfig) *face.Face {
	scope := face.NonLocal
	if t.Local() {
		scope = face.Local // management may be asked for /localhost
	}
	return face.NewApp(loop, conn, face.Config{
		Scheme: t.Network, Remote: t.String(), Scope: scope,
		MTU: cfg.MTU, ReassemblyTimeout: cfg.ReassemblyTimeout, VerifyDigests: cfg.VerifyDigests, Logger: cfg.Logger,
	})
}
