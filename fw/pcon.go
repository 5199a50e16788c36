package fw

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/ndncc/ndncc/ndn"
)

// Defaults of the pcon strategy's parameters. ChangePerMark, ProbeShare and
// the start on the shortest path are those of the published PCON code
// (Schneider et al., "A Practical Congestion Control Scheme for Named Data
// Networking", ICN 2016); NackInterval is that code's spacing of
// forwarding updates caused by marked Nacks, applied to expired Interests
// too. QuietPeriod and ShiftBack are
// ndncc's reading of the talk's "when congestion disappears, shift back to
// shortest path" (see PCONParams).
const (
	DefaultPCONChangePerMark = 0.02
	DefaultPCONProbeShare    = 0.001
	DefaultPCONQuietPeriod   = 2 * time.Second
	DefaultPCONShiftBack     = 0.0001
	DefaultPCONNackInterval  = 110 * time.Millisecond
)

// PCONParams are the pcon strategy's parameters.
type PCONParams struct {
	// ChangePerMark is the fraction of its own share a face loses for each
	// congestion mark it returns; the amount removed is spread equally
	// over the prefix's other nexthops (the talk's fwPerc(F) -=
	// CHANGE_PER_MARK, fwPerc(other) += CHANGE_PER_MARK/(NUM_FACES-1), with
	// the change taken relative to the face's share as the published code
	// does). Default 0.02.
	ChangePerMark float64
	// ProbeShare is the share every non-shortest nexthop starts with, and
	// the floor below which no reduction takes a face, so that every path
	// keeps carrying a trickle of probing Interests. With n nexthops the
	// floor is min(ProbeShare, 1/n). Default 0.001.
	ProbeShare float64
	// QuietPeriod is how long a prefix must go without any congestion
	// signal (marked Data, marked Nack, expired Interest) before traffic
	// shifts back toward the shortest path. Default 2 s, twenty CoDel
	// intervals: CoDel signals at least once per interval while its queue
	// stays above target, so this long a silence means the congestion has
	// gone.
	QuietPeriod time.Duration
	// ShiftBack sets the shift back: once the prefix is quiet, each unmarked
	// Data from a non-shortest nexthop F moves ShiftBack times F's share
	// above the floor from F to the shortest (lowest-cost) nexthop.
	// Default 0.0001, small against ChangePerMark so that under sustained
	// congestion marks, not the shift back, set the split. 0 disables it.
	ShiftBack float64
	// NackInterval spaces the forwarding updates caused by marked Nacks
	// and expired Interests: a marked Nack from F, or an Interest that
	// expires unanswered on F, counts as one mark on F only if no marked
	// Nack or expiry did so for the prefix within the last NackInterval.
	// (One expiry counts on every upstream that left it unanswered.)
	// Default 110 ms.
	NackInterval time.Duration
}

// DefaultPCONParams returns the documented defaults.
func DefaultPCONParams() PCONParams {
	return PCONParams{
		ChangePerMark: DefaultPCONChangePerMark,
		ProbeShare:    DefaultPCONProbeShare,
		QuietPeriod:   DefaultPCONQuietPeriod,
		ShiftBack:     DefaultPCONShiftBack,
		NackInterval:  DefaultPCONNackInterval,
	}
}

// Validate reports the first parameter that is out of range.
func (p PCONParams) Validate() error {
	switch {
	case !(p.ChangePerMark > 0 && p.ChangePerMark <= 1):
		return fmt.Errorf("fw: pcon change-per-mark %v not in (0,1]", p.ChangePerMark)
	case !(p.ProbeShare >= 0 && p.ProbeShare < 1):
		return fmt.Errorf("fw: pcon probe-share %v not in [0,1)", p.ProbeShare)
	case p.QuietPeriod < 0:
		return fmt.Errorf("fw: pcon quiet-period %v is negative", p.QuietPeriod)
	case !(p.ShiftBack >= 0 && p.ShiftBack <= 1):
		return fmt.Errorf("fw: pcon shift-back %v not in [0,1]", p.ShiftBack)
	case p.NackInterval < 0:
		return fmt.Errorf("fw: pcon nack-interval %v is negative", p.NackInterval)
	}
	return nil
}

