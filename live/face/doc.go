// Package face holds the faces of ndncc's live forwarder (`ndncc fw`):
// their transports (Unix and TCP stream sockets, UDP unicast over a shared
// listening socket), the listeners that accept them, and the NDNLPv2 link
// service that frames packets on them: TLV delimiting on streams
// (FrameReader), fragmentation and reassembly on datagrams (Fragment,
// Reassembler), CongestionMark, Nack and the other per-hop fields through
// package ndn's codec. The client side of package live (`ndncc fetch` and
// `ndncc serve`) frames its packets with the same code.
//
// A Face joins three goroutines, as ndnd's forwarder does but without its
// globals: a reader that only reads and decodes (one per stream face, one
// per UDP listener for all its faces), the runtime's event loop, which
// owns the forwarder and calls Send and Flush, and a writer of its own that
// encodes and writes. Between the loop and the writer sits the face's send
// queue, an aqm.Queue whose discipline (drop-tail, CoDel, backlog marking)
// is the simulator's: a slow socket fills its own face's queue and never
// stalls the loop. The loop hands the writer at most two batches at a time,
// so the queue that builds up is the managed one.
//
// The face does not know the forwarder: the runtime that owns it implements
// Host, which carries packets to and from its loop. No forwarding logic
// lives here.
package face
