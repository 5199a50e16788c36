package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/ndncc/ndncc/topology"
)

func TestParseValue(t *testing.T) {
	for text, want := range map[string]any{
		"32": int64(32), "0.5": 0.5, "true": true, `"a b"`: "a b", "10ms": "10ms",
		"pcon": "pcon", "/example/file": "/example/file", "inf": "inf", "": "",
	} {
		got := ParseValue(text)
		if text == "inf" {
			if f, ok := got.(float64); !ok || f < 1e308 {
				t.Errorf("ParseValue(inf) = %#v, want +Inf", got)
			}
			continue
		}
		if got != want {
			t.Errorf("ParseValue(%q) = %#v, want %#v", text, got, want)
		}
	}
}

// setDoc has two consumers, a producer, a TCP flow and a node whose name
// holds a dot.
const setDoc = `seed = 3
[topology]
nodes = ["c1", "c2", "r.1", "r2", "p"]
links = [
  { a = "c1", b = "r.1", delay = "2ms", bw = 100 },
  { a = "c2", b = "r.1", delay = "2ms", bw = 100 },
  { a = "r.1", b = "r2", delay = "10ms", bw = 5, max-queue-size = 32 },
  { a = "r2", b = "p", delay = "2ms", bw = 100 },
]
[[producer]]
node = "p"
prefix = "/a"
file-size = 1000
[[consumer]]
id = "first"
node = "c1"
prefix = "/a"
pipeline = "aimd"
params = { init-cwnd = 4 }
[[consumer]]
node = "c2"
prefix = "/a"
pipeline = "fixed"
[[tcp]]
id = "t1"
from = "p"
to = "c2"
size = 1000
`

func TestSet(t *testing.T) {
	tests := []struct {
		key   string
		value string
		check func(s *Scenario) bool
	}{
		{"seed", "9", func(s *Scenario) bool { return s.Seed == 9 }},
		{"duration", "30s", func(s *Scenario) bool { return s.Duration == 30*time.Second }},
		{"profile", "seed000", func(s *Scenario) bool { return s.Profile == "seed000" }},
		{"routers.strategy", "pcon", func(s *Scenario) bool { return s.Routers.Strategy == "pcon" }},
		{"routers.queue", "codel-mark", func(s *Scenario) bool {
			return s.Routers.Queue == "codel-mark" && len(s.Routers.QueueParams) == 0
		}},
		{"routers.queue-params.threshold-packets", "10", func(s *Scenario) bool { return s.Routers.QueueParams["threshold-packets"] == "10" }},
		{"routers.node.r.1.strategy", "cf", func(s *Scenario) bool {
			return s.RouterFor("r.1").Strategy == "cf" && s.RouterFor("r2").Strategy == "best-route"
		}},
		{"routers.node.r2.cs-capacity", "100", func(s *Scenario) bool { return s.RouterFor("r2").CSCapacity == 100 }},
		{"links.r.1-r2.max-queue-size", "64", func(s *Scenario) bool {
			l, _ := s.Topology.Link("r.1", "r2")
			return l.QueuePackets == 64
		}},
		{"links.r.1-r2.max_queue_size", "16", func(s *Scenario) bool { // Mini-NDN's spelling
			l, _ := s.Topology.Link("r.1", "r2")
			return l.QueuePackets == 16
		}},
		{"links.r2-r.1.bw", "2.5", func(s *Scenario) bool {
			l, _ := s.Topology.Link("r.1", "r2")
			return l.Bandwidth == 2.5e6
		}},
		{"links.r2-p.delay", "7ms", func(s *Scenario) bool {
			l, _ := s.Topology.Link("r2", "p")
			return l.Delay == 7*time.Millisecond
		}},
		{"links.r.1-r2.loss", "1", func(s *Scenario) bool { return s.LossFor("r.1", "r2") == 0.01 && s.LossFor("r2", "r.1") == 0.01 }},
		{"links.r.1->r2.loss", "2", func(s *Scenario) bool { return s.LossFor("r.1", "r2") == 0.02 && s.LossFor("r2", "r.1") == 0 }},
		{"links.r.1-r2.queue", "codel-mark", func(s *Scenario) bool {
			a, _ := s.QueueFor("r.1", "r2")
			b, _ := s.QueueFor("r2", "r.1")
			return a == "codel-mark" && b == "codel-mark"
		}},
		{"links.r2->r.1.queue-params.target", "2ms", func(s *Scenario) bool {
			_, p := s.QueueFor("r2", "r.1")
			_, q := s.QueueFor("r.1", "r2")
			return p["target"] == "2ms" && q["target"] == ""
		}},
		{"links.c1-r.1.loss-detection", "true", func(s *Scenario) bool { return s.LossDetection("c1", "r.1") }},
		{"producer[0].file-size", `"10MiB"`, func(s *Scenario) bool { return s.Producers[0].FileSize == 10<<20 }},
		{"producer.*.segment-size", "4400", func(s *Scenario) bool { return s.Producers[0].SegmentSize == 4400 }},
		{"consumer.first.params.init-cwnd", "8", func(s *Scenario) bool {
			return s.Consumers[0].Params["init-cwnd"] == "8" && s.Consumers[1].Params["init-cwnd"] == ""
		}},
		{"consumer[1].params.window", "16", func(s *Scenario) bool { return s.Consumers[1].Params["window"] == "16" }},
		{"consumer.*.pipeline", "cubic", func(s *Scenario) bool {
			return s.Consumers[0].Pipeline == "cubic" && s.Consumers[1].Pipeline == "cubic"
		}},
		{"consumer.c2.profile", "seed003", func(s *Scenario) bool {
			return s.ProfileOf(s.Consumers[1]) == "seed003" && s.ProfileOf(s.Consumers[0]) == ""
		}},
		{"consumer.*.start", "1s", func(s *Scenario) bool { return s.Consumers[1].Start == time.Second }},
		{"tcp.t1.algorithm", "cubic", func(s *Scenario) bool { return s.TCP[0].Algorithm == "cubic" }},
		{"tcp[0].mss", "1000", func(s *Scenario) bool { return s.TCP[0].MSS == 1000 }},
	}
	base, err := Parse([]byte(setDoc), "set.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			s := base.Clone()
			if err := s.Set(tt.key, ParseValue(tt.value), topology.Pos{File: "--set"}); err != nil {
				t.Fatalf("Set: %v", err)
			}
			if !tt.check(s) {
				t.Errorf("%s=%s not applied", tt.key, tt.value)
			}
			if err := s.Validate(); err != nil {
				t.Errorf("Validate after the setting: %v", err)
			}
		})
	}
	// Settings on clones never change the base (its topology is shared).
	if l, _ := base.Topology.Link("r.1", "r2"); l.QueuePackets != 32 || l.Bandwidth != 5e6 {
		t.Errorf("the base's link changed: %+v", l)
	}
	if base.Consumers[0].Params["init-cwnd"] != "4" || base.Routers.Strategy != "best-route" || len(base.LinkQueues) != 0 {
		t.Errorf("the base changed: %+v", base)
	}
}

