package consumer

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/rtt"
	"github.com/ndncc/ndncc/sched"
)

// The traffic applications: Interests at a rate or at given times, each
// for one numbered piece of content, in the manner of ndnSIM's consumer
// applications (ConsumerCbr, ConsumerZipfMandelbrot, ConsumerBatches).
// Unlike a Pipeline, an application has no window: it sends when its
// schedule says, whatever comes back.
const (
	// AppCBR sends Interests at a constant rate for sequence numbers
	// 0, 1, 2, ...
	AppCBR = "cbr"
	// AppZipf sends Interests at a constant rate, each for content i in
	// 1..N drawn from a Zipf–Mandelbrot distribution.
	AppZipf = "zipf"
	// AppBatches sends batches of Interests at given times, for
	// sequence numbers 0, 1, 2, ... across the batches.
	AppBatches = "batches"
)

// Apps returns the traffic applications' names.
func Apps() []string { return []string{AppCBR, AppZipf, AppBatches} }

// IsApp reports whether name is a traffic application.
func IsApp(name string) bool { return slices.Contains(Apps(), name) }

// Limits of a traffic application's parameters.
const (
	// MaxContents bounds a zipf catalogue (its cumulative distribution
	// takes 8 bytes per item).
	MaxContents = 10_000_000
	// MaxRate bounds an application's Interest rate, per second.
	MaxRate = 1e6
	// MaxBatches bounds the batches of one application.
	MaxBatches = 10_000
	// MaxBatchInterests bounds the Interests of one batch.
	MaxBatchInterests = 1_000_000
)

// Batch is one batch of a batches application: N Interests at time At
// after the application's start.
type Batch struct {
	At time.Duration
	N  uint64
}

// TrafficOptions are a traffic application's parameters.
type TrafficOptions struct {
	// App is AppCBR, AppZipf or AppBatches.
	App string
	// Rate is the Interests per second of cbr and zipf, retransmissions
	// included (a retransmission takes the next send's turn).
	Rate float64
	// Randomize spaces cbr's and zipf's Interests: "none" (every
	// 1/Rate), "uniform" (uniform in [0, 2/Rate)) or "exponential"
	// (mean 1/Rate).
	Randomize string
	// Count, if positive, is how many Interests cbr or zipf send, not
	// counting retransmissions; 0 sends until the run ends.
	Count uint64
	// RandomStart delays the first Interest by a uniform [0, RandomStart).
	RandomStart time.Duration
	// Contents is zipf's catalogue size N; S its exponent and Q its shift.
	Contents uint64
	S, Q     float64
	// Batches are batches' batches, in time order.
	Batches []Batch
	// Lifetime is every Interest's InterestLifetime.
	Lifetime time.Duration
	// RTT sets the retransmission timeout: an Interest unanswered for the
	// RTO is sent again, and the RTO doubles (within its bounds) until a
	// Data answers an Interest sent once.
	RTT rtt.Config
}

// trafficParam is one parameter of the traffic applications.
type trafficParam struct {
	name, def string
	apps      []string
	set       func(o *TrafficOptions, v string) error
}

