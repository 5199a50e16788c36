package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ndncc/ndncc/topology"
)

// Validate checks s: the settings are in range, every node that producers,
// consumers, TCP flows, router overrides and link queues name exists,
// consumer and TCP flow IDs are unique, every consumer's prefix is served
// by a producer it can reach, and every TCP receiver is reachable from its
// sender. Every problem is reported, as "file:line: field: message" (the
// position of the offending key when s was read from a file), joined in
// line order.
func (s *Scenario) Validate() error {
	v := validator{s: s, served: map[[2]string]int{}}
	if err := s.checkCounts(); err != nil {
		return err
	}
	v.top()
	v.topology()
	v.router("routers", s.Routers, false)
	for _, node := range slices.Sorted(maps.Keys(s.NodeRouters)) {
		path := "routers.node." + node
		r := s.NodeRouters[node]
		if s.Topology != nil && !s.Topology.HasNode(node) {
			v.errorf(path, r.Pos, "no node %q in the topology", node)
		}
		v.router(path, r, true)
	}
	for i, lq := range s.LinkQueues {
		v.linkQueue(fmt.Sprintf("links[%d]", i), lq)
	}
	for i, p := range s.Producers {
		v.producer(i, p)
	}
	ids := map[string]string{}
	for i, c := range s.Consumers {
		path := fmt.Sprintf("consumer[%d]", i)
		if c.ID == "" {
			if c.Node != "" { // else the missing node is the error
				v.errorf(path+".id", c.Pos, "must not be empty")
			}
		} else if strings.ContainsFunc(c.ID, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.')
		}) || strings.HasPrefix(c.ID, ".") {
			v.errorf(path+".id", c.Pos, "consumer id %q names trace files: use letters, digits, '-', '_' and '.' (not first)", c.ID)
		} else if first, dup := ids[c.ID]; dup {
			v.errorf(path+".id", c.Pos, "consumer id %q is already used by %s (set a unique id)", c.ID, first)
		} else {
			ids[c.ID] = path
		}
		v.consumer(path, c)
	}
	v.tcpFlows(ids)
	v.events()
	if len(s.Consumers) == 0 && len(s.TCP) == 0 && !s.NetworkOnly {
		v.errorf("consumer", topology.Pos{}, "the scenario has no consumer (add a [[consumer]] or a [[tcp]] flow)")
	}
	return topology.JoinErrors(v.errs)
}

// connected reports whether a path of links joins the nodes a and b of
// the topology.
func (v *validator) connected(a, b string) bool {
	if v.component == nil {
		v.component = v.s.Topology.Components()
	}
	ca, okA := v.component[a]
	cb, okB := v.component[b]
	return okA && okB && ca == cb
}

// checkCounts enforces the limits on the number of entries (a scenario
// built in Go; the decoder checks a file's before decoding them).
func (s *Scenario) checkCounts() error {
	for _, c := range []struct {
		key      string
		n, limit int
	}{
		{"links", len(s.LinkQueues), MaxLinkQueues},
		{"producer", len(s.Producers), MaxProducers},
		{"consumer", len(s.Consumers), MaxConsumers},
		{"tcp", len(s.TCP), MaxTCPFlows},
	} {
		if c.n > c.limit {
			return topology.Errorf(topology.Pos{File: s.File}, c.key, "%d entries, over the limit of %d", c.n, c.limit)
		}
	}
	return nil
}

// validator collects the errors of one Validate call.
type validator struct {
	s    *Scenario
	errs []error
	// component numbers the topology's connected components by node
	// (computed once, when a consumer's reachability is first checked).
	component map[string]int
	// served maps (node, prefix) to the producer that serves it;
	// producers indexes them by prefix (made at the first consumer).
	served    map[[2]string]int
	producers *ProducerIndex
}

// errorf records an error about field path, at the position of that key,
// else at fallback, else at the nearest enclosing key, else at the file.
func (v *validator) errorf(path string, fallback topology.Pos, format string, args ...any) {
	v.errs = append(v.errs, topology.Errorf(v.s.pos(path, fallback), path, format, args...))
}

// pos returns the position of key path: its own, else fallback, else that
// of the nearest enclosing key, else the file.
func (s *Scenario) pos(path string, fallback topology.Pos) topology.Pos {
	if p, ok := s.keyPos[path]; ok {
		return p
	}
	if fallback.Line > 0 {
		return fallback
	}
	if p, ok := lookupPos(s.keyPos, path); ok {
		return p
	}
	return topology.Pos{File: s.File}
}

