package cc

import "time"

// deliveryRate estimates the rate at which Data arrive, one sample per
// Data, as BBR's delivery-rate samples do, but from the receiver's side:
// what a TCP sender stamps on each packet when it sends it (the count
// delivered so far, when the last of them was delivered, when that one
// was sent) the receiver reads back from a short history of deliveries at
// the Data's send time, which is its arrival time less its RTT sample.
//
// For a Data arriving at now, sent at s = now - rtt, with P the last
// delivery recorded at or before s (count d_P, arrival t_P, send time
// f_P):
//
//	rate = (delivered - d_P) / max(now - t_P, s - f_P)    segments/s
//
// where delivered counts this Data. Before any delivery, P is the Data's
// own send (d_P 0, t_P = f_P = s), so the first sample is 1/rtt. A Data
// without an RTT sample (a retransmission: which Interest it answers is
// ambiguous) counts as delivered but gives no rate.
type deliveryRate struct {
	delivered uint64
	ring      []delivery // capacity a power of two
	head, n   int        // oldest entry, entries held
}

// delivery is one Data in the history.
type delivery struct {
	at, sent  time.Duration // its arrival; its Interest's send time (at without a sample)
	delivered uint64        // Data delivered up to and including it
}

// initialDeliveries is the history's first capacity; it doubles when a
// round trip holds more Data.
const initialDeliveries = 256

func newDeliveryRate() deliveryRate {
	return deliveryRate{ring: make([]delivery, initialDeliveries)}
}

// onData records a Data arriving at now whose Interest left rtt earlier
// (0: unknown) and returns its rate sample, segments per second, or 0
// when it gives none. Entries older than horizon before now may be
// forgotten to make room; a sample whose send time is older than the
// history gives none.
func (r *deliveryRate) onData(now, rtt, horizon time.Duration) float64 {
	var rate float64
	if rtt > 0 {
		rate = r.sample(now, rtt)
	}
	r.delivered++
	sent := now
	if rtt > 0 {
		sent = now - rtt
	}
	r.push(delivery{at: now, sent: sent, delivered: r.delivered}, now-horizon)
	return rate
}

func (r *deliveryRate) sample(now, rtt time.Duration) float64 {
	s := now - rtt
	p, ok := r.before(s)
	if !ok {
		if r.n > 0 && r.at(0).delivered > 1 {
			return 0 // sent before the history we kept
		}
		p = delivery{at: s, sent: s} // nothing delivered before it was sent
	}
	interval := max(now-p.at, s-p.sent)
	if interval <= 0 {
		return 0
	}
	return float64(r.delivered+1-p.delivered) / interval.Seconds()
}

// at returns the i-th oldest entry.
func (r *deliveryRate) at(i int) delivery {
	return r.ring[(r.head+i)&(len(r.ring)-1)]
}

// before returns the latest entry that arrived at or before t.
func (r *deliveryRate) before(t time.Duration) (delivery, bool) {
	lo, hi := 0, r.n // entries [0, lo) arrived at or before t; [hi, n) after
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.at(m).at <= t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == 0 {
		return delivery{}, false
	}
	return r.at(lo - 1), true
}

// push appends e, forgetting the oldest entry if it arrived before
// forget and the ring is full, else growing the ring.
func (r *deliveryRate) push(e delivery, forget time.Duration) {
	if r.n == len(r.ring) {
		if r.at(0).at < forget {
			r.head = (r.head + 1) & (len(r.ring) - 1)
			r.n--
		} else {
			grown := make([]delivery, 2*len(r.ring))
			for i := 0; i < r.n; i++ {
				grown[i] = r.at(i)
			}
			r.ring, r.head = grown, 0
		}
	}
	r.ring[(r.head+r.n)&(len(r.ring)-1)] = e
	r.n++
}