func trafficParams() []trafficParam {
	rate := []string{AppCBR, AppZipf}
	all := Apps()
	return []trafficParam{
		// rate: Interests per second, retransmissions included (ndnSIM's Frequency)
		{"rate", "1", rate, func(o *TrafficOptions, v string) error {
			return positiveFloat(v, MaxRate, &o.Rate)
		}},
		// randomize: spacing of the Interests: none (1/rate apart), uniform (uniform in [0, 2/rate)) or exponential (mean 1/rate)
		{"randomize", "none", rate, func(o *TrafficOptions, v string) error {
			if !slices.Contains([]string{"none", "uniform", "exponential"}, v) {
				return fmt.Errorf("want none, uniform or exponential, got %q", v)
			}
			o.Randomize = v
			return nil
		}},
		// count: Interests to send, retransmissions not counted; 0: until the run ends (ndnSIM's MaxSeq)
		{"count", "0", rate, func(o *TrafficOptions, v string) error {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return fmt.Errorf("want a whole number ≥ 0, got %q", v)
			}
			o.Count = n
			return nil
		}},
		// random-start: the first Interest leaves a uniform [0, random-start) after the start
		{"random-start", "0s", all, func(o *TrafficOptions, v string) error {
			return nonNegativeDuration(v, &o.RandomStart)
		}},
		// contents: the catalogue size N: content 1..N (ndnSIM's NumberOfContents)
		{"contents", "100", []string{AppZipf}, func(o *TrafficOptions, v string) error {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || n < 1 || n > MaxContents {
				return fmt.Errorf("want a whole number from 1 to %d, got %q", MaxContents, v)
			}
			o.Contents = n
			return nil
		}},
		// s: the Zipf–Mandelbrot exponent α (ndnSIM's s)
		{"s", "0.7", []string{AppZipf}, func(o *TrafficOptions, v string) error {
			return finiteFloat(v, 0, &o.S)
		}},
		// q: the Zipf–Mandelbrot shift q (ndnSIM's q)
		{"q", "0.7", []string{AppZipf}, func(o *TrafficOptions, v string) error {
			return finiteFloat(v, 0, &o.Q)
		}},
		// batches: the batches, as ndnSIM's Batches: pairs of a time after the start and a number of Interests, "1s 10 5s 20"
		{"batches", "", []string{AppBatches}, func(o *TrafficOptions, v string) error {
			b, err := ParseBatches(v)
			o.Batches = b
			return err
		}},
		// lifetime: InterestLifetime (ndnSIM's LifeTime)
		{"lifetime", "2s", all, func(o *TrafficOptions, v string) error {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return fmt.Errorf("want a positive duration, got %q", v)
			}
			o.Lifetime = d
			return nil
		}},
		// min-rto: the retransmission timeout's lower bound
		{"min-rto", "200ms", all, func(o *TrafficOptions, v string) error {
			return positiveDuration(v, &o.RTT.MinRTO)
		}},
		// max-rto: the retransmission timeout's upper bound
		{"max-rto", "10s", all, func(o *TrafficOptions, v string) error {
			return positiveDuration(v, &o.RTT.MaxRTO)
		}},
	}
}

func positiveFloat(v string, limit float64, dst *float64) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || !(x > 0) || x > limit {
		return fmt.Errorf("want a number above 0 and at most %g, got %q", limit, v)
	}
	*dst = x
	return nil
}

func finiteFloat(v string, lower float64, dst *float64) error {
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) || x < lower {
		return fmt.Errorf("want a number ≥ %g, got %q", lower, v)
	}
	*dst = x
	return nil
}

func nonNegativeDuration(v string, dst *time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration ≥ 0, got %q", v)
	}
	*dst = d
	return nil
}

func positiveDuration(v string, dst *time.Duration) error {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a positive duration, got %q", v)
	}
	*dst = d
	return nil
}

// ParseBatches reads batches as ndnSIM's ConsumerBatches takes them:
// whitespace-separated pairs of a time (a Go duration; a bare number is
// seconds) and a number of Interests, in time order.
func ParseBatches(s string) ([]Batch, error) {
	f := strings.Fields(s)
	if len(f) == 0 || len(f)%2 != 0 {
		return nil, fmt.Errorf("want pairs of a time and a number of Interests, such as \"1s 10 5s 20\", got %q", s)
	}
	if len(f)/2 > MaxBatches {
		return nil, fmt.Errorf("%d batches: at most %d", len(f)/2, MaxBatches)
	}
	var out []Batch
	for i := 0; i < len(f); i += 2 {
		at, err := time.ParseDuration(f[i])
		if err != nil {
			secs, ferr := strconv.ParseFloat(f[i], 64)
			if ferr != nil || math.IsInf(secs, 0) || secs > 1e9 {
				return nil, fmt.Errorf("batch %d: time %q is not a duration", i/2+1, f[i])
			}
			at = time.Duration(secs * float64(time.Second))
		}
		n, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil || n < 1 || n > MaxBatchInterests {
			return nil, fmt.Errorf("batch %d: want from 1 to %d Interests, got %q", i/2+1, MaxBatchInterests, f[i+1])
		}
		if at < 0 {
			return nil, fmt.Errorf("batch %d: time %v is negative", i/2+1, at)
		}
		if len(out) > 0 && at < out[len(out)-1].At {
			return nil, fmt.Errorf("batch %d: time %v is before the batch ahead of it (%v)", i/2+1, at, out[len(out)-1].At)
		}
		out = append(out, Batch{At: at, N: n})
	}
	return out, nil
}

