package scenario

import (
	"bytes"
	"io/fs"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ndncc/ndncc/topology"
)

// decoder turns the generic TOML tree of a scenario file into a Scenario,
// reporting unknown keys and values of the wrong type or syntax at their
// line. Range and cross-reference checks are Validate's.
type decoder struct {
	file string
	// open opens a topology file named in the scenario, resolving a
	// relative name against the scenario's directory; it returns the
	// resolved name.
	open func(name string) (fs.File, string, error)
	pos  map[string]topology.Pos
	errs []error
	// setPos, when set, is where a Set call's setting comes from: the
	// position of every key it decodes.
	setPos topology.Pos
}

// at returns the position of path, or of its nearest enclosing key.
func (d *decoder) at(path string) topology.Pos {
	if p, ok := lookupPos(d.pos, path); ok {
		return p
	}
	if d.setPos != (topology.Pos{}) {
		return d.setPos
	}
	return topology.Pos{File: d.file}
}

func (d *decoder) errorf(path, format string, args ...any) {
	d.errs = append(d.errs, topology.Errorf(d.at(path), path, format, args...))
}

// known reports every key of m not in keys as unknown.
func (d *decoder) known(m map[string]any, path string, keys ...string) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(keys, k) {
			d.errorf(joinKey(path, k), "unknown key (expected one of: %s)", strings.Join(keys, ", "))
		}
	}
}

// typeName names the TOML type of a decoded value.
func typeName(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "a table"
	default:
		return "a date or time"
	}
}

// str decodes the string m[key] into dst; it reports whether key is there.
func (d *decoder) str(m map[string]any, path, key string, dst *string) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	s, ok := v.(string)
	if !ok {
		d.errorf(joinKey(path, key), "expected a string, got %s", typeName(v))
		return false
	}
	*dst = s
	return true
}

// strList decodes the array of strings m[key] into dst.
func (d *decoder) strList(m map[string]any, path, key string, dst *[]string) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	arr, ok := v.([]any)
	if !ok {
		d.errorf(joinKey(path, key), "expected an array of strings, got %s", typeName(v))
		return false
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			d.errorf(joinKey(path, key), "element %d: expected a string, got %s", i, typeName(e))
			return false
		}
		out = append(out, s)
	}
	*dst = out
	return true
}

// boolean decodes m[key] into dst if present; it reports whether it did.
func (d *decoder) boolean(m map[string]any, path, key string, dst *bool) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		d.errorf(joinKey(path, key), "want true or false, got %s", typeName(v))
		return false
	}
	*dst = b
	return true
}

// integer decodes the integer m[key] into dst.
func (d *decoder) integer(m map[string]any, path, key string, dst *int64) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	n, ok := v.(int64)
	if !ok {
		d.errorf(joinKey(path, key), "expected an integer, got %s", typeName(v))
		return false
	}
	*dst = n
	return true
}

// integerInt decodes the integer m[key] into an int.
func (d *decoder) integerInt(m map[string]any, path, key string, dst *int) bool {
	var n int64
	if !d.integer(m, path, key, &n) {
		return false
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		d.errorf(joinKey(path, key), "%d is out of range", n)
		return false
	}
	*dst = int(n)
	return true
}

// number decodes the integer or float m[key] into dst.
func (d *decoder) number(m map[string]any, path, key string, dst *float64) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	switch n := v.(type) {
	case int64:
		*dst = float64(n)
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			d.errorf(joinKey(path, key), "must be a finite number, got %v", n)
			return false
		}
		*dst = n
	default:
		d.errorf(joinKey(path, key), "expected a number, got %s", typeName(v))
		return false
	}
	return true
}

// duration decodes the Go duration string m[key] ("300s", "10ms") into dst.
func (d *decoder) duration(m map[string]any, path, key string, dst *time.Duration) bool {
	v, ok := m[key]
	if !ok {
		return false
	}
	s, ok := v.(string)
	if !ok {
		d.errorf(joinKey(path, key), "expected a duration string such as \"300s\" or \"10ms\", got %s", typeName(v))
		return false
	}
	t, err := time.ParseDuration(s)
	if err != nil {
		d.errorf(joinKey(path, key), "invalid duration %q (write a number and a unit, such as \"300s\" or \"10ms\")", s)
		return false
	}
	*dst = t
	return true
}

