package scenario

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/ndncc/ndncc/topology"
)

// plain returns a copy of s without its key positions, for comparison.
func plain(s *Scenario) *Scenario {
	c := *s
	c.keyPos = nil
	return &c
}

func TestLoadLinearExample(t *testing.T) {
	path := filepath.Join("..", "examples", "linear-fixed32.toml")
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	confPath := filepath.Join("..", "examples", "linear.conf")
	f, err := os.Open(confPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	topo, err := topology.ParseMiniNDN(f, confPath)
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) topology.Pos { return topology.Pos{File: path, Line: line} }
	want := &Scenario{
		File:           path,
		Name:           "linear-fixed32",
		Description:    "Paper 000 Design #0: fixed window 32 on the linear topology",
		Seed:           1,
		Duration:       300 * time.Second,
		HeaderOverhead: 44,
		Topology:       topo,
		TopologyFile:   confPath,
		Routers: RouterSettings{Strategy: "best-route", CSCapacity: 0, Queue: "droptail",
			QueueParams: map[string]string{}, Set: SetAll, Pos: at(13)},
		NodeRouters: map[string]RouterSettings{},
		Producers: []Producer{{Node: "producer1", Prefix: "/example/file", FileSize: 10485760,
			SegmentSize: 1024, Signature: "rsa2048", Freshness: DefaultFreshness, Pos: at(18)}},
		Consumers: []Consumer{{ID: "consumer1", Node: "consumer1", Prefix: "/example/file",
			Pipeline: "fixed", Params: map[string]string{"window": "32"},
			ParamPos: map[string]topology.Pos{"window": at(30)}, Pos: at(25)}},
	}
	if !reflect.DeepEqual(plain(got), want) {
		t.Errorf("got  %+v\nwant %+v", plain(got), want)
	}
	if segs := (got.Producers[0].FileSize + 1023) / 1024; segs != 10240 {
		t.Errorf("segments = %d, want 10240", segs)
	}
}

