package link

import "github.com/ndncc/ndncc/ndn"

// Frame is what one direction of a link carries: a network packet with its
// per-hop fields (Pkt: Interest, Data or Nack, with its CongestionMark)
// and the link-reliability fields the sending end's Reliability gave it
// (TxSeq, Acks). An IDLE frame carries no packet, only Acks.
//
// In the live runtime a Frame is one NDNLPv2 LpPacket:
// ndn.EncodeLinkFrame(&f.Pkt, f.LinkFields) gives its bytes and
// ndn.DecodeLinkFrame gives them back.
type Frame struct {
	Pkt ndn.Packet
	ndn.LinkFields
}

// IsIdle reports whether f carries no network packet (only Acks, if any).
func (f *Frame) IsIdle() bool { return f.Pkt.Interest == nil && f.Pkt.Data == nil }
