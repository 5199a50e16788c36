// Command ndncc is the NDN congestion-control toolkit: simulate scenarios,
// run the seed experiments, and fetch or serve files over real forwarders.
// Its commands are package internal/cli's; default.pgo here is the CPU
// profile Go builds the program with (see docs/performance.md).
package main

import "github.com/ndncc/ndncc/internal/cli"

func main() { cli.Main() }