// ParseTrafficParams returns application app's options: its defaults
// under params. An invalid or unknown parameter is a *ParamError.
func ParseTrafficParams(app string, params map[string]string) (TrafficOptions, error) {
	if !IsApp(app) {
		return TrafficOptions{}, fmt.Errorf("unknown app %q (want one of %s)", app, strings.Join(Apps(), ", "))
	}
	o := TrafficOptions{App: app, RTT: DefaultRTT()}
	ps := trafficParams()
	for _, p := range ps {
		if slices.Contains(p.apps, app) && p.def != "" {
			if err := p.set(&o, p.def); err != nil {
				return o, fmt.Errorf("default of %s: %w", p.name, err) // a defect of the table
			}
		}
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		i := slices.IndexFunc(ps, func(p trafficParam) bool { return p.name == k && slices.Contains(p.apps, app) })
		if i < 0 {
			var names []string
			for _, p := range ps {
				if slices.Contains(p.apps, app) {
					names = append(names, p.name)
				}
			}
			return o, &ParamError{Key: k, Err: fmt.Errorf("app %s has no such parameter (it has %s)", app, strings.Join(names, ", "))}
		}
		if err := ps[i].set(&o, params[k]); err != nil {
			return o, &ParamError{Key: k, Err: err}
		}
	}
	if app == AppBatches && len(o.Batches) == 0 {
		return o, &ParamError{Key: "batches", Err: fmt.Errorf("required: the batches, such as \"1s 10 5s 20\"")}
	}
	if err := o.RTT.Validate(); err != nil {
		return o, &ParamError{Key: "min-rto", Err: err}
	}
	return o, nil
}

// ZipfMandelbrot is the cumulative distribution of content ranks 1..N
// under the Zipf–Mandelbrot law: P(i) = (i+q)^-s / Σ_{j=1..N} (j+q)^-s.
type ZipfMandelbrot struct {
	cdf []float64 // cdf[i-1] = P(rank ≤ i)
}

// NewZipfMandelbrot returns the distribution over n ranks with exponent s
// and shift q.
func NewZipfMandelbrot(n uint64, s, q float64) *ZipfMandelbrot {
	cdf := make([]float64, n)
	sum := 0.0
	for i := range cdf {
		sum += math.Pow(float64(i+1)+q, -s)
		cdf[i] = sum
	}
	for i := range cdf {
		cdf[i] /= sum
	}
	cdf[n-1] = 1
	return &ZipfMandelbrot{cdf: cdf}
}

// P returns the probability of rank i (1..N).
func (z *ZipfMandelbrot) P(i uint64) float64 {
	if i < 1 || i > uint64(len(z.cdf)) {
		return 0
	}
	if i == 1 {
		return z.cdf[0]
	}
	return z.cdf[i-1] - z.cdf[i-2]
}

// Rank draws a rank (1..N) for a uniform draw u in [0, 1).
func (z *ZipfMandelbrot) Rank(u float64) uint64 {
	i, _ := slices.BinarySearchFunc(z.cdf, u, func(c, u float64) int {
		if c <= u {
			return -1
		}
		return 1
	})
	return uint64(min(i, len(z.cdf)-1)) + 1
}

// TrafficStats are a traffic application's counters.
type TrafficStats struct {
	Start, End time.Duration // when it started, and when it ended (or its last Data)
	Complete   bool          // it sent all it had to and every Interest was answered

	Interests       uint64 // Interests sent, retransmissions included
	Retransmissions uint64 // Interests sent again after a timeout
	Data            uint64 // Data that answered an outstanding Interest
	Duplicates      uint64 // Data for nothing outstanding
	Timeouts        uint64 // retransmission timeouts
	Nacks           uint64 // Nacks received
	PayloadBytes    uint64 // payload bytes of the Data counted in Data
	WireBytes       uint64 // their bytes on the wire (Config.WireSize)
	// DelaySum, DelayMin and DelayMax are over the Data counted: from the
	// first Interest for the content to the Data (ndnSIM's FullDelay).
	DelaySum           time.Duration
	DelayMin, DelayMax time.Duration
	// RTTMin, RTTAvg and RTTMax are over the Data that answered an
	// Interest sent once (Karn's rule).
	RTTMin, RTTAvg, RTTMax time.Duration
	rttN                   uint64
	rttSum                 time.Duration
}

