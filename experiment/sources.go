package experiment

// The inputs the seed experiments share, with their sources (Input). A
// line reference is to the seed document as /work/shared/seeds keeps it
// (docs/reproduction.md quotes the lines).

// in is an Input.
func in(name, value, source string) Input { return Input{Name: name, Value: value, Source: source} }

// linearInputs are paper 000's linear topology and object, and the
// simulator's modelling choices every experiment on it shares.
func linearInputs() []Input {
	return []Input{
		in("consumer1-router1", "10 Mbit/s, 10 ms", "seed 000, line 113: `consumer1:router1 delay=10ms bw=10`"),
		in("router1-router2", "5 Mbit/s, 10 ms, 32 packets", "seed 000, line 114: `router1:router2 delay=10ms bw=5 max_queue_size=32`"),
		in("router2-producer1", "10 Mbit/s, 10 ms", "seed 000, line 115: `router2:producer1 delay=10ms bw=10`"),
		in("queues of links without max_queue_size", "1000 packets", "reference stack: Linux's txqueuelen default, which Mini-NDN leaves on a link without max_queue_size (also netem's default limit)"),
	}
}

// dumbbellInputs are paper 000's dumbbell topology.
func dumbbellInputs() []Input {
	return []Input{
		in("consumer1-router1, consumer2-router1", "10 Mbit/s, 10 ms", "seed 000, lines 135 and 141: `consumer1:router1 delay=10ms bw=10`, `consumer2:router1 delay=10ms bw=10`"),
		in("router1-router2", "5 Mbit/s, 10 ms, 32 packets", "seed 000, line 136: `router1:router2 delay=10ms bw=5 max_queue_size=32`"),
		in("router2-producer1, router2-producer2", "10 Mbit/s, 10 ms", "seed 000, lines 140 and 142: `router2:producer1 delay=10ms bw=10`, `router2:producer2 delay=10ms bw=10`"),
		in("queues of links without max_queue_size", "1000 packets", "reference stack: Linux's txqueuelen default, which Mini-NDN leaves on a link without max_queue_size"),
		in("flow starts", "uniform in [0, 10 ms)", "chosen, because the paper starts both consumers from one script and gives no offset; 10 ms of jitter keeps the two from starting in lockstep"),
	}
}

// objectInputs are the 10 MiB object of papers 000 and 003.
func objectInputs() []Input {
	return []Input{
		in("object", "10 MiB, 10,240 segments of 1024 bytes", "seed 000, line 95: `Size of the file being transferred: 10MB`; seed 003, line 31: `a ndn data packet with content payload with the size of 1024 bytes` (the 10,240 segments of 1024 bytes reading of 10MB is ours)"),
		in("Data on the wire", "1449 bytes (1024 payload, 381 NDN, 28 IP/UDP, 16 link)", "seed 003, lines 33-42: the tcpdump line and its breakdown; the simulator's NDN encodings give the same 1405-byte packet"),
	}
}

// nfdModelInputs are what stands for NFD on a testbed node.
func nfdModelInputs() []Input {
	return []Input{
		in("forwarder processing time", "0-200 µs per packet, uniform, one server per node", "chosen, because NFD takes time per packet and none of the papers measures it; the bound is the simulator's default"),
	}
}

// seed000ProfileInputs are the consumer parameters of the seed000 profile
// (package consumer) and the ndnget defaults it keeps.
func seed000ProfileInputs() []Input {
	return []Input{
		in("init-cwnd", "1", "seed 003, line 112: `initial cwnd = 1` (seed 000, line 21, says 0, which would send no Interest)"),
		in("init-ssthresh", "200", "seed 000, line 22: `m_ssthresh: slow start threshold, initial value: 200`"),
		in("aimd-step, aimd-beta", "1, 0.5", "seed 000, lines 43-47 and 56 (cwnd + 1/cwnd; ssthresh = cwnd/2); seed 003, line 112"),
		in("rto-alpha, rto-beta, rto-k", "1/8, 1/4, 4", "seed 000, line 79: `a mean-deviation RTT estimator as elaborated in RFC6298`; seed 003, line 112 lists the same"),
		in("max-rto", "10 s", "seed 003, line 112: `MaxRTO = 10s` (paper 000 states none; same lab and year)"),
		in("min-rto", "200 ms", "reference stack: ndn-cxx 0.9.0 RttEstimator::Options::minRto = 200 ms, ndncatchunks 24.07's --min-rto default (paper 000 states no floor)"),
		in("initial-rto", "1 s", "reference stack: ndn-cxx 0.9.0 RttEstimator::Options::initialRto = 1 s (RFC 6298's)"),
		in("rto-check-interval", "10 ms", "seed 000, line 75: `an event is scheduled every 10ms (configurable) to check timed out segments`"),
		in("retries", "15", "reference stack: ndncatchunks 24.07, options.hpp, maxRetriesOnTimeoutOrNack = 15"),
		in("lifetime", "4 s", "reference stack: ndn-cxx's default Interest lifetime (DEFAULT_INTEREST_LIFETIME, 4 s), ndncatchunks' --lifetime default"),
	}
}