// PCONParamNames lists the names ParsePCONParams accepts, in display order.
func PCONParamNames() []string {
	return []string{"change-per-mark", "probe-share", "quiet-period", "shift-back", "nack-interval"}
}

// ParsePCONParams returns DefaultPCONParams with the parameters in m set by
// name (see PCONParamNames): fractions as decimal numbers ("0.02"),
// durations as Go durations ("2s"). An unknown name or a bad value is an
// error; the result is validated.
func ParsePCONParams(m map[string]string) (PCONParams, error) {
	p := DefaultPCONParams()
	floats := map[string]*float64{"change-per-mark": &p.ChangePerMark, "probe-share": &p.ProbeShare, "shift-back": &p.ShiftBack}
	durations := map[string]*time.Duration{"quiet-period": &p.QuietPeriod, "nack-interval": &p.NackInterval}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := m[k]
		if dst, ok := floats[k]; ok {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return p, fmt.Errorf("fw: pcon parameter %s=%q: want a decimal number: %w", k, v, err)
			}
			*dst = x
			continue
		}
		if dst, ok := durations[k]; ok {
			d, err := time.ParseDuration(v)
			if err != nil {
				return p, fmt.Errorf("fw: pcon parameter %s=%q: want a duration such as 2s: %w", k, v, err)
			}
			*dst = d
			continue
		}
		return p, fmt.Errorf("fw: pcon has no parameter %q (accepted: %v)", k, PCONParamNames())
	}
	return p, p.Validate()
}

// NewPCON returns the StrategyConstructor of pcon with parameters p; add it
// to Config.Strategies (under StrategyPCON or another name) to use other
// parameters than the defaults BuiltinStrategies has.
func NewPCON(p PCONParams) (StrategyConstructor, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return newPCONConstructor(p), nil
}

func newPCONConstructor(p PCONParams) StrategyConstructor {
	return func(a Actions) Strategy {
		s := &pcon{a: a, p: p, retx: DefaultRetxSuppression(), t: newNameTable[*pconEntry]()}
		s.pick = s.choose
		return s
	}
}

// pcon is PCON's multipath forwarding adaptation. For each FIB entry
// (prefix) it keeps a forwarding share per nexthop, summing to 1:
//
//   - Start: the lowest-cost nexthop has 1-(n-1)*floor, every other
//     floor = min(ProbeShare, 1/n).
//   - Split: a new Interest goes to an eligible nexthop in proportion to
//     its share by smooth weighted round robin (each eligible nexthop
//     earns its normalised share as credit, the one with the most credit
//     is chosen and pays 1): deterministic, each nexthop's count within
//     one of its share over any run of Interests; all shares zero means
//     the lowest-cost one. (Independent random draws, which we used
//     before, let the split of a few hundred Interests wander by several
//     percent; on two equal paths that alone cost 8% of the capacity.)
//   - Marked Data from nexthop F (and, at most once per NackInterval for
//     the prefix, a marked Nack from F or an Interest that expires
//     unanswered on F): F loses min(ChangePerMark*share(F), share(F)-floor), spread equally
//     over the other nexthops.
//   - Shift back: once no such signal has come for QuietPeriod, each
//     unmarked Data from a non-shortest nexthop F moves ShiftBack*(share(F)
//     -floor) from F to the lowest-cost nexthop.
//   - Nack from upstream F: the Interest is retried on an eligible nexthop
//     that has no out-record for the entry yet (chosen by share); a mark the
//     Nack carried is put on the downstreams' in-records, so the Data that
//     eventually returns (or the Nack) tells the consumer. With no such
//     nexthop, the downstreams get a Nack once every upstream has Nacked,
//     as in best-route.
//   - Retransmissions: best-route's suppression; a forwarded one goes to
//     an eligible nexthop without a pending out-record, chosen by share,
//     else to the one used longest ago.
//
// When the FIB entry's nexthops change, the faces that stay keep their
// shares (rescaled), new ones start at the floor. Forwarder.
// ForwardingShares reads the shares.
type pcon struct {
	a     Actions
	p     PCONParams
	retx  RetxSuppression
	t     nameTable[*pconEntry] // by FIB prefix
	cur   *pconEntry            // entry of the Interest being forwarded
	pick  chooser               // s.choose, bound once
	cands []NextHop             // scratch
	ws    []float64             // scratch
}