// DelayMean is the mean delay from the first Interest to the Data.
func (s TrafficStats) DelayMean() time.Duration {
	if s.Data == 0 {
		return 0
	}
	return s.DelaySum / time.Duration(s.Data)
}

// AppTracer receives a traffic application's delays, one call per Data
// that answers an outstanding Interest: its sequence number, the delay
// from the first Interest for it (full) and from the last (last), and how
// many Interests were sent for it.
type AppTracer interface {
	AppDelay(now time.Duration, seq uint64, full, last time.Duration, sent int)
}

// TrafficConfig binds a traffic application to its environment.
type TrafficConfig struct {
	// Prefix is the name every Interest's sequence number is appended to.
	Prefix  ndn.Name
	Options TrafficOptions
	// Rand draws nonces, zipf's contents and randomized intervals.
	Rand *rand.Rand
	// WireSize, if set, gives a Data's size on the wire.
	WireSize func(p ndn.Packet) int
	// Tracer, if set, receives the delays.
	Tracer AppTracer
	// OnDone is called once when the application has sent all it had to
	// and nothing is outstanding.
	OnDone func()
}

// outstanding is a content requested and not answered yet.
type outstanding struct {
	first, last time.Duration
	sent        int           // Interests sent for it
	rto         time.Duration // the RTO its last Interest was sent with
	retx        bool          // sent again after a timeout (Karn)
}

// Traffic is a running traffic application. It is sans-IO, like a
// Pipeline: time from a sched.Scheduler, packets out through an ndn.Face
// and in through OnPacket.
type Traffic struct {
	cfg  TrafficConfig
	opt  TrafficOptions
	s    sched.Scheduler
	face ndn.Face
	rng  *rand.Rand
	zipf *ZipfMandelbrot
	est  *rtt.Estimator

	pending map[uint64]*outstanding
	retxQ   []uint64 // timed-out contents waiting for their turn
	nextSeq uint64   // cbr and batches: the next sequence number
	sent    uint64   // first Interests sent (Count)
	batch   int      // batches sent

	// due is when the next Interest of cbr or zipf is due, and batches'
	// origin (the start with its random delay): the schedule keeps its
	// times when a timer runs late (in real time).
	due                   time.Duration
	sendTimer, checkTimer sched.Timer
	started, done         bool
	stats                 TrafficStats
}

// checkInterval is how often outstanding Interests are checked for their
// timeout (ndnSIM's RetxTimer).
const checkInterval = 50 * time.Millisecond

// NewTraffic returns an application that sends on face. Call Start.
func NewTraffic(cfg TrafficConfig, s sched.Scheduler, face ndn.Face) (*Traffic, error) {
	o := cfg.Options
	if !IsApp(o.App) {
		return nil, fmt.Errorf("traffic %s: unknown app %q", cfg.Prefix, o.App)
	}
	if cfg.Rand == nil {
		return nil, fmt.Errorf("traffic %s: no random source", cfg.Prefix)
	}
	if err := o.RTT.Validate(); err != nil {
		return nil, fmt.Errorf("traffic %s: %w", cfg.Prefix, err)
	}
	switch o.App {
	case AppCBR, AppZipf:
		if !(o.Rate > 0) {
			return nil, fmt.Errorf("traffic %s: rate %v must be positive", cfg.Prefix, o.Rate)
		}
	case AppBatches:
		if len(o.Batches) == 0 {
			return nil, fmt.Errorf("traffic %s: no batches", cfg.Prefix)
		}
	}
	t := &Traffic{cfg: cfg, opt: o, s: s, face: face, rng: cfg.Rand, est: rtt.NewEstimator(o.RTT), pending: map[uint64]*outstanding{}}
	if o.App == AppZipf {
		if o.Contents < 1 || o.Contents > MaxContents {
			return nil, fmt.Errorf("traffic %s: %d contents (want 1 to %d)", cfg.Prefix, o.Contents, MaxContents)
		}
		t.zipf = NewZipfMandelbrot(o.Contents, o.S, o.Q)
	}
	return t, nil
}

