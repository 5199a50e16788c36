package scenario

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/ndncc/ndncc/topology"
)

// ParseValue reads the text of a value given on a command line (KEY=VALUE)
// as a TOML value: 32 is an integer, 0.5 a float, true a boolean, "a b" a
// string; text that is no TOML value (10ms, pcon, /example/file) is the
// string itself.
func ParseValue(text string) any {
	var doc struct{ V any }
	if err := toml.Unmarshal([]byte("V = "+text), &doc); err == nil {
		switch v := doc.V.(type) {
		case string, int64, float64, bool:
			return v
		}
	}
	return text
}

// Assignment is one KEY=VALUE setting of a scenario key (Set).
type Assignment struct {
	Key   string
	Value any
	// Pos is where the setting was written (a command-line flag, a line of
	// an experiment file); errors about the key point there.
	Pos topology.Pos
}

// ParseAssignment parses "KEY=VALUE" as given to --set (the value as
// ParseValue reads it); origin names where it came from in errors.
func ParseAssignment(text, origin string) (Assignment, error) {
	k, v, ok := strings.Cut(text, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return Assignment{}, fmt.Errorf("%s %q: want KEY=VALUE, such as links.router1-router2.max-queue-size=64", origin, text)
	}
	return Assignment{Key: k, Value: ParseValue(strings.TrimSpace(v)), Pos: topology.Pos{File: origin}}, nil
}

// Apply sets every assignment in order (see Set) and returns all the
// errors, joined.
func (s *Scenario) Apply(as []Assignment) error {
	var errs []error
	for _, a := range as {
		if err := s.Set(a.Key, a.Value, a.Pos); err != nil {
			errs = append(errs, err)
		}
	}
	return topology.JoinErrors(errs)
}

// Set assigns value to the scenario key named by path, as `ndncc sim
// --set` and experiment files do. Paths follow the file's structure
// (docs/scenario.md, "Setting keys"):
//
//	name, description, seed, duration, header-overhead, profile
//	routers.KEY, routers.queue-params.P          KEY: strategy, cs-capacity, queue, forwarder
//	routers.node.NODE.KEY, routers.node.NODE.queue-params.P
//	links.A-B.KEY       the link A—B: delay, bw, max-queue-size, max-queue-bytes, loss
//	                    (both directions), queue, queue-params.P, loss-detection,
//	                    shaper-*, underlay-*, tunnel, tcp-send-buffer
//	links.A->B.KEY      the direction A→B: queue, queue-params.P, loss, shaper-*,
//	                    underlay-*
//	producer[I].KEY, producer.*.KEY              KEY: a [[producer]] key
//	consumer[I].KEY, consumer.ID.KEY, consumer.*.KEY   KEY: node, prefix,
//	                    start, pipeline, profile, params.P
//	tcp[I].KEY, tcp.ID.KEY, tcp.*.KEY            KEY: a [[tcp]] key but id
//
// value is a TOML value (string, int64, float64, bool: ParseValue's or a
// TOML decoder's), decoded and checked as the same key in a file would be;
// range and cross-reference checks are Validate's, which name the key at
// pos. Queue and link settings are appended as [[links]] entries, so they
// apply after the file's. A topology shared with clones is copied before
// it is changed.
func (s *Scenario) Set(path string, value any, pos topology.Pos) error {
	d := &decoder{file: pos.File, pos: map[string]topology.Pos{}}
	d.setPos = pos
	st := setter{s: s, d: d, value: value}
	if err := st.set(path); err != nil {
		return topology.Errorf(pos, path, "%v", err)
	}
	if len(d.errs) > 0 {
		return topology.JoinErrors(d.errs)
	}
	if s.keyPos == nil {
		s.keyPos = map[string]topology.Pos{}
	}
	for _, p := range st.paths {
		s.keyPos[p] = pos
	}
	return nil
}

// setter is the state of one Set call.
type setter struct {
	s     *Scenario
	d     *decoder
	value any
	// paths are the canonical key paths the call set (for Validate's
	// positions).
	paths []string
}

