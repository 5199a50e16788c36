package aqm

// minRingCap is the capacity a ring allocates on its first push.
const minRingCap = 16

// ring is a growable circular buffer of Items that also keeps the sum of
// their sizes. Its capacity is a power of two; it doubles when full and
// never shrinks, so a queue in steady state does not allocate.
type ring struct {
	buf   []Item
	head  int // index of the oldest item
	n     int // items held
	bytes int // sum of Size over held items
}

// len returns the number of items held.
func (r *ring) len() int { return r.n }

// push appends it at the tail, growing the buffer if it is full.
func (r *ring) push(it Item) {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.buf[(r.head+r.n)&(len(r.buf)-1)] = it
	r.n++
	r.bytes += it.Size
}

// pop removes and returns the head item; ok is false when the ring is empty.
func (r *ring) pop() (it Item, ok bool) {
	if r.n == 0 {
		return Item{}, false
	}
	it = r.buf[r.head]
	r.buf[r.head] = Item{} // drop references to the packet
	r.head = (r.head + 1) & (len(r.buf) - 1)
	r.n--
	r.bytes -= it.Size
	return it, true
}

// grow doubles the capacity (or allocates minRingCap), unwrapping the
// held items to the start of the new buffer.
func (r *ring) grow() {
	c := max(2*len(r.buf), minRingCap)
	buf := make([]Item, c)
	k := copy(buf, r.buf[r.head:])
	copy(buf[k:], r.buf[:r.head])
	r.buf = buf
	r.head = 0
}