// Stats returns the counters so far.
func (t *Traffic) Stats() TrafficStats {
	st := t.stats
	if st.rttN > 0 {
		st.RTTAvg = st.rttSum / time.Duration(st.rttN)
	}
	return st
}

// Done reports whether the application has ended.
func (t *Traffic) Done() bool { return t.done }

// Start schedules the first Interests.
func (t *Traffic) Start() {
	if t.started {
		return
	}
	t.started = true
	t.stats.Start = t.s.Now()
	var delay time.Duration
	if t.opt.RandomStart > 0 {
		delay = time.Duration(t.rng.Int64N(int64(t.opt.RandomStart)))
	}
	t.due = t.stats.Start + delay
	if t.opt.App == AppBatches {
		t.sendTimer = t.s.After(delay+t.opt.Batches[0].At, t.sendBatch)
		return
	}
	t.sendTimer = t.s.After(delay, t.sendNext)
}

// Stop ends the application: nothing more is sent (no OnDone call).
func (t *Traffic) Stop() {
	t.done = true
	if t.sendTimer != nil {
		t.sendTimer.Stop()
	}
	if t.checkTimer != nil {
		t.checkTimer.Stop()
	}
}

// sendNext sends cbr's or zipf's next Interest, a retransmission first,
// and schedules the one after.
func (t *Traffic) sendNext() {
	t.sendTimer = nil
	if t.done {
		return
	}
	switch {
	case len(t.retxQ) > 0:
		seq := t.retxQ[0]
		t.retxQ = t.retxQ[1:]
		t.send(seq, true)
	case t.opt.Count == 0 || t.sent < t.opt.Count:
		var seq uint64
		if t.zipf != nil {
			seq = t.zipf.Rank(t.rng.Float64())
		} else {
			seq = t.nextSeq
			t.nextSeq++
		}
		t.sent++
		t.send(seq, false)
	default:
		t.maybeDone()
		return // what is left is outstanding: a timeout schedules again
	}
	t.due += t.interval()
	t.sendTimer = t.s.After(t.due-t.s.Now(), t.sendNext)
}

// interval is the wait before the next Interest of cbr or zipf.
func (t *Traffic) interval() time.Duration {
	mean := float64(time.Second) / t.opt.Rate
	switch t.opt.Randomize {
	case "uniform":
		return time.Duration(t.rng.Float64() * 2 * mean)
	case "exponential":
		return time.Duration(t.rng.ExpFloat64() * mean)
	}
	return time.Duration(mean)
}

// sendBatch sends the next batch and schedules the one after.
func (t *Traffic) sendBatch() {
	t.sendTimer = nil
	if t.done {
		return
	}
	b := t.opt.Batches[t.batch]
	t.batch++
	for range b.N {
		seq := t.nextSeq
		t.nextSeq++
		t.send(seq, false)
	}
	if t.batch < len(t.opt.Batches) {
		// due is the batches' origin: the start, with its random delay
		t.sendTimer = t.s.After(t.due+t.opt.Batches[t.batch].At-t.s.Now(), t.sendBatch)
	}
}

// send sends an Interest for content seq.
func (t *Traffic) send(seq uint64, retx bool) {
	now := t.s.Now()
	o := t.pending[seq]
	if o == nil {
		o = &outstanding{first: now}
		t.pending[seq] = o
	}
	o.last, o.rto = now, t.est.RTO()
	o.sent++
	if retx {
		o.retx = true
		t.stats.Retransmissions++
	} else if i := slices.Index(t.retxQ, seq); i >= 0 {
		// zipf drew a content waiting to be sent again: this is it
		t.retxQ = slices.Delete(t.retxQ, i, i+1)
	}
	t.stats.Interests++
	in := &ndn.Interest{
		Name:     t.cfg.Prefix.Append(enc.NewSequenceNumComponent(seq)),
		Nonce:    t.rng.Uint32(),
		Lifetime: t.opt.Lifetime,
	}
	t.face.Send(ndn.Packet{Interest: in})
	if t.checkTimer == nil {
		t.checkTimer = t.s.After(checkInterval, t.check)
	}
}

