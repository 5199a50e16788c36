package fwconf

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"slices"
	"time"

	"github.com/ndncc/ndncc/scenario"
	"github.com/ndncc/ndncc/topology"
)

// Defaults of an `ndncc fw` configuration (docs/forwarder.md): NFD's
// where a live forwarder needs one, the scenario's otherwise.
const (
	// DefaultSocket is where NFD and ndnd listen for local applications.
	DefaultSocket = "/run/nfd/nfd.sock"
	// DefaultListen is NFD's UDP and TCP listening address (port 6363).
	DefaultListen = "0.0.0.0:6363"
	// DefaultMTU is ndnd's UDP MTU.
	DefaultMTU = 1420
	// DefaultIdleTimeout closes an on-demand UDP face idle this long
	// (NFD's default).
	DefaultIdleTimeout = 600 * time.Second
	// DefaultQueue marks by send-queue backlog, counting the socket's
	// kernel send queue, as NFD does on its UDP, TCP and Unix faces.
	// (A scenario's simulated links default to droptail.)
	DefaultQueue = "threshold-mark"

	// The forwarder's limits (docs/security.md), package fw's defaults:
	// live/fwd's tests check that they agree.
	//
	// DefaultMaxInterestLifetime caps how long a PIT record is kept.
	DefaultMaxInterestLifetime = 2 * time.Minute
	// DefaultPITCapacity bounds the PIT's entries.
	DefaultPITCapacity = 1 << 18
	// DefaultPITFaceLimit bounds the in-records of one incoming face.
	DefaultPITFaceLimit = DefaultPITCapacity / 16
	// DefaultMaxNameComponents bounds a name's components.
	DefaultMaxNameComponents = 128
	// DefaultDeadNonceCapacity bounds the dead-nonce list.
	DefaultDeadNonceCapacity = 1 << 16
	// DefaultMaxFaces bounds the face table: a listener's new face
	// beyond it is closed at once (configured faces always open).
	DefaultMaxFaces = 4096
)

// Config is an `ndncc fw` configuration. Its forwarding keys are a
// scenario's: strategy, cs-capacity, queue and queue-params as in
// [routers], link emulation with an inline link's keys, loss-detection as
// in [[links]].
type Config struct {
	File string // the file read, "" for the defaults
	// Socket is the Unix stream socket for local applications; UDP and
	// TCP the addresses ("host:port") of the UDP and TCP listeners. ""
	// disables a listener.
	Socket, UDP, TCP string
	// ListenSet says which of socket, udp and tcp the file set: a
	// listener the file did not ask for may fail to open (the port is
	// taken) with a warning.
	ListenSet struct{ Socket, UDP, TCP bool }
	// MTU is the datagram size of UDP faces.
	MTU int
	// IdleTimeout closes an on-demand UDP face that received nothing for
	// this long.
	IdleTimeout time.Duration
	// Strategy is the strategy of the root namespace; CSCapacity the
	// Content Store's capacity in Data packets (0 disables it).
	Strategy   string
	CSCapacity int
	// Queue and QueueParams are the discipline of every face's send
	// queue unless the face sets its own.
	Queue       string
	QueueParams map[string]string
	// LossDetection runs the link-loss shim on every UDP face unless the
	// face says otherwise.
	LossDetection bool
	// Limits of the forwarder's state and work (docs/security.md):
	// MaxInterestLifetime caps a PIT record's lifetime; PITCapacity
	// bounds the PIT's entries and PITFaceLimit one incoming face's
	// in-records; MaxNameComponents a name's components;
	// DeadNonceCapacity the dead-nonce list; MaxFaces the face table.
	MaxInterestLifetime time.Duration
	PITCapacity         int
	PITFaceLimit        int
	MaxNameComponents   int
	DeadNonceCapacity   int
	MaxFaces            int
	// HeaderOverhead is the bytes an emulated link adds to every frame
	// (IP, UDP and link headers), as a scenario's header-overhead.
	HeaderOverhead int
	// StrategyChoices set strategies for namespaces; Faces are created at
	// start (permanent faces), Routes added to them.
	StrategyChoices []StrategyChoice
	Faces           []Face
	Routes          []Route
	Pos             topology.Pos
}

// StrategyChoice is one [[strategy-choice]] entry.
type StrategyChoice struct {
	Prefix   string
	Strategy string
	Pos      topology.Pos
}

