package face

import (
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// lpPacketType is the TLV-TYPE of an NDNLPv2 LpPacket (one byte on the
// wire).
const lpPacketType = 0x64

// Decoder turns the frames one face receives into network packets: bare
// Interests and Data, and LpPackets with their per-hop fields, reassembling
// fragments on datagram faces. It counts what it sees. Decode is called
// by one goroutine (the face's reader); the counters may be read from any.
type Decoder struct {
	// Reassembler collects fragments; nil on stream faces, where a
	// fragment is malformed.
	Reassembler *Reassembler
	// Logger receives a line per dropped frame at debug level; nil
	// discards them. Name names the face in them.
	Logger *slog.Logger
	Name   string
	// NewData, if set, supplies recycled Data structs to decode into
	// (ndn.DecodeLinkFrameWith); it may return nil.
	NewData func() *ndn.Data

	Frames, Bytes    atomic.Uint64 // frames received and their bytes
	Interests, Data  atomic.Uint64 // network packets decoded, Nacks excluded
	Nacks            atomic.Uint64
	Malformed        atomic.Uint64 // frames that did not decode, dropped
	Unsupported      atomic.Uint64 // well-formed packets ndncc cannot represent, dropped
	Fragments        atomic.Uint64 // fragments received
	ReassemblyErrors atomic.Uint64 // fragments the reassembler dropped
}

// Packets returns the network packets decoded so far.
func (d *Decoder) Packets() uint64 { return d.Interests.Load() + d.Data.Load() + d.Nacks.Load() }

// Decode decodes frame b received at now (the reassembler's clock) into
// a network packet with its link-reliability fields, or an IDLE frame
// that carries Acks. It reports false for a frame that gives nothing:
// malformed, an IDLE frame without Acks, or a fragment of a packet not
// complete yet. The frame shares memory with b.
func (d *Decoder) Decode(b []byte, now time.Duration) (link.Frame, bool) {
	d.Frames.Add(1)
	d.Bytes.Add(uint64(len(b)))
	var (
		fr  link.Frame
		err error
	)
	if d.Reassembler != nil && len(b) > 0 && b[0] == lpPacketType {
		fr, err = d.decodeLp(b, now)
	} else {
		fr.Pkt, fr.LinkFields, err = ndn.DecodeLinkFrameWith(b, d.NewData)
	}
	if err != nil {
		if errors.Is(err, ndn.ErrUnsupported) {
			d.Unsupported.Add(1)
		} else {
			d.Malformed.Add(1)
		}
		d.debug("frame dropped", err)
		return link.Frame{}, false
	}
	switch p := &fr.Pkt; {
	case p.Data != nil:
		d.Data.Add(1)
	case p.IsNack():
		d.Nacks.Add(1)
	case p.Interest != nil:
		d.Interests.Add(1)
	case len(fr.Acks) == 0:
		return link.Frame{}, false // a fragment kept for later, or an empty IDLE frame
	}
	return fr, true
}

// decodeLp decodes an LpPacket on a datagram face, reassembling fragments.
func (d *Decoder) decodeLp(b []byte, now time.Duration) (link.Frame, error) {
	lp, err := ndn.DecodeLp(b)
	if err != nil {
		return link.Frame{}, err
	}
	if lp.FragCount > 1 {
		d.Fragments.Add(1)
		whole, done, err := d.Reassembler.Add(lp, now)
		if err != nil {
			d.ReassemblyErrors.Add(1)
			d.debug("fragment dropped", err)
			return link.Frame{}, nil
		}
		if !done {
			return link.Frame{}, nil
		}
		lp = whole
	}
	p, err := lp.Packet()
	return link.Frame{Pkt: p, LinkFields: lp.LinkFields}, err
}

func (d *Decoder) debug(msg string, err error) {
	if d.Logger != nil {
		d.Logger.Debug(msg, "face", d.Name, "err", err)
	}
}
