package mgmt

import (
	"time"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
)

// DefaultVersion is the NfdVersion that status/general reports when
// Config.Version is empty.
const DefaultVersion = "ndncc"

// statusModule is NFD's status module: the status/general dataset.
func (m *Manager) statusModule() module {
	return module{datasets: map[string]func() ([]byte, error){"general": m.generalStatus}}
}

// generalStatus is the status/general dataset: one GeneralStatus with the
// forwarder's version, start and current times (Config.Epoch plus the
// scheduler's time) and its counters. ndncc's forwarder has no name tree
// and no measurements table, and does not count satisfied Interests: those
// fields are 0; NUnsatisfiedInterests is the PIT entries that expired
// without Data.
func (m *Manager) generalStatus() ([]byte, error) {
	c := m.fwd.Counters()
	start := time.Duration(m.epoch) * time.Microsecond
	st := nfd.GeneralStatus{
		NfdVersion:     m.version,
		StartTimestamp: start, CurrentTimestamp: start + m.sched.Now(),
		NFibEntries: uint64(len(m.fwd.FIB())), NPitEntries: uint64(c.PITSize), NCsEntries: uint64(c.CSSize),
		NInInterests: c.InInterests, NInData: c.InData, NInNacks: c.InNacks,
		NOutInterests: c.OutInterests, NOutData: c.OutData, NOutNacks: c.OutNacks,
		NUnsatisfiedInterests: c.UnsatisfiedExpiries,
	}
	return st.Encode().Join(), nil
}
