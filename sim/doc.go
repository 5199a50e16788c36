// Package sim is ndncc's discrete-event network simulator: it runs the
// protocol core — the same consumer pipelines, producers, forwarders,
// queue disciplines, link layer and TCP that `ndncc fetch`, `ndncc serve`
// and `ndncc fw` run — in virtual time over the network a scenario
// describes. `ndncc sim` runs one scenario; the experiment catalog
// (package experiment) runs many.
//
// # Determinism
//
// A run is a pure function of its scenario and seed (Result.Timing, the
// wall-clock cost, aside). Time is the Scheduler's (package
// internal/vclock): nothing reads the wall clock, and events due at the
// same instant run in the order they were scheduled. Every random draw
// (link loss, the forwarders' processing jitter, consumers' and TCP
// flows' start jitter, strategies' choices, nonces) comes from a source
// of its own, derived from the seed and the component's name, so that
// adding a component does not shift another's draws. One run uses one
// goroutine; runs share nothing and may run in parallel.
//
// # What it binds
//
// Build assembles a Network from a scenario.Scenario:
//
//   - a node per topology node, with an fw.Forwarder (strategy, Content
//     Store, limits from the scenario's routers) behind a processor that
//     models its single packet-processing thread (Options.ProcessingJitter);
//   - a Channel per link direction: a link.Channel (output queue of the
//     configured aqm discipline, transmitter, propagation delay, jitter,
//     loss, header overhead) between two named nodes, which the sending
//     forwarder sees as a face; optionally NDNLPv2 link-loss detection
//     (link.Reliability at both ends), an underlay bottleneck beneath an
//     overlay link, an Interest shaper, or a TCP tunnel (TCPTunnel: a
//     direction's NDN traffic in a TCP byte stream, as NFD's TCP faces);
//   - routes toward every producer (RoutePlanner, over the topology's
//     ranked next hops), and strategy choices;
//   - a producer.Producer and a consumer.Pipeline per [[producer]] and
//     [[consumer]], each joined to its node's forwarder by an in-memory
//     face that delivers in zero virtual time without re-entering either;
//   - the scenario's TCP flows (TCPFlow): package tcp's senders and
//     receivers over IP forwarding on the same channels and queues.
//
// Run simulates until every flow has ended or the scenario's time limit
// and returns a Result (flows, TCP flows, links; docs/results.md); with
// Options.Trace, the run's time series (Traces) can be written as the
// files `ndncc report` plots. The emulator (package emu) reuses the
// routes, consumer options, result builders and traces, so that its
// output is the simulator's.
package sim
