package consumer

import "testing"

// TestPacedPipelineSpacesInterests: with paced-delay the pipeline sends
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
