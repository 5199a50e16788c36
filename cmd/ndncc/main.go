// Command ndncc is the NDN congestion-control toolkit: simulate scenarios,
// run the seed experiments, and fetch or serve files over real forwarders.
// Its commands are package internal/cli's. ndncc.pgo here is a CPU profile
// of the program: built with it (go build -pgo=cmd/ndncc/ndncc.pgo
// ./cmd/ndncc), its simulations run about 8% fewer instructions (see
// docs/performance.md).
package main

import "github.com/ndncc/ndncc/internal/cli"

func main() { cli.Main() }
