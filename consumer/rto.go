package consumer

import (
	"errors"
	"time"

	"github.com/ndncc/ndncc/rtt"
)

// ErrGaveUp ends a fetch that received no Data for Options.Timeout.
var ErrGaveUp = errors.New("no Data within the give-up timeout")

// retxTimer is the pipeline's retransmission timing, one state machine:
//
//	estimating ──a check finds a retransmission sent with the current RTO
//	             expired, or takes a timeout as a loss event──► backed off ×1
//	backed off ×n ──the same, again──────────────────────► backed off ×(n+1)
//	backed off ×n ──a fresh RTT sample (Karn's rule)──────► estimating
//
// Estimating, the RTO is RFC 6298's SRTT + K·RTTVAR within [min-rto,
// max-rto] (1 s before the first sample), or fixed-rto when set. Backed
// off n times, it is that RTO × rto-backoff^n, at most max-rto (RFC 6298,
// 5.5 and 5.7); fixed-rto is never backed off. A check backs off at most
// once, however many Interests it finds expired, and a retransmission sent
// before the last backoff (with a smaller RTO) does not back off again:
// each round of retransmissions doubles the RTO once. The conservative filter decides the window's
// decreases only: an unanswered retransmission backs the RTO off whether or
// not its timeout was a loss event, so that the RTO keeps doubling through
// an outage that began right after another loss event or a mark.
//
// Apart from the RTO, the give-up budget: when no Data has arrived for
// Timeout (since the last one, or the start), the fetch fails with
// ErrGaveUp, however many retries its segments have left. 0 disables it.
type retxTimer struct {
	est      *rtt.Estimator
	fixed    time.Duration
	timeout  time.Duration
	backoffs int           // since the last fresh sample
	lastData time.Duration // when the last Data (or the start) was seen
}

func newRetxTimer(o Options) retxTimer {
	return retxTimer{est: rtt.NewEstimator(o.RTT), fixed: o.FixedRTO, timeout: o.Timeout}
}

// rto is the timeout of an Interest sent now.
func (t *retxTimer) rto() time.Duration {
	if t.fixed > 0 {
		return t.fixed
	}
	return t.est.RTO()
}

// sample takes a fresh RTT sample: back to estimating.
func (t *retxTimer) sample(rtt time.Duration) {
	t.est.AddSample(rtt)
	t.backoffs = 0
}

// backOff multiplies the RTO once (capped by max-rto).
func (t *retxTimer) backOff() {
	t.est.Backoff()
	t.backoffs++
}

// unanswered reports whether an expired Interest, retransmitted retries
// times and sent with RTO rto, backs the RTO off: a retransmission sent
// since the last backoff (with the RTO in force). One sent before it
// belongs to an earlier round that already backed off.
func (t *retxTimer) unanswered(retries uint16, rto time.Duration) bool {
	return retries > 0 && rto >= t.rto()
}

// data restarts the give-up budget.
func (t *retxTimer) data(now time.Duration) { t.lastData = now }

// gaveUp reports whether the give-up budget is spent.
func (t *retxTimer) gaveUp(now time.Duration) bool {
	return t.timeout > 0 && now-t.lastData >= t.timeout
}
