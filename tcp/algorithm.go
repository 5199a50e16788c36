package tcp

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/cc"
)

// Algorithm is a sender's window policy: a cc.Algorithm that also
// restarts from its loss window on a retransmission timeout.
type Algorithm interface {
	cc.Algorithm
	// OnRTO is called at every expiry of the retransmission timer, after
	// the OnDecrease(cc.CauseTimeout) the sender may have called: cwnd
	// goes back to the initial window, ssthresh stays, and the algorithm
	// slow-starts again.
	OnRTO(now time.Duration)
}

// The algorithms' names, as a scenario's [[tcp]] algorithm key has them.
const (
	Reno  = "reno"  // NewReno: cc's aimd
	Cubic = "cubic" // CUBIC (RFC 9438) with fast convergence: cc's cubic
)

// The initial window and slow-start threshold (a 2015 Linux kernel's
// window of 10 aside, the papers' NDN values).
const (
	InitCwnd     = 1
	InitSsthresh = 200
)

// NewAlgorithm returns the window policy named name (Reno or Cubic) from a
// window of InitCwnd and a threshold of InitSsthresh. HyStart is off: the
// papers' TCP runs predate it, and their results stay theirs.
func NewAlgorithm(name string) (Algorithm, error) {
	switch name {
	case Reno:
		cfg := cc.DefaultAIMDConfig()
		cfg.InitCwnd, cfg.InitSsthresh, cfg.HyStart = InitCwnd, InitSsthresh, false
		a, err := cc.NewAIMD(cfg)
		if err != nil {
			return nil, err
		}
		return a, nil
	case Cubic:
		cfg := cc.DefaultCubicConfig()
		cfg.InitCwnd, cfg.InitSsthresh, cfg.FastConvergence, cfg.HyStart = InitCwnd, InitSsthresh, true, false
		a, err := cc.NewCubic(cfg)
		if err != nil {
			return nil, err
		}
		return a, nil
	}
	return nil, fmt.Errorf("unknown TCP algorithm %q (want %s or %s)", name, Reno, Cubic)
}