// one returns {key: value}, with a dotted key "a.b" as {a: {b: value}}.
func (st *setter) one(key string) map[string]any {
	if head, rest, ok := strings.Cut(key, "."); ok {
		return map[string]any{head: map[string]any{rest: st.value}}
	}
	return map[string]any{key: st.value}
}

// check reports key as unknown unless it is one of keys, or a parameter
// table key "T.P" with T in tables.
func check(key string, keys, tables []string) error {
	if head, p, ok := strings.Cut(key, "."); ok && slices.Contains(tables, head) {
		if p == "" {
			return fmt.Errorf("empty parameter name")
		}
		return nil
	}
	if slices.Contains(keys, key) {
		return nil
	}
	all := slices.Clone(keys)
	for _, t := range tables {
		all = append(all, t+".NAME")
	}
	return fmt.Errorf("unknown key %q (expected one of: %s)", key, strings.Join(all, ", "))
}

func (st *setter) set(path string) error {
	head, rest, _ := strings.Cut(path, ".")
	base, index, indexed, err := splitIndex(head)
	if err != nil {
		return err
	}
	switch {
	case slices.Contains(topLevelKeys(), path):
		st.d.topLevel(map[string]any{path: st.value}, st.s)
		st.paths = append(st.paths, path)
		return nil
	case head == "routers":
		return st.routers(rest)
	case head == "links":
		return st.links(rest)
	case base == "producer":
		return st.producers(index, indexed, rest)
	case base == "consumer":
		return st.consumers(index, indexed, rest)
	case base == "tcp":
		return st.tcpFlows(index, indexed, rest)
	}
	return fmt.Errorf("unknown key (expected %s, or a key under routers, links, producer, consumer or tcp)",
		strings.Join(topLevelKeys(), ", "))
}

// splitIndex splits "consumer[2]" into "consumer", 2.
func splitIndex(s string) (base string, i int, indexed bool, err error) {
	open := strings.IndexByte(s, '[')
	if open < 0 {
		return s, 0, false, nil
	}
	if !strings.HasSuffix(s, "]") {
		return "", 0, false, fmt.Errorf("%q: want NAME[INDEX]", s)
	}
	i, err = strconv.Atoi(s[open+1 : len(s)-1])
	if err != nil || i < 0 {
		return "", 0, false, fmt.Errorf("%q: the index must be an integer >= 0", s)
	}
	return s[:open], i, true, nil
}

func (st *setter) routers(rest string) error {
	const node = "node."
	keys := []string{"strategy", "cs-capacity", "queue", "forwarder"}
	if !strings.HasPrefix(rest, node) {
		if err := check(rest, keys, []string{"queue-params"}); err != nil {
			return err
		}
		r := st.d.routerSettings(st.one(rest), "routers")
		mergeRouter(&st.s.Routers, r)
		st.paths = append(st.paths, "routers."+rest)
		return nil
	}
	name, key, err := st.nodePrefix(strings.TrimPrefix(rest, node))
	if err != nil {
		return err
	}
	if err := check(key, keys, []string{"queue-params"}); err != nil {
		return err
	}
	path := "routers.node." + name
	r := st.d.routerSettings(st.one(key), path)
	if st.s.NodeRouters == nil {
		st.s.NodeRouters = map[string]RouterSettings{}
	}
	o := st.s.NodeRouters[name]
	mergeRouter(&o, r)
	o.Set |= r.Set
	o.Pos = st.d.setPos
	st.s.NodeRouters[name] = o
	st.paths = append(st.paths, path+"."+key)
	return nil
}

// mergeRouter applies the fields r sets to dst: queue parameters merge key
// by key, and a new discipline starts from no parameters.
func mergeRouter(dst *RouterSettings, r RouterSettings) {
	if r.Set&SetStrategy != 0 {
		dst.Strategy = r.Strategy
	}
	if r.Set&SetCSCapacity != 0 {
		dst.CSCapacity = r.CSCapacity
	}
	if r.Set&SetForwarder != 0 {
		dst.Forwarder = r.Forwarder
	}
	if r.Set&SetQueue != 0 && r.Queue != dst.Queue {
		dst.Queue = r.Queue
		dst.QueueParams = map[string]string{}
		dst.Set |= SetQueueParams
	}
	if r.Set&SetQueueParams != 0 {
		if dst.QueueParams == nil {
			dst.QueueParams = map[string]string{}
		}
		maps.Copy(dst.QueueParams, r.QueueParams)
	}
}

