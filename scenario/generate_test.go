package scenario

import (
	"strings"
	"testing"
)

// genBase is a scenario on a generated dumbbell: line 1 is [topology],
// line 2 generate, line 3 pairs.
const genBase = `[topology]
generate = "dumbbell"
pairs = 2

[[producer]]
node = "d1"
prefix = "/x"
file-size = 1000

[[consumer]]
node = "s0"
prefix = "/x"
pipeline = "fixed"
`

func TestGeneratedTopology(t *testing.T) {
	for _, tc := range []struct {
		name, doc    string
		nodes, links int
	}{
		{"dumbbell", genBase, 6, 5},
		{"isp", strings.Replace(strings.Replace(genBase, `"dumbbell"`, `"isp"`, 1), "pairs = 2", "routers = 40\nseed = 3", 1), 40, -1},
		{"parking-lot", strings.Replace(strings.Replace(genBase, `"dumbbell"`, `"parking-lot"`, 1), "pairs = 2", "routers = 3\nbw = 5\ndelay = \"2ms\"", 1), 6, 5},
		{"tree", strings.Replace(strings.Replace(genBase, `"dumbbell"`, `"tree"`, 1), "pairs = 2", "fanout = 3\ndepth = 2\nmax-queue-size = 20", 1), 13, 12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			if tc.name != "dumbbell" { // every family has other node names
				first := map[string][2]string{"isp": {"e0", "e30"}, "parking-lot": {"h0", "h2"}, "tree": {"t0", "t12"}}[tc.name]
				doc = strings.Replace(strings.Replace(doc, `"d1"`, `"`+first[0]+`"`, 1), `"s0"`, `"`+first[1]+`"`, 1)
			}
			s, err := Parse([]byte(doc), "f.toml")
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if len(s.Topology.Nodes) != tc.nodes || tc.links >= 0 && len(s.Topology.Links) != tc.links {
				t.Errorf("%d nodes, %d links; want %d, %d", len(s.Topology.Nodes), len(s.Topology.Links), tc.nodes, tc.links)
			}
			switch tc.name {
			case "parking-lot":
				if l, _ := s.Topology.Link("r0", "r1"); l.Bandwidth != 5e6 || l.Delay.String() != "2ms" {
					t.Errorf("bottleneck %v bit/s, %v", l.Bandwidth, l.Delay)
				}
			case "tree":
				if l := s.Topology.Links[0]; l.QueuePackets != 20 {
					t.Errorf("queue %d, want 20", l.QueuePackets)
				}
			}
		})
	}
}

func TestGeneratedTopologyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, want string
	}{
		{"unknown family", `"dumbbell"`, `"mesh"`, `f.toml:2: topology.generate: unknown topology family "mesh" (want one of isp, dumbbell, parking-lot, tree)`},
		{"with a file", `pairs = 2`, `file = "x.conf"`, `f.toml:1: topology: set one of file, inline nodes and links, or generate`},
		{"key of another family", `pairs = 2`, `routers = 4`, `f.toml:3: topology.routers: a dumbbell topology takes no routers (it is for isp, parking-lot)`},
		{"zero pairs", `pairs = 2`, `pairs = 0`, `f.toml:3: topology.pairs: must be at least 1, got 0`},
		{"bad bw", `pairs = 2`, `bw = -1`, `f.toml:3: topology.bw: must be a positive number of Mbit/s, got -1`},
		{"too many", `pairs = 2`, `pairs = 9000`, `f.toml:1: topology: dumbbell: 9000 pairs, want 1 to 4999`},
		{"generated key without generate", "generate = \"dumbbell\"\npairs = 2", "nodes = [\"d1\", \"s0\"]\npairs = 2", `f.toml:3: topology.pairs: only a generated topology (generate = ...) takes pairs`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(genBase, tc.old) {
				t.Fatalf("%q not in the base", tc.old)
			}
			_, err := Parse([]byte(strings.Replace(genBase, tc.old, tc.new, 1)), "f.toml")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error:\n%v\nwant it to contain:\n%s", err, tc.want)
			}
		})
	}
}

func TestProducerAnnounce(t *testing.T) {
	ok := strings.Replace(genBase, `file-size = 1000`, "file-size = 1000\nannounce = \"/\"", 1)
	if s, err := Parse([]byte(ok), "f.toml"); err != nil {
		t.Fatal(err)
	} else if err := s.Validate(); err != nil || s.Producers[0].Announce != "/" {
		t.Fatalf("announce %q, %v", s.Producers[0].Announce, err)
	}
	bad := strings.Replace(genBase, `file-size = 1000`, "file-size = 1000\nannounce = \"/y\"", 1)
	s, err := Parse([]byte(bad), "f.toml")
	if err == nil {
		err = s.Validate()
	}
	if want := `f.toml:9: producer[0].announce: "/y" is not a prefix of the producer's prefix "/x"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %s", err, want)
	}
}
