package fw

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"time"

	"github.com/ndncc/ndncc/internal/reentry"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/sched"
)

// Config configures a Forwarder. The zero value of every field but Name
// means its default.
type Config struct {
	// Name identifies the forwarder in errors.
	Name string
	// CSCapacity is the Content Store capacity in Data packets; 0 disables
	// caching.
	CSCapacity int
	// DefaultStrategy is the strategy of the root namespace; "" means
	// StrategyBestRoute.
	DefaultStrategy string
	// Strategies adds strategies (or replaces built-in ones) by name, on
	// top of BuiltinStrategies.
	Strategies map[string]StrategyConstructor
	// DeadNonceLifetime is how long the dead-nonce list remembers an
	// Interest; 0 means DefaultDeadNonceLifetime.
	DeadNonceLifetime time.Duration
	// DeadNonceCapacity bounds the dead-nonce list; 0 means
	// DefaultDeadNonceCapacity.
	DeadNonceCapacity int
	// MaxInterestLifetime caps how long a PIT record is kept, whatever
	// the Interest's lifetime; 0 means DefaultMaxInterestLifetime.
	MaxInterestLifetime time.Duration
	// PITCapacity bounds the PIT's entries; 0 means DefaultPITCapacity.
	// An Interest that would need a new entry beyond it is answered with
	// Nack Congestion.
	PITCapacity int
	// PITFaceLimit bounds the in-records one incoming face holds (its
	// fair share of the PIT); 0 means DefaultPITFaceLimit. An Interest
	// that would need one more is answered with Nack Congestion.
	PITFaceLimit int
	// MaxNameComponents bounds the components of the names of Interests,
	// Data and Nacks; longer ones are dropped on arrival. 0 means
	// DefaultMaxNameComponents.
	MaxNameComponents int
}

// Forwarder is one NDN forwarder. It is not safe for concurrent use: all
// calls, including the scheduler's callbacks, must come from one logical
// thread. A face's Send may call Receive (on this or another forwarder)
// synchronously; such packets are queued and processed in order once the
// current packet is done.
type Forwarder struct {
	name       string
	sched      sched.Scheduler
	rng        *rand.Rand
	strategies map[string]StrategyConstructor

	faces   []face   // indexed by FaceID; faces[0] is unused
	freeIDs []FaceID // IDs of removed faces, highest first
	// onFaceRemoved are told of every face removed (OnFaceRemoved).
	onFaceRemoved []func(FaceID)
	pit           pit
	dnl           deadNonceList
	cs            contentStore
	fib           fib
	choice        strategyChoice

	counters Counters
	limits   limits
	hasher   nameHasher
	// auxHasher serves strategies' own FIB lookups (Actions.fibEntry), so
	// they never overwrite the prefix hashes a pipeline holds across a
	// strategy call.
	auxHasher nameHasher

	// guard runs received packets, loss reports and face cleanups one at
	// a time: those handed in from inside a pipeline (a face's Send) wait
	// until the current one is done.
	guard reentry.Guard[work]

	// per-packet scratch space
	downstreams []InRecord // several PIT entries' downstreams, gathered by onData
	scoped      []NextHop  // the nexthops scope control leaves (scope.go)
}

// work is what the forwarder's guard runs: a packet received on face, a
// send-failure report (loss non-zero, lossnack.go), or the cleanup of a
// removed face (RemoveFace).
type work struct {
	face    FaceID
	pkt     ndn.Packet
	loss    LossCause
	cleanup bool
}

