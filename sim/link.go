package sim

import (
	"math/rand/v2"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// Channel is one direction of a simulated link, from node From to node To:
// the link layer's model (link.Channel: output queue, transmitter,
// propagation delay, random loss) on the simulator's clock. It implements
// ndn.Face for the forwarder that sends on it.
type Channel struct {
	*link.Channel
	From, To string
}

func newChannel(s *Scheduler, from, to string, p link.Params, q aqm.Queue, sizer *ndn.Sizer, rng *rand.Rand) (*Channel, error) {
	c, err := link.NewChannel(s, p, q, sizer, rng)
	if err != nil {
		return nil, err
	}
	return &Channel{Channel: c, From: from, To: to}, nil
}
