package link

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// control is what a Channel's owner changes while it runs (SetUp,
// SetRate, SetDelay, SetLoss): a scenario's scheduled events.
type control struct {
	down bool
	// drops counts the frames given to the channel while it was down.
	drops uint64
	// notBefore is the earliest a frame may arrive: the arrival of the
	// last frame sent before the delay was shortened, so that frames keep
	// their order across the change.
	notBefore time.Duration
}

// dropDown reports whether the channel is down, and then counts it as
// dropped: the frame is neither queued nor told of (OnDrop is for the
// queue's drops, which a forwarder's loss detection answers).
func (c *Channel) dropDown() bool {
	if !c.ctl.down {
		return false
	}
	c.ctl.drops++
	return true
}

// SetUp takes the channel down (false) or up (true). A down channel drops
// every frame it is given (Send, SendFrame, SendExt), counted in
// ChannelStats.DownDrops; frames it had queued or put on the wire before
// still leave and arrive. Nothing else changes: the forwarder's faces and
// routes stay, so Interests routed over a down link are lost on it until
// it comes back up.
func (c *Channel) SetUp(up bool) { c.ctl.down = !up }

// Up reports whether the channel is up.
func (c *Channel) Up() bool { return !c.ctl.down }

// SetRate sets the bandwidth in bit/s (0: unlimited) from now on: the
// frame in transmission finishes at the old rate, the next one starts at
// the new.
func (c *Channel) SetRate(bw float64) error {
	if !(bw >= 0) || math.IsInf(bw, 0) {
		return fmt.Errorf("link: bandwidth %v must be a finite number of bit/s, or 0 for unlimited", bw)
	}
	c.params.Bandwidth = bw
	c.txSize = -1 // the cached serialisation time was at the old rate
	return nil
}

// SetDelay sets the propagation delay of the frames that leave the
// transmitter from now on. Frames keep their order: after a shorter delay,
// a frame arrives no earlier than the last one sent before the change.
func (c *Channel) SetDelay(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("link: delay %v must not be negative", d)
	}
	if d < c.params.Delay {
		c.ctl.notBefore = max(c.ctl.notBefore, c.busyUntil+c.params.Delay+c.params.Jitter)
	}
	c.params.Delay = d
	return nil
}

// SetLoss sets the random loss probability (0..1) of the frames that
// leave the transmitter from now on. A channel made without a random
// source cannot lose frames.
func (c *Channel) SetLoss(p float64) error {
	if !(p >= 0 && p <= 1) {
		return fmt.Errorf("link: loss %v must be a probability in [0, 1]", p)
	}
	if p > 0 && c.rng == nil {
		return errors.New("link: random loss needs a random source, and the channel was made without one")
	}
	c.params.Loss = p
	return nil
}