func TestLoadDumbbellExample(t *testing.T) {
	s, err := Load(filepath.Join("..", "examples", "dumbbell-fixed16.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Topology.Links) != 5 {
		t.Errorf("%d links, want 5", len(s.Topology.Links))
	}
	type flow struct{ consumer, node, prefix, window, producer string }
	var got []flow
	for _, c := range s.Consumers {
		ps := s.ProducersFor(c.Prefix)
		if len(ps) != 1 || ps[0].FileSize != 10<<20 {
			t.Fatalf("%s: producers %+v", c.ID, ps)
		}
		got = append(got, flow{c.ID, c.Node, c.Prefix, c.Params["window"], ps[0].Node})
	}
	want := []flow{
		{"consumer1", "consumer1", "/example/file1", "16", "producer1"},
		{"consumer2", "consumer2", "/example/file2", "16", "producer2"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("flows %v, want %v", got, want)
	}
}

const inlineDoc = `# every key, inline topology
name = "inline"
description = "all keys"
seed = 7
duration = "90s"
header-overhead = 0

[topology]
nodes = ["c", "r1", "r2", "p"]
links = [
  { a = "c", b = "r1", delay = "2ms", bw = 100 },
  { a = "r1", b = "r2", delay = "10ms", bw = 2.5, max-queue-size = 20, max-queue-bytes = 30000, loss = 0.5 },
  { a = "r2", b = "p" },
]

[routers]
strategy = "multicast"
cs-capacity = 100
queue = "codel"
queue-params = { target = "5ms", interval = "100ms" }

[routers.node.r1]
cs-capacity = 0
queue-params = { target = "2ms" }

[routers.node.r2]
strategy = "best-route"
queue = "droptail"

[[links]]
from = "r2"
to = "r1"
queue = "codel-mark"
queue-params = { ecn = true }

[[links]]
between = ["r1", "c"]
queue-params = { limit = 7 }

[[producer]]
node = "p"
prefix = "/a"
file-size = "1.5KB"
segment-size = 500
signature = "ed25519"
freshness = "1s"

[[producer]]
node = "r2"
prefix = "/a/b"
file-size = 2048

[[consumer]]
id = "first"
node = "c"
prefix = "/a/b"
start = "1.5s"
pipeline = "aimd"
params = { alpha = 0.125, ssthresh = 200, "rtt-sampling" = "one-per-rtt", k = 4, hole = false }

[[consumer]]
node = "r1"
prefix = "/a"
pipeline = "fixed"
`

func TestParseInline(t *testing.T) {
	s, err := Parse([]byte(inlineDoc), "dir/in.toml")
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) topology.Pos { return topology.Pos{File: "dir/in.toml", Line: line} }
	if s.Name != "inline" || s.Description != "all keys" || s.Seed != 7 || s.Duration != 90*time.Second || s.HeaderOverhead != 0 || s.TopologyFile != "" {
		t.Errorf("top-level = %q %q %d %v %d %q", s.Name, s.Description, s.Seed, s.Duration, s.HeaderOverhead, s.TopologyFile)
	}
	wantTopo := &topology.Topology{
		Nodes: []topology.Node{{Name: "c", Pos: at(9)}, {Name: "r1", Pos: at(9)}, {Name: "r2", Pos: at(9)}, {Name: "p", Pos: at(9)}},
		Links: []topology.Link{
			{A: "c", B: "r1", Delay: 2 * time.Millisecond, Bandwidth: 100e6, QueuePackets: 1000, Pos: at(11)},
			{A: "r1", B: "r2", Delay: 10 * time.Millisecond, Bandwidth: 2.5e6, QueuePackets: 20, QueueBytes: 30000, Loss: 0.005, Pos: at(12)},
			{A: "r2", B: "p", QueuePackets: 1000, Pos: at(13)},
		},
	}
	if !reflect.DeepEqual(s.Topology, wantTopo) {
		t.Errorf("topology\n got %+v\nwant %+v", s.Topology, wantTopo)
	}
	wantRouters := RouterSettings{Strategy: "multicast", CSCapacity: 100, Queue: "codel",
		QueueParams: map[string]string{"target": "5ms", "interval": "100ms"}, Set: SetAll, Pos: at(16)}
	if !reflect.DeepEqual(s.Routers, wantRouters) {
		t.Errorf("routers\n got %+v\nwant %+v", s.Routers, wantRouters)
	}
	wantNodes := map[string]RouterSettings{
		"r1": {CSCapacity: 0, QueueParams: map[string]string{"target": "2ms"}, Set: SetCSCapacity | SetQueueParams, Pos: at(22)},
		"r2": {Strategy: "best-route", Queue: "droptail", Set: SetStrategy | SetQueue, Pos: at(26)},
	}
	if !reflect.DeepEqual(s.NodeRouters, wantNodes) {
		t.Errorf("node routers\n got %+v\nwant %+v", s.NodeRouters, wantNodes)
	}
	wantLinks := []LinkQueue{
		{From: "r2", To: "r1", Queue: "codel-mark", QueueParams: map[string]string{"ecn": "true"}, Pos: at(30)},
		{From: "r1", To: "c", Both: true, QueueParams: map[string]string{"limit": "7"}, Pos: at(36)},
	}
	if !reflect.DeepEqual(s.LinkQueues, wantLinks) {
		t.Errorf("link queues\n got %+v\nwant %+v", s.LinkQueues, wantLinks)
	}
	wantProducers := []Producer{
		{Node: "p", Prefix: "/a", FileSize: 1500, SegmentSize: 500, Signature: "ed25519", Freshness: time.Second, Pos: at(40)},
		{Node: "r2", Prefix: "/a/b", FileSize: 2048, SegmentSize: 1024, Signature: "rsa2048", Freshness: DefaultFreshness, Pos: at(48)},
	}
	if !reflect.DeepEqual(s.Producers, wantProducers) {
		t.Errorf("producers\n got %+v\nwant %+v", s.Producers, wantProducers)
	}
	wantConsumers := []Consumer{
		{ID: "first", Node: "c", Prefix: "/a/b", Start: 1500 * time.Millisecond, Pipeline: "aimd",
			Params:   map[string]string{"alpha": "0.125", "ssthresh": "200", "rtt-sampling": "one-per-rtt", "k": "4", "hole": "false"},
			ParamPos: map[string]topology.Pos{"alpha": at(59), "ssthresh": at(59), "rtt-sampling": at(59), "k": at(59), "hole": at(59)},
			Pos:      at(53)},
		{ID: "r1", Node: "r1", Prefix: "/a", Pipeline: "fixed", Params: map[string]string{}, Pos: at(61)},
	}
	if !reflect.DeepEqual(s.Consumers, wantConsumers) {
		t.Errorf("consumers\n got %+v\nwant %+v", s.Consumers, wantConsumers)
	}
	if got := s.ProducersFor("/a/b"); len(got) != 1 || got[0].Node != "r2" {
		t.Errorf("ProducersFor(/a/b) = %+v, want r2's", got)
	}
	if got := s.ProducersFor("/a/b/c"); len(got) != 0 {
		t.Errorf("ProducersFor(/a/b/c) = %+v: a consumer fetches exactly a producer's prefix", got)
	}
	if got := s.ProducersFor("/ab"); len(got) != 0 {
		t.Errorf("ProducersFor(/ab) = %+v: names are compared by components, not characters", got)
	}
}

func TestRouterForAndQueueFor(t *testing.T) {
	s, err := Parse([]byte(inlineDoc), "dir/in.toml")
	if err != nil {
		t.Fatal(err)
	}
	type router struct {
		strategy string
		cs       int
		queue    string
		params   map[string]string
	}
	routers := []struct {
		node string
		want router
	}{
		// No override: the [routers] defaults.
		{"c", router{"multicast", 100, "codel", map[string]string{"target": "5ms", "interval": "100ms"}}},
		// Same discipline: parameters merge key by key.
		{"r1", router{"multicast", 0, "codel", map[string]string{"target": "2ms", "interval": "100ms"}}},
		// Another discipline: the inherited parameters are dropped.
		{"r2", router{"best-route", 100, "droptail", map[string]string{}}},
	}
	for _, tt := range routers {
		r := s.RouterFor(tt.node)
		got := router{r.Strategy, r.CSCapacity, r.Queue, r.QueueParams}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("RouterFor(%s) = %+v, want %+v", tt.node, got, tt.want)
		}
		if r.Set != SetAll {
			t.Errorf("RouterFor(%s).Set = %b", tt.node, r.Set)
		}
	}
	queues := []struct {
		from, to, queue string
		params          map[string]string
	}{
		{"r2", "r1", "codel-mark", map[string]string{"ecn": "true"}},
		{"r2", "p", "droptail", map[string]string{}},
		{"r1", "r2", "codel", map[string]string{"target": "2ms", "interval": "100ms"}},
		{"r1", "c", "codel", map[string]string{"target": "2ms", "interval": "100ms", "limit": "7"}},
		{"c", "r1", "codel", map[string]string{"target": "5ms", "interval": "100ms", "limit": "7"}},
		{"p", "r2", "codel", map[string]string{"target": "5ms", "interval": "100ms"}},
	}
	for _, tt := range queues {
		q, p := s.QueueFor(tt.from, tt.to)
		if q != tt.queue || !reflect.DeepEqual(p, tt.params) {
			t.Errorf("QueueFor(%s, %s) = %s %v, want %s %v", tt.from, tt.to, q, p, tt.queue, tt.params)
		}
	}
	// Results are the caller's to modify.
	_, p := s.QueueFor("c", "r1")
	p["target"] = "changed"
	s.RouterFor("r1").QueueParams["interval"] = "changed"
	if s.Routers.QueueParams["target"] != "5ms" || s.Routers.QueueParams["interval"] != "100ms" {
		t.Errorf("caller's changes leaked into the scenario: %v", s.Routers.QueueParams)
	}
}

