package fwd

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"time"

	"github.com/ndncc/ndncc/fw"
	"github.com/ndncc/ndncc/link"
	"github.com/ndncc/ndncc/live/face"
)

// Status writes the forwarder's counters: one line for the forwarder,
// then one per face (on the loop; see Do). `ndncc fw` prints it on SIGUSR1
// and at exit.
func (d *Forwarder) Status(w io.Writer) {
	c := d.fw.Counters()
	up := time.Duration(0)
	if !d.started.IsZero() {
		up = time.Since(d.started).Round(time.Millisecond)
	}
	fmt.Fprintf(w, "fw: up %v, %d faces; in %dI %dD %dN, out %dI %dD %dN; PIT %d, CS %d of %d (hits %d, misses %d), marks forwarded %d, unsolicited %d, loops %d\n",
		up, len(d.faces), c.InInterests, c.InData, c.InNacks, c.OutInterests, c.OutData, c.OutNacks,
		c.PITSize, c.CSSize, d.fw.CSConfig().Capacity, c.CSHits, c.CSMisses, c.MarksForwarded, c.UnsolicitedData, c.DuplicateNonceDrops)
	if n := c.ScopeInterestDrops + c.ScopeDataDrops + c.ScopeDeniedNexthops + c.PITLimitNacks + c.NameTooLongDrops + d.refusedFaces; n > 0 {
		fmt.Fprintf(w, "  limits: scope drops %d Interests %d Data, scope-denied nexthops %d; PIT-limit Nacks %d; long names dropped %d; faces refused %d\n",
			c.ScopeInterestDrops, c.ScopeDataDrops, c.ScopeDeniedNexthops, c.PITLimitNacks, c.NameTooLongDrops, d.refusedFaces)
	}
	if d.mgmt != nil {
		m := d.mgmt.Stats()
		codes := slices.Sorted(maps.Keys(m.Responses))
		fmt.Fprintf(w, "  management: %d requests, %d unanswered, responses", m.Requests, m.Dropped)
		for _, code := range codes {
			fmt.Fprintf(w, " %d×%d", m.Responses[code], code)
		}
		fmt.Fprintf(w, ", %d datasets\n", m.Datasets)
	}
	ids := make([]fw.FaceID, 0, len(d.faces))
	for id := range d.faces {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		e := d.faces[id]
		fmt.Fprintf(w, "  face %d %s: %s", id, e.f.Config().Remote, FormatCounters(e.f.Stats()))
		for _, c := range []struct {
			dir string
			ch  *link.Channel
		}{{"out", e.out}, {"in", e.in}} {
			if c.ch == nil {
				continue
			}
			st := c.ch.Stats()
			fmt.Fprintf(w, "; emulated %s: sent %d, lost %d, queue drops %d, marks %d, mean queue %.1f, late by %v on average (max %v, %d overruns)",
				c.dir, st.Packets, st.LossDrops, st.TailDrops+st.AQMDrops, st.Marks, st.MeanQueue,
				st.Lateness.Mean().Round(time.Microsecond), st.Lateness.Max.Round(time.Microsecond), st.Lateness.Overruns)
		}
		if e.rel != nil {
			r := e.rel.Stats()
			fmt.Fprintf(w, "; link frames sent %d, acked %d, lost %d (gap %d, timeout %d), received %d, duplicates %d",
				r.Sent, r.Acked, r.LostByGap+r.LostByTimeout, r.LostByGap, r.LostByTimeout, r.Received, r.Duplicates)
		}
		fmt.Fprintln(w)
	}
}

// FormatCounters renders a face's counters on one line: packets in and
// out by type, marks its queue set, drops, queue length and bytes.
func FormatCounters(s face.Counters) string {
	out := fmt.Sprintf("in %dI %dD %dN, out %dI %dD %dN, marks %d, drops %d (tail %d, aqm %d, errors %d), queue %d pkts %d B (max %d), bytes in %d out %d",
		s.InInterests, s.InData, s.InNacks, s.OutInterests, s.OutData, s.OutNacks,
		s.Queue.Marks, s.Drops(), s.Queue.TailDrops, s.Queue.AQMDrops, s.SendErrors,
		s.QueueLen, s.QueueBytes, s.Queue.MaxLen, s.BytesIn, s.BytesOut)
	if s.MaxSocketBacklog > 0 {
		out += fmt.Sprintf(", socket backlog max %d B", s.MaxSocketBacklog)
	}
	return out
}
