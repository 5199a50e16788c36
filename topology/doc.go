// Package topology owns the network graph of a simulated experiment: its
// nodes, its point-to-point links with their delay, bandwidth, output-queue
// limit and random loss, the loader for Mini-NDN topology files, and the
// shortest-path next hops that the simulator installs in every forwarder's
// FIB.
//
// A Topology is a plain value: it can be read from a Mini-NDN .conf file
// (ParseMiniNDN), built inline by package scenario, or written in Go by the
// experiment catalog. Validate checks it the same way in every case.
//
// Errors carry the position of what they blame, formatted
// "file:line: field: message" (see Error).
//
// This package depends on the standard library only. It must never import
// the protocol core (cc, consumer, producer, fw), the runtimes (sim, live)
// or scenario: they import it.
package topology
