package sim

import (
	"math"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
)

// Result is the outcome of one simulated run. Everything but Timing is a
// pure function of the scenario and the seed.
type Result struct {
	Scenario string  `json:"scenario"`
	Seed     uint64  `json:"seed"`
	SimTimeS float64 `json:"sim_time_s"`
	// Flows summarises every transfer: the NDN consumers in scenario
	// order, then the TCP flows (pipeline "tcp-reno" or "tcp-cubic"; see
	// tcpFlowResult), so that tables and reports show both alike.
	Flows []FlowResult `json:"flows"`
	// TCP details the TCP flows, with the counters only TCP has.
	TCP   []TCPResult  `json:"tcp,omitempty"`
	Links []LinkResult `json:"links"`
	// Caches are the Content Stores' hits and misses, per node with a
	// Content Store (cs-capacity above 0), by node name.
	Caches []CacheResult `json:"caches,omitempty"`
	Timing Timing        `json:"timing"`
}

// CacheResult is one node's Content Store lookups: Interests it answered
// from the store (hits) and lookups that found nothing (misses).
type CacheResult struct {
	Node   string `json:"node"`
	Hits   uint64 `json:"hits"`
	Misses uint64 `json:"misses"`
}

// TCPResult summarises one TCP flow. Rates are in kbit/s (1000 bit/s).
type TCPResult struct {
	ID        string `json:"id"`
	From      string `json:"from"` // the sender's node
	To        string `json:"to"`   // the receiver's node
	Algorithm string `json:"algorithm"`
	MSS       int    `json:"mss"`
	Segments  uint64 `json:"segments"` // distinct data segments received
	Bytes     uint64 `json:"bytes"`    // payload delivered in order
	Complete  bool   `json:"complete"`
	// DownloadTimeS runs from the sender's start to the arrival of the
	// last byte in order (or to the end of the run when incomplete).
	DownloadTimeS float64 `json:"download_time_s"`
	// GoodputKbps is payload bits per second.
	GoodputKbps float64 `json:"goodput_kbps"`
	// ThroughputKbps counts every data segment received (duplicates
	// included) at its wire size with IP, TCP and link headers.
	ThroughputKbps  float64 `json:"throughput_kbps"`
	SegmentsSent    uint64  `json:"segments_sent"` // retransmissions included
	Retransmissions uint64  `json:"retransmissions"`
	Timeouts        uint64  `json:"timeouts"`         // RTO expiries
	FastRetransmits uint64  `json:"fast_retransmits"` // on three duplicate ACKs
	DupAcks         uint64  `json:"dup_acks"`
	RTTMinMs        float64 `json:"rtt_min_ms"`
	RTTAvgMs        float64 `json:"rtt_avg_ms"`
	RTTMaxMs        float64 `json:"rtt_max_ms"`
	Error           string  `json:"error,omitempty"`
}

