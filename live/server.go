package live

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"
	ndnd "github.com/named-data/ndnd/std/ndn"

	"github.com/ndncc/ndncc/internal/sha256batch"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/producer"
)

// ServeConfig describes an object to serve.
type ServeConfig struct {
	// Name is the object's versioned name (it must end with a version
	// component); segment N is Name/seg=N.
	Name ndn.Name
	// Content supplies the object's bytes; Size is its length. Segments
	// are read when asked for, never the whole object at once.
	Content io.ReaderAt
	Size    int64
	// SegmentSize is the payload size of every segment but the last.
	SegmentSize int
	// Freshness is the FreshnessPeriod of every segment.
	Freshness time.Duration
	// Signing signs every Data (and the metadata); its certificate, if
	// any, is served too.
	Signing Signing
	// CacheBytes bounds the prepared Data the server keeps: the encoded,
	// signed segments of the object's beginning, as many as fit, kept
	// once first produced and sent again as they are, without reading,
	// digesting or encoding them again. 0 keeps none. A segment counts
	// its first segment's encoded length and its slice, at least its
	// payload and cacheEntryOverhead.
	CacheBytes int64
	// Presign fills the cache before the server answers anything: every
	// cached segment is made, signed and encoded at once (on every CPU),
	// as ndnputchunks prepares its object before serving, so no Interest
	// waits for a signature (the emulator's producers).
	Presign bool
	// Prepared are segments an earlier Server prepared for the same Name,
	// Content, Size, SegmentSize, Freshness and Signing (its Prepared):
	// they fill the first slots of the cache as they are, and Presign
	// then prepares only the slots left. Read only; servers may share it.
	Prepared [][]byte
	// Register registers the routes (the unversioned prefix, and the
	// certificate's key name when outside it) with the forwarder.
	Register bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// ServerStats are a server's counters.
type ServerStats struct {
	producer.Stats
	Metadata     uint64 // RDR metadata requests answered
	Certificates uint64 // certificate requests answered
	PrefixProbes uint64 // CanBePrefix Interests answered with segment 0
	// CacheHits counts segment Interests answered with a prepared Data
	// (they are in Interests, DataSent and PayloadBytes too).
	CacheHits uint64
}

// Server answers Interests for one object: its segments, its RDR metadata
// (Name/32=metadata) and its signing certificate; and, for the traffic
// applications, numbered content under the unversioned name
// (producer.Config.Base). Use it on the loop
// goroutine.
type Server struct {
	cfg   ServeConfig
	e     *Endpoint
	prod  *producer.Producer
	base  ndn.Name // Name without its version
	meta  *ndn.Data
	stats ServerStats
	log   *slog.Logger

	cache      [][]byte // prepared Data by segment, for the first len(cache)
	cacheBytes uint64   // payload bytes sent from the cache
	// digests is set when the server signs with DigestSha256: it digests
	// runs of segments together.
	digests *digestSigner
}

// signAhead is how many segments after the one an Interest asks for the
// server prepares with it, when it signs with DigestSha256 and the cache
// has room for them: the run's digests are computed together, side by
// side (internal/sha256batch), at a fraction of the cost of one by one.
const signAhead = 15

// cacheEntryOverhead is the least a cached segment counts beyond its
// payload, for CacheBytes: its name, signature and TLV headers, and the
// slice. A segment whose Data is longer (an RSA signature's 256 bytes)
// counts its encoded length and the slice.
const cacheEntryOverhead = 128

// sliceHeader is what a cache slot's slice takes beside its bytes.
const sliceHeader = 24

// NewServer prepares a server on e and starts answering Interests. It
// checks that the largest segment fits in an NDN packet.
func NewServer(e *Endpoint, cfg ServeConfig) (*Server, error) {
	if len(cfg.Name) < 2 || !cfg.Name[len(cfg.Name)-1].IsVersion() {
		return nil, fmt.Errorf("live: serve %s: the name must be a prefix and a version component (a bare version would register the root prefix)", cfg.Name)
	}
	if cfg.Signing.Signer == nil {
		return nil, errors.New("live: serve: no signer")
	}
	s := &Server{cfg: cfg, e: e, base: cfg.Name[:len(cfg.Name)-1], log: cfg.Logger}
	if cfg.Signing.Signer.Type() == ndnd.SignatureDigestSha256 && len(cfg.Signing.Signer.KeyLocator()) == 0 {
		s.digests = &digestSigner{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	prod, err := producer.New(producer.Config{
		Prefix:      cfg.Name,
		Size:        cfg.Size,
		SegmentSize: cfg.SegmentSize,
		Freshness:   cfg.Freshness,
		Content:     cfg.Content,
		Finish:      s.finish,
		Logger:      s.log,
		Base:        s.base,
	}, e)
	if err != nil {
		return nil, fmt.Errorf("live: serve: %w", err)
	}
	s.prod = prod
	wire, err := s.checkSize()
	if err != nil {
		return nil, err
	}
	if cfg.CacheBytes > 0 {
		n := uint64(cfg.CacheBytes / int64(max(cfg.SegmentSize+cacheEntryOverhead, wire+sliceHeader)))
		s.cache = make([][]byte, min(n, prod.Segments()))
		copy(s.cache, cfg.Prepared)
	}
	if cfg.Presign {
		if err := s.presign(); err != nil {
			return nil, fmt.Errorf("live: serve: %w", err)
		}
	}
	meta, err := MetadataData(Metadata{
		Versioned:   cfg.Name,
		LastSegment: prod.Segments() - 1,
		SegmentSize: uint64(cfg.SegmentSize),
		Size:        uint64(cfg.Size),
	})
	if err != nil {
		return nil, err
	}
	if err := s.sign(meta); err != nil {
		return nil, fmt.Errorf("live: serve: sign metadata: %w", err)
	}
	s.meta = meta
	e.Handle(s.onPacket)
	return s, nil
}

// sign encodes and signs a Data (producer.Config.Finish).
func (s *Server) sign(d *ndn.Data) error {
	_, err := ndn.EncodeData(d, s.cfg.Signing.Signer)
	return err
}

// finish signs a segment the producer made and keeps it in the cache
// (producer.Config.Finish). Signing with DigestSha256, it prepares the next
// signAhead segments with it, up to the first one already cached.
func (s *Server) finish(d *ndn.Data) error {
	seg, ok := s.cacheSlot(d.Name)
	if !ok || s.digests == nil {
		if err := s.sign(d); err != nil {
			return err
		}
		if ok {
			s.cache[seg] = d.Wire
		}
		return nil
	}
	run := append(s.digests.run[:0], d)
	for k := seg + 1; k <= seg+signAhead && k < uint64(len(s.cache)) && s.cache[k] == nil; k++ {
		next, err := s.prod.Segment(k)
		if err != nil {
			break // d is what was asked for
		}
		run = append(run, next)
	}
	err := s.prepare(s.digests, run)
	clear(run)
	s.digests.run = run[:0]
	return err
}

// prepare signs the segments of run (together, with digests when set) and
// keeps them in the cache.
func (s *Server) prepare(digests *digestSigner, run []*ndn.Data) error {
	if digests != nil {
		if err := digests.sign(run); err != nil {
			return err
		}
	}
	for _, d := range run {
		if digests == nil {
			if err := s.sign(d); err != nil {
				return err
			}
		}
		if seg, ok := s.cacheSlot(d.Name); ok {
			s.cache[seg] = d.Wire
		}
	}
	return nil
}

// presign fills the cache, on every CPU, in runs of signAhead+1 segments.
func (s *Server) presign() error {
	n := uint64(len(s.cache))
	workers := uint64(max(runtime.GOMAXPROCS(0), 1))
	const runLen = signAhead + 1
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var digests *digestSigner
			if s.digests != nil {
				digests = &digestSigner{}
			}
			run := make([]*ndn.Data, 0, runLen)
			for first := w * runLen; first < n && errs[w] == nil; first += workers * runLen {
				run = run[:0]
				for seg := first; seg < min(first+runLen, n); seg++ {
					if s.cache[seg] != nil {
						continue // given prepared (ServeConfig.Prepared)
					}
					d, err := s.prod.Segment(seg)
					if err != nil {
						errs[w] = fmt.Errorf("presign segment %d: %w", seg, err)
						break
					}
					run = append(run, d)
				}
				if len(run) == 0 {
					continue
				}
				if err := s.prepare(digests, run); err != nil && errs[w] == nil {
					errs[w] = fmt.Errorf("presign segments %d-%d: %w", first, first+uint64(len(run))-1, err)
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// digestSigner signs runs of Data with DigestSha256, digesting them
// together. It keeps its buffers from run to run.
type digestSigner struct {
	h       sha256batch.Hasher
	run     []*ndn.Data // the server's run, reused
	covered [][]byte
	sums    [][sha256batch.Size]byte
}

// sign encodes and signs every Data of ds.
func (g *digestSigner) sign(ds []*ndn.Data) error {
	g.covered = g.covered[:0]
	for _, d := range ds {
		c, err := ndn.EncodeDigestLater(d)
		if err != nil {
			return err
		}
		g.covered = append(g.covered, c)
	}
	if len(g.sums) < len(ds) {
		g.sums = make([][sha256batch.Size]byte, len(ds))
	}
	g.h.Sum(g.sums, g.covered)
	for i, d := range ds {
		ndn.SetDigest(d, g.sums[i])
	}
	clear(g.covered)
	return nil
}

// cacheSlot returns the cache slot of a segment name the producer
// answers: in the cache's range, its segment number encoded in the
// fewest bytes (the form a cached Data is named in, so that the Data
// matches every Interest it answers).
func (s *Server) cacheSlot(name ndn.Name) (uint64, bool) {
	seg, ok := s.prod.SegmentOf(name)
	if !ok || seg >= uint64(len(s.cache)) || len(name[len(name)-1].Val) != enc.Nat(seg).EncodingLength() {
		return 0, false
	}
	return seg, true
}

// answerCached sends the prepared Data an Interest for name asks for,
// if the cache has it.
func (s *Server) answerCached(name ndn.Name) bool {
	seg, ok := s.cacheSlot(name)
	if !ok || s.cache[seg] == nil {
		return false
	}
	s.stats.CacheHits++
	s.cacheBytes += uint64(min(int64(s.cfg.SegmentSize), s.cfg.Size-int64(seg)*int64(s.cfg.SegmentSize)))
	s.e.SendWire(s.cache[seg])
	return true
}

// checkSize encodes the first segment and requires it, with room for the
// longest segment number, to fit in MaxPacketSize. It returns the
// segment's encoded length.
func (s *Server) checkSize() (int, error) {
	d, err := s.prod.Segment(0)
	if err != nil {
		return 0, fmt.Errorf("live: serve: %w", err)
	}
	if err := s.sign(d); err != nil {
		return 0, fmt.Errorf("live: serve: sign segment 0: %w", err)
	}
	const segNumberRoom = 8 // a segment number grows by at most 8 bytes
	if n := len(d.Wire) + segNumberRoom; n > MaxPacketSize {
		return 0, fmt.Errorf("live: serve: a %d-byte segment makes %d-byte Data packets, over the %d-byte NDN limit; lower the segment size",
			s.cfg.SegmentSize, n, MaxPacketSize)
	}
	return len(d.Wire), nil
}

// Certificate returns the certificate the server serves, nil for
// DigestSha256.
func (s *Server) Certificate() *ndn.Data { return s.cfg.Signing.Cert }

// SignatureScheme names how the server signs (digest, ed25519, ecdsa, rsa).
func (s *Server) SignatureScheme() string { return schemeOf(s.cfg.Signing.Signer.Type()) }

// Segments returns the number of segments of the object.
func (s *Server) Segments() uint64 { return s.prod.Segments() }

// Stats returns the counters.
func (s *Server) Stats() ServerStats {
	st := s.stats
	st.Stats = s.prod.Stats()
	st.Interests += st.CacheHits
	st.DataSent += st.CacheHits
	st.PayloadBytes += s.cacheBytes
	return st
}

// PreparedBytes is the memory prepared Data take (Server.Prepared): their
// bytes and their slices.
func PreparedBytes(wires [][]byte) int64 {
	var n int64
	for _, w := range wires {
		n += int64(len(w)) + sliceHeader
	}
	return n
}

// Prepared returns the cache: the prepared Data by segment, nil where a
// segment has none yet (all of them once Presign has run). Another
// server of the same object and signing can take it as
// ServeConfig.Prepared; call it before the server's loop runs, or on it.
func (s *Server) Prepared() [][]byte { return slices.Clone(s.cache) }

// Routes returns the routes the server registers.
func (s *Server) Routes() []Route {
	routes := []Route{{Prefix: s.base}}
	if c := s.cfg.Signing.Cert; c != nil && !s.base.IsPrefix(c.Name) {
		routes = append(routes, Route{Prefix: keyNameOf(c.Name)})
	}
	return routes
}

// Start registers the routes when configured to, and calls ready with nil
// once all are registered (at once when not registering) or with the
// first failure.
func (s *Server) Start(ready func(error)) {
	if !s.cfg.Register {
		ready(nil)
		return
	}
	routes := s.Routes()
	var next func(i int)
	next = func(i int) {
		if i == len(routes) {
			ready(nil)
			return
		}
		s.e.Register(routes[i], func(err error) {
			if err != nil {
				ready(fmt.Errorf("register %s: %w", routes[i].Prefix, err))
				return
			}
			s.log.Info("registered route", "prefix", routes[i].Prefix.String())
			next(i + 1)
		})
	}
	next(0)
}

// onPacket answers one Interest.
func (s *Server) onPacket(p ndn.Packet) {
	in := p.Interest
	if in == nil || p.IsNack() {
		return
	}
	switch {
	case IsMetadataInterest(s.base, in.Name):
		if matches(in, s.meta.Name) {
			s.stats.Metadata++
			s.e.Send(ndn.Packet{Data: s.meta})
		}
	case s.cfg.Signing.Cert != nil && in.Name.IsPrefix(s.cfg.Signing.Cert.Name) && !in.Name.IsPrefix(s.cfg.Name):
		if matches(in, s.cfg.Signing.Cert.Name) {
			s.stats.Certificates++
			s.e.Send(ndn.Packet{Data: s.cfg.Signing.Cert})
		}
	case in.CanBePrefix && len(in.Name) <= len(s.cfg.Name) && in.Name.IsPrefix(s.cfg.Name):
		s.answerProbe()
	default:
		if !s.answerCached(in.Name) {
			s.prod.OnPacket(p)
		}
	}
}

// answerProbe answers a CanBePrefix Interest for the object's prefix
// with segment 0, which tells the version and the final segment.
func (s *Server) answerProbe() {
	d, err := s.prod.Segment(0)
	if err == nil {
		err = s.sign(d)
	}
	if err != nil {
		s.log.Warn("cannot produce segment 0", "err", err)
		return
	}
	s.stats.PrefixProbes++
	s.e.Send(ndn.Packet{Data: d})
}

// matches reports whether a Data named name satisfies the Interest.
func matches(in *ndn.Interest, name ndn.Name) bool {
	if in.CanBePrefix {
		return in.Name.IsPrefix(name)
	}
	return in.Name.Equal(name)
}

// NewVersion returns a version component for now: microseconds since the
// Unix epoch, as ndnd's tools version objects.
func NewVersion(now time.Time) ndn.Component {
	return enc.NewVersionComponent(uint64(now.UnixMicro()))
}
