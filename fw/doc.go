// Package fw is ndncc's NDN forwarder core: the face table, the Pending
// Interest Table (with the dead-nonce list), the Content Store, the FIB,
// the strategy-choice table, the forwarding strategies, and the pipelines
// that move Interests, Data and Nacks between faces.
//
// The forwarder is sans-IO. Packets arrive through Forwarder.Receive and
// leave through the ndn.Face each face was added with; time and timers come
// from an injected sched.Scheduler and randomness from an injected
// *rand.Rand. The simulator (package sim) and the live runtime (package
// live) bind it to virtual and real time.
//
// The pipelines follow the shape of NFD's (incoming Interest, loop
// detection, Content Store lookup, PIT insertion, strategy dispatch;
// incoming Data, PIT matching, caching, satisfaction; incoming Nack), with
// two ndncc additions for PCON-style congestion control: a Data keeps its
// NDNLPv2 CongestionMark when forwarded downstream, and the reply to an
// Interest that arrived marked is sent downstream marked.
//
// Besides NFD's best-route and multicast, the strategies include PCON's
// multipath forwarding adaptation (pcon.go: per-prefix forwarding shares
// moved by congestion marks, readable with Forwarder.ForwardingShares) and
// the two baselines of its evaluation, least pending Interests (pi.go) and
// weighted choice by pending Interests (cf.go). PCON's local link-loss
// detection belongs to the link layer (package link's Reliability, which
// the runtime puts at each end of a link); Forwarder.OnSendFailure
// (lossnack.go) turns a packet a face lost (on the link, or in its output
// queue) into PCON's unmarked or marked Nack. link.Reliability's doc says
// how to wire both.
//
// Output queues and active queue management live in package aqm and sit
// behind a face (the link transmits from them); the forwarder does not see
// them.
//
// This package imports ndn, sched and the core's internal helpers; it must
// not import aqm, link, cc, sim, live, consumer or producer, must never read
// the wall clock, start goroutines or touch sockets.
package fw
