// Package emu runs a scenario in real time: the emulator behind `ndncc
// emu`. Every node of the topology is a live forwarder (package
// live/fwd) with its own event loop and its own Unix socket, every link a
// pair of UDP faces on loopback that emulate the link's two directions
// with the simulator's link model (link.Channel: rate, queue and its
// discipline, delay, loss), or, for a TCP tunnel, a real TCP connection
// shaped by the kernel in a network namespace of the run's own
// (tunnel.go), the routes are the simulator's
// (sim.RoutePlanner), and the scenario's producers and consumers are the
// live runtime's servers and fetches (live.NewServer, live.Fetch) with the
// simulator's pipeline options (sim.ConsumerOptions). The result has the
// simulator's schema (sim.Result) plus "mode": "live".
//
// All nodes running ndncc's forwarder run in the calling process
// (docs/emulation.md says why). A node may instead be another forwarder's
// own process (Options.Forwarder, [routers] forwarder: NFD's nfd or
// `ndnd fw`, extfwd.go) with a configuration, Unix socket and UDP port of
// its own; each link with such an end keeps the simulator's link model,
// run in a relay between the two UDP faces (relay.go), and its routes and
// strategy go in through the forwarder's own management. Foreign
// applications attach to a node's Unix socket, Options.Exec runs programs
// with NDN_CLIENT_TRANSPORT set to it, and a consumer or producer may be
// a program (ndncatchunks, ndnputchunks, ndnd cat/put) whose printed
// summary becomes the flow's result (program.go). Run removes every
// socket and temporary file it made, and stops every program and
// forwarder process it started, before it returns.
//
// The package wires runtimes only: it holds no forwarding, pipeline or
// link logic of its own.
package emu