// nodePrefix splits "NODE.KEY" where NODE is a node of the topology (the
// longest that matches, so that names may hold dots).
func (st *setter) nodePrefix(rest string) (node, key string, err error) {
	if st.s.Topology == nil {
		return "", "", fmt.Errorf("the scenario has no topology")
	}
	for _, n := range st.s.Topology.Nodes {
		if strings.HasPrefix(rest, n.Name+".") && len(n.Name) > len(node) {
			node = n.Name
		}
	}
	if node == "" {
		return "", "", fmt.Errorf("no node of the topology begins %q", rest)
	}
	return node, strings.TrimPrefix(rest, node+"."), nil
}

// linkKeys are the keys of links.A-B (the link) and links.A->B (one
// direction).
var (
	linkParamKeys = []string{"delay", "jitter", "bw", "max-queue-size", "max-queue-bytes", "loss"}
	linkBothKeys  = []string{"queue", "loss-detection", "shaper-rate-mbps", "shaper-data-size", "shaper-queue", "underlay-rate-mbps", "underlay-queue", "tunnel", "tcp-send-buffer"}
	linkDirKeys   = []string{"queue", "loss", "shaper-rate-mbps", "shaper-data-size", "shaper-queue", "underlay-rate-mbps", "underlay-queue"}
)

func (st *setter) links(rest string) error {
	t := st.s.Topology
	if t == nil {
		return fmt.Errorf("the scenario has no topology")
	}
	best, idx, directed := "", -1, false
	var from, to string
	for i, l := range t.Links {
		for _, c := range []struct {
			spec     string
			a, b     string
			directed bool
		}{
			{l.A + "-" + l.B, l.A, l.B, false}, {l.B + "-" + l.A, l.B, l.A, false},
			{l.A + "->" + l.B, l.A, l.B, true}, {l.B + "->" + l.A, l.B, l.A, true},
		} {
			if strings.HasPrefix(rest, c.spec+".") && len(c.spec) > len(best) {
				best, idx, directed, from, to = c.spec, i, c.directed, c.a, c.b
			}
		}
	}
	if idx < 0 {
		var names []string
		for _, l := range t.Links {
			names = append(names, l.A+"-"+l.B)
		}
		return fmt.Errorf("no link of the topology matches (write links.A-B.KEY for the link, links.A->B.KEY for one direction; links: %s)",
			strings.Join(names, ", "))
	}
	key := strings.TrimPrefix(rest, best+".")
	if key == "max_queue_size" { // Mini-NDN's spelling of the key
		key = "max-queue-size"
	}
	path := "links." + best
	if directed {
		if err := check(key, linkDirKeys, []string{"queue-params"}); err != nil {
			return err
		}
		lq := LinkQueue{From: from, To: to, Pos: st.d.setPos}
		st.d.linkQueueKeys(st.one(key), path, &lq)
		st.s.LinkQueues = append(st.s.LinkQueues, lq)
		st.paths = append(st.paths, path+"."+key, fmt.Sprintf("links[%d]", len(st.s.LinkQueues)-1))
		return nil
	}
	if slices.Contains(linkParamKeys, key) {
		c := *t
		c.Links = slices.Clone(t.Links)
		st.d.linkParams(st.one(key), path, &c.Links[idx])
		st.s.Topology = &c
		st.paths = append(st.paths, path+"."+key)
		return nil
	}
	if err := check(key, append(slices.Clone(linkParamKeys), linkBothKeys...), []string{"queue-params"}); err != nil {
		return err
	}
	lq := LinkQueue{From: from, To: to, Both: true, Pos: st.d.setPos}
	st.d.linkQueueKeys(st.one(key), path, &lq)
	st.s.LinkQueues = append(st.s.LinkQueues, lq)
	st.paths = append(st.paths, path+"."+key, fmt.Sprintf("links[%d]", len(st.s.LinkQueues)-1))
	return nil
}

