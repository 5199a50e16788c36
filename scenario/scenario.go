package scenario

import (
	"maps"
	"slices"
	"time"

	"github.com/ndncc/ndncc/topology"
)

// Scenario is one simulated experiment: a topology, the forwarders' and
// queues' settings, the producers and the consumers. Load and Parse read it
// from a TOML file; the experiment catalog builds it in Go, starting from
// Default. Field names in errors are the TOML keys (see the package doc).
type Scenario struct {
	// File is the scenario file it was read from; "" when built in Go.
	File string
	// NetworkOnly marks a scenario made from a bare topology file
	// (FromTopologyFile): it needs no flow to be valid, as the emulator
	// holds such a network up for programs of the user's.
	NetworkOnly bool
	// Name identifies the scenario in reports; the file's base name by
	// default.
	Name        string
	Description string
	// Seed seeds every random number generator of a run.
	Seed uint64
	// Duration is the simulated-time limit of a run.
	Duration time.Duration
	// HeaderOverhead is the number of bytes added to every packet on every
	// link (lower-layer headers that NDN does not see).
	HeaderOverhead int
	// Profile names the parameter profile of every consumer that names
	// none itself (see Consumer.Profile); "" for none.
	Profile string
	// Topology is the network; TopologyFile is the Mini-NDN file it was
	// read from (resolved against the scenario's directory), "" when it is
	// inline or built in Go.
	Topology     *topology.Topology
	TopologyFile string
	// Routers are the forwarder settings of every node; NodeRouters
	// overrides them per node (see RouterFor).
	Routers     RouterSettings
	NodeRouters map[string]RouterSettings
	// LinkQueues override the queue discipline of link directions, applied
	// in order (see QueueFor).
	LinkQueues []LinkQueue
	Producers  []Producer
	Consumers  []Consumer
	// TCP are bulk TCP transfers sharing the network ([[tcp]]).
	TCP []TCPFlow
	// Events are scheduled changes to links and nodes ([[event]]), in
	// file order (SortedEvents orders them in time).
	Events []Event

	// keyPos maps TOML key paths ("consumer[0].node") to their position;
	// nil for a scenario built in Go.
	keyPos map[string]topology.Pos
}

// The forwarders a node may run in the emulator ([routers] forwarder):
// ndncc's own (live/fwd, in the emulator's process), NFD's nfd and ndnd's
// `ndnd fw`, each as a process of its own.
const (
	ForwarderNDNCC = "ndncc"
	ForwarderNFD   = "nfd"
	ForwarderNDND  = "ndnd"
)

// Forwarders are the values of [routers] forwarder.
var Forwarders = []string{ForwarderNDNCC, ForwarderNFD, ForwarderNDND}

// RouterFields says which fields of a RouterSettings are set.
type RouterFields uint8

// The fields of RouterSettings.
const (
	SetStrategy RouterFields = 1 << iota
	SetCSCapacity
	SetQueue
	SetQueueParams
	SetForwarder

	// SetAll marks every field as set.
	SetAll = SetStrategy | SetCSCapacity | SetQueue | SetQueueParams | SetForwarder
)

// RouterSettings configure a node's forwarder and the output queues of its
// links. In Scenario.Routers every field counts; in a per-node override only
// the fields flagged in Set do.
type RouterSettings struct {
	// Strategy is the forwarding strategy name (validated by the
	// simulator).
	Strategy string
	// CSCapacity is the Content Store capacity in Data packets; 0 disables
	// the Content Store.
	CSCapacity int
	// Queue is the output-queue discipline of every link direction leaving
	// the node, and QueueParams its parameters (validated by the simulator).
	Queue       string
	QueueParams map[string]string
	// Forwarder is the forwarder the emulator runs on the node: one of
	// Forwarders ("" is ForwarderNDNCC). The simulator always models
	// ndncc's own; the emulator runs an external one as its own process.
	Forwarder string
	Set       RouterFields
	Pos       topology.Pos
}

