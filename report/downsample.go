package report

import "gonum.org/v1/plot/plotter"

// DefaultMaxPoints bounds the points drawn per series when PlotOptions
// does not say otherwise.
const DefaultMaxPoints = 5000

// downsample returns at most max points of pts for drawing. Short series
// are returned as they are. Longer ones keep their first and last points
// and, of the points between, split into (max-2)/2 equal runs by index,
// the lowest and the highest of each run in their original order, so that
// peaks, dips and step edges survive. The result depends only on the input.
func downsample(pts plotter.XYs, max int) plotter.XYs {
	n := len(pts)
	if max < 4 {
		max = 4
	}
	if n <= max {
		return pts
	}
	inner := pts[1 : n-1]
	buckets := (max - 2) / 2
	out := make(plotter.XYs, 0, max)
	out = append(out, pts[0])
	for b := 0; b < buckets; b++ {
		lo := b * len(inner) / buckets
		hi := (b + 1) * len(inner) / buckets
		if lo == hi {
			continue
		}
		iMin, iMax := lo, lo
		for i := lo + 1; i < hi; i++ {
			if inner[i].Y < inner[iMin].Y {
				iMin = i
			}
			if inner[i].Y > inner[iMax].Y {
				iMax = i
			}
		}
		switch {
		case iMin == iMax:
			out = append(out, inner[iMin])
		case iMin < iMax:
			out = append(out, inner[iMin], inner[iMax])
		default:
			out = append(out, inner[iMax], inner[iMin])
		}
	}
	return append(out, pts[n-1])
}