// pconEntry is the state of one FIB prefix.
type pconEntry struct {
	faces []FaceID
	// credit is each face's smooth weighted round-robin credit (choose).
	credit   []float64
	shares   []float64
	floor    float64
	shortest FaceID
	// lastSignal is when the last congestion signal (or the entry's
	// creation) was; lastLimited when a marked Nack or an expiry last
	// counted (meaningful when limited).
	lastSignal  time.Duration
	lastLimited time.Duration
	limited     bool
}

// AfterReceiveInterest implements Strategy.
func (s *pcon) AfterReceiveInterest(e *PitEntry, in FaceID, it *ndn.Interest, nexthops []NextHop) {
	s.cur = nil
	if len(nexthops) > 0 {
		if prefix, h, _, ok := s.a.fibEntry(e.Name()); ok {
			s.cur = s.entry(prefix, h, nexthops)
		}
	}
	forwardMultipath(s.a, s.retx, e, in, it, nexthops, &s.cands, s.pick)
	s.cur = nil
}

// choose draws a candidate by its share in s.cur.
func (s *pcon) choose(cands []NextHop) FaceID {
	if len(cands) == 1 || s.cur == nil {
		return cands[0].Face
	}
	s.ws = s.ws[:0]
	var sum float64
	for _, nh := range cands {
		w := s.cur.share(nh.Face)
		s.ws = append(s.ws, w)
		sum += w
	}
	if sum <= 0 {
		return cands[0].Face
	}
	// Smooth weighted round robin: every eligible nexthop earns its
	// normalised share as credit, the richest is chosen and pays 1. Over
	// any run of Interests each nexthop's count stays within one of its
	// share, where independent draws would scatter it binomially.
	ent := s.cur
	if len(ent.credit) != len(ent.faces) {
		ent.credit = make([]float64, len(ent.faces))
	}
	best, bi := 0.0, -1
	for k, nh := range cands {
		i := ent.index(nh.Face)
		if i < 0 {
			continue
		}
		ent.credit[i] += s.ws[k] / sum
		if bi < 0 || ent.credit[i] > best {
			best, bi = ent.credit[i], k
		}
	}
	if bi < 0 {
		return cands[0].Face
	}
	ent.credit[ent.index(cands[bi].Face)]--
	return cands[bi].Face
}

// AfterReceiveData implements Strategy.
func (s *pcon) AfterReceiveData(e *PitEntry, in FaceID, _ *ndn.Data, mark uint64) {
	ent := s.lookup(e.Name())
	if ent == nil {
		return
	}
	now := s.a.Now()
	if mark > 0 {
		s.signal(ent, in, now)
		return
	}
	s.shiftBack(ent, in, now)
}

// AfterReceiveNack implements Strategy.
func (s *pcon) AfterReceiveNack(e *PitEntry, in FaceID, p ndn.Packet) {
	now := s.a.Now()
	prefix, h, nexthops, ok := s.a.fibEntry(e.Name())
	var ent *pconEntry
	if ok {
		if n := s.t.get(prefix, h); n != nil {
			ent = n.val
		}
	}
	if ent != nil && p.CongestionMark > 0 && s.admitLimited(ent, now) {
		s.signal(ent, in, now)
	}
	// the retry carries the latest downstream Interest
	var latest *InRecord
	for i := range e.in {
		if latest == nil || e.in[i].LastRenewed > latest.LastRenewed {
			latest = &e.in[i]
		}
	}
	cands := s.cands[:0]
	for _, nh := range nexthops {
		if latest != nil && s.a.f.faceUp(nh.Face) && e.OutRecord(nh.Face) == nil && e.InRecord(nh.Face) == nil &&
			(e.scope == scopeNone || !s.a.f.violatesScope(e, latest.Face, nh.Face)) {
			cands = append(cands, nh)
		}
	}
	s.cands = cands[:0]
	if len(cands) > 0 {
		s.cur = ent
		out := s.choose(cands)
		s.cur = nil
		if s.a.SendInterest(e, out, latest.Interest) {
			// The downstreams' replies carry the Nack's mark: the consumer
			// must still learn of the congestion the retry hides.
			for i := range e.in {
				e.in[i].Mark = max(e.in[i].Mark, p.CongestionMark)
			}
			return
		}
	}
	nackIfAllUpstreamsNacked(s.a, e)
}