func TestDefaultAndGoBuilt(t *testing.T) {
	s := Default()
	want := &Scenario{Seed: 1, Duration: 600 * time.Second, HeaderOverhead: 44,
		Routers:     RouterSettings{Strategy: "best-route", Queue: "droptail", QueueParams: map[string]string{}, Set: SetAll},
		NodeRouters: map[string]RouterSettings{}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Default() = %+v", s)
	}
	s.Name = "go-built"
	s.Topology = &topology.Topology{Nodes: []topology.Node{{Name: "a"}, {Name: "b"}}, Links: []topology.Link{topology.NewLink("a", "b")}}
	s.Producers = []Producer{NewProducer("b", "/x", 1<<20)}
	s.Consumers = []Consumer{NewConsumer("a", "/x", "fixed")}
	if err := s.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	s.Consumers = append(s.Consumers, NewConsumer("a", "/z", ""))
	const wantErr = "consumer[1].id: consumer id \"a\" is already used by consumer[0] (set a unique id)\n" +
		"consumer[1].pipeline: required (or app, a traffic application: cbr, zipf, batches)\n" +
		"consumer[1].prefix: no producer serves \"/z\" (a consumer fetches the object a [[producer]] serves under exactly this prefix)"
	if err := s.Validate(); err == nil || err.Error() != wantErr {
		t.Errorf("Validate error\n got %v\nwant %s", err, wantErr)
	}
}

