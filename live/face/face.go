package face

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ndncc/ndncc/aqm"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/ndn"
)

// Host is what a face needs from the runtime that owns it: the forwarder
// daemon's event loop. Faces never call the forwarder themselves.
type Host interface {
	// Now is the loop's clock (its sched.Scheduler's Now). Any goroutine.
	Now() time.Duration
	// Accepted hands the loop a face that a listener created for a new
	// peer, before any packet of it is delivered. Called on the
	// listener's goroutine; it may block while the loop is busy.
	Accepted(f *Face)
	// Deliver hands the loop the frames a reader decoded, in order: a
	// network packet each, with its link-reliability fields, or IDLE
	// frames carrying only Acks. Called on the reader goroutine; it may
	// block while the loop is busy, which holds the reader back (the
	// kernel's buffers take over). The slice is the host's from then on.
	Deliver(f *Face, frames []link.Frame)
	// Failed reports, once, that the face's transport closed or failed.
	// Any goroutine. The runtime then removes the face (Close).
	Failed(f *Face, err error)
	// Dirty asks the loop to call f.Flush before it next waits. Called on
	// the loop goroutine.
	Dirty(f *Face)
	// Wake asks the loop to call f.Flush soon. Called on the face's
	// writer goroutine when it can take more packets than it could.
	Wake(f *Face)
}

// Persistency is NFD's face persistency.
type Persistency uint8

// Face persistencies (NFD's codes).
const (
	// Persistent faces were created by management; they close when their
	// transport fails.
	Persistent Persistency = 0
	// OnDemand faces were created by a listener for a peer that contacted
	// it; they close when their transport fails, and UDP ones when idle.
	OnDemand Persistency = 1
	// Permanent faces were created by the configuration file; a UDP one
	// never closes on its own.
	Permanent Persistency = 2
)

func (p Persistency) String() string {
	switch p {
	case Persistent:
		return "persistent"
	case OnDemand:
		return "on-demand"
	case Permanent:
		return "permanent"
	}
	return fmt.Sprintf("persistency(%d)", uint8(p))
}

// Scope is NFD's face scope: local faces may reach /localhost prefixes.
type Scope uint8

// Face scopes (NFD's codes).
const (
	NonLocal Scope = 0
	Local    Scope = 1
)

// Counters are a face's counters: NFD's face dataset (faces/list), the
// forwarder's status line and an application's verbose report show them.
type Counters struct {
	InInterests, InData, InNacks    uint64 // network packets received
	OutInterests, OutData, OutNacks uint64 // network packets sent (handed to the transport)
	PacketsIn, PacketsOut           uint64 // the sums of the above
	BytesIn, BytesOut               uint64 // link-layer bytes
	FramesIn, FramesOut             uint64 // datagrams or stream TLVs
	Malformed                       uint64 // frames that did not decode, dropped
	Unsupported                     uint64 // well-formed packets ndncc cannot represent, dropped
	FragmentsIn, FragmentsOut       uint64
	ReassemblyErrors                uint64 // fragments dropped by the reassembler
	SendErrors                      uint64 // packets that could not be encoded or written
	// Queue is the send queue's own counters: tail and AQM drops, marks
	// it set, the most packets and bytes it held (zero on an application's
	// face, which has no send queue).
	Queue aqm.Stats
	// QueueLen and QueueBytes are what the send queue holds now.
	QueueLen, QueueBytes int
	// MaxSocketBacklog is the most bytes seen in the socket's kernel send
	// queue, read when a backlog-marking queue takes a packet (0 for
	// other disciplines).
	MaxSocketBacklog int
}

// Drops is the packets the face lost on the way out: queue drops and
// send errors.
func (c Counters) Drops() uint64 { return c.Queue.TailDrops + c.Queue.AQMDrops + c.SendErrors }