func TestSetErrors(t *testing.T) {
	base, err := Parse([]byte(setDoc), "set.toml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, value string
		want       string // the error
		validate   bool   // the error comes from Validate
	}{
		{"seeed", "1", "--set: seeed: unknown key (expected name, description, seed, duration, header-overhead, profile, or a key under routers, links, producer, consumer or tcp)", false},
		{"seed", "-1", "--set: seed: must not be negative, got -1", false},
		{"duration", "30", "--set: duration: expected a duration string such as \"300s\" or \"10ms\", got an integer", false},
		{"routers.stratgy", "pcon", "--set: routers.stratgy: unknown key \"stratgy\" (expected one of: strategy, cs-capacity, queue, forwarder, queue-params.NAME)", false},
		{"routers.node.r9.strategy", "pcon", "--set: routers.node.r9.strategy: no node of the topology begins \"r9.strategy\"", false},
		{"links.r1-r2.bw", "5", "--set: links.r1-r2.bw: no link of the topology matches (write links.A-B.KEY for the link, links.A->B.KEY for one direction; links: c1-r.1, c2-r.1, r.1-r2, r2-p)", false},
		{"links.r.1-r2.max-queue-size", "0", "--set: links.r.1-r2.max-queue-size: must be at least 1 packet, got 0", false},
		{"links.r.1->r2.max-queue-size", "8", "--set: links.r.1->r2.max-queue-size: unknown key \"max-queue-size\" (expected one of: queue, loss, shaper-rate-mbps, shaper-data-size, shaper-queue, underlay-rate-mbps, underlay-queue, queue-params.NAME)", false},
		{"links.r.1-r2.loss", "200", "--set: links.r.1-r2.loss: must be a percentage between 0 and 100, got 200", false},
		{"consumer.nobody.pipeline", "aimd", "--set: consumer.nobody.pipeline: no consumer has the id \"nobody\"", false},
		{"consumer[5].pipeline", "aimd", "--set: consumer[5].pipeline: consumer[5]: the scenario has 2 consumer entries", false},
		{"consumer.first.id", "x", "--set: consumer.first.id: a consumer's id cannot be set: it selects the consumer", false},
		{"consumer.first.params", "1", "--set: consumer.first.params: unknown key \"params\" (expected one of: node, prefix, start, pipeline, app, profile, program, args, params.NAME)", false},
		{"producer.p.node", "r2", "--set: producer.p.node: select producer entries by index (producer[0]) or all (producer.*)", false},
		{"consumer.first.node", "nowhere", "--set: consumer[0].node: no node \"nowhere\" in the topology", true},
		{"consumer.*.prefix", "/b", "--set: consumer[0].prefix: no producer serves \"/b\"", true},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			s := base.Clone()
			err := s.Set(tt.key, ParseValue(tt.value), topology.Pos{File: "--set"})
			if tt.validate {
				if err != nil {
					t.Fatalf("Set: %v", err)
				}
				err = s.Validate()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error\n got %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestParseAssignment(t *testing.T) {
	a, err := ParseAssignment("links.r.1-r2.max-queue-size=64", "--set")
	if err != nil || a.Key != "links.r.1-r2.max-queue-size" || a.Value != int64(64) || a.Pos.File != "--set" {
		t.Errorf("ParseAssignment = %+v, %v", a, err)
	}
	for _, bad := range []string{"", "seed", "=3"} {
		if _, err := ParseAssignment(bad, "--set"); err == nil {
			t.Errorf("ParseAssignment(%q) accepted", bad)
		}
	}
}
