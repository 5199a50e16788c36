// Package ndn is ndncc's packet model: Names, Interests, Data, Nacks and the
// per-hop NDNLPv2 fields that travel with them, plus the bridge to ndnd's
// spec_2022 codec that gives every packet its exact wire size and, in the
// live runtime, its bytes.
//
// Names are ndnd's enc.Name; NameHash is the hash a forwarder's tables key
// them by, which a Data keeps once made. The structs here are plain values
// that the protocol core passes around; the simulator never encodes them
// (it asks for their wire size, which is computed once per packet shape by
// really encoding a packet of that shape with ndnd), the live runtime does.
//
// This package imports only ndnd's std packages and the standard library.
package ndn

import (
	"reflect"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
)

// Name is an NDN name (ndnd's representation).
type Name = enc.Name

// Component is one name component (ndnd's representation).
type Component = enc.Component

// DefaultInterestLifetime is the lifetime of an Interest that carries none.
const DefaultInterestLifetime = 4 * time.Second

// Interest is an NDN Interest packet.
type Interest struct {
	Name        Name
	Nonce       uint32
	CanBePrefix bool
	MustBeFresh bool
	HopLimit    uint8 // meaningful when HasHopLimit
	HasHopLimit bool
	Lifetime    time.Duration // 0: DefaultInterestLifetime
	// Ext holds the parts only some Interests have (ForwardingHint,
	// ApplicationParameters, signature, received encoding); nil for a
	// plain Interest such as the simulator's, which keeps them off its
	// per-packet path. Ext is shared by copies of the Interest and must
	// not change once the Interest is sent.
	Ext *InterestExt

	// Inline storage so that a segment Interest costs one allocation:
	// room for the names of NewSegmentInterest, without making every
	// Interest larger (192 bytes, one of the runtime's size classes).
	comps [4]Component
	seg   [8]byte
	size  int // cached encoded size, see Sizer.InterestSize
}

// InterestExt is the part of an Interest that most Interests lack.
type InterestExt struct {
	// ForwardingHint holds the delegation names of the Interest's
	// ForwardingHint; nil when it has none.
	ForwardingHint []Name
	// AppParams is the ApplicationParameters value: nil when absent, a
	// non-nil (possibly empty) slice when present. An Interest with
	// parameters has a ParametersSha256DigestComponent as the last
	// component of its Name (EncodeInterest appends it).
	AppParams []byte
	// Sig is the signature of a signed Interest (its InterestSignatureInfo
	// and InterestSignatureValue), nil when unsigned. Only a received
	// Interest (with Wire) carries one: ndncc signs the command Interests
	// it sends with ndnd (live.Endpoint.Register).
	Sig *Signature

	// Wire, when non-nil, is the Interest exactly as it was received
	// (live runtime). A forwarder sends it on unchanged but for the
	// HopLimit, the one per-hop field of an Interest: EncodeInterest
	// rewrites that byte when the Interest's HopLimit differs from the
	// received value and ignores every other field.
	Wire []byte
	// hopAt is the index in Wire of the HopLimit value byte (0: the wire
	// carries no HopLimit).
	hopAt int
}

// Wire returns the received encoding of i, or nil.
func (i *Interest) Wire() []byte {
	if i.Ext == nil {
		return nil
	}
	return i.Ext.Wire
}

// Signed reports whether i carries a signature.
func (i *Interest) Signed() bool { return i.Ext != nil && i.Ext.Sig != nil }

// LifetimeOrDefault returns the Interest lifetime, applying the default.
func (i *Interest) LifetimeOrDefault() time.Duration {
	if i.Lifetime <= 0 {
		return DefaultInterestLifetime
	}
	return i.Lifetime
}

