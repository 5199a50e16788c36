package cc

import "testing"

func TestFixed(t *testing.T) {
	f, err := NewFixed(32)
	if err != nil {
		t.Fatal(err)
	}
	replay(t, f, []windowStep{
		{name: "data", cwnd: 32, ssthresh: 32},
		{name: "timeout", decrease: true, cause: CauseTimeout, cwnd: 32, ssthresh: 32},
		{name: "mark", decrease: true, cause: CauseMark, cwnd: 32, ssthresh: 32},
		{name: "data", cwnd: 32, ssthresh: 32},
	})
	if f.Name() != "fixed" {
		t.Errorf("name %q", f.Name())
	}
	for _, w := range []float64{0, 0.5, -1} {
		if _, err := NewFixed(w); err == nil {
			t.Errorf("NewFixed(%v) accepted", w)
		}
	}
}
