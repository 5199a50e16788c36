// Package link is ndncc's link layer: what happens to packets between one
// forwarder's face and the next forwarder's face, below the forwarder and
// shared by every runtime.
//
//   - Frame (frame.go): a network packet with the NDNLPv2 link-reliability
//     fields one link gives it (TxSequence, Acks), which ndn.Packet does not
//     carry.
//   - Reliability (reliability.go): NDNLPv2's best-effort link reliability
//     as PCON's local link-loss detection uses it: a service at each end of
//     a link that numbers the frames it sends, acknowledges the frames it
//     receives and reports each frame the other end never got. The
//     forwarder's reaction to such a report (a link-loss Nack) stays in fw
//     (Forwarder.OnSendFailure).
//   - Channel (channel.go): one direction of a link as a model: an output
//     queue with its discipline (aqm), a transmitter of fixed rate, a
//     propagation delay, random loss and a per-frame header overhead. The
//     simulator runs it in virtual time; the emulator runs the very same
//     model in real time, where timers fire late: departures come from a
//     busy-until clock, a late wake releases every frame whose turn has
//     passed, and the lateness is measured (ChannelStats.Lateness).
//
// Everything here is sans-IO: time and timers come from a
// sched.Scheduler, randomness from an injected *rand.Rand, and packets
// leave through callbacks; nothing reads the wall clock, sleeps, starts a
// goroutine or touches a socket. The live runtime encodes a Frame as an
// NDNLPv2 LpPacket (ndn.EncodeLinkFrame) and decodes it back
// (ndn.DecodeLinkFrame).
//
// This package imports ndn, sched, rtt (RFC 6298's estimator for the ack
// timeout), aqm (the output queues) and internal helpers; it must never
// import fw, cc, consumer, producer, sim, live or the emulator.
package link