// OnInterestUnsatisfied implements Strategy: each upstream that never
// answered counts as having returned a mark, as the published code does,
// if the expiry passes the NackInterval limiter it shares with marked
// Nacks.
func (s *pcon) OnInterestUnsatisfied(e *PitEntry) {
	ent := s.lookup(e.Name())
	if ent == nil {
		return
	}
	unanswered := func(o OutRecord) bool { return o.Nack == ndn.NackNone }
	if !slices.ContainsFunc(e.out, unanswered) {
		return
	}
	now := s.a.Now()
	if !s.admitLimited(ent, now) {
		return
	}
	for _, o := range e.out {
		if unanswered(o) {
			s.signal(ent, o.Face, now)
		}
	}
}

// admitLimited reports whether a marked Nack or an expired Interest may
// count as a mark at now: only if none did so for ent within the last
// NackInterval. If it may, it records now as the time one last counted.
func (s *pcon) admitLimited(ent *pconEntry, now time.Duration) bool {
	if ent.limited && now-ent.lastLimited < s.p.NackInterval {
		return false
	}
	ent.limited, ent.lastLimited = true, now
	return true
}

// lookup returns the state of the FIB entry of name, or nil.
func (s *pcon) lookup(name ndn.Name) *pconEntry {
	prefix, h, _, ok := s.a.fibEntry(name)
	if !ok {
		return nil
	}
	if n := s.t.get(prefix, h); n != nil {
		return n.val
	}
	return nil
}

// entry returns the state of FIB prefix (hash h), created or brought in
// line with nexthops.
func (s *pcon) entry(prefix ndn.Name, h uint64, nexthops []NextHop) *pconEntry {
	n := s.t.put(prefix, h)
	if n.val == nil {
		n.val = &pconEntry{lastSignal: s.a.Now()}
	}
	n.val.sync(nexthops, s.p.ProbeShare)
	return n.val
}

// signal applies one congestion signal from face: it loses ChangePerMark
// of its share.
func (s *pcon) signal(ent *pconEntry, face FaceID, now time.Duration) {
	if i := ent.index(face); i >= 0 {
		ent.reduce(i, s.p.ChangePerMark*ent.shares[i])
	}
	ent.lastSignal = now
}

// shiftBack applies the shift back for an unmarked Data from face.
func (s *pcon) shiftBack(ent *pconEntry, face FaceID, now time.Duration) {
	if face == ent.shortest || now-ent.lastSignal < s.p.QuietPeriod {
		return
	}
	i, j := ent.index(face), ent.index(ent.shortest)
	if i < 0 || j < 0 {
		return
	}
	if amt := s.p.ShiftBack * (ent.shares[i] - ent.floor); amt > 0 {
		ent.shares[i] -= amt
		ent.shares[j] += amt
	}
}

// faceRemoved implements faceRemover: every entry forgets the face, the
// other faces keeping their shares rescaled (an entry left without faces
// goes).
func (s *pcon) faceRemoved(id FaceID) {
	var empty []ndn.Name
	s.t.each(func(n *nameNode[*pconEntry]) {
		ent := n.val
		i := ent.index(id)
		if i < 0 {
			return
		}
		if len(ent.faces) == 1 {
			empty = append(empty, n.name)
			return
		}
		rest := make([]NextHop, 0, len(ent.faces)-1)
		for _, f := range ent.faces { // lowest cost first, as synced
			if f != id {
				rest = append(rest, NextHop{Face: f})
			}
		}
		ent.sync(rest, s.p.ProbeShare)
	})
	for _, name := range empty {
		s.t.del(name, ndn.NameHash(name))
	}
}

