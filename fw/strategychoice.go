package fw

import (
	"fmt"

	"github.com/ndncc/ndncc/ndn"
)

// strategyChoice maps name prefixes to strategy instances; a name uses the
// instance of its longest matching prefix. The empty name (the root)
// always has one.
type strategyChoice struct {
	t nameTable[chosenStrategy]
}

type chosenStrategy struct {
	name string
	s    Strategy
}

func newStrategyChoice() strategyChoice {
	return strategyChoice{t: newNameTable[chosenStrategy]()}
}

// find returns the strategy for name. hs are name's prefix hashes.
func (c *strategyChoice) find(name ndn.Name, hs []uint64) chosenStrategy {
	return c.t.longest(name, hs).val
}

// SetStrategy makes the namespace under prefix use a new instance of the
// named strategy. PIT entries created before keep the instance they had.
func (f *Forwarder) SetStrategy(prefix ndn.Name, strategy string) error {
	ctor, ok := f.strategies[strategy]
	if !ok {
		return fmt.Errorf("fw %s: set strategy for %s: unknown strategy %q", f.name, prefix, strategy)
	}
	n := f.choice.t.put(prefix, prefix.Hash())
	n.val = chosenStrategy{name: strategy, s: ctor(Actions{f})}
	return nil
}

// StrategyFor returns the name of the strategy that Interests for name use.
func (f *Forwarder) StrategyFor(name ndn.Name) string {
	return f.choice.find(name, name.PrefixHash()).name
}