// FlowResult summarises one consumer's fetch. Rates are in kbit/s
// (1000 bit/s), times in seconds or milliseconds as named.
type FlowResult struct {
	ID       string `json:"id"`
	Consumer string `json:"consumer"`
	Producer string `json:"producer"`
	Pipeline string `json:"pipeline"`
	Segments uint64 `json:"segments"` // distinct segments received
	Bytes    uint64 `json:"bytes"`    // payload bytes received
	Complete bool   `json:"complete"`
	// DownloadTimeS runs from the consumer's start to its last segment
	// (or to the end of the run when incomplete).
	DownloadTimeS float64 `json:"download_time_s"`
	// GoodputKbps is payload bits per second.
	GoodputKbps float64 `json:"goodput_kbps"`
	// ThroughputKbps counts every Data received (duplicates included) at
	// its wire size with headers: the seeds' "throughput".
	ThroughputKbps float64 `json:"throughput_kbps"`
	// EffectiveKbps counts each segment once at its wire size: paper 003's
	// "effective throughput".
	EffectiveKbps float64 `json:"effective_throughput_kbps"`
	Interests     uint64  `json:"interests"`
	Timeouts      uint64  `json:"timeouts"` // RTO expiries, every one counted
	// TimeoutPct is paper 000's "timeout percentage" (its "packet loss
	// rate"): loss events detected by timeout — a burst of timeouts the
	// pipeline treats as one congestion event counts once — per 100
	// segments received.
	TimeoutPct float64 `json:"timeout_pct"`
	// TimeoutsPerSegmentPct counts every RTO expiry per 100 segments.
	TimeoutsPerSegmentPct float64          `json:"timeouts_per_segment_pct"`
	Retransmissions       uint64           `json:"retransmissions"`
	LossRatePct           float64          `json:"loss_rate_pct"` // paper 003: retransmissions / Data received, percent
	LossEvents            uint64           `json:"loss_events"`   // window decreases
	Decreases             map[string]int64 `json:"decreases"`     // by cause: timeout, mark, nack, hole, loss
	Marks                 uint64           `json:"marks"`
	Nacks                 uint64           `json:"nacks"`
	Duplicates            uint64           `json:"duplicates"`
	// LateData counts Data that arrived after their segment had timed
	// out but before it was retransmitted: certainly spurious timeouts.
	LateData uint64  `json:"late_data"`
	RTTMinMs float64 `json:"rtt_min_ms"`
	RTTAvgMs float64 `json:"rtt_avg_ms"`
	RTTMaxMs float64 `json:"rtt_max_ms"`
	// DelayMeanMs is a traffic application's mean delay from the first
	// Interest for a content to its Data (AppFlowResult); absent for
	// pipelines.
	DelayMeanMs float64 `json:"delay_mean_ms,omitempty"`
	Error       string  `json:"error,omitempty"`
}

// LinkResult is one link direction's counters.
type LinkResult struct {
	From      string `json:"from"`
	To        string `json:"to"`
	Packets   uint64 `json:"packets"`
	Bytes     uint64 `json:"bytes"`
	Drops     uint64 `json:"drops"`
	TailDrops uint64 `json:"tail_drops"`
	AQMDrops  uint64 `json:"aqm_drops"`
	LossDrops uint64 `json:"loss_drops"`
	// DownDrops are the frames given to the link while an event had taken
	// it down (counted in drops too).
	DownDrops uint64  `json:"down_drops,omitempty"`
	Marks     uint64  `json:"marks"`
	Interests uint64  `json:"interests"` // Interests transmitted
	Data      uint64  `json:"data"`      // Data transmitted
	Nacks     uint64  `json:"nacks"`     // Nacks transmitted
	MaxQueue  int     `json:"max_queue"`
	MeanQueue float64 `json:"mean_queue"`
	// Utilization is bytes sent / (bandwidth x simulated time).
	Utilization float64 `json:"utilization"`
}

// Timing is how fast the simulation ran; it varies between runs.
type Timing struct {
	WallS      float64 `json:"wall_s"`
	Events     uint64  `json:"events"`
	EventsPerS float64 `json:"events_per_s"`
	// Speedup is simulated seconds per wall-clock second.
	Speedup float64 `json:"speedup"`
}

func secs(d time.Duration) float64 { return d.Seconds() }
func ms(d time.Duration) float64   { return float64(d) / 1e6 }

// Round rounds x to digits decimals: it keeps JSON numbers readable and
// stable (the simulator's results, and the emulator's in the same schema).
func Round(x float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(x*p) / p
}

func kbps(bytes uint64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bytes) * 8 / d.Seconds() / 1000
}