// New returns a forwarder with no faces and no routes, driven by s, whose
// strategies draw randomness from rng.
func New(cfg Config, s sched.Scheduler, rng *rand.Rand) (*Forwarder, error) {
	if s == nil || rng == nil {
		return nil, fmt.Errorf("fw %s: new: scheduler and random source are required", cfg.Name)
	}
	if cfg.CSCapacity < 0 || cfg.DeadNonceLifetime < 0 || cfg.DeadNonceCapacity < 0 {
		return nil, fmt.Errorf("fw %s: new: negative CSCapacity, DeadNonceLifetime or DeadNonceCapacity", cfg.Name)
	}
	lifetime, capacity := cfg.DeadNonceLifetime, cfg.DeadNonceCapacity
	if lifetime == 0 {
		lifetime = DefaultDeadNonceLifetime
	}
	if capacity == 0 {
		capacity = DefaultDeadNonceCapacity
	}
	lim, err := newLimits(cfg)
	if err != nil {
		return nil, err
	}
	f := &Forwarder{
		name:       cfg.Name,
		sched:      s,
		rng:        rng,
		strategies: BuiltinStrategies(),
		faces:      make([]face, 1),
		pit:        newPIT(),
		dnl:        newDeadNonceList(lifetime, capacity),
		cs:         newContentStore(cfg.CSCapacity),
		fib:        newFIB(),
		choice:     newStrategyChoice(),
		hasher:     newNameHasher(),
		auxHasher:  newNameHasher(),
		limits:     lim,
	}
	// The guard runs one item of work (see work) by a function written
	// here, not by the method value f.handle, a wrapper that would call a
	// method: one call less per item.
	f.guard.Init(func(w *work) {
		switch {
		case w.cleanup:
			f.cleanupFace(w.face)
		case w.loss != 0:
			f.onSendFailure(w.face, w.pkt, w.loss)
		default:
			f.dispatch(w.face, &w.pkt)
		}
	})
	maps.Copy(f.strategies, cfg.Strategies)
	def := cfg.DefaultStrategy
	if def == "" {
		def = StrategyBestRoute
	}
	if _, ok := f.strategies[def]; !ok {
		return nil, fmt.Errorf("fw %s: new: unknown default strategy %q", cfg.Name, def)
	}
	if err := f.SetStrategy(ndn.Name{}, def); err != nil {
		return nil, err
	}
	return f, nil
}

// prefixHashes returns the prefix hashes of name (nameHasher.prefixes).
// The slice is reused by the next call.
func (f *Forwarder) prefixHashes(name ndn.Name) []uint64 { return f.hasher.prefixes(name) }

// now is the scheduler's time.
func (f *Forwarder) now() time.Duration { return f.sched.Now() }

// Name returns the forwarder's name.
func (f *Forwarder) Name() string { return f.name }

// Receive processes packet p that arrived on face in. Called from within
// the forwarder's own work (a face's Send), it queues p until that work is
// done.
func (f *Forwarder) Receive(in FaceID, p ndn.Packet) { f.ReceiveInPlace(in, &p) }

// ReceiveInPlace is Receive for a caller that is done with *p once it
// returns (a packet read where it waited in a queue, dropped after): the
// forwarder reads it in place, without a copy, and may change it (an
// Interest's HopLimit). It keeps no reference to p.
func (f *Forwarder) ReceiveInPlace(in FaceID, p *ndn.Packet) {
	if !f.guard.Hold() { // we are inside our own work: p waits its turn
		w := f.guard.Later()
		w.face = in
		w.pkt = *p // (a tuple assignment would copy p twice, through a temporary)
		return
	}
	f.dispatch(in, p)
	f.guard.Release()
}

// dispatch runs the pipeline of packet p, received on face in. The
// pipelines take the packet by pointer, where the caller holds its own
// copy (they may change it: an Interest's HopLimit), and copy it only
// where they hand it on: a Packet is eight words.
func (f *Forwarder) dispatch(in FaceID, p *ndn.Packet) {
	if !f.faceUp(in) {
		return
	}
	switch {
	case p.Data != nil:
		f.onData(in, p)
	case p.Interest != nil && p.Nack != ndn.NackNone:
		f.onNack(in, *p)
	case p.Interest != nil:
		f.onInterest(in, p)
	}
}

// Counters returns a snapshot of the forwarder's counters.
func (f *Forwarder) Counters() Counters {
	c := f.counters
	c.PITSize = f.pit.size
	c.CSSize = f.cs.size()
	c.DeadNonces = f.dnl.size()
	return c
}