// Face is one [[face]] entry: a permanent face to a peer forwarder.
type Face struct {
	// ID names the face for routes; default: Remote.
	ID string
	// Remote is the peer: "udp4://host:port", "tcp4://host:port" (udp6,
	// tcp6, udp, tcp likewise; the port defaults to 6363).
	Remote string
	// Scheme and Address are Remote parsed: "udp4", "127.0.0.1:6363".
	Scheme, Address string
	// Queue and QueueParams override the configuration's; "" and nil
	// inherit them (parameters merge key by key while the discipline stays
	// the same, as in a scenario).
	Queue       string
	QueueParams map[string]string
	// LossDetection runs the link-loss shim on this face (UDP only);
	// nil inherits the configuration's.
	LossDetection *bool
	// MTU overrides the configuration's for this UDP face (0: inherit).
	MTU int
	// Out and In are the link the face emulates in each direction:
	// towards the peer (on the face's send queue) and from it (on the way
	// in, before the forwarder sees the packet).
	Out, In LinkEmulation
	// InQueue, if set, is the way in's discipline instead of the face's,
	// as if Queue named it with no QueueParams: Go only, no configuration
	// key (the emulator's TCP tunnels delay what arrives in a drop-tail
	// line, since their marking queue is the sender's).
	InQueue string
	// Pos is the [[face]] entry's position, RemotePos its remote key's.
	Pos, RemotePos topology.Pos
}

// LinkEmulation is one direction of an emulated link, with the meaning of
// a Mini-NDN link line: a transmitter of Bandwidth bit/s (0: unlimited)
// fed by a queue of at most QueuePackets packets (0: the face's default)
// and QueueBytes bytes (0: no byte limit), then Delay of propagation, and
// an independent Loss probability (0..1) per packet.
type LinkEmulation struct {
	Bandwidth    float64
	Delay        time.Duration
	Loss         float64
	Jitter       time.Duration
	QueuePackets int
	QueueBytes   int
}

// Emulated reports whether the direction shapes traffic: a rate, a delay,
// a jitter or a loss (a queue limit alone only bounds the face's queue).
func (l LinkEmulation) Emulated() bool {
	return l.Bandwidth > 0 || l.Delay > 0 || l.Loss > 0 || l.Jitter > 0
}

// Route is one [[route]] entry: a static FIB route to a [[face]].
type Route struct {
	Prefix string
	Face   string // a [[face]]'s id (or remote)
	Cost   uint64
	Pos    topology.Pos
}

// Default returns the configuration of a forwarder started without
// a file.
func Default() *Config {
	return &Config{
		Socket: DefaultSocket, UDP: DefaultListen, TCP: DefaultListen,
		MTU: DefaultMTU, IdleTimeout: DefaultIdleTimeout,
		Strategy: scenario.DefaultStrategy, CSCapacity: scenario.DefaultCSCapacity,
		Queue: DefaultQueue, QueueParams: map[string]string{},
		HeaderOverhead: scenario.DefaultHeaderOverhead,

		MaxInterestLifetime: DefaultMaxInterestLifetime,
		PITCapacity:         DefaultPITCapacity, PITFaceLimit: DefaultPITFaceLimit,
		MaxNameComponents: DefaultMaxNameComponents, DeadNonceCapacity: DefaultDeadNonceCapacity,
		MaxFaces: DefaultMaxFaces,
	}
}

// QueueFor returns the discipline and parameters of face ff's send queue.
func (c *Config) QueueFor(ff *Face) (string, map[string]string) {
	return scenario.MergeQueue(c.Queue, c.QueueParams, ff.Queue, ff.QueueParams)
}

// LossDetectionFor reports whether face ff runs the link-loss shim.
func (c *Config) LossDetectionFor(ff *Face) bool {
	if ff.LossDetection != nil {
		return *ff.LossDetection
	}
	return c.LossDetection && (ff.Scheme == "udp4" || ff.Scheme == "udp6")
}

// Load reads an `ndncc fw` configuration file (see Parse).
func Load(file string) (*Config, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("load forwarder configuration: %w", err)
	}
	return Parse(data, file)
}

// Parse decodes and checks an `ndncc fw` configuration
// (docs/forwarder.md). Keys left out keep Default's values;
// unknown keys are errors. Every error reads "file:line: field: message";
// all problems found are reported together. Strategy and queue names are
// checked by the forwarder, which knows them.
func Parse(data []byte, file string) (*Config, error) {
	k, raw, err := scenario.NewKeys(data, file)
	if err != nil {
		return nil, err
	}
	c := decode(k, raw)
	if err := k.Err(); err != nil {
		return nil, err
	}
	return c, nil
}

