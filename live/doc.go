// Package live is ndncc's real-time runtime: it binds the sans-IO protocol
// core (consumer, producer, cc) to the wall clock and to real sockets, so
// that the very pipelines the simulator runs fetch and serve real NDN
// objects through NFD, YaNFD or ndnd's forwarder.
//
// It owns:
//
//   - Loop, a sched.Scheduler on one event-loop goroutine. All core code
//     (pipelines, producers) and every Face method except Close run on that
//     goroutine; socket readers hand decoded packets to it over a channel.
//   - Face, a connection to a forwarder over a Unix stream socket, TCP or
//     UDP unicast, carrying NDN packet format v0.3 in NDNLPv2 frames
//     (CongestionMark, Nack, fragmentation and reassembly for UDP), encoded
//     and decoded with ndnd's spec_2022 through package ndn.
//   - Transport resolution as ndn-cxx applications do it (flag, then
//     NDN_CLIENT_TRANSPORT, then client.conf, then the default socket).
//   - The NFD management client that registers a prefix (the signed
//     /localhost/nfd/rib/register command, built with ndnd's mgmt_2022).
//   - The applications behind `ndncc fetch` and `ndncc serve`: RDR version
//     discovery and metadata, Data verification and signing with ndnd's
//     security packages, and in-order output.
//
// live may import the core packages; nothing in the core (cc, consumer,
// producer, fw, ndn, sched) nor sim may import live.
package live