// LinkQueue overrides the queue discipline of the link direction From→To,
// or of both directions when Both is set.
type LinkQueue struct {
	From, To string
	Both     bool
	// Queue is the discipline; "" keeps the one the direction already has.
	Queue string
	// QueueParams are merged into the direction's parameters (see
	// QueueFor).
	QueueParams map[string]string
	// LossDetection runs PCON's local link-loss detection (an NDNLPv2
	// sequence/ack shim) on both ends of the link (between only): lost
	// Interests and Data are reported downstream as unmarked Congestion
	// Nacks instead of waiting for the consumer's RTO.
	LossDetection bool
	// Loss, when SetLoss, replaces the topology link's random loss (0..1)
	// on the matching direction(s) (see LossFor).
	Loss    float64
	SetLoss bool
	// Shaper, if set, shapes the Interests sent From→To (on both ends
	// with Both): a hop-by-hop Interest shaper (fw.ShaperConfig) that
	// paces them so their Data return at no more than its rate.
	Shaper *InterestShaper
	// Underlay, if set, puts a hidden IP underlay inside the link
	// direction (both with Both): the link is an overlay (a UDP tunnel)
	// whose frames, once through the link's own transmitter, cross a
	// bottleneck of the underlay that the NDN nodes neither see nor mark.
	Underlay *Underlay
	// Tunnel is "tcp" for a link whose NDN traffic runs over one TCP
	// connection per direction (Both only; see TCPTunnel), "" otherwise.
	Tunnel string
	// TCPSendBuffer is the TCP tunnel's socket send buffer in bytes
	// (tcp-send-buffer; 0: DefaultTCPSendBuffer).
	TCPSendBuffer int
	Pos           topology.Pos
}

// DefaultTCPSendBuffer is a TCP tunnel's socket send buffer: the 200 KB
// paper 002 gives.
const DefaultTCPSendBuffer = 200 * 1000

// TCPTunnel is a link that carries NDN over TCP: the face's send queue
// (the direction's queue discipline, unbounded) above a TCP socket of
// SendBuffer bytes, whose segments go through the link's own drop-tail
// queue and transmitter.
type TCPTunnel struct {
	SendBuffer int
}

// TCPTunnelFor returns the TCP tunnel of the link a—b, nil if it is not
// one.
func (s *Scenario) TCPTunnelFor(a, b string) *TCPTunnel {
	var t *TCPTunnel
	for _, lq := range s.LinkQueues {
		if lq.Tunnel == "tcp" && lq.Matches(a, b) {
			t = &TCPTunnel{SendBuffer: lq.TCPSendBuffer}
			if t.SendBuffer == 0 {
				t.SendBuffer = DefaultTCPSendBuffer
			}
		}
	}
	return t
}

// LossFor returns the random loss (0..1) of link direction from→to: the
// topology link's, replaced by every matching LinkQueue that sets a loss,
// in order.
func (s *Scenario) LossFor(from, to string) float64 {
	var loss float64
	if l, ok := s.Topology.Link(from, to); ok {
		loss = l.Loss
	}
	for _, lq := range s.LinkQueues {
		if lq.SetLoss && lq.Matches(from, to) {
			loss = lq.Loss
		}
	}
	return loss
}

// Underlay is the bottleneck of an IP underlay beneath an overlay link: a
// drop-tail FIFO of QueuePackets before a transmitter of Rate bit/s (keys
// underlay-rate-mbps, in Mbit/s, and underlay-queue). Frames it drops are
// lost without notice; a link-loss shim on the link (loss-detection)
// reports them, and as losses in an underlay are congestion, with marked
// Nacks.
type Underlay struct {
	Rate         float64
	QueuePackets int
}

// UnderlayFor returns the underlay of link direction from→to (the last
// matching link queue's), nil if it has none.
func (s *Scenario) UnderlayFor(from, to string) *Underlay {
	var ul *Underlay
	for _, lq := range s.LinkQueues {
		if lq.Underlay != nil && lq.Matches(from, to) {
			ul = lq.Underlay
		}
	}
	return ul
}

// InterestShaper configures a hop-by-hop Interest shaper (fw.ShaperConfig).
type InterestShaper struct {
	// Rate is the Data rate in bit/s the Interests may draw back
	// (link-queue key shaper-rate-mbps, in Mbit/s).
	Rate float64
	// DataSize is the Data size on the wire the shaper assumes, in bytes
	// (shaper-data-size; default: a Data of the scenario's segment size).
	DataSize int
	// Queue is how many Interests wait (shaper-queue; default
	// fw.DefaultShaperQueue).
	Queue int
}

// LossDetection reports whether the link a—b runs the link-loss shim.
func (s *Scenario) LossDetection(a, b string) bool {
	for _, lq := range s.LinkQueues {
		if lq.Both && lq.LossDetection && (lq.From == a && lq.To == b || lq.From == b && lq.To == a) {
			return true
		}
	}
	return false
}

// Producer serves one object, segmented, under a name prefix.
type Producer struct {
	Node   string
	Prefix string
	// FileSize is the object size in bytes.
	FileSize int64
	// SegmentSize is the payload of every Data but the last, in bytes.
	SegmentSize int
	// Signature is the Data signature type: one of Signatures.
	Signature string
	// Freshness is the FreshnessPeriod of every Data (0: none).
	Freshness time.Duration
	// Announce is the prefix the producer's node routes to it from every
	// other node, a prefix of Prefix; "" means Prefix. Producers on one
	// node that announce the same prefix share one route in every other
	// node's FIB, as the files of a server behind one registered prefix.
	Announce string
	// Program, if set, is the program that serves the object in the
	// emulator instead of ndncc's producer (ndnputchunks, ndnd), run with
	// Args on the node's Unix socket, the object's bytes on its standard
	// input. The simulator models ndncc's producer.
	Program string
	Args    []string
	Pos     topology.Pos
}

