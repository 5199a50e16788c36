// Package producer serves one object as a sequence of segmented Data
// packets, the way ndnputchunks does: Name = prefix/seg=N, a FinalBlockId
// on every segment, a configurable freshness and signature. It also
// answers numbered content under a base name, the way ndnSIM's Producer
// answers its consumer applications: Name = base/seq=N for any N, each
// Data a segment's size (Config.Base).
//
// The producer is sans-IO: it receives Interests through OnPacket and
// answers through an ndn.Face. It never reads the clock. It must not import
// sim, live or fw.
package producer

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// Config describes what a producer serves.
type Config struct {
	// Prefix is the name under which segments are served; segment N is
	// Prefix/seg=N. It normally ends with a version component.
	Prefix ndn.Name
	// Size is the object size in bytes.
	Size int64
	// SegmentSize is the payload size of every segment but the last.
	SegmentSize int
	// Freshness is the FreshnessPeriod of every Data (0: none).
	Freshness time.Duration
	// Signature is the signature every Data carries. In the simulator only
	// its type and sizes matter.
	Signature ndn.Signature
	// Content, when non-nil, supplies the payload bytes (live runtime).
	// When nil, Data carry ContentLen only (simulator).
	Content io.ReaderAt
	// Finish, when non-nil, is applied to every Data before it is sent
	// (the live runtime encodes and signs here).
	Finish func(d *ndn.Data) error
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Data, if set, supplies the Data the producer sends (a simulation's
	// producers share one Batch); nil: each is allocated alone.
	Data *ndn.Batch[ndn.Data]
	// Base, if set, is a name under which the producer also answers
	// Interests for Base/<sequence number> (a SequenceNum component, any
	// number): the traffic applications' (package consumer, AppCBR...).
	// Each gets a Data named as the Interest with SegmentSize payload
	// bytes (zeros when Content is set), no FinalBlockId, and the
	// configured freshness and signature.
	Base ndn.Name
}

// Stats are the producer's counters.
type Stats struct {
	Interests    uint64 // Interests received
	DataSent     uint64 // Data sent
	PayloadBytes uint64 // payload bytes sent
	Unknown      uint64 // Interests for names this producer does not serve
	Numbered     uint64 // Data sent for Base/seq=N (counted in DataSent too)
	Errors       uint64 // Data that could not be produced
}

// Producer answers Interests for the segments of one object.
type Producer struct {
	cfg      Config
	face     ndn.Face
	segments uint64
	final    ndn.Component
	stats    Stats
	log      *slog.Logger
}

// New returns a producer that sends its Data on face.
func New(cfg Config, face ndn.Face) (*Producer, error) {
	if cfg.SegmentSize <= 0 {
		return nil, fmt.Errorf("producer %s: segment size must be positive, got %d", cfg.Prefix, cfg.SegmentSize)
	}
	if cfg.Size < 0 {
		return nil, fmt.Errorf("producer %s: negative object size %d", cfg.Prefix, cfg.Size)
	}
	p := &Producer{cfg: cfg, face: face, log: cfg.Logger}
	p.segments = uint64((cfg.Size + int64(cfg.SegmentSize) - 1) / int64(cfg.SegmentSize))
	if p.segments == 0 {
		p.segments = 1 // an empty object is one empty segment
	}
	p.final = enc.NewSegmentComponent(p.segments - 1)
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	return p, nil
}

// Segments returns the number of segments of the object.
func (p *Producer) Segments() uint64 { return p.segments }

// Stats returns the counters.
func (p *Producer) Stats() Stats { return p.stats }

// OnPacket handles a packet from the forwarder. Only Interests are expected.
func (p *Producer) OnPacket(pkt ndn.Packet) {
	if pkt.Interest == nil || pkt.IsNack() {
		return
	}
	p.stats.Interests++
	in := pkt.Interest
	seg, ok := p.segmentOf(in.Name)
	var d *ndn.Data
	var err error
	switch {
	case ok:
		d, err = p.segment(seg, in.Name) // the Interest's name is exactly the Data name
	case p.numbered(in.Name):
		d = p.numberedData(in.Name)
		p.stats.Numbered++
	default:
		p.stats.Unknown++
		return
	}
	if err != nil {
		p.stats.Errors++
		p.log.Warn("cannot produce segment", "seg", seg, "err", err)
		return
	}
	if p.cfg.Finish != nil {
		if err := p.cfg.Finish(d); err != nil {
			p.stats.Errors++
			p.log.Warn("cannot finish segment", "seg", seg, "err", err)
			return
		}
	}
	p.stats.DataSent++
	p.stats.PayloadBytes += uint64(d.ContentLen)
	p.face.Send(ndn.Packet{Data: d})
}

// SegmentOf returns the segment number an Interest asks for, if the name
// is Prefix/seg=N with N in range: the Interests OnPacket answers.
func (p *Producer) SegmentOf(n ndn.Name) (uint64, bool) { return p.segmentOf(n) }

// segmentOf is SegmentOf.
func (p *Producer) segmentOf(n ndn.Name) (uint64, bool) {
	if len(n) != len(p.cfg.Prefix)+1 || !p.cfg.Prefix.IsPrefix(n) {
		return 0, false
	}
	seg, ok := ndn.SegmentOf(n)
	if !ok || seg >= p.segments {
		return 0, false
	}
	return seg, true
}

// numbered reports whether n is Base/seq=N.
func (p *Producer) numbered(n ndn.Name) bool {
	b := p.cfg.Base
	return b != nil && len(n) == len(b)+1 && b.IsPrefix(n) && n[len(b)].Typ == enc.TypeSequenceNumNameComponent
}

// newData returns a zero Data, from the configured allocator if any.
func (p *Producer) newData() *ndn.Data {
	if b := p.cfg.Data; b != nil {
		return b.New()
	}
	return &ndn.Data{}
}

// numberedData builds the Data answering an Interest for name, Base/seq=N.
func (p *Producer) numberedData(name ndn.Name) *ndn.Data {
	d := p.newData()
	d.Name = name
	d.Freshness = p.cfg.Freshness
	d.ContentLen = p.cfg.SegmentSize
	d.Sig = p.cfg.Signature
	if p.cfg.Content != nil {
		d.Content = make([]byte, p.cfg.SegmentSize)
	}
	return d
}

// Segment builds the Data for segment seg, named Prefix/seg=N.
func (p *Producer) Segment(seg uint64) (*ndn.Data, error) {
	return p.segment(seg, p.cfg.Prefix.Append(enc.NewSegmentComponent(seg)))
}

func (p *Producer) segment(seg uint64, name ndn.Name) (*ndn.Data, error) {
	if seg >= p.segments {
		return nil, fmt.Errorf("segment %d out of range (object has %d)", seg, p.segments)
	}
	off := int64(seg) * int64(p.cfg.SegmentSize)
	n := int64(p.cfg.SegmentSize)
	if rest := p.cfg.Size - off; rest < n {
		n = rest
	}
	d := p.newData()
	// d is zero: its fields are set one by one, not cleared again by a
	// composite literal.
	d.Name = name
	d.Freshness = p.cfg.Freshness
	d.FinalBlockID = p.final
	d.HasFinal = true
	d.ContentLen = int(n)
	d.Sig = p.cfg.Signature
	if p.cfg.Content != nil {
		buf := make([]byte, n)
		got, err := p.cfg.Content.ReadAt(buf, off)
		if err != nil && !(err == io.EOF && int64(got) == n) {
			return nil, fmt.Errorf("read segment %d at offset %d: %w", seg, off, err)
		}
		d.Content = buf
	}
	return d, nil
}
