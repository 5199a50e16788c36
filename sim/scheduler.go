package sim

import "github.com/ndncc/ndncc/internal/vclock"

// Scheduler is the simulator's virtual-time event scheduler (package
// internal/vclock): events at the same time run in the order they were
// scheduled, so a run is deterministic.
type Scheduler = vclock.Scheduler

// NewScheduler returns a scheduler at time zero.
func NewScheduler() *Scheduler { return &vclock.Scheduler{} }