// Consumer fetches the object under Prefix with a segment-fetch pipeline.
type Consumer struct {
	// ID names the consumer in results; unique in a scenario.
	ID     string
	Node   string
	Prefix string
	// Start is when the consumer starts fetching, in simulated time.
	Start time.Duration
	// Pipeline names the pipeline (validated by the simulator), and Params
	// its and its algorithm's parameters as strings.
	Pipeline string
	// Profile names a parameter profile (package consumer: ndnget,
	// seed000, ...) whose values apply before Params; "" takes the
	// scenario's Profile (see ProfileOf).
	Profile string
	// App names a traffic application (cbr, zipf, batches: package
	// consumer's) that sends numbered Interests instead of fetching the
	// object with a pipeline; Params are then its parameters. A consumer
	// has a Pipeline or an App, not both.
	App    string
	Params map[string]string
	// ParamPos gives the position of every key of Params, so that whoever
	// interprets a parameter can report "file:line: field: message"; nil
	// for a scenario built in Go.
	ParamPos map[string]topology.Pos
	// Program, if set, is the program that fetches the object in the
	// emulator instead of ndncc's consumer (ndncatchunks, ndnd), run with
	// Args on the node's Unix socket at the consumer's start time; its
	// summary fills the flow's result. The simulator models the flow
	// with Pipeline and Params.
	Program string
	Args    []string
	Pos     topology.Pos
	// pipelineSet says that Set chose Pipeline (--set, --sweep, an
	// experiment's variant): Params written for the file's pipeline that
	// the new one does not have are then dropped (PipelineSet).
	pipelineSet bool
}

// PipelineSet reports whether Set chose the consumer's pipeline, over the
// one its file gave: whoever interprets Params then drops those the new
// pipeline does not have, and says so, instead of refusing them.
func (c Consumer) PipelineSet() bool { return c.pipelineSet }

// Default returns a scenario with every default filled in (see
// defaults.go) and no topology, producer or consumer.
func Default() *Scenario {
	return &Scenario{
		Seed:           DefaultSeed,
		Duration:       DefaultDuration,
		HeaderOverhead: DefaultHeaderOverhead,
		Routers: RouterSettings{
			Strategy:    DefaultStrategy,
			CSCapacity:  DefaultCSCapacity,
			Queue:       DefaultQueue,
			QueueParams: map[string]string{},
			Set:         SetAll,
		},
		NodeRouters: map[string]RouterSettings{},
	}
}

// NewProducer returns a producer with the default segment size, signature
// and freshness.
func NewProducer(node, prefix string, fileSize int64) Producer {
	return Producer{Node: node, Prefix: prefix, FileSize: fileSize,
		SegmentSize: DefaultSegmentSize, Signature: DefaultSignature, Freshness: DefaultFreshness}
}

// NewConsumer returns a consumer with ID node, starting at DefaultStart,
// with no parameters.
func NewConsumer(node, prefix, pipeline string) Consumer {
	return Consumer{ID: node, Node: node, Prefix: prefix, Start: DefaultStart,
		Pipeline: pipeline, Params: map[string]string{}}
}

// RouterFor returns the settings of node's forwarder: Routers with the
// fields that NodeRouters[node] sets replaced. Queue parameters follow
// mergeQueue. The result has every field set and its own QueueParams map.
func (s *Scenario) RouterFor(node string) RouterSettings {
	r := s.Routers
	r.QueueParams = maps.Clone(r.QueueParams)
	if r.QueueParams == nil {
		r.QueueParams = map[string]string{}
	}
	r.Set = SetAll
	o, ok := s.NodeRouters[node]
	if !ok {
		return r
	}
	if o.Set&SetStrategy != 0 {
		r.Strategy = o.Strategy
	}
	if o.Set&SetCSCapacity != 0 {
		r.CSCapacity = o.CSCapacity
	}
	if o.Set&SetForwarder != 0 {
		r.Forwarder = o.Forwarder
	}
	var q string
	if o.Set&SetQueue != 0 {
		q = o.Queue
	}
	var p map[string]string
	if o.Set&SetQueueParams != 0 {
		p = o.QueueParams
	}
	r.Queue, r.QueueParams = mergeQueue(r.Queue, r.QueueParams, q, p)
	r.Pos = o.Pos
	return r
}

