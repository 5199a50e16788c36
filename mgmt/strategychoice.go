package mgmt

import (
	"errors"
	"fmt"
	"slices"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
)

// StrategyVersion is the version component of the strategies that are
// ndncc's own (pcon, pi, cf): /localhost/nfd/strategy/pcon/v=1.
const StrategyVersion = 1

// nfdStrategyVersions are the versions NFD 24.07 gives the strategies
// ndncc has under NFD's names.
var nfdStrategyVersions = map[string]uint64{
	fw.StrategyBestRoute: 5,
	fw.StrategyMulticast: 5,
}

// strategyVersion returns the version of strategy s.
func strategyVersion(s string) uint64 {
	if v, ok := nfdStrategyVersions[s]; ok {
		return v
	}
	return StrategyVersion
}

// strategyPrefix is /localhost/nfd/strategy, the prefix of strategy names.
func strategyPrefix() ndn.Name {
	return append(LocalhostPrefix(), enc.NewGenericComponent("strategy"))
}

// StrategyName returns the NFD name of strategy s (fw's name, such as
// best-route or pcon), with its version: NFD's for NFD's strategies
// (/localhost/nfd/strategy/best-route/v=5), StrategyVersion for ndncc's.
func StrategyName(s string) ndn.Name {
	return append(strategyPrefix(), enc.NewGenericComponent(s), enc.NewVersionComponent(strategyVersion(s)))
}

// strategyOf returns fw's name of the strategy an NFD strategy name asks
// for: /localhost/nfd/strategy/<name>, optionally with its version.
func strategyOf(n ndn.Name, known []string) (string, bool) {
	p := strategyPrefix()
	if !p.IsPrefix(n) || len(n) < len(p)+1 || len(n) > len(p)+2 {
		return "", false
	}
	s := componentString(n[len(p)])
	if len(n) == len(p)+2 && (!n[len(p)+1].IsVersion() || n[len(p)+1].NumberVal() != strategyVersion(s)) {
		return "", false
	}
	return s, slices.Contains(known, s)
}

// nfdDefaultChoices are the strategy choices NFD makes at start beside
// the root's: multicast for /localhost and /ndn/broadcast, best-route for
// /localhost/nfd.
var nfdDefaultChoices = []struct {
	prefix   string
	strategy string
}{
	{"/localhost", fw.StrategyMulticast},
	{"/localhost/nfd", fw.StrategyBestRoute},
	{"/ndn/broadcast", fw.StrategyMulticast},
}

// setDefaultChoices makes NFD's default strategy choices, for the
// strategies the forwarder has.
func (m *Manager) setDefaultChoices() error {
	known := m.fwd.Strategies()
	for _, c := range nfdDefaultChoices {
		if !slices.Contains(known, c.strategy) {
			continue
		}
		n, err := enc.NameFromStr(c.prefix)
		if err != nil {
			return fmt.Errorf("strategy choice %s: %w", c.prefix, err)
		}
		if err := m.fwd.SetStrategy(n, c.strategy); err != nil {
			return fmt.Errorf("strategy choice %s: %w", c.prefix, err)
		}
	}
	return nil
}

// strategyChoiceModule is NFD's strategy-choice module: set, unset and the
// strategy-choice/list dataset.
func (m *Manager) strategyChoiceModule() module {
	return module{
		commands: map[string]command{
			"set": {
				required: fName | fStrategy,
				run:      m.setStrategy,
			},
			"unset": {
				required: fName,
				validate: func(a *nfd.ControlArgs) error {
					if len(a.Name) == 0 {
						return errRootStrategy
					}
					return nil
				},
				run: m.unsetStrategy,
			},
		},
		datasets: map[string]func() ([]byte, error){"list": m.strategyList},
	}
}

// setStrategy chooses a strategy for a prefix (NFD's strategy-choice/set).
func (m *Manager) setStrategy(_ request, a *nfd.ControlArgs, done func(response)) {
	if res, ok := checkDepth(a.Name); !ok {
		done(res)
		return
	}
	s, known := strategyOf(a.Strategy.Name, m.fwd.Strategies())
	if !known {
		done(fail(404, "Strategy not registered", a.Strategy.Name.String()))
		return
	}
	if err := m.fwd.SetStrategy(a.Name, s); err != nil {
		done(fail(409, "Error instantiating strategy", err.Error()))
		return
	}
	done(success(&nfd.ControlArgs{Name: a.Name, Strategy: &nfd.Strategy{Name: StrategyName(s)}}))
}

// unsetStrategy removes a prefix's strategy choice (NFD's
// strategy-choice/unset); the root's cannot be removed.
func (m *Manager) unsetStrategy(_ request, a *nfd.ControlArgs, done func(response)) {
	if err := m.fwd.UnsetStrategy(a.Name); err != nil {
		done(fail(400, textInvalid, err.Error()))
		return
	}
	done(success(&nfd.ControlArgs{Name: a.Name}))
}

// strategyList is the strategy-choice/list dataset.
func (m *Manager) strategyList() ([]byte, error) {
	var st nfd.StrategyChoiceMsg
	for _, c := range m.fwd.StrategyChoices() {
		st.StrategyChoices = append(st.StrategyChoices, &nfd.StrategyChoice{
			Name: c.Prefix, Strategy: &nfd.Strategy{Name: StrategyName(c.Strategy)}})
	}
	return st.Encode().Join(), nil
}

// errRootStrategy refuses strategy-choice/unset of the root prefix.
var errRootStrategy = errors.New("Name must not be the root")
