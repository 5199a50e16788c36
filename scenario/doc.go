// Package scenario owns the description of one simulated experiment — the
// topology, the forwarders' settings and queue disciplines, the producers
// and the consumers — and its TOML file format: loading, defaults,
// validation and error messages.
//
// A scenario is a plain value. Load, LoadFS and Parse read it from a file; the
// experiment catalog builds it in Go from Default, NewProducer and
// NewConsumer; Validate checks it the same way in both cases. Strategy,
// queue-discipline and pipeline names and their parameters are carried as
// strings: the simulator, which knows them, validates them (Consumer.ParamPos
// lets it point at the offending line).
//
// This package imports topology and ndnd's name codec only. It must never
// import the protocol core (cc, consumer, producer, fw) or the runtimes
// (sim, live): they import it.
//
// # File format
//
// Every key is optional unless marked required; defaults are in
// defaults.go (and topology's defaults.go for links). Unknown keys are
// errors. Durations are Go duration strings ("300s", "10ms", "1m30s").
//
//	name = "linear-fixed32"     # default: the file's base name
//	description = "..."         # default: ""
//	seed = 1                    # integer >= 0, default 1
//	duration = "300s"           # simulated-time limit of a run, > 0, default "600s"
//	header-overhead = 44        # bytes added to every packet on every link, default 44
//	profile = "seed000"         # parameter profile of every consumer naming none, default none
//
//	[topology]                  # required: file, or nodes (and links)
//	file = "linear.conf"        # Mini-NDN file, relative to this file's directory
//	# or inline:
//	# nodes = ["consumer1", "router1"]
//	# links = [ { a = "consumer1", b = "router1", delay = "10ms", bw = 10,
//	#             max-queue-size = 32, max-queue-bytes = 0, loss = 0 } ]
//	#   a, b: required; delay: duration, default 0; bw: Mbit/s > 0, default
//	#   unlimited; max-queue-size: packets >= 1, default 1000;
//	#   max-queue-bytes: 0 = no byte limit (default); loss: percent 0..100, default 0
//
//	[routers]                   # every node's forwarder
//	strategy = "best-route"     # default "best-route"
//	cs-capacity = 0             # Data packets; 0 (default) disables the Content Store
//	queue = "droptail"          # output-queue discipline of every link direction, default "droptail"
//	queue-params = { target = "5ms" }   # strings, numbers, booleans; passed on as strings
//
//	[routers.node.router1]      # per-node override: any of the four keys above
//	strategy = "multicast"
//
//	[[links]]                   # per-link-direction queue override, applied in order
//	from = "router1"            # one direction: from and to;
//	to = "router2"              # or both: between = ["router1", "router2"]
//	queue = "codel-mark"        # at least one of queue, queue-params, loss, loss-detection
//	queue-params = { target = "5ms", interval = "100ms" }
//	# loss = 2                  # percent: replaces the link's loss on the direction(s) named
//	# loss-detection = true     # with between only: PCON's link-loss shim at both ends
//
//	[[producer]]
//	node = "producer1"          # required
//	prefix = "/example/file"    # required, an NDN name
//	file-size = "10MiB"         # required: integer bytes, or a string with B, KB, KiB, MB, MiB, GB, GiB
//	segment-size = 1024         # payload bytes per Data, default 1024
//	signature = "rsa2048"       # rsa2048 (default), digest, ecdsa, ed25519, hmac
//	freshness = "10s"           # default "10s" (ndnputchunks)
//
//	[[consumer]]                # at least one, or a [[tcp]] flow
//	id = "c1"                   # default: the node name; unique
//	node = "consumer1"          # required
//	prefix = "/example/file"    # required; some producer must serve exactly this prefix
//	start = "0s"                # default "0s", before duration
//	pipeline = "fixed"          # required
//	profile = "seed003"         # parameter profile, default the scenario's
//	params = { window = 32, rtt-sampling = "every-data" }   # passed on as strings
//
//	[[tcp]]                     # a bulk TCP transfer sharing the network (the TCP baseline)
//	id = "t1"                   # default: the to node's name; unique among TCP flows and consumers
//	from = "producer2"          # required: the sender
//	to = "consumer2"            # required: the receiver, reachable from the sender
//	size = "10MiB"              # required: bytes, as file-size
//	algorithm = "reno"          # reno (default: NewReno) or cubic
//	start = "0s"                # default "0s", before duration
//	mss = 1448                  # payload bytes per segment, 1..65483, default 1448
//
// # Merging
//
// RouterFor(node) is [routers] with the keys that [routers.node.NODE] sets
// replaced. QueueFor(from, to) starts from RouterFor(from) and applies the
// matching [[links]] entries in order. In both, queue-params merge key by
// key over the inherited ones while the discipline stays the same; an
// override that changes the discipline starts from its own parameters only.
//
// # Setting keys
//
// Set (and Apply) change a key by its dotted path, as `ndncc sim --set` and
// experiment files do: "links.router1-router2.max-queue-size",
// "consumer.*.params.window", "routers.node.r1.strategy" (docs/scenario.md,
// "Setting keys"). The value is decoded and checked as the file's key would
// be; Validate then names the key at the setting's position.
//
// # Errors
//
// Every error reads "file:line: field: message", where field is the TOML
// key path ("consumer[0].params.window", "topology.links[1].bw") and line
// is that key's line, or the line of the table that lacks it. Errors in a
// Mini-NDN file are reported at topology.file, with their own file:line.
// All problems found are returned together, in line order.
//
// Package go-toml/v2 reads the file: its parser gives the line of every
// key, which BurntSushi/toml keeps private.
package scenario
