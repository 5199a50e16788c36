package live

import (
	"fmt"
	"io"
	"strconv"

	"github.com/ndncc/ndncc/cc"
	"github.com/ndncc/ndncc/consumer"
)

// WriteSummary prints a finished fetch's statistics in the layout of
// ndn-tools' ndnget, plus the Nack and hole-detection counters ndnget does
// not have. As ndnget does, a fixed window (adaptive false) gets the first
// five lines only; an adaptive pipeline's window counters follow them
// ("skipped" counts retransmissions a late Data made unnecessary; the
// spurious timeouts line comes only after timeouts):
//
//	All segments have been received.
//	Time elapsed: 1.234567 seconds
//	Segments received: 2622
//	Transferred size: 20971.5 kB
//	Goodput: 135.898765 Mbit/s
//	Congestion marks: 4 (caused 2 window decreases)
//	Timeouts: 0 (caused 0 window decreases)
//	Retransmitted segments: 0 (0%), skipped: 0
//	RTT min/avg/max = 0.193/2.671/14.667 ms
func WriteSummary(w io.Writer, st consumer.Stats, payload uint64, adaptive bool) {
	elapsed := st.Duration().Seconds()
	fmt.Fprintf(w, "\n\nAll segments have been received.\n")
	fmt.Fprintf(w, "Time elapsed: %f seconds\n", elapsed)
	fmt.Fprintf(w, "Segments received: %d\n", st.Segments)
	fmt.Fprintf(w, "Transferred size: %s kB\n", strconv.FormatFloat(float64(payload)/1e3, 'f', -1, 64))
	goodput := 0.0
	if elapsed > 0 {
		goodput = float64(payload) * 8 / elapsed
	}
	fmt.Fprintf(w, "Goodput: %s\n", FormatThroughput(goodput))
	if !adaptive {
		return
	}
	fmt.Fprintf(w, "Congestion marks: %d (caused %d window decreases)\n", st.Marks, st.Decreases[cc.CauseMark])
	fmt.Fprintf(w, "Timeouts: %d (caused %d window decreases)\n", st.Timeouts, st.Decreases[cc.CauseTimeout])
	if st.Timeouts > 0 {
		fmt.Fprintf(w, "Spurious timeouts: %d (the Data arrived before the retransmission left)\n", st.SpuriousTimeouts)
	}
	if st.Nacks > 0 {
		fmt.Fprintf(w, "Nacks: %d (caused %d window decreases)\n", st.Nacks, st.Decreases[cc.CauseNack])
	}
	if st.RackLosses > 0 {
		fmt.Fprintf(w, "Lost before their RTO: %d (caused %d window decreases; %d spurious)\n", st.RackLosses, st.Decreases[cc.CauseLoss], st.SpuriousRackLosses)
	}
	if n := st.Decreases[cc.CauseHole]; n > 0 {
		fmt.Fprintf(w, "Hole detection: %d window decreases\n", n)
	}
	pct := 0.0
	if st.Interests > 0 {
		pct = float64(st.Retransmissions) * 100 / float64(st.Interests)
	}
	fmt.Fprintf(w, "Retransmitted segments: %d (%s%%), skipped: %d\n", st.Retransmissions, strconv.FormatFloat(pct, 'g', 6, 64), st.LateData)
	if st.RTTMax == 0 {
		fmt.Fprintf(w, "RTT stats unavailable\n")
		return
	}
	fmt.Fprintf(w, "RTT min/avg/max = %.3f/%.3f/%.3f ms\n",
		float64(st.RTTMin)/1e6, float64(st.RTTAvg)/1e6, float64(st.RTTMax)/1e6)
}

// FormatThroughput formats bits per second as ndnget does: a decimal with
// six digits after the point and the largest unit (bit/s, kbit/s, Mbit/s,
// Gbit/s, Tbit/s) that keeps the number at least 1.
func FormatThroughput(bps float64) string {
	units := []string{"bit/s", "kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"}
	i := 0
	for bps >= 1000 && i < len(units)-1 {
		bps /= 1000
		i++
	}
	return fmt.Sprintf("%f %s", bps, units[i])
}
