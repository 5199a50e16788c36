// Package face is ndncc's NDNLPv2 face, the one the live forwarder
// (`ndncc fw`, and the emulator through it) and the applications
// (`ndncc fetch` and `ndncc serve`, package live) use: a link service
// over a transport. The transports are Unix and TCP stream sockets and
// UDP unicast (a connected socket, or a listener's socket shared by its
// faces), with the listeners that accept them. The link service frames
// packets on them: TLV delimiting on streams (FrameReader), fragmentation
// and reassembly on datagrams (Fragment, Reassembler), CongestionMark,
// Nack and the other per-hop fields through package ndn's codec, and
// TxSequence and Acks when link reliability runs (SetReliability).
//
// A forwarder's face joins three goroutines, as ndnd's forwarder does but
// without its globals: a reader that only reads and decodes (one per
// stream face, one per UDP listener for all its faces), the runtime's
// event loop, which owns the forwarder and calls Send and Flush, and a
// writer of its own that encodes and writes. Between the loop and the
// writer sits the face's send queue, an aqm.Queue whose discipline
// (drop-tail, CoDel, backlog marking) is the simulator's: a slow socket
// fills its own face's queue and never stalls the loop. The loop hands the
// writer at most two batches at a time, so the queue that builds up is the
// managed one. The face does not know the forwarder: the runtime that owns
// it implements Host, which carries packets to and from its loop. No
// forwarding logic lives here.
//
// An application's face (NewApp) runs on its eventloop.Loop directly: its
// reader hands the loop batches of packets (eventloop.Batch) with the
// time of their read, reports its progress through the socket for the
// loop's catch-up after a stall (eventloop.Source), verifies the
// DigestSha256 of a batch's Data together (Config.VerifyDigests), and
// decodes into receive buffers and Data that the application hands back
// (Recycle). The loop encodes what the application sends into the
// socket's output and writes it before it next waits.
package face
