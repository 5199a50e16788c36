package mgmt

import (
	"errors"
	"slices"

	enc "github.com/named-data/ndnd/std/encoding"
	nfd "github.com/named-data/ndnd/std/ndn/mgmt_2022"

	"github.com/ndncc/ndncc/ndn"
)

// StrategyVersion is the version component of every strategy name the
// manager reports: /localhost/nfd/strategy/<name>/v=1. ndncc's strategies
// are its own, not NFD's (whose best-route is v=5), so they carry their
// own version.
const StrategyVersion = 1

// strategyPrefix is /localhost/nfd/strategy, the prefix of strategy names.
func strategyPrefix() ndn.Name {
	return append(LocalhostPrefix(), enc.NewGenericComponent("strategy"))
}

// StrategyName returns the NFD name of strategy s (fw's name, such as
// best-route or pcon).
func StrategyName(s string) ndn.Name {
	return append(strategyPrefix(), enc.NewGenericComponent(s), enc.NewVersionComponent(StrategyVersion))
}

// strategyOf returns fw's name of the strategy an NFD strategy name asks
// for: /localhost/nfd/strategy/<name>, optionally with /v=1.
func strategyOf(n ndn.Name, known []string) (string, bool) {
	p := strategyPrefix()
	if !p.IsPrefix(n) || len(n) < len(p)+1 || len(n) > len(p)+2 {
		return "", false
	}
	s := componentString(n[len(p)])
	if len(n) == len(p)+2 && (!n[len(p)+1].IsVersion() || n[len(p)+1].NumberVal() != StrategyVersion) {
		return "", false
	}
	return s, slices.Contains(known, s)
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
