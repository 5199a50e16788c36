package experiment

import "fmt"

// FindingsPoint is one point of paper 001's sensitivity sweep: a link
// model and the seven findings checked against runs over it.
type FindingsPoint struct {
	RateMbps  float64         `json:"rate_mbps"`
	BufferBDP float64         `json:"buffer_bdp"`
	Findings  []FindingResult `json:"findings"`
}

// Holding is how many of the point's findings hold.
func (p FindingsPoint) Holding() int {
	n := 0
	for _, f := range p.Findings {
		if f.Holds {
			n++
		}
	}
	return n
}

// Seed001Sweep runs seed001-vegas over every bottleneck rate (Mbit/s) and
// buffer (in bandwidth-delay products at each RTT) and checks its seven
// findings at each point; opt.Runs runs per variant (default 1). onPoint,
// if set, is told of each point as it ends.
func Seed001Sweep(ratesMbps, buffersBDP []float64, opt Options, onPoint func(FindingsPoint)) ([]FindingsPoint, error) {
	if opt.Runs <= 0 {
		opt.Runs = 1
	}
	var out []FindingsPoint
	for _, r := range ratesMbps {
		for _, b := range buffersBDP {
			if !(r > 0) || !(b > 0) {
				return nil, fmt.Errorf("seed001 sweep: rate %v Mbit/s, buffer %v BDP: want both positive", r, b)
			}
			e := seed001VegasOn(Seed001BDPLink(r*1e6, b))
			rep, err := e.Run(opt)
			if err != nil {
				return nil, fmt.Errorf("seed001 sweep at %v Mbit/s, %v BDP: %w", r, b, err)
			}
			p := FindingsPoint{RateMbps: r, BufferBDP: b, Findings: rep.CheckFindings(e)}
			out = append(out, p)
			if onPoint != nil {
				onPoint(p)
			}
		}
	}
	return out, nil
}

// Seed001Claims are the seven findings' claims, in order.
func Seed001Claims() []string {
	var out []string
	for _, f := range seed001Findings() {
		out = append(out, f.Claim)
	}
	return out
}