// size decodes m[key], an integer number of bytes or a string with a unit
// (see ParseSize), into dst.
func (d *decoder) size(m map[string]any, path, key string, dst *int64) bool {
	switch v := m[key].(type) {
	case nil:
		return false
	case int64:
		*dst = v
	case string:
		n, err := ParseSize(v)
		if err != nil {
			d.errorf(joinKey(path, key), "%v", err)
			return false
		}
		*dst = n
	default:
		d.errorf(joinKey(path, key), "expected an integer number of bytes or a string such as \"10MiB\", got %s", typeName(v))
		return false
	}
	return true
}

// table returns m[key] as a table.
func (d *decoder) table(m map[string]any, path, key string) (map[string]any, bool) {
	v, ok := m[key]
	if !ok {
		return nil, false
	}
	t, ok := v.(map[string]any)
	if !ok {
		d.errorf(joinKey(path, key), "expected a table, got %s", typeName(v))
	}
	return t, ok
}

// tables returns m[key] as an array of tables ([[key]]).
func (d *decoder) tables(m map[string]any, path, key string) []map[string]any {
	v, ok := m[key]
	if !ok {
		return nil
	}
	arr, ok := v.([]any)
	if !ok {
		d.errorf(joinKey(path, key), "expected an array of tables ([[%s]]), got %s", key, typeName(v))
		return nil
	}
	out := make([]map[string]any, 0, len(arr))
	for i, el := range arr {
		t, ok := el.(map[string]any)
		if !ok {
			d.errorf(joinIndex(joinKey(path, key), i), "expected a table, got %s", typeName(el))
			continue
		}
		out = append(out, t)
	}
	if len(out) < len(arr) {
		return nil
	}
	return out
}

// limitedTables returns the top-level array of tables m[key], or none
// when it has more than limit entries (an error).
func (d *decoder) limitedTables(m map[string]any, key string, limit int) []map[string]any {
	if arr, ok := m[key].([]any); ok && d.tooMany(key, len(arr), limit) {
		return nil
	}
	return d.tables(m, "", key)
}

