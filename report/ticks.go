package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// niceTicks places about six labelled ticks at multiples of 1, 2 or 5
// times a power of ten, with unlabelled minor ticks between them, and
// labels them with no more decimals than the step needs.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return []plot.Tick{{Value: min, Label: formatTick(min, 0)}}
	}
	step, minor := tickStep((max - min) / 6)
	decimals := 0
	if step < 1 {
		decimals = int(math.Ceil(-math.Log10(step) - 1e-9))
	}
	var ticks []plot.Tick
	first := math.Ceil(min/minor-1e-9) * minor
	for i := 0; ; i++ {
		v := first + float64(i)*minor
		if v > max+minor*1e-9 {
			break
		}
		t := plot.Tick{Value: v}
		if k := v / step; math.Abs(k-math.Round(k)) < 1e-6 {
			t.Label = formatTick(v, decimals)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// tickStep rounds raw up to 1, 2 or 5 times a power of ten and returns it
// with the minor-tick spacing that divides it.
func tickStep(raw float64) (step, minor float64) {
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	switch n := raw / mag; {
	case n <= 1:
		return mag, mag / 5
	case n <= 2:
		return 2 * mag, mag / 2
	case n <= 5:
		return 5 * mag, mag
	default:
		return 10 * mag, 2 * mag
	}
}

func formatTick(v float64, decimals int) string {
	s := strconv.FormatFloat(v, 'f', decimals, 64)
	if s == "-0" || (len(s) > 1 && s[0] == '-' && math.Abs(v) < math.Pow(10, -float64(decimals))/2) {
		return strconv.FormatFloat(0, 'f', decimals, 64)
	}
	return s
}