// selection returns the indexes an entry selector picks: [i], "*" (all) or
// an ID (ids[i]).
func selection(kind string, n, index int, indexed bool, rest string, ids func(i int) string) ([]int, string, error) {
	if indexed {
		if index >= n {
			return nil, "", fmt.Errorf("%s[%d]: the scenario has %d %s entries", kind, index, n, kind)
		}
		return []int{index}, rest, nil
	}
	sel, key, ok := strings.Cut(rest, ".")
	if !ok {
		return nil, "", fmt.Errorf("want %s[INDEX].KEY, %s.*.KEY or %s.ID.KEY", kind, kind, kind)
	}
	if sel == "*" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		if n == 0 {
			return nil, "", fmt.Errorf("the scenario has no %s entry", kind)
		}
		return out, key, nil
	}
	if ids == nil {
		return nil, "", fmt.Errorf("select %s entries by index (%s[0]) or all (%s.*)", kind, kind, kind)
	}
	// An ID may hold dots: take the longest that matches.
	best, bestLen := -1, -1
	for i := 0; i < n; i++ {
		if id := ids(i); strings.HasPrefix(rest, id+".") && len(id) > bestLen {
			best, bestLen = i, len(id)
		}
	}
	if best < 0 {
		return nil, "", fmt.Errorf("no %s has the id %q", kind, sel)
	}
	return []int{best}, strings.TrimPrefix(rest, ids(best)+"."), nil
}

func (st *setter) producers(index int, indexed bool, rest string) error {
	is, key, err := selection("producer", len(st.s.Producers), index, indexed, rest, nil)
	if err != nil {
		return err
	}
	if err := check(key, producerKeys(), nil); err != nil {
		return err
	}
	st.s.Producers = slices.Clone(st.s.Producers)
	for _, i := range is {
		path := joinIndex("producer", i)
		st.d.producerKeys(st.one(key), path, &st.s.Producers[i])
		st.paths = append(st.paths, path+"."+key)
	}
	return nil
}

func (st *setter) consumers(index int, indexed bool, rest string) error {
	cs := st.s.Consumers
	is, key, err := selection("consumer", len(cs), index, indexed, rest, func(i int) string { return cs[i].ID })
	if err != nil {
		return err
	}
	keys := slices.DeleteFunc(consumerKeys(), func(k string) bool { return k == "params" })
	if err := check(key, keys, []string{"params"}); err != nil {
		if key == "id" {
			return fmt.Errorf("a consumer's id cannot be set: it selects the consumer")
		}
		return err
	}
	st.s.Consumers = slices.Clone(cs)
	for _, i := range is {
		c := &st.s.Consumers[i]
		c.Params, c.ParamPos = maps.Clone(c.Params), maps.Clone(c.ParamPos)
		path := joinIndex("consumer", i)
		st.d.consumerKeys(st.one(key), path, c)
		if key == "pipeline" {
			c.pipelineSet = true
		}
		if p, ok := strings.CutPrefix(key, "params."); ok {
			c.ParamPos[p] = st.d.setPos
		}
		st.paths = append(st.paths, path+"."+key)
	}
	return nil
}

func (st *setter) tcpFlows(index int, indexed bool, rest string) error {
	fs := st.s.TCP
	is, key, err := selection("tcp", len(fs), index, indexed, rest, func(i int) string { return fs[i].ID })
	if err != nil {
		return err
	}
	if err := check(key, tcpKeys(), nil); err != nil {
		return err
	}
	st.s.TCP = slices.Clone(fs)
	for _, i := range is {
		path := joinIndex("tcp", i)
		st.d.tcpKeys(st.one(key), path, &st.s.TCP[i])
		st.paths = append(st.paths, path+"."+key)
	}
	return nil
}
