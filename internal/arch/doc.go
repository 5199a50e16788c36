// Package arch holds no code: its test checks the architecture's rules
// (docs/architecture.md) on the packages as they are. Every ndncc package
// has a row saying which ndncc packages it must never depend on, directly
// or not (go list -deps); the sans-IO core imports no I/O, no
// synchronisation, reads no wall clock and starts no goroutine. A new
// package needs a row, so its rules are decided, not inherited by accident.
package arch
