package consumer

import (
	"testing"
	"time"
)

// TestPacedPipelineSpacesInterests: with a paced pipeline (paced-delay,
// bbr, copa) the pipeline sends
// no two Interests closer than the algorithm's pacing interval (one of
// credit aside), where an unpaced window sends its Interests back to back.
func TestPacedPipelineSpacesInterests(t *testing.T) {
	cases := []struct {
		name     string
		pipeline string
		params   map[string]string
		paced    bool
	}{
		{"paced-delay", "paced-delay", nil, true},
		{"paced-delay, window 2", "paced-delay", map[string]string{"init-cwnd": "2"}, true},
		{"bbr", "bbr", nil, true},
		{"copa", "copa", nil, true},
		{"fixed", "fixed", map[string]string{"window": "10"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFetch(t, c.pipeline, c.params, 199, always(ms(40)))
			f.run(t)
			if len(f.done) != 1 || f.done[0] != nil {
				t.Fatalf("done %v", f.done)
			}
			// After the first Data (at 40 ms) the pipeline knows the size.
			// Count Interests sent at the same instant as the previous one.
			same := 0
			for i := 2; i < len(f.net.log); i++ {
				if f.net.log[i].at == f.net.log[i-1].at {
					same++
				}
			}
			t.Logf("%d Interests, %d sent at the same instant as the one before, done at %v", len(f.net.log), same, f.doneAt)
			if c.paced && same > len(f.net.log)/10 {
				t.Errorf("paced: %d of %d Interests back to back", same, len(f.net.log))
			}
			if !c.paced && same < len(f.net.log)/2 {
				t.Errorf("unpaced control: only %d of %d Interests back to back", same, len(f.net.log))
			}
		})
	}
}

// fixedInterval is a cc.Paced with a constant interval.
type fixedInterval time.Duration

func (f fixedInterval) PacingInterval() time.Duration { return time.Duration(f) }

// TestPacerQuantum: after an idle gap the pacer lets pacingQuantum of
// sending (at least one Interest) go at once, then spaces Interests by
// the interval; a wake-up is armed once while Interests wait.
func TestPacerQuantum(t *testing.T) {
	cases := []struct {
		interval  time.Duration
		wantBurst int // Interests ready at once after the idle gap
	}{
		{100 * time.Microsecond, 11}, // 1 ms of credit plus the first
		{250 * time.Microsecond, 5},
		{5 * time.Millisecond, 2}, // one interval of credit plus the first
	}
	for _, c := range cases {
		s := &fakeSched{}
		wakes := 0
		p := newPacer(fixedInterval(c.interval), s, func() { wakes++ })
		s.After(time.Second, func() {}) // an idle second
		s.RunUntil(time.Second, nil)
		burst := 0
		for p.ready() {
			p.sent()
			burst++
			if burst > 100 {
				t.Fatal("no pacing")
			}
		}
		if burst != c.wantBurst {
			t.Errorf("interval %v: %d Interests at once, want %d", c.interval, burst, c.wantBurst)
		}
		p.ready() // already armed: no second timer
		s.RunUntil(time.Second+c.interval, nil)
		if wakes != 1 || !p.ready() {
			t.Errorf("interval %v: %d wake-ups, ready %v after one interval", c.interval, wakes, p.ready())
		}
	}
}
