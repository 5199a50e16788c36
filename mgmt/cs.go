package mgmt

import (
	"math"

	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"
	"github.com/named-data/ndnd/std/types/optional"

	"github.com/ndncc/ndncc/fw"
)

// csModule is NFD's cs module: config and the cs/info dataset.
func (m *Manager) csModule() module {
	return module{
		commands: map[string]command{
			"config": {optional: fCapacity | fFlags | fMask, run: m.csConfig},
		},
		datasets: map[string]func() ([]byte, error){"info": m.csInfo},
	}
}

// csConfig changes the Content Store's capacity and its admit and serve
// switches (NFD's cs/config: Flags bits CS_ENABLE_ADMIT 1 and
// CS_ENABLE_SERVE 2, applied where Mask has them) and answers with the
// configuration in force.
func (m *Manager) csConfig(_ request, a *nfd.ControlArgs, done func(response)) {
	c := m.fwd.CSConfig()
	if capacity, ok := a.Capacity.Get(); ok {
		c.Capacity = int(min(capacity, math.MaxInt32))
	}
	flags, mask := a.Flags.GetOr(0), a.Mask.GetOr(0)
	if mask&nfd.CsEnableAdmit != 0 {
		c.Admit = flags&nfd.CsEnableAdmit != 0
	}
	if mask&nfd.CsEnableServe != 0 {
		c.Serve = flags&nfd.CsEnableServe != 0
	}
	if err := m.fwd.SetCSConfig(c); err != nil {
		done(fail(400, textInvalid, err.Error()))
		return
	}
	done(success(&nfd.ControlArgs{Capacity: optional.Some(uint64(c.Capacity)), Flags: optional.Some(csFlags(c))}))
}

// csFlags are NFD's CS flags of c.
func csFlags(c fw.CSConfig) uint64 {
	var f uint64
	if c.Admit {
		f |= nfd.CsEnableAdmit
	}
	if c.Serve {
		f |= nfd.CsEnableServe
	}
	return f
}

// csInfo is the cs/info dataset: one CsInfo.
func (m *Manager) csInfo() ([]byte, error) {
	c, n := m.fwd.CSConfig(), m.fwd.Counters()
	msg := nfd.CsInfoMsg{CsInfo: &nfd.CsInfo{
		Capacity: uint64(c.Capacity), Flags: csFlags(c), NCsEntries: uint64(n.CSSize),
		NHits: n.CSHits, NMisses: n.CSMisses,
	}}
	return msg.Encode().Join(), nil
}
