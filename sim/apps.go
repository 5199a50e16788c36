package sim

import (
	"fmt"
	"time"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/ndn"
	"github.com/ndncc/ndncc/scenario"
)

// AppFlow is one consumer running a traffic application (cbr, zipf,
// batches) instead of a pipeline.
type AppFlow struct {
	ID       string
	Consumer string // consumer node
	Producer string // producer node
	App      string
	Options  consumer.TrafficOptions
	Start    time.Duration
	T        *consumer.Traffic
}

// AppOptions returns consumer c's traffic application options, with
// errors at the position of the key at fault.
func AppOptions(c scenario.Consumer) (consumer.TrafficOptions, error) {
	if !consumer.IsApp(c.App) {
		return consumer.TrafficOptions{}, fmt.Errorf("%s: consumer %s: app: unknown app %q (want one of cbr, zipf, batches)", c.Pos, c.ID, c.App)
	}
	opts, err := consumer.ParseTrafficParams(c.App, c.Params)
	if err != nil {
		return opts, paramError(c, err)
	}
	return opts, nil
}

// AppPrefix returns the name a traffic application's Interests append
// their sequence numbers to: the prefix, unversioned (the producer
// answers PREFIX/seq=N, producer.Config.Base).
func AppPrefix(prefix string) (ndn.Name, error) { return ndn.ParseName(prefix) }

func (n *Network) addApp(c scenario.Consumer, seed uint64, startJitter time.Duration) error {
	node := n.Nodes[c.Node]
	prod, ok := n.producerOf(c.Prefix)
	if !ok {
		return fmt.Errorf("%s: consumer %s: no producer serves exactly %q", c.Pos, c.ID, c.Prefix)
	}
	opts, err := AppOptions(c)
	if err != nil {
		return err
	}
	prefix, err := AppPrefix(c.Prefix)
	if err != nil {
		return fmt.Errorf("%s: consumer prefix %q: %w", c.Pos, c.Prefix, err)
	}
	start := ConsumerStart(seed, c, startJitter)
	af := &AppFlow{ID: c.ID, Consumer: c.Node, Producer: prod.Node, App: c.App, Options: opts, Start: start}
	overhead := n.Scenario.HeaderOverhead
	cfg := consumer.TrafficConfig{
		Prefix:   prefix,
		Options:  opts,
		Rand:     rng(seed, "consumer/"+c.ID),
		OnDone:   func() { n.flowEnded(c.ID) },
		WireSize: func(p ndn.Packet) int { return n.Sizer.PacketSize(&p) + overhead },
	}
	if n.ndnsim != nil {
		cfg.Tracer = n.ndnsim.app(c.Node, node.apps)
	}
	node.apps++
	face := newAppFace(n.Sched, node.FW)
	n.addAppFace(node, face)
	t, err := consumer.NewTraffic(cfg, n.Sched, toForwarder{face})
	if err != nil {
		return fmt.Errorf("%s: consumer %s: %w", c.Pos, c.ID, err)
	}
	face.app = t
	af.T = t
	n.Apps = append(n.Apps, af)
	n.consumers = append(n.consumers, flowRef{app: af})
	n.pending++
	n.Sched.At(start, t.Start)
	return nil
}

