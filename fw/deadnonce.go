package fw

import "time"

// Dead-nonce list defaults.
const (
	// DefaultDeadNonceLifetime is how long a (name, nonce) pair stays in
	// the dead-nonce list (NFD's default).
	DefaultDeadNonceLifetime = 6 * time.Second
	// DefaultDeadNonceCapacity bounds the number of pairs in the list; the
	// oldest pair is forgotten first when it is full.
	DefaultDeadNonceCapacity = 1 << 16
)

// deadNonceList remembers (name, nonce) pairs of Interests whose PIT entry
// is gone, so that a copy of such an Interest that comes back later is
// recognised as a loop. Pairs are stored as 64-bit keys (name hash mixed
// with nonce) in a FIFO ring with their insertion time; a pair is forgotten
// after the lifetime or when the ring is full. Expiry is lazy: old pairs are
// dropped when the list is next used, so it needs no timers.
type deadNonceList struct {
	lifetime time.Duration
	ring     []deadNonce // grows by doubling up to capacity
	capacity int
	head, n  int
	set      map[uint64]int32 // key -> number of ring slots holding it
}

type deadNonce struct {
	key uint64
	at  time.Duration
}

func newDeadNonceList(lifetime time.Duration, capacity int) deadNonceList {
	return deadNonceList{
		lifetime: lifetime,
		ring:     make([]deadNonce, min(capacity, 64)),
		capacity: capacity,
		set:      make(map[uint64]int32),
	}
}

// deadNonceKey combines a name hash and a nonce into one key: the name
// hash XOR a bijective 64-bit mix (SplitMix64's finalizer) of the nonce.
func deadNonceKey(nameHash uint64, nonce uint32) uint64 {
	z := uint64(nonce) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return nameHash ^ z ^ z>>31
}

// has reports whether key was added less than a lifetime ago.
func (d *deadNonceList) has(key uint64, now time.Duration) bool {
	d.expire(now)
	return d.set[key] > 0
}

// add inserts key.
func (d *deadNonceList) add(key uint64, now time.Duration) {
	d.expire(now)
	if d.n == len(d.ring) {
		if len(d.ring) < d.capacity {
			d.grow()
		} else {
			d.pop()
		}
	}
	d.ring[(d.head+d.n)%len(d.ring)] = deadNonce{key: key, at: now}
	d.n++
	d.set[key]++
}

// grow doubles the ring (up to capacity), keeping the entries in order.
func (d *deadNonceList) grow() {
	ring := make([]deadNonce, min(2*len(d.ring), d.capacity))
	for i := 0; i < d.n; i++ {
		ring[i] = d.ring[(d.head+i)%len(d.ring)]
	}
	d.ring, d.head = ring, 0
}

// size returns the number of pairs held.
func (d *deadNonceList) size() int { return d.n }

func (d *deadNonceList) expire(now time.Duration) {
	for d.n > 0 && d.ring[d.head].at+d.lifetime <= now {
		d.pop()
	}
}

func (d *deadNonceList) pop() {
	k := d.ring[d.head].key
	if d.set[k]--; d.set[k] <= 0 {
		delete(d.set, k)
	}
	d.head = (d.head + 1) % len(d.ring)
	d.n--
}