// seed000DesignInputs are what tells Designs #0-#3 apart.
func seed000DesignInputs(window, windowLine string) []Input {
	return []Input{
		in("design0 window", window, "seed 000, line 174: `Fixed cwnd with optimal value (32 for linear topology, 16 for dumbbell topology)`"+windowLine),
		in("design1", "conservative = false, rtt-sampling = every-data", "seed 000, lines 175-178: `Consumer reacts to multiple packet losses per RTT`, `takes multiple RTT samples per RTT`"),
		in("design2", "conservative = true, rtt-sampling = every-data", "seed 000, lines 179-182: `reacts to one packet loss event per RTT`, `takes multiple RTT samples per RTT`"),
		in("design3", "conservative = true, rtt-sampling = once-per-rtt", "seed 000, lines 9-12 and 183: one loss event per RTT, one RTT sample per RTT"),
		in("runs", "3 per design", "seed 000, lines 189-271: three rows per design"),
	}
}

// seed003ProfileInputs are the seed003 profile's parameters.
func seed003ProfileInputs() []Input {
	return []Input{
		in("max-rto, rto-alpha, rto-beta, rto-k, rto-backoff", "10 s, 1/8, 1/4, 4, 2", "seed 003, line 112: `MaxRTO = 10s; alpha = 1/8; beta = 1/4; RTT variance multiplier = 4; RTO backoff multiplier = 2`"),
		in("init-cwnd, init-ssthresh, aimd-step, aimd-beta", "1, 200, 1, 0.5", "seed 003, line 112: `initial cwnd = 1; initial ssthresh = 200; additive increase step = 1; multiplicative decrease factor = 0.5`"),
		in("hole-threshold", "5", "seed 003, lines 82-83 and 112: `out-of-order packets counter threshold = 5`"),
		in("rto-check-interval", "10 ms", "seed 003, lines 87-88 and 112: `retransmission timer check interval = 10ms`"),
		in("min-rto", "1 s", "chosen, because paper 003 lists its estimator's parameters (RFC 6298's alpha, beta, K) but no floor, and RFC 6298 (2.4) sets 1 s; the reference stack's 200 ms is the alternative (docs/reproduction.md, seed003-aimd's notes)"),
		in("retries", "unlimited", "seed 003, line 88: a timed-out Interest is retransmitted (no limit stated)"),
		in("keep-pending", "true", "reference stack: ndn-cxx's Face keeps a retransmitted segment's earlier Interest pending, so one Data answers both"),
		in("Content Store", "65536 Data on every node", "reference stack: NFD's default cs_max_packets, which Mini-NDN's NFD keeps"),
		in("runs", "5 per variant", "seed 003, line 102: `each was repeated 5 times`"),
	}
}

