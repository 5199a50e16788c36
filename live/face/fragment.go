package face

import (
	"errors"
	"fmt"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// DefaultUDPMTU is the datagram size a UDP face fragments to by default:
// ndnd's forwarder default, which fits an Ethernet frame with IPv6 and UDP
// headers.
const DefaultUDPMTU = 1420

// UDP MTU bounds a face accepts: 576 bytes is the datagram every IPv4 host
// must accept (and keeps an 8800-byte packet within the reassembler's
// fragment limit); 65507 is the largest UDP payload over IPv4.
const (
	MinUDPMTU = 576
	MaxUDPMTU = 65507
)

// lpHeaderBudget is the room left in each fragment for the LpPacket
// header: LpPacket T+L (4), Sequence (10), FragIndex (10), FragCount (10),
// Nack with a reason (3+1+3+1+8), CongestionMark (3+1+8), Fragment T+L (4),
// rounded up.
const lpHeaderBudget = 72

// maxFragments bounds the fragments of one packet that a Reassembler
// accepts (MaxPacketSize in fragments of 128 bytes or more).
const maxFragments = 70

// Fragment encodes p, with the link-reliability fields lf, as one frame if
// it fits in mtu, or as NDNLPv2 fragments of at most mtu bytes otherwise
// (see FragmentWire). An IDLE frame (no packet, only Acks) is never
// fragmented.
func Fragment(p *ndn.Packet, lf ndn.LinkFields, mtu int, seq *uint64) ([][]byte, error) {
	whole, err := ndn.EncodeLinkFrame(p, lf)
	if err != nil {
		return nil, err
	}
	if len(whole) <= mtu || (p.Interest == nil && p.Data == nil) {
		return [][]byte{whole}, nil
	}
	net := whole
	head := ndn.LpFrame{Nack: p.Nack, CongestionMark: p.CongestionMark, PitToken: p.PitToken, IncomingFaceID: p.IncomingFaceID, LinkFields: lf}
	if head.Nack != ndn.NackNone || head.CongestionMark != 0 || len(head.PitToken) > 0 || head.IncomingFaceID != 0 || !lf.IsZero() {
		bare := ndn.Packet{Interest: p.Interest, Data: p.Data}
		if net, err = ndn.EncodeFrame(&bare); err != nil {
			return nil, err
		}
	}
	return FragmentWire(net, head, mtu, seq)
}

// FragmentWire splits the network packet net into NDNLPv2 fragments of at
// most mtu bytes. Fragments use consecutive sequence numbers starting at
// *seq (advanced past them). The per-hop fields of head (Nack,
// CongestionMark, PitToken, IncomingFaceID) travel in every fragment: NFD
// reads them from the first fragment of a packet, ndnd's forwarder from
// the fragment that completes it. Its link-reliability fields
// (TxSequence, Acks) travel in the first only: the packet, not each
// fragment, is what link reliability numbers and acknowledges.
func FragmentWire(net []byte, head ndn.LpFrame, mtu int, seq *uint64) ([][]byte, error) {
	budget := lpHeaderBudget
	if len(head.PitToken) > 0 { // PitToken T+L and value
		budget += 4 + len(head.PitToken)
	}
	if head.IncomingFaceID != 0 { // IncomingFaceId T+L and value
		budget += 3 + 1 + 8
	}
	if head.TxSeq != 0 { // TxSequence T+L and value
		budget += 3 + 1 + 8
	}
	budget += len(head.Acks) * (3 + 1 + 8) // Ack T+L and value each
	if mtu <= budget {
		return nil, fmt.Errorf("face: MTU %d leaves no room for a fragment", mtu)
	}
	room := mtu - budget
	count := (len(net) + room - 1) / room
	frames := make([][]byte, 0, count)
	for i := range count {
		f := ndn.LpFrame{
			Sequence: *seq + uint64(i), HasSequence: true,
			FragIndex: uint64(i), FragCount: uint64(count),
			Fragment: net[i*room : min((i+1)*room, len(net))],
		}
		f.Nack, f.CongestionMark, f.PitToken, f.IncomingFaceID = head.Nack, head.CongestionMark, head.PitToken, head.IncomingFaceID
		if i == 0 {
			f.LinkFields = head.LinkFields
		}
		b, err := ndn.EncodeLp(&f)
		if err != nil {
			return nil, fmt.Errorf("face: fragment %d of %d: %w", i, count, err)
		}
		if len(b) > mtu {
			return nil, fmt.Errorf("face: fragment %d of %d is %d bytes, over the MTU %d", i, count, len(b), mtu)
		}
		frames = append(frames, b)
	}
	*seq += uint64(count)
	return frames, nil
}

// Reassembly errors; a Reassembler's caller counts and drops the frame.
var (
	errFragCount    = errors.New("fragment count changed within a packet")
	errFragTooMany  = errors.New("too many fragments")
	errFragSequence = errors.New("sequence below the fragment index")
	errFragTooLarge = errors.New("reassembled packet exceeds the size limit")
)

// Reassembler collects NDNLPv2 fragments into whole packets. Fragments of
// one packet share a base sequence (Sequence - FragIndex). A partial
// packet is dropped when it is older than timeout or when more than
// maxPending packets are partial. It is used by one goroutine (a face's
// reader) and takes the time as an argument.
type Reassembler struct {
	timeout    time.Duration
	maxPending int
	maxSize    int
	partial    map[uint64]*partialPacket
	order      []uint64 // base sequences, oldest first (may hold stale ones)
}

type partialPacket struct {
	first   ndn.LpFrame // header fields of fragment 0
	frags   [][]byte
	got     int
	size    int
	started time.Duration
}

func NewReassembler(timeout time.Duration, maxPending, maxSize int) *Reassembler {
	return &Reassembler{timeout: timeout, maxPending: maxPending, maxSize: maxSize, partial: map[uint64]*partialPacket{}}
}

// pending returns the number of partial packets held.
func (r *Reassembler) Pending() int { return len(r.partial) }

// add takes one fragment (FragCount > 1). When it completes its packet,
// add returns the first fragment's frame with Fragment set to the whole
// network packet and done true. The fragment's bytes are kept, not
// copied.
func (r *Reassembler) Add(f ndn.LpFrame, now time.Duration) (whole ndn.LpFrame, done bool, err error) {
	r.expire(now)
	if f.FragCount > maxFragments {
		return ndn.LpFrame{}, false, fmt.Errorf("%w: %d", errFragTooMany, f.FragCount)
	}
	if f.Sequence < f.FragIndex {
		return ndn.LpFrame{}, false, fmt.Errorf("%w: sequence %d, index %d", errFragSequence, f.Sequence, f.FragIndex)
	}
	base := f.Sequence - f.FragIndex
	p := r.partial[base]
	if p == nil {
		p = &partialPacket{frags: make([][]byte, f.FragCount), started: now}
		r.partial[base] = p
		r.order = append(r.order, base)
		r.evict()
	}
	if uint64(len(p.frags)) != f.FragCount {
		delete(r.partial, base)
		return ndn.LpFrame{}, false, fmt.Errorf("%w: %d, then %d (base sequence %d)", errFragCount, len(p.frags), f.FragCount, base)
	}
	if p.frags[f.FragIndex] != nil {
		return ndn.LpFrame{}, false, nil // duplicate
	}
	p.size += len(f.Fragment)
	if p.size > r.maxSize {
		delete(r.partial, base)
		return ndn.LpFrame{}, false, fmt.Errorf("%w: over %d bytes (base sequence %d)", errFragTooLarge, r.maxSize, base)
	}
	p.frags[f.FragIndex] = f.Fragment
	if f.FragIndex == 0 {
		p.first = f
	}
	p.got++
	if p.got < len(p.frags) {
		return ndn.LpFrame{}, false, nil
	}
	delete(r.partial, base)
	buf := make([]byte, 0, p.size)
	for _, b := range p.frags {
		buf = append(buf, b...)
	}
	whole = p.first
	whole.Fragment = buf
	whole.FragIndex, whole.FragCount = 0, 1
	return whole, true, nil
}

// expire drops partial packets older than the timeout.
func (r *Reassembler) expire(now time.Duration) {
	for len(r.order) > 0 {
		base := r.order[0]
		p := r.partial[base]
		if p != nil && now-p.started < r.timeout {
			return
		}
		delete(r.partial, base)
		r.order = r.order[1:]
	}
	r.order = r.order[:0:0]
}

// evict keeps at most maxPending partial packets, dropping the oldest.
func (r *Reassembler) evict() {
	for len(r.partial) > r.maxPending && len(r.order) > 0 {
		delete(r.partial, r.order[0])
		r.order = r.order[1:]
	}
	if len(r.order) > 4*r.maxPending {
		live := r.order[:0]
		for _, b := range r.order {
			if r.partial[b] != nil {
				live = append(live, b)
			}
		}
		r.order = live
	}
}
