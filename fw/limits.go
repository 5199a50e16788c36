package fw

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// Defaults of the forwarder's limits (Config): what bounds the state a
// peer can make the forwarder keep, and the work one packet can cost.
// docs/security.md says why each is what it is.
const (
	// DefaultMaxInterestLifetime caps the lifetime a PIT record is kept
	// for, whatever the Interest asks (an Interest may ask for 2^64 ms).
	// Two minutes is longer than the lifetime of any Interest NDN
	// applications send, long-lived notification Interests included
	// (seconds to a minute), and short enough that the state of a flood
	// drains within minutes. The Interest is forwarded unchanged.
	DefaultMaxInterestLifetime = 2 * time.Minute
	// DefaultPITCapacity bounds the PIT's entries. At about a kilobyte
	// an entry in `ndncc fw` (entry, records and the decoded Interest),
	// a full PIT holds about 256 MB.
	DefaultPITCapacity = 1 << 18
	// DefaultPITFaceLimit is the fair share of one incoming face: the most
	// in-records it may hold at once, a sixteenth of the default PIT, so
	// that one peer alone fills at most a sixteenth of it (16 MB) and the
	// other faces keep the rest.
	DefaultPITFaceLimit = DefaultPITCapacity / 16
	// DefaultMaxNameComponents bounds the components of a name the
	// forwarder processes: a longer name is dropped on arrival. NFD's
	// name tree and FIB stop at 32 components (management refuses longer
	// prefixes with 414), real names use well under 32; 128 leaves room
	// and bounds the prefix hashing and table lookups of one packet. The
	// name's bytes are bounded by the packet's: 8800 bytes on a live face
	// (face.MaxPacketSize), larger packets are refused at decode.
	DefaultMaxNameComponents = 128
)

// limits are a forwarder's limits, defaults applied.
type limits struct {
	maxLifetime  time.Duration
	pitCapacity  int
	pitFaceLimit int
	maxNameComps int
	// pitCheck is min(pitCapacity, pitFaceLimit): below that many PIT
	// entries neither limit can be reached (a face holds at most one
	// in-record per entry), so an Interest needs no check.
	pitCheck int
}

// newLimits applies the defaults to cfg's limits and checks them.
func newLimits(cfg Config) (limits, error) {
	l := limits{
		maxLifetime:  cfg.MaxInterestLifetime,
		pitCapacity:  cfg.PITCapacity,
		pitFaceLimit: cfg.PITFaceLimit,
		maxNameComps: cfg.MaxNameComponents,
	}
	if l.maxLifetime < 0 || l.pitCapacity < 0 || l.pitFaceLimit < 0 || l.maxNameComps < 0 {
		return l, fmt.Errorf("fw %s: new: negative MaxInterestLifetime, PITCapacity, PITFaceLimit or MaxNameComponents", cfg.Name)
	}
	if l.maxLifetime == 0 {
		l.maxLifetime = DefaultMaxInterestLifetime
	}
	if l.pitCapacity == 0 {
		l.pitCapacity = DefaultPITCapacity
	}
	if l.pitFaceLimit == 0 {
		l.pitFaceLimit = DefaultPITFaceLimit
	}
	if l.maxNameComps == 0 {
		l.maxNameComps = DefaultMaxNameComponents
	}
	l.pitCheck = min(l.pitCapacity, l.pitFaceLimit)
	return l, nil
}

// lifetime is how long a PIT record of Interest it lives: its lifetime,
// capped.
func (f *Forwarder) lifetime(it *ndn.Interest) time.Duration {
	return min(it.LifetimeOrDefault(), f.limits.maxLifetime)
}

// nameTooLong reports (and counts) a name over the component limit.
func (f *Forwarder) nameTooLong(name ndn.Name) bool {
	if len(name) > f.limits.maxNameComps {
		f.counters.NameTooLongDrops++
		return true
	}
	return false
}

// pitFull reports whether Interest it from face in may not be given an
// in-record: e (nil if none) is its PIT entry. A new entry needs room in
// the PIT, a new in-record room in the face's fair share. The refusal is
// counted and answered with Nack Congestion: a consumer backs off, as from
// any congestion, rather than wait for a timeout.
func (f *Forwarder) pitFull(in FaceID, p *ndn.Packet, e *PitEntry) bool {
	fc := &f.faces[in]
	if fc.inRecords < f.limits.pitFaceLimit && (e != nil || f.pit.size < f.limits.pitCapacity) {
		return false
	}
	if e != nil && e.InRecord(in) != nil {
		return false // a renewal: no new state
	}
	f.counters.PITLimitNacks++
	if f.send(in, ndn.Packet{Interest: p.Interest, Nack: ndn.NackCongestion, PitToken: p.PitToken}) {
		f.counters.OutNacks++
		f.faces[in].counters.OutNacks++
	}
	return true
}