// concat joins lists of inputs.
func concat(lists ...[]Input) []Input {
	var out []Input
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// profileInputs are the inputs a parameter profile sets, for an
// experiment file that selects it (Catalog adds them).
func profileInputs(profile string) []Input {
	switch profile {
	case "seed000":
		return seed000ProfileInputs()
	case "seed003":
		return seed003ProfileInputs()
	}
	return nil
}

// withProfileInputs returns the inputs of profile that own does not name,
// then own: an experiment's own input overrides the profile's of the same
// name.
func withProfileInputs(profile string, own []Input) []Input {
	named := map[string]bool{}
	for _, i := range own {
		named[i.Name] = true
	}
	var out []Input
	for _, i := range profileInputs(profile) {
		if !named[i.Name] {
			out = append(out, i)
		}
	}
	return append(out, own...)
}

// seed001Inputs are paper 001's testbed and pipelines as the catalog
// models them.
func seed001Inputs() []Input {
	return []Input{
		in("path", "one link consumer1--producer1", "seed 001, line 117: `Two ubuntu VMs ... They forward packets to each other through a UDP tunnel`"),
		in("RTT", "50, 100, 200 ms (half each way)", "seed 001, lines 120 and 129-139: `netem delay`, scenarios of 50, 100 and 200 ms RTT"),
		in("link rate", "20 Mbit/s", "chosen, because the paper gives none (its VMs had no shaped rate); docs/seed001-sweep gives the findings at 10-200 Mbit/s and 0.1-10 bandwidth-delay products of buffer"),
		in("queue", "1000 packets", "reference stack: netem's default limit for the `tc qdisc add dev eth1 root netem delay` of seed 001, line 120"),
		in("object", "100 MB (10^8 bytes)", "seed 001, lines 129, 133, 136: `Transferring a 100MB file`"),
		in("segment", "1024 bytes", "chosen, because paper 001 does not give it; papers 000 and 003, from the same lab, use 1024"),
		in("Vegas alpha/beta pairs", "5/10, 10/20, 20/30 at 50 and 200 ms; 5/10, 10/20 at 100 ms", "seed 001, lines 129-139"),
		in("vegas-gamma (NDN-Vegas)", "inf", "seed 001, lines 130-139: `gamma = ∞`"),
		in("vegas-diff-per-second", "true", "seed 001, lines 40-44: `expected = cwnd/baseRTT`, `actual = rttLen/avgRTT`, `diff = expected - actual`, a rate compared with alpha and beta as it stands; the paper's code (line 109, imsure/ndn-vegas, pipeline-interests-vegas.cpp, vegasUpdate) computes the same diff in segments per second"),
		in("NDN-Vegas alpha/beta", "10/20", "chosen, because the paper runs NDN-Vegas without naming its pair; 10/20 is the one of its three pairs it calls good at 100 ms (line 168)"),
		in("rto-k, min-rto, max-rto", "8, 200 ms, 60 s", "reference stack: ndncatchunks (which paper 001's pipelines extend, line 107) sets RTTVAR multiplier 8 over ndn-cxx's 200 ms floor and 1 min ceiling"),
		in("AIMD/CUBIC init-cwnd, init-ssthresh", "1, 200", "chosen, because paper 001 states none and these are papers 000 and 003's; ndncatchunks 24.07 would start at 2 with no threshold"),
		in("CUBIC fast-conv", "true", "chosen, because paper 001 states nothing and RFC 9438 recommends it; ndncatchunks 24.07 defaults to false"),
		in("hystart", "false", "reference stack: ndncatchunks has no HyStart"),
		in("runs", "5 per variant", "seed 001, line 125: `for 5 times`"),
	}
}

// seed004Inputs are what paper 004's experiments share: PCON's consumer
// and marking, and the simulator's choices for ndnSIM.
func seed004Inputs() []Input {
	return []Input{
		in("marking", "CoDel marks (target 5 ms, interval 100 ms)", "seed 004, lines 108 and 117: `Based on CoDel AQM`, `Using CoDel's drop spacing logic`; the target and interval are RFC 8289's defaults (chosen, the talk gives none)"),
		in("PCON consumer decrease on a mark", "x 0.85", "chosen, because the talk gives no factor (line 123: AIMD, line 125: BIC or any loss-based TCP algorithm); 0.85 is the conservative reaction to marks"),
		in("fixed RTO", "1 s", "seed 004, lines 134 and 197: `Allows to use higher RTOs`, `PCON can use a fixed higher RTO`; the value 1 s is chosen (the talk gives none)"),
		in("forwarder processing time", "none", "chosen, because PCON's published evaluation ran in ndnSIM, whose forwarders take none (not in the seed text)"),
	}
}
