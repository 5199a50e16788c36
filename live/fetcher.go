package live

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/live/eventloop"
	"github.com/ndncc/ndncc/ndn"
)

// Errors a fetch ends with, for errors.Is (besides ErrIntegrity and
// ErrFaceDown).
var (
	// ErrNotFound: version discovery got no metadata (no reply, or a
	// Nack), or no segment ever came and the network said there is no
	// route.
	ErrNotFound = errors.New("not found")
	// ErrTimedOut: a segment was retransmitted as often as allowed
	// without an answer, or no Data came within the give-up budget
	// (consumer.Options.Timeout).
	ErrTimedOut = errors.New("timed out")
)

// FetchConfig describes one fetch.
type FetchConfig struct {
	// Name is the object's name, with or without a version component.
	Name ndn.Name
	// Options are the pipeline's parameters; Lifetime, MaxRetries and
	// Timeout (the give-up budget) also govern version discovery and
	// certificate fetching.
	Options consumer.Options
	// Discover enables RDR version discovery (Name/32=metadata) when Name
	// does not end with a version component. Otherwise segments are
	// requested as Name/seg=N.
	Discover bool
	// Output receives the payload in segment order.
	Output io.Writer
	// Verifier checks every Data; nil means NewVerifier().
	Verifier *Verifier
	// Rand draws nonces; nil means a randomly seeded source.
	Rand *rand.Rand
	// Tracer, if set, receives the pipeline's cwnd and RTT traces.
	Tracer consumer.Tracer
	// WireSize, if set, gives a received packet's size on the wire for
	// the throughput counters (consumer.Config.WireSize).
	WireSize func(ndn.Packet) int
	// OnVersion, if set, is told the versioned name before segments are
	// requested.
	OnVersion func(ndn.Name)
	// OnProgress, if set, is called after each segment is written.
	OnProgress func(Progress)
	// OnPipeline, if set, is given the pipeline when it starts (to read
	// its statistics and window on the loop goroutine).
	OnPipeline func(*consumer.Pipeline)
	// OnReconnect, if set, is called when a new connection replaced a
	// lost one (see Endpoint.SetReconnect) and the fetch resumes.
	OnReconnect func()
}

// maxComponent is the longest name component the codec encodes (ndn's
// limit, from ndnd's encoder).
const maxComponent = 252

// CheckName reports a name too long to fetch or serve: an Interest for
// one of its segments (the name, a version and a segment component, with a
// nonce, a lifetime and both selectors) must fit in MaxPacketSize.
func CheckName(name ndn.Name) error {
	size := 0
	for i, c := range name {
		if len(c.Val) > maxComponent {
			return fmt.Errorf("name component %d is %d bytes long (at most %d are supported)", i, len(c.Val), maxComponent)
		}
		size += len(c.Val) + 2
	}
	if size > MaxPacketSize {
		return fmt.Errorf("name is too long: %d bytes, over NDN's %d-byte packet limit", size, MaxPacketSize)
	}
	in := &ndn.Interest{
		Name:        name.Append(enc.NewVersionComponent(math.MaxUint64)).Append(enc.NewSegmentComponent(math.MaxUint64)),
		CanBePrefix: true, MustBeFresh: true, Lifetime: time.Hour, Nonce: math.MaxUint32,
	}
	b, err := ndn.EncodeFrame(&ndn.Packet{Interest: in})
	if err != nil {
		return fmt.Errorf("name cannot be encoded: %w", err)
	}
	if len(b) > MaxPacketSize {
		return fmt.Errorf("name is too long: its Interests would take %d bytes, over NDN's %d-byte packet limit", len(b), MaxPacketSize)
	}
	return nil
}

// Progress is how far a fetch has come.
type Progress struct {
	Segments    uint64 // segments verified and written
	LastSegment uint64 // final segment number, once known
	FinalKnown  bool
	Bytes       uint64 // payload bytes written
}

// FetchResult describes a fetch that ended.
type FetchResult struct {
	Name  ndn.Name // the versioned name fetched (nil if discovery failed)
	Stats consumer.Stats
	Bytes uint64 // payload bytes written
	Face  FaceStats
	Loop  eventloop.Stats
}