// AppFlowResult summarises a traffic application as a flow: segments are
// the contents answered (Data for an outstanding Interest), bytes their
// payload, timeouts its retransmission timeouts, RTTs over the Data that
// answered an Interest sent once, and delay_mean_ms the mean delay from
// the first Interest for a content to its Data. An application without a
// count ends with the run, so its row has no error then; complete says it
// sent all it had to and got every answer. dur runs from its start to its
// last Data (or to the end of the run while it was still sending).
func AppFlowResult(id, consumerNode, producerNode, app string, st consumer.TrafficStats, limited bool, dur time.Duration) FlowResult {
	fr := FlowResult{
		ID: id, Consumer: consumerNode, Producer: producerNode, Pipeline: app,
		Segments: st.Data, Bytes: st.PayloadBytes, Complete: st.Complete,
		DownloadTimeS:   Round(secs(dur), 6),
		GoodputKbps:     Round(kbps(st.PayloadBytes, dur), 3),
		ThroughputKbps:  Round(kbps(st.WireBytes, dur), 3),
		EffectiveKbps:   Round(kbps(st.WireBytes, dur), 3),
		Interests:       st.Interests,
		Timeouts:        st.Timeouts,
		Retransmissions: st.Retransmissions,
		Decreases:       map[string]int64{},
		Nacks:           st.Nacks,
		Duplicates:      st.Duplicates,
		RTTMinMs:        Round(ms(st.RTTMin), 3),
		RTTAvgMs:        Round(ms(st.RTTAvg), 3),
		RTTMaxMs:        Round(ms(st.RTTMax), 3),
		DelayMeanMs:     Round(ms(st.DelayMean()), 3),
	}
	for c := 0; c < cc.NumCauses; c++ {
		fr.Decreases[cc.Cause(c).String()] = 0
	}
	if st.Data > 0 {
		fr.TimeoutsPerSegmentPct = Round(float64(st.Timeouts)/float64(st.Data)*100, 4)
		fr.LossRatePct = Round(float64(st.Retransmissions)/float64(st.Data)*100, 4)
	}
	if !st.Complete && limited {
		fr.Error = "time limit reached"
	}
	return fr
}

// appResult is the flow row of af at the end of a run at now.
func (af *AppFlow) result(now time.Duration) FlowResult {
	st := af.T.Stats()
	end := now
	if st.Complete {
		end = st.End
	}
	limited := af.Options.App == consumer.AppBatches || af.Options.Count > 0
	return AppFlowResult(af.ID, af.Consumer, af.Producer, af.App, st, limited, max(end-af.Start, 0))
}

// addFace adds face out to node's forwarder, of kind; with the
// ndnSIM-format traces, counted both ways under descr.
func (n *Network) addFace(node *Node, out ndn.Face, descr string, kind fw.FaceKind) fw.FaceID {
	if n.ndnsim == nil {
		return node.FW.AddFace(out, kind)
	}
	fc := n.ndnsim.face(node.Name, descr)
	id := node.FW.AddFace(countingFace{next: out, t: n.ndnsim, fc: fc}, kind)
	fc.id = id
	if node.taps == nil {
		node.taps = map[fw.FaceID]*faceCount{}
		t := n.ndnsim
		node.cpu.tap = func(face fw.FaceID, p *ndn.Packet) {
			if fc := node.taps[face]; fc != nil {
				t.in(fc, p)
			}
		}
	}
	node.taps[id] = fc
	return id
}

// addAppFace adds an application's face to node's forwarder.
func (n *Network) addAppFace(node *Node, face *appFace) {
	face.id = n.addFace(node, face, "appFace://", fw.FaceLocal)
	if n.ndnsim != nil {
		fc, t := node.taps[face.id], n.ndnsim
		face.tap = func(p *ndn.Packet) { t.in(fc, p) }
	}
}

// scheduleEvents queues the scenario's [[event]] entries: each changes
// both directions of its link, or of every link of its node, at its time.
func (n *Network) scheduleEvents() error {
	for _, e := range n.Scenario.SortedEvents() {
		var chans []*Channel
		for _, l := range n.Scenario.EventLinks(e) {
			ab, ok1 := n.Nodes[l.A].Out(l.B)
			ba, ok2 := n.Nodes[l.B].Out(l.A)
			if !ok1 || !ok2 {
				return fmt.Errorf("%s: event: link %s has no channels", e.Pos, l)
			}
			chans = append(chans, ab, ba)
		}
		n.Sched.At(e.At, func() {
			for _, c := range chans {
				// The scenario's validation, and channels that always
				// have a random source, leave it no error to return.
				_ = ApplyEvent(e, c)
			}
		})
	}
	return nil
}

// ApplyEvent applies event e to one direction of a link.
func ApplyEvent(e scenario.Event, c *Channel) error {
	switch {
	case e.Down:
		c.SetUp(false)
	case e.Up:
		c.SetUp(true)
	case e.Bandwidth != nil:
		return c.SetRate(*e.Bandwidth)
	case e.Delay != nil:
		return c.SetDelay(*e.Delay)
	case e.Loss != nil:
		return c.SetLoss(*e.Loss)
	}
	return nil
}