// check declares the Interests unanswered for their RTO timed out: each
// is sent again, at once for batches, at cbr's or zipf's next turn.
func (t *Traffic) check() {
	t.checkTimer = nil
	if t.done {
		return
	}
	now := t.s.Now()
	var expired []uint64
	for seq, o := range t.pending {
		if now-o.last >= o.rto && !slices.Contains(t.retxQ, seq) {
			expired = append(expired, seq)
		}
	}
	slices.SortFunc(expired, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(t.pending[a].last, t.pending[b].last), cmp.Compare(a, b))
	})
	if len(expired) > 0 {
		t.est.Backoff()
	}
	for _, seq := range expired {
		t.stats.Timeouts++
		if t.opt.App == AppBatches {
			t.send(seq, true)
			continue
		}
		t.retxQ = append(t.retxQ, seq)
	}
	if len(expired) > 0 && t.opt.App != AppBatches && t.sendTimer == nil {
		t.due = now
		t.sendTimer = t.s.After(0, t.sendNext) // sending had stopped at the count
	}
	if len(t.pending) > 0 && t.checkTimer == nil {
		t.checkTimer = t.s.After(checkInterval, t.check)
	}
}

// OnPacket handles a Data or Nack from the face.
func (t *Traffic) OnPacket(p ndn.Packet) {
	if t.done || (p.Data == nil && p.Interest == nil) {
		return
	}
	if p.IsNack() {
		t.stats.Nacks++ // the Interest stays outstanding until its timeout
		return
	}
	d := p.Data
	if d == nil {
		return
	}
	seq, ok := t.seqOf(d.Name)
	o := t.pending[seq]
	if !ok || o == nil {
		t.stats.Duplicates++
		return
	}
	now := t.s.Now()
	delete(t.pending, seq)
	if i := slices.Index(t.retxQ, seq); i >= 0 {
		t.retxQ = slices.Delete(t.retxQ, i, i+1)
	}
	st := &t.stats
	st.Data++
	st.End = now
	st.PayloadBytes += uint64(d.ContentLen)
	if t.cfg.WireSize != nil {
		st.WireBytes += uint64(t.cfg.WireSize(p))
	}
	full, last := now-o.first, now-o.last
	st.DelaySum += full
	if st.Data == 1 || full < st.DelayMin {
		st.DelayMin = full
	}
	st.DelayMax = max(st.DelayMax, full)
	if !o.retx && o.sent == 1 {
		t.est.AddSample(last)
		if st.rttN == 0 || last < st.RTTMin {
			st.RTTMin = last
		}
		st.RTTMax = max(st.RTTMax, last)
		st.rttN++
		st.rttSum += last
	}
	if t.cfg.Tracer != nil {
		t.cfg.Tracer.AppDelay(now, seq, full, last, o.sent)
	}
	t.maybeDone()
}

// seqOf returns the sequence number of a name Prefix/seq=N.
func (t *Traffic) seqOf(n ndn.Name) (uint64, bool) {
	if len(n) != len(t.cfg.Prefix)+1 || !t.cfg.Prefix.IsPrefix(n) {
		return 0, false
	}
	c := n[len(n)-1]
	if c.Typ != enc.TypeSequenceNumNameComponent {
		return 0, false
	}
	return c.NumberVal(), true
}

// maybeDone ends an application that has sent all it had to and has
// nothing outstanding.
func (t *Traffic) maybeDone() {
	if t.done || len(t.pending) > 0 || len(t.retxQ) > 0 {
		return
	}
	switch t.opt.App {
	case AppBatches:
		if t.batch < len(t.opt.Batches) {
			return
		}
	default:
		if t.opt.Count == 0 || t.sent < t.opt.Count {
			return
		}
	}
	t.done = true
	t.stats.Complete = true
	if t.sendTimer != nil {
		t.sendTimer.Stop()
	}
	if t.checkTimer != nil {
		t.checkTimer.Stop()
	}
	if t.cfg.OnDone != nil {
		t.cfg.OnDone()
	}
}
