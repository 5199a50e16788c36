package experiment

import "github.com/ndncc/ndncc/sim"

// Jain returns Jain's fairness index of xs: (Σx)² / (n·Σx²), 1 when all
// are equal, 1/n when one takes everything.
func Jain(xs []float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(xs)) * sq)
}

// fairnessExtra reports Jain's index over the flows' throughputs.
func fairnessExtra(_ *sim.Network, r *sim.Result) map[string]float64 {
	var xs []float64
	for _, f := range r.Flows {
		xs = append(xs, f.ThroughputKbps)
	}
	return map[string]float64{"fairness": Jain(xs)}
}
