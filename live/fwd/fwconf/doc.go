// Package fwconf is the configuration of `ndncc fw`, the live forwarder
// daemon (live/fwd): its sockets and listening addresses, UDP MTU and idle
// timeout, the forwarder's strategy, Content Store and limits, the
// discipline of every face's send queue, and the permanent faces (with the
// links they emulate), routes and strategy choices it starts with. Default
// is the daemon's configuration without a file; Load and Parse read one
// (docs/forwarder.md), reporting every problem as "file:line: field:
// message".
//
// The forwarding keys are a scenario's (strategy, cs-capacity, queue and
// queue-params as in [routers], a face's link with an inline link's keys),
// decoded with scenario.Keys so that both files read and fail alike.
// Strategy and queue names are checked by the daemon, which knows them.
// The emulator (emu) builds a Config per node in Go.
package fwconf
