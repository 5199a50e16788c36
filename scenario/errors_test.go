package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// errBase is a valid scenario; the error cases edit it. Its lines:
//
//	1 [topology]   5 [[producer]]   10 [[consumer]]
//	2 nodes        6 node           11 node
//	3 links        7 prefix         12 prefix
//	4              8 file-size      13 pipeline
const errBase = `[topology]
nodes = ["c", "r", "p"]
links = [{ a = "c", b = "r", delay = "1ms" }, { a = "r", b = "p", delay = "1ms" }]

[[producer]]
node = "p"
prefix = "/x"
file-size = 1000

[[consumer]]
node = "c"
prefix = "/x"
pipeline = "fixed"
`

// edit returns errBase with old replaced by new (old must occur).
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(errBase, old) {
		t.Fatalf("%q is not in the base scenario", old)
	}
	return strings.Replace(errBase, old, new, 1)
}

func TestParseErrors(t *testing.T) {
	allKeys := "name, description, seed, duration, header-overhead, profile, topology, routers, links, producer, consumer, tcp, event"
	tests := []struct {
		name, file, doc, want string
	}{
		// TOML itself.
		{"syntax", "", "seed = \n" + errBase,
			`f.toml:1: toml: unexpected character U+000A at start of value`},
		{"duplicate key", "", "seed = 1\nseed = 2\n" + errBase,
			`f.toml:2: seed: key seed is already defined`},
		// Unknown keys and types.
		{"unknown top-level key", "", "seeed = 1\n" + errBase,
			`f.toml:1: seeed: unknown key (expected one of: ` + allKeys + `)`},
		{"unknown consumer key", "", errBase + "widow = 32\n",
			`f.toml:14: consumer[0].widow: unknown key (expected one of: id, node, prefix, start, pipeline, app, profile, params, program, args)`},
		{"seed type", "", "seed = \"1\"\n" + errBase,
			`f.toml:1: seed: expected an integer, got a string`},
		{"negative seed", "", "seed = -1\n" + errBase,
			`f.toml:1: seed: must not be negative, got -1`},
		{"duration type", "", "duration = 300\n" + errBase,
			`f.toml:1: duration: expected a duration string such as "300s" or "10ms", got an integer`},
		{"duration syntax", "", "duration = \"300\"\n" + errBase,
			`f.toml:1: duration: invalid duration "300" (write a number and a unit, such as "300s" or "10ms")`},
		{"zero duration", "", "duration = \"0s\"\n" + errBase,
			`f.toml:1: duration: must be positive, got 0s`},
		{"empty name", "", "name = \"\"\n" + errBase,
			`f.toml:1: name: must not be empty`},
		{"header overhead", "", "header-overhead = -4\n" + errBase,
			`f.toml:1: header-overhead: must be from 0 to 8800 bytes, got -4`},
		{"huge header overhead", "", "header-overhead = 100000\n" + errBase,
			`f.toml:1: header-overhead: must be from 0 to 8800 bytes, got 100000`},
		{"producer is a table", "", strings.Replace(errBase, "[[producer]]", "[producer]", 1),
			`f.toml:5: producer: expected an array of tables ([[producer]]), got a table`},
		// Topology.
		{"no topology", "", edit(t, "[topology]\nnodes = [\"c\", \"r\", \"p\"]\nlinks = [{ a = \"c\", b = \"r\", delay = \"1ms\" }, { a = \"r\", b = \"p\", delay = \"1ms\" }]\n", ""),
			`f.toml: topology: missing (set file, or nodes and links)`},
		{"file and nodes", "", edit(t, "[topology]\n", "[topology]\nfile = \"linear.conf\"\n"),
			`f.toml:1: topology: set either file or inline nodes and links, not both`},
		{"neither file nor nodes", "", edit(t, "nodes = [\"c\", \"r\", \"p\"]\n", ""),
			`f.toml:1: topology: set file (a Mini-NDN topology file) or inline nodes and links`},
		{"missing topology file", "", edit(t, "[topology]\nnodes = [\"c\", \"r\", \"p\"]\nlinks = [{ a = \"c\", b = \"r\", delay = \"1ms\" }, { a = \"r\", b = \"p\", delay = \"1ms\" }]\n", "[topology]\nfile = \"nothere.conf\"\n"),
			`f.toml:2: topology.file: open nothere.conf: no such file or directory`},
		{"bad topology file", "testdata/f.toml", edit(t, "[topology]\nnodes = [\"c\", \"r\", \"p\"]\nlinks = [{ a = \"c\", b = \"r\", delay = \"1ms\" }, { a = \"r\", b = \"p\", delay = \"1ms\" }]\n", "[topology]\nfile = \"bad.conf\"\n"),
			`testdata/f.toml:2: topology.file: testdata/bad.conf:5: bw: invalid number "x"`},
		{"inline link to unknown node", "", edit(t, `b = "p"`, `b = "q"`),
			`f.toml:3: topology.links[1].b: node "q" is not in topology.nodes`},
		{"inline node not a string", "", edit(t, `"r", "p"]`, `"r", "p", 4]`),
			`f.toml:2: topology.nodes[3]: expected a node name (a string), got an integer`},
		{"inline bad bw", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", bw = -1`),
			`f.toml:3: topology.links[1].bw: must be a positive number of Mbit/s, got -1 (leave bw out for an unlimited link)`},
		{"inline bad loss", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", loss = 150`),
			`f.toml:3: topology.links[1].loss: must be a percentage between 0 and 100, got 150`},
		{"inline bad delay", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", delay = "1"`),
			`f.toml:3: topology.links[1].delay: invalid duration "1" (write a number and a unit, such as "300s" or "10ms")`},
		{"inline bad queue", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", max-queue-size = 0`),
			`f.toml:3: topology.links[1].max-queue-size: must be at least 1 packet, got 0`},
		{"inline unknown link key", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", jiter = "1ms"`),
			`f.toml:3: topology.links[1].jiter: unknown key (expected one of: a, b, delay, jitter, bw, max-queue-size, max-queue-bytes, loss)`},
		{"inline duplicate link", "", edit(t, `a = "r", b = "p"`, `a = "r", b = "c"`),
			"f.toml:3: links: link r:c: duplicate link (first at f.toml:3)\n" +
				`f.toml:12: consumer[0].prefix: no producer of "/x" is reachable from node "c"`},
		// Routers.
		{"empty strategy", "", errBase + "[routers]\nstrategy = \"\"\n",
			`f.toml:15: routers.strategy: must not be empty`},
		{"negative cs", "", errBase + "[routers]\ncs-capacity = -1\n",
			`f.toml:15: routers.cs-capacity: must be from 0 (no Content Store) to 1000000000 Data packets, got -1`},
		{"huge cs", "", errBase + "[routers]\ncs-capacity = 2000000000\n",
			`f.toml:15: routers.cs-capacity: must be from 0 (no Content Store) to 1000000000 Data packets, got 2000000000`},
		{"queue params type", "", errBase + "[routers]\nqueue-params = { target = [1] }\n",
			`f.toml:15: routers.queue-params.target: expected a string, number or boolean, got an array`},
		{"override of unknown node", "", errBase + "[routers.node.nosuch]\nstrategy = \"multicast\"\n",
			`f.toml:14: routers.node.nosuch: no node "nosuch" in the topology`},
		{"override unknown key", "", errBase + "[routers.node.r]\nstratgy = \"multicast\"\n",
			`f.toml:15: routers.node.r.stratgy: unknown key (expected one of: strategy, cs-capacity, queue, queue-params, forwarder)`},
		// Link queues.
		{"link queue unknown node", "", errBase + "[[links]]\nfrom = \"r\"\nto = \"z\"\nqueue = \"codel\"\n",
			`f.toml:16: links[0].to: no node "z" in the topology`},
		{"link queue no link", "", errBase + "[[links]]\nfrom = \"c\"\nto = \"p\"\nqueue = \"codel\"\n",
			`f.toml:14: links[0]: no link joins "c" and "p" in the topology`},
		{"link queue sets nothing", "", errBase + "[[links]]\nbetween = [\"c\", \"r\"]\n",
			`f.toml:14: links[0]: sets none of queue, queue-params, loss, loss-detection, shaper-rate-mbps, underlay-rate-mbps, tunnel`},
		{"shaper without rate", "", errBase + "[[links]]\nfrom = \"c\"\nto = \"r\"\nshaper-queue = 10\n",
			`f.toml:14: links[0]: shaper-data-size and shaper-queue without shaper-rate-mbps`},
		{"shaper zero rate", "", errBase + "[[links]]\nfrom = \"c\"\nto = \"r\"\nshaper-rate-mbps = 0\n",
			`f.toml:17: links[0].shaper-rate-mbps: must be positive`},
		{"underlay negative rate", "", errBase + "[[links]]\nbetween = [\"c\", \"r\"]\nunderlay-rate-mbps = -1\nunderlay-queue = 10\n",
			`f.toml:16: links[0].underlay-rate-mbps: must be positive`},
		{"underlay without queue", "", errBase + "[[links]]\nbetween = [\"c\", \"r\"]\nunderlay-rate-mbps = 10\n",
			`f.toml:14: links[0]: underlay: want a positive rate and queue (packets)`},
		{"link queue between", "", errBase + "[[links]]\nbetween = [\"c\"]\nqueue = \"codel\"\n",
			`f.toml:15: links[0].between: expected two node names, such as ["router1", "router2"]`},
		{"link queue between and from", "", errBase + "[[links]]\nfrom = \"c\"\nbetween = [\"c\", \"r\"]\nqueue = \"codel\"\n",
			`f.toml:16: links[0].between: set either between or from and to, not both`},
		{"link queue without to", "", errBase + "[[links]]\nfrom = \"c\"\nqueue = \"codel\"\n",
			`f.toml:14: links[0]: name the link direction with from and to, or both directions with between`},
		// Producers.
		{"producer unknown node", "", edit(t, `node = "p"`, `node = "q"`),
			"f.toml:6: producer[0].node: no node \"q\" in the topology\n" +
				`f.toml:12: consumer[0].prefix: no producer of "/x" is reachable from node "c"`},
		{"producer prefix", "", edit(t, "prefix = \"/x\"\nfile-size", "prefix = \"x\"\nfile-size"),
			"f.toml:7: producer[0].prefix: name \"x\" must start with \"/\"\n" +
				`f.toml:12: consumer[0].prefix: no producer serves "/x" (a consumer fetches the object a [[producer]] serves under exactly this prefix)`},
		{"file size unit", "", edit(t, "file-size = 1000", `file-size = "10XB"`),
			`f.toml:8: producer[0].file-size: invalid size "10XB": unknown unit "XB" (use B, KB, KiB, MB, MiB, GB or GiB)`},
		{"file size missing", "", edit(t, "file-size = 1000\n", ""),
			`f.toml:5: producer[0].file-size: required (the object size, in bytes or with a unit such as "10MiB")`},
		{"file size type", "", edit(t, "file-size = 1000", "file-size = 1.5"),
			`f.toml:8: producer[0].file-size: expected an integer number of bytes or a string such as "10MiB", got a float`},
		{"segment size", "", edit(t, "file-size = 1000", "file-size = 1000\nsegment-size = 0"),
			`f.toml:9: producer[0].segment-size: must be from 1 to 8800 bytes (NDN's packet size limit), got 0`},
		{"huge segment size", "", edit(t, "file-size = 1000", "file-size = 1000\nsegment-size = 100000"),
			`f.toml:9: producer[0].segment-size: must be from 1 to 8800 bytes (NDN's packet size limit), got 100000`},
		{"huge file size", "", edit(t, "file-size = 1000", "file-size = \"2000GiB\""),
			`f.toml:8: producer[0].file-size: 2147483648000 bytes is over the limit of 1 TiB`},
		{"huge queue", "", edit(t, `b = "p", delay = "1ms"`, `b = "p", delay = "1ms", max-queue-size = 2000000`),
			`f.toml:3: links: link r:p: QueuePackets must be from 1 to 1000000, got 2000000`},
		{"signature", "", edit(t, "file-size = 1000", "file-size = 1000\nsignature = \"rsa\""),
			`f.toml:9: producer[0].signature: unknown signature "rsa" (use one of rsa2048, digest, ecdsa, ed25519, hmac)`},
		{"freshness", "", edit(t, "file-size = 1000", "file-size = 1000\nfreshness = \"-1s\""),
			`f.toml:9: producer[0].freshness: must not be negative, got -1s`},
		{"duplicate producer", "", edit(t, "[[consumer]]", "[[producer]]\nnode = \"p\"\nprefix = \"/x\"\nfile-size = 5\n\n[[consumer]]"),
			`f.toml:12: producer[1].prefix: producer[0] already serves "/x" on "p"`},
		// Consumers.
		{"duplicate consumer id", "", errBase + "[[consumer]]\nnode = \"c\"\nprefix = \"/x\"\npipeline = \"aimd\"\n",
			`f.toml:14: consumer[1].id: consumer id "c" is already used by consumer[0] (set a unique id)`},
		{"consumer id with a slash", "", errBase + "[[consumer]]\nid = \"../evil\"\nnode = \"c\"\nprefix = \"/x\"\npipeline = \"aimd\"\n",
			`f.toml:15: consumer[1].id: consumer id "../evil" names trace files: use letters, digits, '-', '_' and '.' (not first)`},
		{"consumer without node", "", edit(t, "node = \"c\"\n", ""),
			`f.toml:10: consumer[0].node: required`},
		{"consumer prefix not served", "", edit(t, "prefix = \"/x\"\npipeline", "prefix = \"/xy\"\npipeline"),
			`f.toml:12: consumer[0].prefix: no producer serves "/xy" (a consumer fetches the object a [[producer]] serves under exactly this prefix)`},
		{"consumer starts too late", "", "duration = \"10s\"\n" + errBase + "start = \"10s\"\n",
			`f.toml:15: consumer[0].start: 10s is not before the end of the run (duration 10s)`},
		{"consumer without pipeline", "", edit(t, "pipeline = \"fixed\"\n", ""),
			`f.toml:10: consumer[0].pipeline: required (or app, a traffic application: cbr, zipf, batches)`},
		{"consumer with pipeline and app", "", errBase + "app = \"cbr\"\n",
			`f.toml:14: consumer[0].app: a consumer fetches with a pipeline ("fixed") or runs an app ("cbr"), not both`},
		// Events (the base's lines, then [[event]] at 14).
		{"event without at", "", errBase + "[[event]]\nlink = \"c-r\"\ndown = true\n",
			`f.toml:14: event[0].at: required: when it happens, such as "10s"`},
		{"event after the end", "", "duration = \"10s\"\n" + errBase + "[[event]]\nat = \"10s\"\nlink = \"c-r\"\ndown = true\n",
			`f.toml:16: event[0].at: 10s is not before the end of the run (duration 10s)`},
		{"event on no link", "", errBase + "[[event]]\nat = \"1s\"\nlink = \"c-p\"\ndown = true\n",
			`f.toml:16: event[0].link: no link "c-p" in the topology (links: c-r, r-p)`},
		{"event with two changes", "", errBase + "[[event]]\nat = \"1s\"\nlink = \"r-c\"\ndown = true\ndelay = \"5ms\"\n",
			`f.toml:14: event[0]: needs exactly one change: down = true, up = true, bw, delay or loss (got 2)`},
		{"event with no target", "", errBase + "[[event]]\nat = \"1s\"\nup = true\n",
			`f.toml:14: event[0]: needs link = "A-B" or node = "N"`},
		{"node event with a rate", "", errBase + "[[event]]\nat = \"1s\"\nnode = \"r\"\nbw = \"5Mbps\"\n",
			`f.toml:16: event[0].node: a node goes down or up; a rate, delay or loss belongs to a link`},
		{"event rate without unit", "", errBase + "[[event]]\nat = \"1s\"\nlink = \"c-r\"\nbw = \"5\"\n",
			`f.toml:17: event[0].bw: must be a rate with a unit (bps, kbps, Mbps, Gbps) such as "5Mbps", or a number of Mbit/s, got "5"`},
		{"event loss over 100", "", errBase + "[[event]]\nat = \"1s\"\nlink = \"c-r\"\nloss = 101\n",
			`f.toml:17: event[0].loss: must be a percentage from 0 to 100, got 101`},
		{"event down false", "", errBase + "[[event]]\nat = \"1s\"\nlink = \"c-r\"\ndown = false\n",
			`f.toml:17: event[0].down: write down = true, or leave it out`},
		{"consumer params type", "", errBase + "params = { window = { x = 1 } }\n",
			`f.toml:14: consumer[0].params.window: expected a string, number or boolean, got a table`},
		{"no consumer", "", edit(t, "[[consumer]]\nnode = \"c\"\nprefix = \"/x\"\npipeline = \"fixed\"\n", ""),
			`f.toml: consumer: the scenario has no consumer (add a [[consumer]] or a [[tcp]] flow)`},
		// Several errors come back together, in line order.
		{"several", "", "seed = -1\n" + errBase + "widow = 1\nstart = 5\n",
			"f.toml:1: seed: must not be negative, got -1\n" +
				"f.toml:15: consumer[0].widow: unknown key (expected one of: id, node, prefix, start, pipeline, app, profile, params, program, args)\n" +
				`f.toml:16: consumer[0].start: expected a duration string such as "300s" or "10ms", got an integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := tt.file
			if file == "" {
				file = "f.toml"
			}
			s, err := Parse([]byte(tt.doc), file)
			if err == nil {
				t.Fatalf("no error; scenario %+v", s)
			}
			if s != nil {
				t.Error("got a scenario with the error")
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestTooManyEntries(t *testing.T) {
	// A million consumers took 3.9 GB and a minute before an error; the
	// file is refused by its size at once, and within the size limit the
	// count is checked before a single consumer is decoded.
	var b strings.Builder
	b.WriteString(errBase)
	for i := range MaxConsumers {
		fmt.Fprintf(&b, "[[consumer]]\nid = \"c%d\"\nnode = \"c\"\nprefix = \"/x\"\npipeline = \"fixed\"\n", i)
	}
	_, err := Parse([]byte(b.String()), "f.toml")
	const want = `f.toml:500009: consumer: 100001 entries, over the limit of 100000`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
	big := make([]byte, MaxFileBytes+1)
	if _, err := Parse(big, "big.toml"); err == nil || !strings.Contains(err.Error(), "big.toml: the scenario is 16777217 bytes, over the 16 MiB limit") {
		t.Errorf("a %d-byte scenario: error %v", len(big), err)
	}
}

func TestTopologyFileMustBeARegularFileWithinTheLimit(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.conf")
	if err := os.WriteFile(big, make([]byte, MaxTopologyFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, want string }{
		{"/dev/urandom", `f.toml:2: topology.file: /dev/urandom is a character device, not a regular file`},
		{dir, `f.toml:2: topology.file: ` + dir + ` is a directory, not a regular file`},
		{big, `f.toml:2: topology.file: ` + big + ` is 8388609 bytes, over the 8 MiB limit`},
	}
	for _, tt := range tests {
		doc := edit(t, "[topology]\nnodes = [\"c\", \"r\", \"p\"]\nlinks = [{ a = \"c\", b = \"r\", delay = \"1ms\" }, { a = \"r\", b = \"p\", delay = \"1ms\" }]\n",
			"[topology]\nfile = \""+tt.file+"\"\n")
		done := make(chan error, 1)
		go func() { _, err := Parse([]byte(doc), "f.toml"); done <- err }()
		select {
		case err := <-done:
			if err == nil || err.Error() != tt.want {
				t.Errorf("topology.file = %s: error\n got %v\nwant %s", tt.file, err, tt.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("topology.file = %s: still reading after 10 s", tt.file)
		}
	}
}

func TestUnreachableProducer(t *testing.T) {
	doc := strings.Replace(errBase, `links = [{ a = "c", b = "r", delay = "1ms" }, { a = "r", b = "p", delay = "1ms" }]`,
		`links = [{ a = "c", b = "r", delay = "1ms" }]`, 1)
	_, err := Parse([]byte(doc), "f.toml")
	const want = `f.toml:12: consumer[0].prefix: no producer of "/x" is reachable from node "c"`
	if err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
}