// NewSegmentInterest returns an Interest for prefix/seg=N, where the segment
// component is typed (NDN naming conventions rev3). The whole Interest,
// including its name, is a single allocation when prefix has at most 3
// components (every prefix in the simulator's scenarios has 1 or 2, a
// versioned one such as /a/b/v=1 has 3); a longer name gets an array of
// its own.
func NewSegmentInterest(prefix Name, seg uint64) *Interest {
	in := &Interest{}
	in.SetSegment(prefix, seg)
	return in
}

// SetSegment makes i the Interest NewSegmentInterest(prefix, seg) returns,
// in i's own storage: a sender whose face is an EncodingFace reuses one
// Interest for all its segments.
func (i *Interest) SetSegment(prefix Name, seg uint64) {
	name := i.Name[:0]
	*i = Interest{}
	switch {
	case len(prefix) < len(i.comps):
		name = i.comps[:0]
	case cap(name) <= len(prefix):
		name = make(Name, 0, len(prefix)+1)
	}
	v := enc.Nat(seg)
	n := v.EncodingLength()
	v.EncodeInto(i.seg[:n])
	// The prefix's components are stored one by one: append or copy is a
	// call of the runtime (typedslicecopy, with its bulk write barrier),
	// several times the cost of a few stores.
	name = name[:len(prefix)+1]
	//lint:ignore S1001 see above
	for k, c := range prefix {
		name[k] = c
	}
	name[len(prefix)] = Component{Typ: enc.TypeSegmentNameComponent, Val: i.seg[:n]}
	i.Name = name
}

// Batch hands out zeroed Interests or Data allocated about 4 KiB at a time
// (batchBytes): one allocation instead of one per packet (21 Interests,
// 16 Data), for senders that make many
// (a simulation's consumers and producers, which share one of each). The
// garbage collector keeps a batch while any of its packets is referenced,
// so its packets should live about as long as each other, as those sent
// one after another do. The zero value is ready. It is not safe for
// concurrent use.
type Batch[T Interest | Data] struct{ free []T }

// batchBytes bounds the size of a Batch's allocation: one of the
// runtime's size classes, which the packets fill but for less than one.
const batchBytes = 4096

// batchLen is the number of packets of a Batch's allocation.
func batchLen[T Interest | Data]() int {
	return max(1, batchBytes/int(reflect.TypeFor[T]().Size()))
}

// New returns a zeroed packet of the batch.
func (b *Batch[T]) New() *T {
	if len(b.free) == 0 {
		b.free = make([]T, batchLen[T]())
	}
	p := &b.free[0]
	b.free = b.free[1:]
	return p
}

// SigType is the NDN SignatureType.
type SigType uint8

// Signature types of the NDN packet format v0.3.
const (
	SigDigestSHA256    SigType = 0
	SigSHA256WithRSA   SigType = 1
	SigSHA256WithECDSA SigType = 3
	SigHMACWithSHA256  SigType = 4
	SigEd25519         SigType = 5
	SigNone            SigType = 255 // no signature at all (not valid on the wire; for tests)
)

// Signature describes a Data signature: its type, the KeyLocator name (nil
// for none) and the length of the SignatureValue. Value holds the real
// bytes in the live runtime and is nil in the simulator.
type Signature struct {
	Type       SigType
	KeyLocator Name
	ValueLen   int
	Value      []byte
}

// Data is an NDN Data packet.
type Data struct {
	// The fields a forwarder reads at every hop come first: the name,
	// the wire encoding's presence and the cached size (a link sizes the
	// packet) and the freshness (the PIT's dead-nonce rule) fill the
	// first 64 bytes, one cache line; the name's hash starts the next.
	Name Name
	// Wire, when non-nil, is the packet exactly as it was received or
	// encoded (live runtime); forwarders send it on unchanged.
	Wire      []byte
	size      int // cached encoded size, see Sizer.DataSize
	Freshness time.Duration
	hash      nameHashMemo // see NameHash

	ContentType  uint64    // 0 = BLOB
	FinalBlockID Component // meaningful when HasFinalBlock
	HasFinal     bool
	// Content holds the payload in the live runtime. In the simulator it
	// is nil and ContentLen gives the payload length.
	Content    []byte
	ContentLen int
	Sig        Signature

	// covered is the part of Wire the signature covers, as ndnd's decoder
	// found it (decoded Data only): VerifyDigest needs no second parse.
	covered enc.Wire
}

