package fw

import (
	"fmt"
	"maps"
	"slices"

	"github.com/ndncc/ndncc/ndn"
)

// strategyChoice maps name prefixes to strategy instances; a name uses the
// instance of its longest matching prefix. The empty name (the root)
// always has one.
type strategyChoice struct {
	t nameTable[chosenStrategy]
	// root is the root's entry, which is never removed: while it is the
	// only entry there ever was (one strategy for all, the common case),
	// find returns it without a lookup.
	root *nameNode[chosenStrategy]
}

type chosenStrategy struct {
	name string
	s    Strategy
}

func newStrategyChoice() strategyChoice {
	return strategyChoice{t: newNameTable[chosenStrategy]()}
}

// find returns the strategy for name. hs are name's prefix hashes; they
// may be nil if needsHashes reports false.
func (c *strategyChoice) find(name ndn.Name, hs []uint64) chosenStrategy {
	if !c.needsHashes() {
		return c.root.val
	}
	return c.t.longest(name, hs).val
}

// needsHashes reports whether find needs a name's prefix hashes: not while
// no entry longer than the root was ever added.
func (c *strategyChoice) needsHashes() bool { return len(c.t.lens) > 1 }

// SetStrategy makes the namespace under prefix use a new instance of the
// named strategy. PIT entries created before keep the instance they had.
func (f *Forwarder) SetStrategy(prefix ndn.Name, strategy string) error {
	ctor, ok := f.strategies[strategy]
	if !ok {
		return fmt.Errorf("fw %s: set strategy for %s: unknown strategy %q", f.name, prefix, strategy)
	}
	n := f.choice.t.put(prefix, ndn.NameHash(prefix))
	n.val = chosenStrategy{name: strategy, s: ctor(Actions{f})}
	if len(prefix) == 0 {
		f.choice.root = n
	}
	return nil
}

// UnsetStrategy removes the strategy choice of prefix: its namespace uses
// the strategy of the next shorter prefix that has one. The root's choice
// cannot be removed. PIT entries created before keep their instance.
func (f *Forwarder) UnsetStrategy(prefix ndn.Name) error {
	if len(prefix) == 0 {
		return fmt.Errorf("fw %s: unset strategy: the root prefix always has a strategy", f.name)
	}
	f.choice.t.del(prefix, ndn.NameHash(prefix))
	return nil
}

// StrategyChoice is one entry of the strategy-choice table.
type StrategyChoice struct {
	Prefix   ndn.Name
	Strategy string
}

// StrategyChoices returns the strategy-choice table in NDN canonical name
// order (the root first).
func (f *Forwarder) StrategyChoices() []StrategyChoice {
	var out []StrategyChoice
	f.choice.t.each(func(n *nameNode[chosenStrategy]) {
		out = append(out, StrategyChoice{Prefix: n.name, Strategy: n.val.name})
	})
	slices.SortFunc(out, func(a, b StrategyChoice) int { return a.Prefix.Compare(b.Prefix) })
	return out
}

// Strategies returns the names of the strategies SetStrategy accepts,
// sorted.
func (f *Forwarder) Strategies() []string {
	return slices.Sorted(maps.Keys(f.strategies))
}

// StrategyFor returns the name of the strategy that Interests for name use.
func (f *Forwarder) StrategyFor(name ndn.Name) string {
	return f.choice.find(name, f.auxHasher.prefixes(name)).name
}