// Config describes a face.
type Config struct {
	// Scheme is the transport: "unix", "tcp", "tcp4", "tcp6", "udp",
	// "udp4" or "udp6".
	Scheme string
	// Local and Remote are NFD's face URIs of the two ends. Remote names
	// the face in errors and logs.
	Local, Remote string
	Persistency   Persistency
	Scope         Scope
	// MTU is the largest datagram a UDP face sends; bigger packets are
	// fragmented. 0 means DefaultUDPMTU. Stream faces ignore it.
	MTU int
	// ReassemblyTimeout drops a partly received fragmented packet after
	// this long. 0 means 1 s.
	ReassemblyTimeout time.Duration
	// VerifyDigests makes an application's reader goroutine verify the
	// DigestSha256 of every Data it decodes, in parallel with the loop; a
	// handler learns the outcome from DigestChecked.
	VerifyDigests bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// Datagram reports whether the scheme carries one frame per datagram.
func (c Config) Datagram() bool { return strings.HasPrefix(c.Scheme, "udp") }

// Face is ndncc's NDNLPv2 face: one link service — TLV framing on
// streams, fragmentation and reassembly on datagrams, Nack,
// CongestionMark and the other per-hop fields, TxSequence and Acks when
// link reliability runs — over a transport: a Unix or TCP stream socket,
// or a UDP socket (connected, or a listener's shared one). The forwarder
// (live/fwd, and the emulator through it) and the applications (package
// live: fetch, serve) use it in two ways:
//
//   - A forwarder's face (NewStream, NewTCP, a UDPListener's) belongs to a
//     Host: its reader hands the host the frames it decodes, and what the
//     forwarder sends waits in the face's send queue (an aqm.Queue) for a
//     writer goroutine of the face's own, so that a slow socket never
//     stalls the loop (queue.go).
//   - An application's face (NewApp) runs on an eventloop.Loop: its reader
//     hands the loop batches of packets, their digests verified if asked,
//     decoded into buffers and Data from the face's pools (Recycle); the
//     loop encodes what the application sends straight into the socket's
//     output and writes it before it next waits (app.go).
//
// Its methods, except Close, must be called on the loop goroutine; its
// reader (and writer) goroutines do the rest.
type Face struct {
	cfg      Config
	datagram bool
	mtu      int
	log      *slog.Logger

	// The transport. tx writes one datagram, or a buffer of stream
	// frames, on the sending goroutine (a forwarder's face's writer, an
	// application's loop).
	tx func(b []byte) error
	// direct writes frames at once without ever blocking (a forwarder's
	// stream faces on Linux): the bytes the socket took, nil when it took
	// what it could. nil: every batch goes through the writer.
	direct func(iov [][]byte) (int, error)
	// backlog returns the bytes in the kernel's send queue of the socket
	// (nil if unknown); sndbuf is that socket's send buffer size.
	backlog func() int
	sndbuf  int
	reader  func()       // the reader goroutine (Start)
	closeTx func() error // closes the transport (nil: nothing to close)

	// The link service.
	dec      Decoder      // the reader's, with the receive counters
	in       readProgress // how far the reader got through the socket
	seq      uint64       // next fragment sequence (sending goroutine)
	wbuf     []byte       // stream output not yet written (sending goroutine)
	out      Counters     // the loop's share of the send counters
	txBytes  atomic.Uint64
	txFrames atomic.Uint64
	txFrags  atomic.Uint64
	txErrors atomic.Uint64
	dirty    bool // the loop is to call Flush
	tag      any

	sendQueue // a forwarder's face's (queue.go)
	client    // an application's face's (app.go)

	closing   chan struct{}
	closed    atomic.Bool
	startOnce sync.Once
	closeOnce sync.Once
	failOnce  sync.Once
}

// newFace returns a face that writes with tx; the caller sets its reader
// and its way of handing packets on.
func newFace(cfg Config, tx func([]byte) error) *Face {
	f := &Face{
		cfg:      cfg,
		datagram: cfg.Datagram(),
		mtu:      cfg.MTU,
		log:      cfg.Logger,
		tx:       tx,
		closing:  make(chan struct{}),
	}
	if f.mtu <= 0 {
		f.mtu = DefaultUDPMTU
	}
	if f.log == nil {
		f.log = slog.New(slog.DiscardHandler)
	}
	f.dec.Logger, f.dec.Name = f.log, cfg.Remote
	if f.datagram {
		timeout := cfg.ReassemblyTimeout
		if timeout <= 0 {
			timeout = reassemblyTimeout
		}
		f.dec.Reassembler = NewReassembler(timeout, 256, MaxPacketSize)
	}
	return f
}

// reassemblyTimeout drops a partly received packet after this long.
const reassemblyTimeout = time.Second

// Start runs the face's reader goroutine, and a forwarder's face's
// writer. Call it once the loop knows the face: the reader delivers
// packets from then on. An application's face is started by NewApp.
func (f *Face) Start() {
	f.startOnce.Do(func() {
		if f.host != nil {
			go f.write()
		}
		if f.reader != nil {
			go f.reader()
		}
	})
}

// isClosing reports whether Close was called (any goroutine).
func (f *Face) isClosing() bool { return f.closed.Load() }

// now is the loop's clock.
func (f *Face) now() time.Duration {
	if f.loop != nil {
		return f.loop.Now()
	}
	return f.host.Now()
}

// Config returns what the face was created with.
func (f *Face) Config() Config { return f.cfg }

// Datagram reports whether the face sends one frame per datagram.
func (f *Face) Datagram() bool { return f.datagram }

// Tag returns the value SetTag stored (the runtime's face ID).
func (f *Face) Tag() any { return f.tag }

// SetTag stores a value of the runtime's (on the loop goroutine).
func (f *Face) SetTag(v any) { f.tag = v }

// SetMTU sets the datagram size of a UDP face (before Start).
func (f *Face) SetMTU(mtu int) {
	f.mtu = mtu
	f.cfg.MTU = mtu
}

// Send sends packet p (ndn.Face): a forwarder's face queues it (a packet
// the queue refuses is counted in its tail drops), an application's
// encodes it into its output (a packet that cannot be encoded is counted
// and logged). On a closed or failed face it is counted as a send error.
func (f *Face) Send(p ndn.Packet) {
	if f.loop != nil {
		f.sendNow(&p)
		return
	}
	f.enqueue(p)
}

// Flush writes the output of the loop's iteration (eventloop.Flusher): a
// forwarder's face hands its writer what its send queue holds, an
// application's writes its buffered stream output.
func (f *Face) Flush() {
	if f.loop != nil {
		f.flushNow()
		return
	}
	f.flushQueue()
}

// markDirty has the loop call Flush before it next waits.
func (f *Face) markDirty() {
	if f.dirty {
		return
	}
	f.dirty = true
	if f.loop != nil {
		f.loop.MarkDirty(f)
	} else {
		f.host.Dirty(f)
	}
}

// writeDatagrams writes the frames of one packet, one datagram each, and
// counts them; it stops at the first failed write and returns its error.
func (f *Face) writeDatagrams(frames [][]byte) error {
	for _, b := range frames {
		if err := f.tx(b); err != nil {
			return err
		}
		f.txFrames.Add(1)
		f.txBytes.Add(uint64(len(b)))
	}
	if len(frames) > 1 {
		f.txFrags.Add(uint64(len(frames)))
	}
	return nil
}

func (f *Face) countOut(p *ndn.Packet) {
	switch {
	case p.Data != nil:
		f.out.OutData++
	case p.IsNack():
		f.out.OutNacks++
	case p.Interest != nil:
		f.out.OutInterests++
	}
}

func (f *Face) sendError(p *ndn.Packet, err error) {
	f.txErrors.Add(1)
	f.log.Warn("cannot send packet", "face", f.cfg.Remote, "name", p.Name().String(), "err", err)
}

// Stats returns the face's counters (on the loop goroutine).
func (f *Face) Stats() Counters {
	c := f.out
	c.InInterests = f.dec.Interests.Load()
	c.InData = f.dec.Data.Load()
	c.InNacks = f.dec.Nacks.Load()
	c.PacketsIn = c.InInterests + c.InData + c.InNacks
	c.PacketsOut = c.OutInterests + c.OutData + c.OutNacks
	c.BytesIn = f.dec.Bytes.Load()
	c.FramesIn = f.dec.Frames.Load()
	c.Malformed = f.dec.Malformed.Load()
	c.Unsupported = f.dec.Unsupported.Load()
	c.FragmentsIn = f.dec.Fragments.Load()
	c.ReassemblyErrors = f.dec.ReassemblyErrors.Load()
	c.BytesOut = f.txBytes.Load()
	c.FramesOut = f.txFrames.Load()
	c.FragmentsOut = f.txFrags.Load()
	c.SendErrors += f.txErrors.Load()
	if f.q != nil {
		c.Queue = f.q.Stats()
		c.QueueLen, c.QueueBytes = f.q.Len(), f.q.Bytes()
	}
	return c
}

// ErrClosed reports a face that was closed.
var ErrClosed = errors.New("face closed")

// Close stops the face: nothing more is sent or delivered, its reader
// (and writer) stop and its transport closes. A forwarder's face is closed
// on the loop goroutine; an application's from any goroutine. It may be
// called more than once, and does not wait for the goroutines.
func (f *Face) Close() error {
	var err error
	f.closeOnce.Do(func() {
		if f.loop != nil {
			f.loop.RemoveSource(&f.in)
		}
		f.closed.Store(true)
		close(f.closing)
		if f.closeTx != nil {
			if err = f.closeTx(); err != nil {
				f.log.Debug("close", "face", f.cfg.Remote, "err", err)
			}
		}
	})
	return err
}

// Closed reports whether Close was called.
func (f *Face) Closed() bool { return f.closed.Load() }