// NackReason is an NDNLPv2 Nack reason code.
type NackReason uint64

// Nack reasons (NDNLPv2).
const (
	NackNone       NackReason = 0
	NackCongestion NackReason = 50
	NackDuplicate  NackReason = 100
	NackNoRoute    NackReason = 150
	// NackUnspecified is a Nack whose reason is absent or 0 ("None") on
	// the wire. It is encoded as reason 0.
	NackUnspecified NackReason = 1<<64 - 1
)

func (r NackReason) String() string {
	switch r {
	case NackNone:
		return "None"
	case NackCongestion:
		return "Congestion"
	case NackDuplicate:
		return "Duplicate"
	case NackNoRoute:
		return "NoRoute"
	case NackUnspecified:
		return "Unspecified"
	}
	return "Unknown"
}

// Packet is one network-layer packet with the NDNLPv2 header fields that
// belong to a single hop and that the forwarder reads or sets (Nack,
// CongestionMark). It is passed by value; the Interest and Data it points
// to are shared and must be treated as immutable once sent.
//
// Exactly one of Interest and Data is set. A Nack is an Interest with a
// non-zero NackReason. The link layer's own fields (TxSequence, Ack) are
// not here: they belong to one link's frames (LinkFields, package link).
type Packet struct {
	Interest *Interest
	Data     *Data
	Nack     NackReason
	// CongestionMark is the NDNLPv2 CongestionMark field (0 = not marked).
	CongestionMark uint64
	// PitToken is the NDNLPv2 PitToken (nil = none): a downstream that
	// sends an Interest with one gets it back on the Data or Nack that
	// answers the Interest (the forwarder keeps it in the PIT in-record).
	PitToken []byte
	// IncomingFaceID is the NDNLPv2 IncomingFaceId (0 = none): the
	// forwarder face a packet arrived on, told to a local application
	// (the management module among them) that enabled local fields
	// (fw.Forwarder.SetLocalFields).
	IncomingFaceID uint64
}

// LinkFields are the NDNLPv2 link-reliability fields of one frame on one
// link: the TxSequence the sending end numbered it with and the Acks of
// frames it received, piggybacked. A link's reliability service (package
// link) sets them on the frames it sends and reads them from the frames it
// receives; the forwarder never sees them (ndnd keeps them in its link
// service likewise).
type LinkFields struct {
	// TxSeq is the frame's TxSequence; 0 means none.
	TxSeq uint64
	// Acks are the TxSequences of frames from the other end that this
	// frame acknowledges, in the order they are encoded.
	Acks []uint64
}

// IsZero reports whether lf has neither a TxSequence nor Acks.
func (lf *LinkFields) IsZero() bool { return lf.TxSeq == 0 && len(lf.Acks) == 0 }

// IsNack reports whether p is a Nack.
func (p *Packet) IsNack() bool { return p.Interest != nil && p.Nack != NackNone }

// Name returns the name of the Interest, Nack or Data carried by p.
func (p *Packet) Name() Name {
	if p.Data != nil {
		return p.Data.Name
	}
	if p.Interest != nil {
		return p.Interest.Name
	}
	return nil
}

// Face is anything that takes packets: a forwarder face, a link, an
// application's connection to its forwarder.
type Face interface {
	Send(p Packet)
}

// EncodingFace is a Face that is done with a packet when Send returns: it
// encodes the packet then and keeps no reference to it or to anything it
// points to, so the sender may reuse its Interest for the next one. A live
// connection to a forwarder is one; a simulated face, which hands the
// Interest itself along its path, is not.
type EncodingFace interface {
	Face
	// EncodesOnSend marks the Face; it does nothing.
	EncodesOnSend()
}