// params decodes the table m[key] of scalars into strings, with the
// position of every key.
func (d *decoder) params(m map[string]any, path, key string) (map[string]string, map[string]topology.Pos, bool) {
	t, ok := d.table(m, path, key)
	if !ok {
		return nil, nil, false
	}
	base := joinKey(path, key)
	out := make(map[string]string, len(t))
	pos := make(map[string]topology.Pos, len(t))
	for _, k := range slices.Sorted(maps.Keys(t)) {
		kp := joinKey(base, k)
		switch v := t[k].(type) {
		case string:
			out[k] = v
		case int64:
			out[k] = strconv.FormatInt(v, 10)
		case float64:
			out[k] = strconv.FormatFloat(v, 'g', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(v)
		default:
			d.errorf(kp, "expected a string, number or boolean, got %s", typeName(v))
			continue
		}
		pos[k] = d.at(kp)
	}
	return out, pos, true
}

// scenario decodes the whole document.
func (d *decoder) scenario(m map[string]any) *Scenario {
	s := Default()
	s.File = d.file
	s.keyPos = d.pos
	if d.file != "" {
		s.Name = strings.TrimSuffix(filepath.Base(d.file), filepath.Ext(d.file))
	}
	d.known(m, "", append(topLevelKeys(), "topology", "routers", "links", "producer", "consumer", "tcp", "event")...)
	d.topLevel(m, s)
	if t, ok := d.table(m, "", "topology"); ok {
		s.Topology, s.TopologyFile = d.topology(t, "topology")
	}
	if t, ok := d.table(m, "", "routers"); ok {
		d.routers(t, s)
	}
	for i, t := range d.limitedTables(m, "links", MaxLinkQueues) {
		s.LinkQueues = append(s.LinkQueues, d.linkQueue(t, joinIndex("links", i)))
	}
	for i, t := range d.limitedTables(m, "producer", MaxProducers) {
		s.Producers = append(s.Producers, d.producer(t, joinIndex("producer", i)))
	}
	for i, t := range d.limitedTables(m, "consumer", MaxConsumers) {
		s.Consumers = append(s.Consumers, d.consumer(t, joinIndex("consumer", i)))
	}
	for i, t := range d.limitedTables(m, "tcp", MaxTCPFlows) {
		s.TCP = append(s.TCP, d.tcp(t, joinIndex("tcp", i)))
	}
	for i, t := range d.limitedTables(m, "event", MaxEvents) {
		s.Events = append(s.Events, d.event(t, joinIndex("event", i)))
	}
	return s
}

// topLevelKeys are the scalar keys at the top of a scenario file.
func topLevelKeys() []string {
	return []string{"name", "description", "seed", "duration", "header-overhead", "profile"}
}

// topLevel decodes the scalar top-level keys of m (topLevelKeys) into s.
func (d *decoder) topLevel(m map[string]any, s *Scenario) {
	d.str(m, "", "name", &s.Name)
	d.str(m, "", "description", &s.Description)
	var seed int64
	if d.integer(m, "", "seed", &seed) {
		if seed < 0 {
			d.errorf("seed", "must not be negative, got %d", seed)
		}
		s.Seed = uint64(seed)
	}
	d.duration(m, "", "duration", &s.Duration)
	d.integerInt(m, "", "header-overhead", &s.HeaderOverhead)
	d.str(m, "", "profile", &s.Profile)
}

// generateKeys are the keys of a generated [topology] besides generate.
var generateKeys = []string{"routers", "pairs", "fanout", "depth", "bw", "delay", "max-queue-size", "seed"}

// topology decodes [topology]: a Mini-NDN file, inline nodes and links, or
// a generated network.
func (d *decoder) topology(m map[string]any, path string) (*topology.Topology, string) {
	d.known(m, path, append([]string{"file", "nodes", "links", "generate"}, generateKeys...)...)
	_, hasNodes := m["nodes"]
	_, hasLinks := m["links"]
	_, hasFile := m["file"]
	if _, ok := m["generate"]; ok {
		if hasNodes || hasLinks || hasFile {
			d.errorf(path, "set one of file, inline nodes and links, or generate")
			return nil, ""
		}
		return d.generatedTopology(m, path), ""
	}
	for _, k := range generateKeys {
		if _, ok := m[k]; ok {
			d.errorf(joinKey(path, k), "only a generated topology (generate = ...) takes %s", k)
		}
	}
	var file string
	if d.str(m, path, "file", &file) {
		if hasNodes || hasLinks {
			d.errorf(path, "set either file or inline nodes and links, not both")
			return nil, ""
		}
		return d.topologyFile(file, joinKey(path, "file"))
	}
	if _, ok := m["file"]; ok {
		return nil, "" // wrong type, reported
	}
	if !hasNodes {
		d.errorf(path, "set file (a Mini-NDN topology file) or inline nodes and links")
		return nil, ""
	}
	return d.inlineTopology(m, path), ""
}

func (d *decoder) topologyFile(file, path string) (*topology.Topology, string) {
	if file == "" {
		d.errorf(path, "must not be empty")
		return nil, ""
	}
	f, resolved, err := d.open(file)
	if err != nil {
		d.errorf(path, "%v", err)
		return nil, ""
	}
	defer f.Close()
	if err := checkRegular(f, MaxTopologyFileBytes, resolved); err != nil {
		d.errorf(path, "%v", err)
		return nil, ""
	}
	data, err := readLimited(f, MaxTopologyFileBytes, resolved)
	if err != nil {
		d.errorf(path, "%v", err)
		return nil, ""
	}
	t, err := topology.ParseMiniNDN(bytes.NewReader(data), resolved)
	if err != nil {
		d.errs = append(d.errs, &topology.Error{Pos: d.at(path), Field: path, Err: err})
		return nil, ""
	}
	return t, resolved
}

// generatedTopology decodes a [topology] with generate = FAMILY and builds
// it (topology.Generate).
func (d *decoder) generatedTopology(m map[string]any, path string) *topology.Topology {
	var spec topology.GenSpec
	errs := len(d.errs)
	if !d.str(m, path, "generate", &spec.Family) {
		return nil
	}
	if !slices.Contains(topology.Families(), spec.Family) {
		d.errorf(joinKey(path, "generate"), "unknown topology family %q (want one of %s)", spec.Family, strings.Join(topology.Families(), ", "))
		return nil
	}
	only := map[string][]string{
		"routers": {topology.FamilyISP, topology.FamilyParkingLot},
		"pairs":   {topology.FamilyDumbbell},
		"fanout":  {topology.FamilyTree},
		"depth":   {topology.FamilyTree},
		"bw":      {topology.FamilyDumbbell, topology.FamilyParkingLot, topology.FamilyTree},
		"delay":   {topology.FamilyDumbbell, topology.FamilyParkingLot, topology.FamilyTree},
		"seed":    {topology.FamilyISP},
	}
	for _, k := range slices.Sorted(maps.Keys(only)) {
		if _, ok := m[k]; ok && !slices.Contains(only[k], spec.Family) {
			families := only[k]
			d.errorf(joinKey(path, k), "a %s topology takes no %s (it is for %s)", spec.Family, k, strings.Join(families, ", "))
		}
	}
	positive := func(key string, dst *int) {
		if d.integerInt(m, path, key, dst) && *dst < 1 {
			d.errorf(joinKey(path, key), "must be at least 1, got %d", *dst)
		}
	}
	positive("routers", &spec.Routers)
	positive("pairs", &spec.Pairs)
	positive("fanout", &spec.Fanout)
	positive("depth", &spec.Depth)
	positive("max-queue-size", &spec.QueuePackets)
	var mbps float64
	if d.number(m, path, "bw", &mbps) {
		if mbps <= 0 {
			d.errorf(joinKey(path, "bw"), "must be a positive number of Mbit/s, got %v", mbps)
		}
		spec.Bandwidth = mbps * 1e6
	}
	if d.duration(m, path, "delay", &spec.Delay) && spec.Delay <= 0 {
		d.errorf(joinKey(path, "delay"), "must be positive, got %v", spec.Delay)
	}
	var seed int64
	if d.integer(m, path, "seed", &seed) {
		if seed < 1 {
			d.errorf(joinKey(path, "seed"), "must be at least 1, got %d", seed)
		}
		spec.Seed = uint64(seed)
	}
	if len(d.errs) > errs {
		return nil
	}
	t, err := topology.Generate(spec)
	if err != nil {
		d.errorf(path, "%v", err)
		return nil
	}
	for i := range t.Nodes {
		t.Nodes[i].Pos = d.at(path)
	}
	for i := range t.Links {
		t.Links[i].Pos = d.at(path)
	}
	return t
}

func (d *decoder) inlineTopology(m map[string]any, path string) *topology.Topology {
	t := &topology.Topology{}
	nodesPath := joinKey(path, "nodes")
	switch nodes := m["nodes"].(type) {
	case []any:
		for i, v := range nodes {
			name, ok := v.(string)
			if !ok {
				d.errorf(joinIndex(nodesPath, i), "expected a node name (a string), got %s", typeName(v))
				continue
			}
			t.Nodes = append(t.Nodes, topology.Node{Name: name, Pos: d.at(joinIndex(nodesPath, i))})
		}
	default:
		d.errorf(nodesPath, "expected an array of node names, got %s", typeName(nodes))
	}
	for i, lt := range d.tables(m, path, "links") {
		lp := joinIndex(joinKey(path, "links"), i)
		d.known(lt, lp, "a", "b", "delay", "jitter", "bw", "max-queue-size", "max-queue-bytes", "loss")
		l := topology.NewLink("", "")
		l.Pos = d.at(lp)
		d.str(lt, lp, "a", &l.A)
		d.str(lt, lp, "b", &l.B)
		if l.A == "" || l.B == "" {
			d.errorf(lp, "a link needs both ends: a and b")
		}
		for _, end := range []string{"a", "b"} {
			if name, ok := lt[end].(string); ok && name != "" && !t.HasNode(name) {
				d.errorf(joinKey(lp, end), "node %q is not in topology.nodes", name)
			}
		}
		d.linkParams(lt, lp, &l)
		t.Links = append(t.Links, l)
	}
	return t
}

// linkParams decodes the link keys of table m (delay, jitter, bw,
// max-queue-size, max-queue-bytes, loss: a Mini-NDN link line's, in its
// units) into l,
// leaving the fields of keys not given as they are.
func (d *decoder) linkParams(m map[string]any, path string, l *topology.Link) {
	if d.duration(m, path, "delay", &l.Delay) && l.Delay < 0 {
		d.errorf(joinKey(path, "delay"), "must not be negative, got %v", l.Delay)
	}
	if d.duration(m, path, "jitter", &l.Jitter) && l.Jitter < 0 {
		d.errorf(joinKey(path, "jitter"), "must not be negative, got %v", l.Jitter)
	}
	var mbps float64
	if d.number(m, path, "bw", &mbps) {
		if mbps <= 0 {
			d.errorf(joinKey(path, "bw"), "must be a positive number of Mbit/s, got %v (leave bw out for an unlimited link)", mbps)
		}
		l.Bandwidth = mbps * 1e6
	}
	if d.integerInt(m, path, "max-queue-size", &l.QueuePackets) && l.QueuePackets < 1 {
		d.errorf(joinKey(path, "max-queue-size"), "must be at least 1 packet, got %d", l.QueuePackets)
	}
	if d.integerInt(m, path, "max-queue-bytes", &l.QueueBytes) && l.QueueBytes < 0 {
		d.errorf(joinKey(path, "max-queue-bytes"), "must not be negative (0: no byte limit), got %d", l.QueueBytes)
	}
	var pct float64
	if d.number(m, path, "loss", &pct) {
		if pct < 0 || pct > 100 {
			d.errorf(joinKey(path, "loss"), "must be a percentage between 0 and 100, got %v", pct)
		}
		l.Loss = pct / 100
	}
}

// routers decodes [routers] and its [routers.node.NAME] overrides.
func (d *decoder) routers(m map[string]any, s *Scenario) {
	d.known(m, "routers", "strategy", "cs-capacity", "queue", "queue-params", "forwarder", "node")
	base := d.routerSettings(m, "routers")
	if base.Set&SetStrategy != 0 {
		s.Routers.Strategy = base.Strategy
	}
	if base.Set&SetCSCapacity != 0 {
		s.Routers.CSCapacity = base.CSCapacity
	}
	if base.Set&SetQueue != 0 {
		s.Routers.Queue = base.Queue
	}
	if base.Set&SetQueueParams != 0 {
		s.Routers.QueueParams = base.QueueParams
	}
	if base.Set&SetForwarder != 0 {
		s.Routers.Forwarder = base.Forwarder
	}
	s.Routers.Pos = base.Pos
	nodes, ok := d.table(m, "routers", "node")
	if !ok {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(nodes)) {
		path := "routers.node." + name
		t, ok := nodes[name].(map[string]any)
		if !ok {
			d.errorf(path, "expected a table of router settings, got %s", typeName(nodes[name]))
			continue
		}
		d.known(t, path, "strategy", "cs-capacity", "queue", "queue-params", "forwarder")
		s.NodeRouters[name] = d.routerSettings(t, path)
	}
}

func (d *decoder) routerSettings(m map[string]any, path string) RouterSettings {
	r := RouterSettings{Pos: d.at(path)}
	if d.str(m, path, "strategy", &r.Strategy) {
		r.Set |= SetStrategy
	}
	if d.integerInt(m, path, "cs-capacity", &r.CSCapacity) {
		r.Set |= SetCSCapacity
	}
	if d.str(m, path, "queue", &r.Queue) {
		r.Set |= SetQueue
	}
	if d.str(m, path, "forwarder", &r.Forwarder) {
		r.Set |= SetForwarder
	}
	if p, _, ok := d.params(m, path, "queue-params"); ok {
		r.QueueParams = p
		r.Set |= SetQueueParams
	}
	return r
}

// linkQueue decodes one [[links]] entry.
func (d *decoder) linkQueue(m map[string]any, path string) LinkQueue {
	d.known(m, path, "from", "to", "between", "queue", "queue-params", "loss-detection", "loss",
		"shaper-rate-mbps", "shaper-data-size", "shaper-queue", "underlay-rate-mbps", "underlay-queue", "tunnel", "tcp-send-buffer")
	lq := LinkQueue{Pos: d.at(path)}
	hasFrom := d.str(m, path, "from", &lq.From)
	hasTo := d.str(m, path, "to", &lq.To)
	if v, ok := m["between"]; ok {
		bp := joinKey(path, "between")
		arr, _ := v.([]any)
		var ends []string
		for _, e := range arr {
			if s, ok := e.(string); ok {
				ends = append(ends, s)
			}
		}
		switch {
		case len(ends) != 2 || len(arr) != 2:
			d.errorf(bp, "expected two node names, such as [\"router1\", \"router2\"]")
		case hasFrom || hasTo:
			d.errorf(bp, "set either between or from and to, not both")
		default:
			lq.From, lq.To, lq.Both = ends[0], ends[1], true
		}
	} else if !hasFrom || !hasTo {
		d.errorf(path, "name the link direction with from and to, or both directions with between")
	}
	d.linkQueueKeys(m, path, &lq)
	return lq
}

// linkQueueKeys decodes the settings of a [[links]] entry (queue,
// queue-params, loss, loss-detection) that m gives into lq; queue-params
// merge key by key into lq's.
func (d *decoder) linkQueueKeys(m map[string]any, path string, lq *LinkQueue) {
	if d.str(m, path, "queue", &lq.Queue) && lq.Queue == "" {
		d.errorf(joinKey(path, "queue"), "must not be empty")
	}
	if p, _, ok := d.params(m, path, "queue-params"); ok {
		if lq.QueueParams == nil {
			lq.QueueParams = map[string]string{}
		}
		maps.Copy(lq.QueueParams, p)
	}
	var pct float64
	if d.number(m, path, "loss", &pct) {
		if pct < 0 || pct > 100 {
			d.errorf(joinKey(path, "loss"), "must be a percentage between 0 and 100, got %v", pct)
		}
		lq.Loss, lq.SetLoss = pct/100, true
	}
	if v, ok := m["loss-detection"]; ok {
		b, isBool := v.(bool)
		switch {
		case !isBool:
			d.errorf(joinKey(path, "loss-detection"), "want true or false, got %v", v)
		case !lq.Both:
			d.errorf(joinKey(path, "loss-detection"), "a link-loss shim runs at both ends: name the link with between")
		default:
			lq.LossDetection = b
		}
	}
	var sh InterestShaper
	hasSize := d.integerInt(m, path, "shaper-data-size", &sh.DataSize)
	hasQueue := d.integerInt(m, path, "shaper-queue", &sh.Queue)
	if d.rate(m, path, "shaper-rate-mbps", hasSize || hasQueue, "shaper-data-size and shaper-queue", &sh.Rate) {
		lq.Shaper = &sh
	}
	var ul Underlay
	hasUlQ := d.integerInt(m, path, "underlay-queue", &ul.QueuePackets)
	if d.rate(m, path, "underlay-rate-mbps", hasUlQ, "underlay-queue", &ul.Rate) {
		lq.Underlay = &ul
	}
	if d.str(m, path, "tunnel", &lq.Tunnel) {
		switch {
		case lq.Tunnel != "tcp":
			d.errorf(joinKey(path, "tunnel"), "want \"tcp\", got %q", lq.Tunnel)
		case !lq.Both:
			d.errorf(joinKey(path, "tunnel"), "a tunnel runs at both ends: name the link with between")
		}
	}
	if d.integerInt(m, path, "tcp-send-buffer", &lq.TCPSendBuffer) && lq.TCPSendBuffer <= 0 {
		d.errorf(joinKey(path, "tcp-send-buffer"), "must be a positive number of bytes")
	}
}

// rate decodes the positive rate m[key], in Mbit/s, into dst in bit/s and
// reports whether it did; keys that need it (dependents, set if others)
// are an error without it.
func (d *decoder) rate(m map[string]any, path, key string, others bool, dependents string, dst *float64) bool {
	var mbps float64
	switch has := d.number(m, path, key, &mbps); {
	case has && !(mbps > 0):
		d.errorf(joinKey(path, key), "must be positive")
	case has:
		*dst = mbps * 1e6
		return true
	case others:
		d.errorf(path, "%s without %s", dependents, key)
	}
	return false
}

// producer decodes one [[producer]] entry.
func (d *decoder) producer(m map[string]any, path string) Producer {
	d.known(m, path, producerKeys()...)
	p := NewProducer("", "", 0)
	p.Pos = d.at(path)
	d.producerKeys(m, path, &p)
	return p
}

// producerKeys are the keys of a [[producer]] entry.
func producerKeys() []string {
	return []string{"node", "prefix", "file-size", "segment-size", "signature", "freshness", "announce", "program", "args"}
}

// producerKeys decodes the keys m gives into p.
func (d *decoder) producerKeys(m map[string]any, path string, p *Producer) {
	d.str(m, path, "node", &p.Node)
	d.str(m, path, "prefix", &p.Prefix)
	d.size(m, path, "file-size", &p.FileSize)
	d.integerInt(m, path, "segment-size", &p.SegmentSize)
	d.str(m, path, "signature", &p.Signature)
	d.duration(m, path, "freshness", &p.Freshness)
	d.str(m, path, "announce", &p.Announce)
	d.str(m, path, "program", &p.Program)
	d.strList(m, path, "args", &p.Args)
}

// consumer decodes one [[consumer]] entry.
func (d *decoder) consumer(m map[string]any, path string) Consumer {
	d.known(m, path, append([]string{"id"}, consumerKeys()...)...)
	c := NewConsumer("", "", "")
	c.Pos = d.at(path)
	d.str(m, path, "node", &c.Node)
	c.ID = c.Node
	d.str(m, path, "id", &c.ID)
	d.consumerKeys(m, path, &c)
	return c
}

// consumerKeys are the keys of a [[consumer]] entry but its id.
func consumerKeys() []string {
	return []string{"node", "prefix", "start", "pipeline", "app", "profile", "params", "program", "args"}
}

// consumerKeys decodes the keys m gives but id into c; params merge key
// by key into c's.
func (d *decoder) consumerKeys(m map[string]any, path string, c *Consumer) {
	d.str(m, path, "node", &c.Node)
	d.str(m, path, "prefix", &c.Prefix)
	d.duration(m, path, "start", &c.Start)
	d.str(m, path, "pipeline", &c.Pipeline)
	d.str(m, path, "app", &c.App)
	d.str(m, path, "profile", &c.Profile)
	d.str(m, path, "program", &c.Program)
	d.strList(m, path, "args", &c.Args)
	if p, pos, ok := d.params(m, path, "params"); ok {
		if c.Params == nil {
			c.Params = map[string]string{}
		}
		if c.ParamPos == nil {
			c.ParamPos = map[string]topology.Pos{}
		}
		maps.Copy(c.Params, p)
		maps.Copy(c.ParamPos, pos)
	}
}