// lookupPos returns the position of path or of its nearest ancestor.
func lookupPos(pos map[string]topology.Pos, path string) (topology.Pos, bool) {
	for path != "" {
		if p, ok := pos[path]; ok {
			return p, true
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return topology.Pos{}, false
}

func (v *validator) top() {
	s := v.s
	if s.Name == "" {
		v.errorf("name", topology.Pos{}, "must not be empty")
	}
	if s.Duration <= 0 {
		v.errorf("duration", topology.Pos{}, "must be positive, got %v", s.Duration)
	}
	if s.HeaderOverhead < 0 || s.HeaderOverhead > MaxHeaderOverhead {
		v.errorf("header-overhead", topology.Pos{}, "must be from 0 to %d bytes, got %d", MaxHeaderOverhead, s.HeaderOverhead)
	}
}

func (v *validator) topology() {
	if v.s.Topology == nil {
		v.errorf("topology", topology.Pos{}, "missing (set file, or nodes and links)")
		return
	}
	if err := v.s.Topology.Validate(); err != nil {
		v.errs = append(v.errs, err)
	}
}

// hasNode reports whether node exists; with no topology it reports true
// (the missing topology is reported once).
func (v *validator) hasNode(node string) bool {
	return v.s.Topology == nil || v.s.Topology.HasNode(node)
}

func (v *validator) node(path, node string, pos topology.Pos) {
	switch {
	case node == "":
		v.errorf(path, pos, "required")
	case !v.hasNode(node):
		v.errorf(path, pos, "no node %q in the topology", node)
	}
}

// router checks one RouterSettings; in an override only set fields count.
func (v *validator) router(path string, r RouterSettings, override bool) {
	set := func(f RouterFields) bool { return !override || r.Set&f != 0 }
	if set(SetStrategy) && r.Strategy == "" {
		v.errorf(path+".strategy", r.Pos, "must not be empty")
	}
	if set(SetCSCapacity) && (r.CSCapacity < 0 || r.CSCapacity > MaxCSCapacity) {
		v.errorf(path+".cs-capacity", r.Pos, "must be from 0 (no Content Store) to %d Data packets, got %d", MaxCSCapacity, r.CSCapacity)
	}
	if set(SetQueue) && r.Queue == "" {
		v.errorf(path+".queue", r.Pos, "must not be empty")
	}
	if set(SetQueueParams) {
		v.params(path+".queue-params", r.QueueParams, r.Pos)
	}
	if set(SetForwarder) && r.Forwarder != "" && !slices.Contains(Forwarders, r.Forwarder) {
		v.errorf(path+".forwarder", r.Pos, "want one of %s, got %q", strings.Join(Forwarders, ", "), r.Forwarder)
	}
}

func (v *validator) params(path string, params map[string]string, pos topology.Pos) {
	if _, ok := params[""]; ok {
		v.errorf(path, pos, "empty parameter name")
	}
}

func (v *validator) linkQueue(path string, lq LinkQueue) {
	v.node(path+".from", lq.From, lq.Pos)
	v.node(path+".to", lq.To, lq.Pos)
	if lq.From != "" && lq.To != "" && v.hasNode(lq.From) && v.hasNode(lq.To) && v.s.Topology != nil {
		if _, ok := v.s.Topology.Link(lq.From, lq.To); !ok {
			v.errorf(path, lq.Pos, "no link joins %q and %q in the topology", lq.From, lq.To)
		}
	}
	if lq.Queue == "" && len(lq.QueueParams) == 0 && !lq.LossDetection && !lq.SetLoss && lq.Shaper == nil && lq.Underlay == nil && lq.Tunnel == "" {
		v.errorf(path, lq.Pos, "sets none of queue, queue-params, loss, loss-detection, shaper-rate-mbps, underlay-rate-mbps, tunnel")
	}
	if lq.TCPSendBuffer != 0 && lq.Tunnel != "tcp" {
		v.errorf(path, lq.Pos, "tcp-send-buffer needs tunnel = \"tcp\"")
	}
	if lq.Tunnel == "tcp" && (lq.LossDetection || lq.Underlay != nil || lq.Shaper != nil) {
		v.errorf(path, lq.Pos, "a TCP tunnel runs no link-loss shim, underlay or Interest shaper")
	}
	if ul := lq.Underlay; ul != nil && (!(ul.Rate > 0) || ul.QueuePackets <= 0) {
		v.errorf(path, lq.Pos, "underlay: want a positive rate and queue (packets)")
	}
	if sh := lq.Shaper; sh != nil && (!(sh.Rate > 0) || sh.DataSize < 0 || sh.Queue < 0) {
		v.errorf(path, lq.Pos, "interest shaper: want a positive rate and a non-negative Data size and queue")
	}
	v.params(path+".queue-params", lq.QueueParams, lq.Pos)
}

func (v *validator) producer(i int, p Producer) {
	path := fmt.Sprintf("producer[%d]", i)
	v.node(path+".node", p.Node, p.Pos)
	if _, err := parseName(p.Prefix); err != nil {
		v.errorf(path+".prefix", p.Pos, "%v", err)
	}
	if j, dup := v.served[[2]string{p.Node, p.Prefix}]; dup {
		v.errorf(path+".prefix", p.Pos, "producer[%d] already serves %q on %q", j, p.Prefix, p.Node)
	} else {
		v.served[[2]string{p.Node, p.Prefix}] = i
	}
	if p.Announce != "" {
		if an, err := parseName(p.Announce); err != nil {
			v.errorf(path+".announce", p.Pos, "%v", err)
		} else if pn, err := parseName(p.Prefix); err == nil && !an.IsPrefix(pn) {
			v.errorf(path+".announce", p.Pos, "%q is not a prefix of the producer's prefix %q", p.Announce, p.Prefix)
		}
	}
	switch {
	case p.FileSize == 0:
		v.errorf(path+".file-size", p.Pos, "required (the object size, in bytes or with a unit such as \"10MiB\")")
	case p.FileSize < 0:
		v.errorf(path+".file-size", p.Pos, "must be positive, got %d", p.FileSize)
	case p.FileSize > MaxObjectBytes:
		v.errorf(path+".file-size", p.Pos, "%d bytes is over the limit of 1 TiB", p.FileSize)
	}
	if p.SegmentSize <= 0 || p.SegmentSize > MaxSegmentSize {
		v.errorf(path+".segment-size", p.Pos, "must be from 1 to %d bytes (NDN's packet size limit), got %d", MaxSegmentSize, p.SegmentSize)
	}
	if !slices.Contains(Signatures(), p.Signature) {
		v.errorf(path+".signature", p.Pos, "unknown signature %q (use one of %s)", p.Signature, strings.Join(Signatures(), ", "))
	}
	if p.Freshness < 0 {
		v.errorf(path+".freshness", p.Pos, "must not be negative, got %v", p.Freshness)
	}
}

func (v *validator) consumer(path string, c Consumer) {
	v.node(path+".node", c.Node, c.Pos)
	if c.Start < 0 {
		v.errorf(path+".start", c.Pos, "must not be negative, got %v", c.Start)
	} else if v.s.Duration > 0 && c.Start >= v.s.Duration {
		v.errorf(path+".start", c.Pos, "%v is not before the end of the run (duration %v)", c.Start, v.s.Duration)
	}
	switch {
	case c.Pipeline == "" && c.App == "":
		v.errorf(path+".pipeline", c.Pos, "required (or app, a traffic application: cbr, zipf, batches)")
	case c.Pipeline != "" && c.App != "":
		v.errorf(path+".app", c.Pos, "a consumer fetches with a pipeline (%q) or runs an app (%q), not both", c.Pipeline, c.App)
	}
	v.params(path+".params", c.Params, c.Pos)
	if _, err := parseName(c.Prefix); err != nil {
		v.errorf(path+".prefix", c.Pos, "%v", err)
		return
	}
	v.servedBy(path, c)
}

// servedBy checks that some producer serves c's prefix and that c can reach
// one of them.
func (v *validator) servedBy(path string, c Consumer) {
	if v.producers == nil {
		v.producers = v.s.NewProducerIndex()
	}
	producers := v.producers.For(c.Prefix)
	if len(producers) == 0 {
		v.errorf(path+".prefix", c.Pos, "no producer serves %q (a consumer fetches the object a [[producer]] serves under exactly this prefix)", c.Prefix)
		return
	}
	t := v.s.Topology
	if t == nil || !t.HasNode(c.Node) {
		return
	}
	for _, p := range producers {
		if v.connected(c.Node, p.Node) {
			return
		}
	}
	v.errorf(path+".prefix", c.Pos, "no producer of %q is reachable from node %q", c.Prefix, c.Node)
}