// QueueFor returns the queue discipline and parameters of the output queue
// of link direction from→to: those of RouterFor(from), then every LinkQueue
// matching the direction applied in order, with mergeQueue. The map is the
// caller's.
func (s *Scenario) QueueFor(from, to string) (queue string, params map[string]string) {
	r := s.RouterFor(from)
	queue, params = r.Queue, r.QueueParams
	for _, lq := range s.LinkQueues {
		if lq.Matches(from, to) {
			queue, params = mergeQueue(queue, params, lq.Queue, lq.QueueParams)
		}
	}
	return queue, params
}

// QueuePos returns where the queue of link direction from→to is set: the
// last of RouterFor(from) and the matching LinkQueues, as QueueFor applies
// them (for errors about the discipline or its parameters).
func (s *Scenario) QueuePos(from, to string) topology.Pos {
	pos := s.RouterFor(from).Pos
	for _, lq := range s.LinkQueues {
		if lq.Matches(from, to) {
			pos = lq.Pos
		}
	}
	if pos == (topology.Pos{}) {
		pos.File = s.File
	}
	return pos
}

// Matches reports whether lq applies to the link direction from→to.
func (lq LinkQueue) Matches(from, to string) bool {
	return (lq.From == from && lq.To == to) || (lq.Both && lq.From == to && lq.To == from)
}

// mergeQueue applies an override (queue, params) to an inherited
// discipline and its parameters: queue "" keeps the inherited discipline.
// The inherited parameters are kept only when the discipline stays the
// same (parameters of another discipline would mean nothing); params are
// then merged over them key by key. base is not modified.
func mergeQueue(baseQueue string, baseParams map[string]string, queue string, params map[string]string) (string, map[string]string) {
	out := map[string]string{}
	if queue == "" || queue == baseQueue {
		queue = baseQueue
		maps.Copy(out, baseParams)
	}
	maps.Copy(out, params)
	return queue, out
}

// Clone returns a deep copy of s, except the Topology, which the copy
// shares (a topology is not modified once built).
func (s *Scenario) Clone() *Scenario {
	c := *s
	c.Routers.QueueParams = maps.Clone(s.Routers.QueueParams)
	c.NodeRouters = make(map[string]RouterSettings, len(s.NodeRouters))
	for n, r := range s.NodeRouters {
		r.QueueParams = maps.Clone(r.QueueParams)
		c.NodeRouters[n] = r
	}
	c.LinkQueues = slices.Clone(s.LinkQueues)
	for i := range c.LinkQueues {
		c.LinkQueues[i].QueueParams = maps.Clone(c.LinkQueues[i].QueueParams)
	}
	c.Producers = slices.Clone(s.Producers)
	c.Consumers = slices.Clone(s.Consumers)
	for i := range c.Consumers {
		c.Consumers[i].Params = maps.Clone(c.Consumers[i].Params)
		c.Consumers[i].ParamPos = maps.Clone(c.Consumers[i].ParamPos)
	}
	c.TCP = slices.Clone(s.TCP)
	c.Events = slices.Clone(s.Events)
	c.keyPos = maps.Clone(s.keyPos)
	return &c
}

// ProfileOf returns the parameter profile of consumer c: its own, else the
// scenario's.
func (s *Scenario) ProfileOf(c Consumer) string {
	if c.Profile != "" {
		return c.Profile
	}
	return s.Profile
}

// ProducerIndex finds the producers of a prefix in a scenario with many
// (ProducersFor parses every producer's prefix at each call).
type ProducerIndex struct {
	s  *Scenario
	by map[string][]int // canonical prefix -> producer indexes
}

// NewProducerIndex indexes s's producers by prefix. It does not follow
// later changes to s.
func (s *Scenario) NewProducerIndex() *ProducerIndex {
	x := &ProducerIndex{s: s, by: make(map[string][]int, len(s.Producers))}
	for i, p := range s.Producers {
		if pn, err := parseName(p.Prefix); err == nil {
			k := pn.String()
			x.by[k] = append(x.by[k], i)
		}
	}
	return x
}

// For returns the producers whose prefix is name, as ProducersFor does.
func (x *ProducerIndex) For(name string) []Producer {
	want, err := parseName(name)
	if err != nil {
		return nil
	}
	var out []Producer
	for _, i := range x.by[want.String()] {
		out = append(out, x.s.Producers[i])
	}
	return out
}

// ProducersFor returns the producers whose prefix is name (compared as NDN
// names, component by component) — those that can serve a consumer of
// name, which fetches the object a producer serves under its prefix.
func (s *Scenario) ProducersFor(name string) []Producer {
	want, err := parseName(name)
	if err != nil {
		return nil
	}
	var out []Producer
	for _, p := range s.Producers {
		if pn, err := parseName(p.Prefix); err == nil && pn.Equal(want) {
			out = append(out, p)
		}
	}
	return out
}