// forwardingShares implements shareReporter.
func (s *pcon) forwardingShares(prefix ndn.Name, h uint64) map[FaceID]float64 {
	n := s.t.get(prefix, h)
	if n == nil {
		return nil
	}
	m := make(map[FaceID]float64, len(n.val.faces))
	for i, f := range n.val.faces {
		m[f] = n.val.shares[i]
	}
	return m
}

func (ent *pconEntry) index(face FaceID) int { return slices.Index(ent.faces, face) }

func (ent *pconEntry) share(face FaceID) float64 {
	if i := ent.index(face); i >= 0 {
		return ent.shares[i]
	}
	return 0
}

// reduce takes min(amount, share-floor) from face i and spreads it equally
// over the others.
func (ent *pconEntry) reduce(i int, amount float64) {
	n := len(ent.faces)
	if n < 2 {
		return
	}
	amt := math.Min(amount, ent.shares[i]-ent.floor)
	if amt <= 0 {
		return
	}
	ent.shares[i] -= amt
	each := amt / float64(n-1)
	for j := range ent.shares {
		if j != i {
			ent.shares[j] += each
		}
	}
}

// sync brings the entry in line with nexthops (lowest cost first): the
// same faces keep their shares; otherwise faces that stay keep their
// shares rescaled, new ones get the floor, and a first sync starts on the
// shortest path.
func (ent *pconEntry) sync(nexthops []NextHop, probe float64) {
	ent.shortest = nexthops[0].Face
	if len(nexthops) == len(ent.faces) && allIn(nexthops, ent.faces) {
		return
	}
	n := len(nexthops)
	floor := math.Min(probe, 1/float64(n))
	faces := make([]FaceID, n)
	shares := make([]float64, n)
	var kept float64
	added := 0
	for i, nh := range nexthops {
		faces[i] = nh.Face
		if j := ent.index(nh.Face); j >= 0 {
			shares[i] = ent.shares[j]
			kept += shares[i]
		} else {
			shares[i] = floor
			added++
		}
	}
	if kept <= 0 { // a fresh entry, or nothing kept: the shortest path
		for i := range shares {
			shares[i] = floor
		}
		shares[0] = 1 - float64(n-1)*floor
	} else {
		scale := (1 - float64(added)*floor) / kept
		for i, nh := range nexthops {
			if ent.index(nh.Face) >= 0 {
				shares[i] *= scale
			}
		}
	}
	ent.faces, ent.shares, ent.floor = faces, shares, floor
}

// allIn reports whether every nexthop's face is in faces.
func allIn(nexthops []NextHop, faces []FaceID) bool {
	for _, nh := range nexthops {
		if !slices.Contains(faces, nh.Face) {
			return false
		}
	}
	return true
}

// shareReporter is a strategy that keeps forwarding shares per FIB prefix.
type shareReporter interface {
	forwardingShares(prefix ndn.Name, h uint64) map[FaceID]float64
}

// ForwardingShares returns the forwarding shares (summing to 1) that the
// strategy of name keeps for the FIB entry name's longest match is, by
// nexthop face: pcon's split of new Interests over its nexthops. It is nil
// if there is no route, the strategy keeps no shares (everything but
// pcon), or no Interest has used the entry yet. The simulator reads it
// after a run to report the split ratio at a branching router.
func (f *Forwarder) ForwardingShares(name ndn.Name) map[FaceID]float64 {
	prefix, h, _, ok := Actions{f}.fibEntry(name)
	if !ok {
		return nil
	}
	sr, ok := f.choice.find(name, f.auxHasher.prefixes(name)).s.(shareReporter)
	if !ok {
		return nil
	}
	return sr.forwardingShares(prefix, h)
}