// decode decodes the configuration's top-level table m.
func decode(d *scenario.Keys, m map[string]any) *Config {
	c := Default()
	c.File, c.Pos = d.File(), topology.Pos{File: d.File()}
	d.Known(m, "", "socket", "udp", "tcp", "mtu", "idle-timeout", "strategy", "cs-capacity",
		"queue", "queue-params", "loss-detection", "header-overhead", "strategy-choice", "face", "route",
		"max-interest-lifetime", "pit-capacity", "pit-face-limit", "max-name-components", "dead-nonce-capacity", "max-faces")
	c.ListenSet.Socket = d.String(m, "", "socket", &c.Socket)
	c.ListenSet.UDP = d.String(m, "", "udp", &c.UDP)
	c.ListenSet.TCP = d.String(m, "", "tcp", &c.TCP)
	for _, k := range []struct {
		key  string
		addr string
	}{{"udp", c.UDP}, {"tcp", c.TCP}} {
		if _, ok := m[k.key]; ok && k.addr != "" {
			if _, _, err := net.SplitHostPort(k.addr); err != nil {
				d.Errorf(k.key, "want host:port (such as 0.0.0.0:6363), or \"\" for no listener: %v", err)
			}
		}
	}
	if d.Int(m, "", "mtu", &c.MTU) && (c.MTU < 576 || c.MTU > 65507) {
		d.Errorf("mtu", "must be 576 to 65507 bytes, got %d", c.MTU)
	}
	if d.Duration(m, "", "idle-timeout", &c.IdleTimeout) && c.IdleTimeout <= 0 {
		d.Errorf("idle-timeout", "must be positive, got %v", c.IdleTimeout)
	}
	if d.String(m, "", "strategy", &c.Strategy) && c.Strategy == "" {
		d.Errorf("strategy", "must not be empty")
	}
	if d.Int(m, "", "cs-capacity", &c.CSCapacity) && c.CSCapacity < 0 {
		d.Errorf("cs-capacity", "must not be negative, got %d", c.CSCapacity)
	}
	if d.String(m, "", "queue", &c.Queue) && c.Queue == "" {
		d.Errorf("queue", "must not be empty")
	}
	if p, ok := d.Params(m, "", "queue-params"); ok {
		c.QueueParams = p
	}
	d.Bool(m, "", "loss-detection", &c.LossDetection)
	if d.Int(m, "", "header-overhead", &c.HeaderOverhead) && c.HeaderOverhead < 0 {
		d.Errorf("header-overhead", "must not be negative, got %d", c.HeaderOverhead)
	}
	if d.Duration(m, "", "max-interest-lifetime", &c.MaxInterestLifetime) && c.MaxInterestLifetime <= 0 {
		d.Errorf("max-interest-lifetime", "must be positive, got %v", c.MaxInterestLifetime)
	}
	for _, k := range []struct {
		key string
		dst *int
	}{
		{"pit-capacity", &c.PITCapacity}, {"pit-face-limit", &c.PITFaceLimit}, {"max-name-components", &c.MaxNameComponents},
		{"dead-nonce-capacity", &c.DeadNonceCapacity}, {"max-faces", &c.MaxFaces},
	} {
		if d.Int(m, "", k.key, k.dst) && *k.dst <= 0 {
			d.Errorf(k.key, "must be positive, got %d", *k.dst)
		}
	}
	for i, t := range d.Tables(m, "", "strategy-choice") {
		path := scenario.JoinIndex("strategy-choice", i)
		d.Known(t, path, "prefix", "strategy")
		sc := StrategyChoice{Pos: d.At(path)}
		d.Prefix(t, path, &sc.Prefix)
		if !d.String(t, path, "strategy", &sc.Strategy) || sc.Strategy == "" {
			d.Errorf(scenario.JoinKey(path, "strategy"), "required: a strategy name")
		}
		c.StrategyChoices = append(c.StrategyChoices, sc)
	}
	ids := map[string]bool{}
	for i, t := range d.Tables(m, "", "face") {
		ff := face(d, t, scenario.JoinIndex("face", i))
		if ids[ff.ID] {
			d.Errorf(scenario.JoinKey(scenario.JoinIndex("face", i), "id"), "face id %q is already used (set a unique id)", ff.ID)
		}
		ids[ff.ID] = true
		c.Faces = append(c.Faces, ff)
	}
	for i, t := range d.Tables(m, "", "route") {
		path := scenario.JoinIndex("route", i)
		d.Known(t, path, "prefix", "face", "cost")
		r := Route{Pos: d.At(path)}
		d.Prefix(t, path, &r.Prefix)
		if !d.String(t, path, "face", &r.Face) {
			d.Errorf(scenario.JoinKey(path, "face"), "required: the id of a [[face]]")
		} else if !ids[r.Face] {
			d.Errorf(scenario.JoinKey(path, "face"), "no [[face]] has id %q (known: %v)", r.Face, sortedKeys(ids))
		}
		var cost int64
		if d.Int64(t, path, "cost", &cost) {
			if cost < 0 {
				d.Errorf(scenario.JoinKey(path, "cost"), "must not be negative, got %d", cost)
			}
			r.Cost = uint64(cost)
		}
		c.Routes = append(c.Routes, r)
	}
	return c
}

