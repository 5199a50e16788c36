package fw

import "fmt"

// CSConfig is the Content Store's configuration, as NFD's cs/config
// command sets it.
type CSConfig struct {
	// Capacity is the most Data packets cached; 0 caches nothing.
	Capacity int
	// Admit: arriving Data are cached (NFD's CS_ENABLE_ADMIT).
	Admit bool
	// Serve: Interests are answered from the cache (NFD's CS_ENABLE_SERVE).
	Serve bool
}

// CSConfig returns the Content Store's configuration. A new forwarder
// admits and serves, with Config.CSCapacity.
func (f *Forwarder) CSConfig() CSConfig {
	return CSConfig{Capacity: f.cs.capacity, Admit: f.cs.admit, Serve: f.cs.serve}
}

// SetCSConfig changes the Content Store's configuration. Lowering the
// capacity evicts the least recently used Data beyond it.
func (f *Forwarder) SetCSConfig(c CSConfig) error {
	if c.Capacity < 0 {
		return fmt.Errorf("fw %s: Content Store capacity %d is negative", f.name, c.Capacity)
	}
	f.cs.setCapacity(c.Capacity)
	f.cs.admit, f.cs.serve = c.Admit, c.Serve
	return nil
}