func (n *Network) result(wall time.Duration) *Result {
	now := n.Sched.Now()
	r := &Result{Scenario: n.Scenario.Name, Seed: n.Seed, SimTimeS: Round(secs(now), 6)}
	for _, ref := range n.consumers {
		if ref.app != nil {
			r.Flows = append(r.Flows, ref.app.result(now))
			continue
		}
		f := ref.flow
		st := f.P.Stats()
		done, err := f.P.Done()
		end := st.End
		if !done {
			end = now
		}
		r.Flows = append(r.Flows, NewFlowResult(f.ID, f.Consumer, f.Producer, f.Pipeline, st, done, err, max(end-f.Start, 0)))
	}
	n.tcpResults(r, now)
	for _, c := range n.sortedChannels() {
		r.Links = append(r.Links, NewLinkResult(c, now))
	}
	for _, nd := range n.Scenario.Topology.Nodes {
		if n.Scenario.RouterFor(nd.Name).CSCapacity > 0 {
			c := n.Nodes[nd.Name].FW.Counters()
			r.Caches = append(r.Caches, CacheResult{Node: nd.Name, Hits: c.CSHits, Misses: c.CSMisses})
		}
	}
	ev := n.Sched.Events()
	r.Timing = Timing{WallS: wall.Seconds(), Events: ev}
	if wall > 0 {
		r.Timing.EventsPerS = math.Round(float64(ev) / wall.Seconds())
		r.Timing.Speedup = Round(now.Seconds()/wall.Seconds(), 2)
	}
	return r
}

// NewFlowResult summarises one consumer's fetch: flow id at node
// consumerNode fetching from producerNode with pipeline, its pipeline's
// stats, whether the pipeline is done and how it ended, and its duration
// (from its start to its last segment, or to the end of the run when not
// done).
func NewFlowResult(id, consumerNode, producerNode, pipeline string, st consumer.Stats, done bool, err error, dur time.Duration) FlowResult {
	fr := FlowResult{
		ID: id, Consumer: consumerNode, Producer: producerNode, Pipeline: pipeline,
		Segments: st.Segments, Bytes: st.PayloadBytes, Complete: st.Complete,
		DownloadTimeS:   Round(secs(dur), 6),
		GoodputKbps:     Round(kbps(st.PayloadBytes, dur), 3),
		ThroughputKbps:  Round(kbps(st.WireBytes, dur), 3),
		EffectiveKbps:   Round(kbps(st.UniqueWireBytes, dur), 3),
		Interests:       st.Interests,
		Timeouts:        st.Timeouts,
		Retransmissions: st.Retransmissions,
		LossEvents:      st.LossEvents,
		Decreases:       map[string]int64{},
		Marks:           st.Marks,
		Nacks:           st.Nacks,
		Duplicates:      st.Duplicates,
		LateData:        st.LateData,
		RTTMinMs:        Round(ms(st.RTTMin), 3),
		RTTAvgMs:        Round(ms(st.RTTAvg), 3),
		RTTMaxMs:        Round(ms(st.RTTMax), 3),
	}
	for c := 0; c < cc.NumCauses; c++ {
		fr.Decreases[cc.Cause(c).String()] = int64(st.Decreases[c])
	}
	if st.Segments > 0 {
		fr.TimeoutPct = Round(float64(st.Decreases[cc.CauseTimeout])/float64(st.Segments)*100, 4)
		fr.TimeoutsPerSegmentPct = Round(float64(st.Timeouts)/float64(st.Segments)*100, 4)
	}
	if st.DataReceived > 0 {
		fr.LossRatePct = Round(float64(st.Retransmissions)/float64(st.DataReceived)*100, 4)
	}
	if err != nil {
		fr.Error = err.Error()
	} else if !done {
		fr.Error = "time limit reached"
	}
	return fr
}

// NewLinkResult summarises link direction c's counters over a run of
// length now (read them on the goroutine that owns c, or after the run).
func NewLinkResult(c *Channel, now time.Duration) LinkResult {
	st := c.Stats()
	lr := LinkResult{
		From: c.From, To: c.To, Packets: st.Packets, Bytes: st.Bytes,
		Drops: st.Drops(), TailDrops: st.TailDrops, AQMDrops: st.AQMDrops, LossDrops: st.LossDrops, DownDrops: st.DownDrops,
		Marks: st.Marks, Interests: st.Interests, Data: st.DataPkts, Nacks: st.NackPkts, MaxQueue: st.MaxQueue, MeanQueue: Round(st.MeanQueue, 4),
	}
	if bw := c.Params().Bandwidth; bw > 0 && now > 0 {
		lr.Utilization = Round(float64(st.Bytes)*8/bw/now.Seconds(), 6)
	}
	return lr
}