// face decodes one [[face]] entry.
func face(d *scenario.Keys, m map[string]any, path string) Face {
	d.Known(m, path, "id", "remote", "queue", "queue-params", "loss-detection", "mtu", "link")
	ff := Face{Pos: d.At(path), RemotePos: d.At(scenario.JoinKey(path, "remote"))}
	if !d.String(m, path, "remote", &ff.Remote) {
		d.Errorf(scenario.JoinKey(path, "remote"), "required: the peer, such as \"udp4://192.0.2.1:6363\"")
	} else if scheme, addr, err := ParseFaceURI(ff.Remote); err != nil {
		d.Errorf(scenario.JoinKey(path, "remote"), "%v", err)
	} else {
		ff.Scheme, ff.Address = scheme, addr
	}
	ff.ID = ff.Remote
	if d.String(m, path, "id", &ff.ID) && ff.ID == "" {
		d.Errorf(scenario.JoinKey(path, "id"), "must not be empty")
	}
	if d.String(m, path, "queue", &ff.Queue) && ff.Queue == "" {
		d.Errorf(scenario.JoinKey(path, "queue"), "must not be empty")
	}
	ff.QueueParams, _ = d.Params(m, path, "queue-params")
	var ld bool
	if d.Bool(m, path, "loss-detection", &ld) {
		if ld && ff.Scheme != "" && ff.Scheme != "udp4" && ff.Scheme != "udp6" {
			d.Errorf(scenario.JoinKey(path, "loss-detection"), "the link-loss shim runs on UDP faces only")
		}
		ff.LossDetection = &ld
	}
	if d.Int(m, path, "mtu", &ff.MTU) && (ff.MTU < 576 || ff.MTU > 65507) {
		d.Errorf(scenario.JoinKey(path, "mtu"), "must be 576 to 65507 bytes, got %d", ff.MTU)
	}
	if t, ok := d.Table(m, path, "link"); ok {
		ff.Out, ff.In = linkEmulation(d, t, scenario.JoinKey(path, "link"))
	}
	return ff
}

// linkEmulation decodes a face's link table: the keys of an inline link
// for both directions, and "out" and "in" tables whose keys override them
// for one direction.
func linkEmulation(d *scenario.Keys, m map[string]any, path string) (out, in LinkEmulation) {
	keys := []string{"delay", "jitter", "bw", "max-queue-size", "max-queue-bytes", "loss"}
	d.Known(m, path, append(slices.Clone(keys), "out", "in")...)
	var both topology.Link
	d.Link(m, path, &both)
	dirs := [2]topology.Link{both, both}
	for i, dir := range []string{"out", "in"} {
		if t, ok := d.Table(m, path, dir); ok {
			d.Known(t, scenario.JoinKey(path, dir), keys...)
			d.Link(t, scenario.JoinKey(path, dir), &dirs[i])
		}
	}
	conv := func(l topology.Link) LinkEmulation {
		return LinkEmulation{Bandwidth: l.Bandwidth, Delay: l.Delay, Loss: l.Loss, Jitter: l.Jitter, QueuePackets: l.QueuePackets, QueueBytes: l.QueueBytes}
	}
	return conv(dirs[0]), conv(dirs[1])
}

// ParseFaceURI parses a peer's face URI, as NFD writes them:
// udp4://host:port, tcp4://host:port (udp6, tcp6; udp and tcp mean the
// v4 ones). The port defaults to 6363. It returns the scheme ("udp4",
// "tcp6", ...) and "host:port".
func ParseFaceURI(uri string) (scheme, addr string, err error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", "", fmt.Errorf("face URI %q: %w", uri, err)
	}
	scheme = u.Scheme
	switch scheme {
	case "udp", "tcp":
		scheme += "4"
	case "udp4", "udp6", "tcp4", "tcp6":
	default:
		return "", "", fmt.Errorf("face URI %q: want udp4://, udp6://, tcp4:// or tcp6:// (host:port)", uri)
	}
	if u.Host == "" || u.Hostname() == "" || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.User != nil {
		return "", "", fmt.Errorf("face URI %q: want %s://host:port", uri, u.Scheme)
	}
	port := u.Port()
	if port == "" {
		port = "6363"
	}
	return scheme, net.JoinHostPort(u.Hostname(), port), nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
