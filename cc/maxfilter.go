package cc

// maxFilter is a windowed maximum: the largest sample of the last window
// ticks (rounds, for BBR's bottleneck bandwidth), kept in three samples
// (Kathleen Nichols' algorithm, as BBR's filters): the best, the best
// since a quarter of the window after it, the best since half the window
// after that. A new sample costs O(1) and no history is stored.
type maxFilter struct {
	s [3]maxSample
}

type maxSample struct {
	v float64
	t uint64
}

// best is the maximum over the window (0 before any sample).
func (f *maxFilter) best() float64 { return f.s[0].v }

// reset makes v at t the only sample.
func (f *maxFilter) reset(v float64, t uint64) {
	f.s = [3]maxSample{{v, t}, {v, t}, {v, t}}
}

// update adds sample v at tick t (ticks never go back) and returns the
// maximum over the last window ticks.
func (f *maxFilter) update(v float64, t, window uint64) float64 {
	n := maxSample{v, t}
	switch {
	case v >= f.s[0].v || t-f.s[2].t > window:
		// A new maximum, or nothing left in the window.
		f.reset(v, t)
		return v
	case v >= f.s[1].v:
		f.s[1], f.s[2] = n, n
	case v >= f.s[2].v:
		f.s[2] = n
	}
	age := t - f.s[0].t
	switch {
	case age > window:
		// The best expired: the runners-up move up.
		f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		if t-f.s[0].t > window {
			f.s[0], f.s[1], f.s[2] = f.s[1], f.s[2], n
		}
	case f.s[1].t == f.s[0].t && age > window/4:
		// A quarter of the window passed with no second choice of its
		// own: take this one.
		f.s[1], f.s[2] = n, n
	case f.s[2].t == f.s[1].t && age > window/2:
		f.s[2] = n
	}
	return f.s[0].v
}

// WindowedMax is a windowed maximum for other packages: the largest
// sample of the last window ticks (a tick may be a time in nanoseconds or
// a round), kept in three samples as maxFilter keeps it. The zero value
// has no sample.
type WindowedMax struct{ f maxFilter }

// Update adds sample v at tick t (ticks never go back) and returns the
// maximum over the last window ticks.
func (w *WindowedMax) Update(v float64, t, window uint64) float64 {
	return w.f.update(v, t, window)
}

// Best is the maximum over the window as of the latest Update (0 before
// any sample).
func (w *WindowedMax) Best() float64 { return w.f.best() }
