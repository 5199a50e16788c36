package cc

import (
	"math"
	"testing"
	"time"
)

// near reports whether got is want up to floating-point rounding.
func near(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

func checkNear(t *testing.T, step, what string, got, want float64) {
	t.Helper()
	if !near(got, want) {
		t.Errorf("%s: %s = %.12g, want %.12g", step, what, got, want)
	}
}

func ms(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