// tcpResults adds the TCP flows to r.TCP, and to r.Flows as
// tcpFlowResult describes.
func (n *Network) tcpResults(r *Result, now time.Duration) {
	for _, f := range n.TCP {
		st := f.Stats()
		end := st.End
		if !st.Complete {
			end = now
		}
		dur := max(end-f.Start, 0)
		tr := TCPResult{
			ID: f.ID, From: f.From, To: f.To, Algorithm: f.Algorithm, MSS: f.MSS,
			Segments: st.Segments, Bytes: st.PayloadBytes, Complete: st.Complete,
			DownloadTimeS:   Round(secs(dur), 6),
			GoodputKbps:     Round(kbps(st.PayloadBytes, dur), 3),
			ThroughputKbps:  Round(kbps(st.WireBytes, dur), 3),
			SegmentsSent:    st.SegmentsSent,
			Retransmissions: st.Retransmissions,
			Timeouts:        st.Timeouts,
			FastRetransmits: st.FastRetransmits,
			DupAcks:         st.DupAcks,
			RTTMinMs:        Round(ms(st.RTTMin), 3),
			RTTAvgMs:        Round(ms(st.RTTAvg), 3),
			RTTMaxMs:        Round(ms(st.RTTMax), 3),
		}
		if !st.Complete {
			tr.Error = "time limit reached"
		}
		r.TCP = append(r.TCP, tr)
		r.Flows = append(r.Flows, tcpFlowResult(tr, st, dur))
	}
}

// tcpFlowResult is a TCP flow as a FlowResult: consumer is the receiver,
// producer the sender, pipeline "tcp-" + the algorithm; segments, bytes,
// times, rates, timeouts, retransmissions and RTTs mean what they mean in
// TCPResult; effective_throughput_kbps counts each segment once;
// decreases counts fast retransmits as "hole" (paper 003's name for the
// NDN analogue, a sequence hole) and first RTO expiries as "timeout";
// timeout_pct is the latter per 100 segments; loss_rate_pct is
// retransmissions per data segment received; duplicates are data segments
// received again; interests, marks and nacks are 0.
func tcpFlowResult(tr TCPResult, st TCPStats, dur time.Duration) FlowResult {
	fr := FlowResult{
		ID: tr.ID, Consumer: tr.To, Producer: tr.From, Pipeline: "tcp-" + tr.Algorithm,
		Segments: tr.Segments, Bytes: tr.Bytes, Complete: tr.Complete,
		DownloadTimeS: tr.DownloadTimeS, GoodputKbps: tr.GoodputKbps, ThroughputKbps: tr.ThroughputKbps,
		EffectiveKbps:   Round(kbps(st.UniqueWireBytes, dur), 3),
		Timeouts:        tr.Timeouts,
		Retransmissions: tr.Retransmissions,
		LossEvents:      st.TimeoutDecreases + st.FastRetransmits,
		Decreases:       map[string]int64{},
		Duplicates:      st.Duplicates,
		RTTMinMs:        tr.RTTMinMs, RTTAvgMs: tr.RTTAvgMs, RTTMaxMs: tr.RTTMaxMs,
		Error: tr.Error,
	}
	for c := 0; c < cc.NumCauses; c++ {
		fr.Decreases[cc.Cause(c).String()] = 0
	}
	fr.Decreases[cc.CauseTimeout.String()] = int64(st.TimeoutDecreases)
	fr.Decreases[cc.CauseHole.String()] = int64(st.FastRetransmits)
	if st.Segments > 0 {
		fr.TimeoutPct = Round(float64(st.TimeoutDecreases)/float64(st.Segments)*100, 4)
		fr.TimeoutsPerSegmentPct = Round(float64(st.Timeouts)/float64(st.Segments)*100, 4)
	}
	if st.DataReceived > 0 {
		fr.LossRatePct = Round(float64(st.Retransmissions)/float64(st.DataReceived)*100, 4)
	}
	return fr
}