// fetch is the state of one Fetch, used on the loop goroutine.
type fetch struct {
	cfg  FetchConfig
	loop *eventloop.Loop
	e    *Endpoint
	v    *Verifier
	out  *orderedWriter

	prefix   ndn.Name
	pipe     *consumer.Pipeline
	progress Progress
	pipeDone bool

	waiting      []pendingCheck // Data waiting for a certificate
	certFetching bool

	done bool
	err  error
}

type pendingCheck struct {
	d    *ndn.Data
	then func(error)
}

// Fetch retrieves one object through e and writes it to cfg.Output. It
// runs loop until the fetch ends (the loop must not be running), and
// returns an error wrapping ErrNotFound, ErrTimedOut, ErrIntegrity or
// ErrFaceDown when the fetch failed for that reason.
func Fetch(ctx context.Context, loop *eventloop.Loop, e *Endpoint, cfg FetchConfig) (FetchResult, error) {
	f := &fetch{cfg: cfg, loop: loop, e: e, v: cfg.Verifier, out: newOrderedWriter(cfg.Output)}
	f.out.done = e.recycle
	if f.v == nil {
		f.v = NewVerifier()
	}
	if f.cfg.Rand == nil {
		f.cfg.Rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	e.OnLost(f.fail)
	e.OnRestored(f.resume)
	loop.After(0, f.start)
	runErr := loop.Run(ctx)
	res := FetchResult{Name: f.prefix, Bytes: f.out.written, Face: e.Face().Stats(), Loop: loop.Stats()}
	if f.pipe != nil {
		res.Stats = f.pipe.Stats()
	}
	switch {
	case f.err != nil:
		return res, f.err
	case runErr != nil:
		return res, runErr
	case !f.done:
		return res, errors.New("live: fetch ended early")
	}
	return res, nil
}

func (f *fetch) start() {
	name := f.cfg.Name
	if !f.cfg.Discover || (len(name) > 0 && name[len(name)-1].IsVersion()) {
		f.startPipeline(name)
		return
	}
	f.e.Express(Request{
		Name: MetadataName(name), CanBePrefix: true, MustBeFresh: true,
		Lifetime: f.cfg.Options.Lifetime, Retries: f.retries(), Budget: f.cfg.Options.Timeout,
	}, func(d *ndn.Data, err error) {
		if err != nil {
			f.fail(fmt.Errorf("%w: version discovery of %s: %w", ErrNotFound, name, err))
			return
		}
		f.verify(d, func(err error) {
			if err != nil {
				f.fail(fmt.Errorf("version discovery of %s: %w", name, err))
				return
			}
			v, err := ParseMetadata(name, d)
			if err != nil {
				f.fail(fmt.Errorf("%w: version discovery: %w", ErrNotFound, err))
				return
			}
			f.startPipeline(v)
		})
	})
}

// retries is the retry budget of one-shot Interests.
func (f *fetch) retries() int {
	if r := f.cfg.Options.MaxRetries; r >= 0 {
		return r
	}
	return 1 << 30
}

func (f *fetch) startPipeline(prefix ndn.Name) {
	if f.done {
		return
	}
	f.prefix = prefix
	if f.cfg.OnVersion != nil {
		f.cfg.OnVersion(prefix)
	}
	p, err := consumer.New(consumer.Config{
		Prefix:    prefix,
		Options:   f.cfg.Options,
		Rand:      f.cfg.Rand,
		Tracer:    f.cfg.Tracer,
		WireSize:  f.cfg.WireSize,
		OnDone:    f.pipelineDone,
		OnSegment: f.onSegment,
		Arrival:   f.loop.Arrival,
		Stalls:    f.loop.Stalls,
	}, f.loop, f.e)
	if err != nil {
		f.fail(fmt.Errorf("start pipeline: %w", err))
		return
	}
	f.pipe = p
	f.e.Handle(p.OnPacket)
	if f.cfg.OnPipeline != nil {
		f.cfg.OnPipeline(p)
	}
	p.Start()
}

func (f *fetch) onSegment(seg uint64, d *ndn.Data) {
	if !f.progress.FinalKnown {
		if last, ok := d.FinalSegment(); ok {
			f.progress.LastSegment, f.progress.FinalKnown = last, true
		}
	}
	need, err := f.check(d)
	if err != nil || need == nil {
		f.verified(seg, d, err) // no closure on the per-Data path
		return
	}
	f.awaitCert(need, d, func(err error) { f.verified(seg, d, err) })
}

// verified writes segment seg once its check ended with err.
func (f *fetch) verified(seg uint64, d *ndn.Data, err error) {
	if f.done {
		return
	}
	if err != nil {
		f.fail(err)
		return
	}
	if err := f.out.put(seg, d); err != nil {
		f.fail(err)
		return
	}
	f.progress.Segments++
	f.progress.Bytes = f.out.written
	if f.cfg.OnProgress != nil {
		f.cfg.OnProgress(f.progress)
	}
	f.maybeFinish()
}

func (f *fetch) pipelineDone(err error) {
	if err != nil {
		f.fail(f.classify(err))
		return
	}
	f.pipeDone = true
	f.maybeFinish()
}

// classify wraps a pipeline failure in the error a caller tests for.
func (f *fetch) classify(err error) error {
	if !errors.Is(err, consumer.ErrRetriesExhausted) && !errors.Is(err, consumer.ErrGaveUp) {
		return err
	}
	st := f.pipe.Stats()
	if st.Segments == 0 && st.NacksByReason[2] > 0 { // NoRoute
		return fmt.Errorf("%w: %s: no route: %w", ErrNotFound, f.prefix, err)
	}
	return fmt.Errorf("%w: %w", ErrTimedOut, err)
}

func (f *fetch) maybeFinish() {
	if f.done || !f.pipeDone || len(f.waiting) > 0 || !f.progress.FinalKnown || !f.out.complete(f.progress.LastSegment) {
		return
	}
	f.done = true
	f.loop.Stop(nil)
}

// verify checks d, fetching the certificate of its key first if needed,
// and calls then with the outcome.
func (f *fetch) verify(d *ndn.Data, then func(error)) {
	need, err := f.check(d)
	if err != nil || need == nil {
		then(err)
		return
	}
	f.awaitCert(need, d, then)
}

// check checks d with what is known (the reader's digest check, the
// certificates fetched): it returns the outcome, or the name of the
// certificate the check needs first.
func (f *fetch) check(d *ndn.Data) (ndn.Name, error) {
	digest := digestUnchecked
	if checked, ok := f.e.Face().DigestChecked(d); checked {
		digest = digestBad
		if ok {
			digest = digestOK
		}
	}
	return f.v.check(d, digest)
}

// awaitCert queues d until the certificate need is fetched (fetching it
// unless a fetch is under way), then checks it again and calls then.
func (f *fetch) awaitCert(need ndn.Name, d *ndn.Data, then func(error)) {
	f.waiting = append(f.waiting, pendingCheck{d, then})
	if f.certFetching {
		return
	}
	f.certFetching = true
	f.e.Express(Request{Name: need, CanBePrefix: true, Lifetime: f.cfg.Options.Lifetime, Retries: f.retries(), Budget: f.cfg.Options.Timeout},
		func(cert *ndn.Data, err error) {
			f.certFetching = false
			if err != nil {
				f.fail(fmt.Errorf("%w: fetch certificate %s: %w", ErrIntegrity, need, err))
				return
			}
			if err := f.v.AddCert(cert); err != nil {
				f.fail(err)
				return
			}
			waiting := f.waiting
			f.waiting = nil
			for _, w := range waiting {
				f.verify(w.d, w.then)
			}
		})
}

// resume carries on over a new connection: the restarted forwarder forgot
// every Interest the pipeline had outstanding.
func (f *fetch) resume() {
	if f.done {
		return
	}
	if f.cfg.OnReconnect != nil {
		f.cfg.OnReconnect()
	}
	if f.pipe != nil {
		f.pipe.Reissue()
	}
}

// fail ends the fetch with err (the first failure wins).
func (f *fetch) fail(err error) {
	if f.done {
		return
	}
	f.done = true
	f.err = err
	if f.pipe != nil {
		f.pipe.Stop()
	}
	f.loop.Stop(nil)
}
