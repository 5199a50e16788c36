// Package live is ndncc's real-time runtime: it binds the sans-IO protocol
// core (consumer, producer, cc) to the wall clock and to real sockets, so
// that the very pipelines the simulator runs fetch and serve real NDN
// objects through NFD, YaNFD or ndnd's forwarder.
//
// It owns:
//
//   - The binding to package eventloop's Loop, the real-time
//     sched.Scheduler on one goroutine: all core code (pipelines,
//     producers) and every method of a face except Close run on that
//     goroutine; a face's socket reader hands it batches of decoded packets
//     (eventloop.Batch), reports its progress through the socket for the
//     loop's catch-up (eventloop.Source), and takes its receive buffers
//     from the face's pools (face.Face.Recycle).
//   - Dial, an application's connection to a forwarder over a Unix stream
//     socket, TCP or UDP unicast: package face's NDNLPv2 face (NewApp),
//     carrying NDN packet format v0.3 (CongestionMark, Nack, fragmentation
//     and reassembly for UDP), encoded and decoded with ndnd's spec_2022
//     through package ndn.
//   - Transport resolution as ndn-cxx applications do it (flag, then
//     NDN_CLIENT_TRANSPORT, then client.conf, then the default socket).
//   - The NFD management client that registers a prefix (the signed
//     /localhost/nfd/rib/register command, built with ndnd's mgmt_2022).
//   - The applications behind `ndncc fetch` and `ndncc serve`: RDR version
//     discovery and metadata, Data verification and signing with ndnd's
//     security packages, and in-order output.
//
// live may import the core packages and eventloop; nothing in the core
// (cc, consumer, producer, fw, ndn, sched), nor sim, nor the forwarder
// daemon (live/fwd) may import live.
package live
