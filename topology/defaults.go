package topology

import "time"

// Link parameter defaults, used when a Mini-NDN [links] line (or an inline
// scenario link) leaves a key out. They are the values Mini-NDN itself
// gives the link, so a file means the same thing in both tools.
const (
	// DefaultDelay: no delay= means Mininet configures no netem delay, so
	// the link adds no propagation delay.
	DefaultDelay time.Duration = 0
	// DefaultBandwidth: no bw= means Mininet installs no rate limiter, so
	// the link is as fast as the host; ndncc models that as unlimited (0).
	DefaultBandwidth float64 = 0
	// DefaultQueuePackets: no max_queue_size= leaves the interface queue at
	// its Linux default, txqueuelen 1000 packets (also netem's default
	// limit).
	DefaultQueuePackets = 1000
	// DefaultQueueBytes: Mini-NDN has no byte limit on link queues.
	DefaultQueueBytes = 0
	// DefaultLoss: no loss= means netem drops nothing.
	DefaultLoss float64 = 0
)