func TestClone(t *testing.T) {
	s, err := Parse([]byte(inlineDoc), "dir/in.toml")
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	if !reflect.DeepEqual(c, s) {
		t.Fatal("clone differs")
	}
	c.Routers.QueueParams["target"] = "x"
	c.NodeRouters["r1"].QueueParams["target"] = "x"
	c.LinkQueues[0].QueueParams["ecn"] = "x"
	c.Consumers[0].Params["k"] = "x"
	c.Producers[0].Node = "x"
	if s.Routers.QueueParams["target"] != "5ms" || s.NodeRouters["r1"].QueueParams["target"] != "2ms" ||
		s.LinkQueues[0].QueueParams["ecn"] != "true" || s.Consumers[0].Params["k"] != "4" || s.Producers[0].Node != "p" {
		t.Error("changing the clone changed the original")
	}
	if c.Topology != s.Topology {
		t.Error("the clone should share the topology")
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"10MiB", 10485760},
		{"10 MiB", 10485760},
		{"1024", 1024},
		{"5B", 5},
		{"1KB", 1000},
		{"1kib", 1024},
		{"1.5MB", 1500000},
		{"2GB", 2000000000},
		{"1GiB", 1 << 30},
		{"0.5KiB", 512},
	}
	for _, tt := range tests {
		if got, err := ParseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "MiB", "10XB", "1.0001KB", "-5", "1..5MB", "9999999999999999999", "9000000000GiB", "1e3"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}

func TestKeyPositions(t *testing.T) {
	doc := `a = 1
[t.u]
b.c = 2
[[arr]]
x = 1
[[arr]]
x = [
  "one",
  { y = 2 },
]
[arr.sub]
z = 3
`
	got := keyPositions([]byte(doc), "k.toml")
	want := map[string]int{
		"a": 1, "t.u": 2, "t.u.b": 3, "t.u.b.c": 3,
		"arr": 4, "arr[0]": 4, "arr[0].x": 5, "arr[1]": 6, "arr[1].x": 7,
		"arr[1].x[0]": 8, "arr[1].x[1]": 9, "arr[1].x[1].y": 9,
		"arr[1].sub": 11, "arr[1].sub.z": 12,
	}
	lines := map[string]int{}
	for k, p := range got {
		if p.File != "k.toml" {
			t.Errorf("%s: file %q", k, p.File)
		}
		lines[k] = p.Line
	}
	if !maps.Equal(lines, want) {
		t.Errorf("positions\n got %v\nwant %v", lines, want)
	}
}
