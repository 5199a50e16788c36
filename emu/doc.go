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
// All nodes run in the calling process (docs/emulation.md says why);
// foreign applications attach to a node's Unix socket, and Options.Exec
// runs programs with NDN_CLIENT_TRANSPORT set to it. Run removes every
// socket and temporary file it made, and stops every program it started,
// before it returns.
//
// The package wires runtimes only: it holds no forwarding, pipeline or
// link logic of its own.
package emu
