package cc

import "testing"

func TestRTTSamplerOncePerRTT(t *testing.T) {
	s := NewRTTSampler(SampleOncePerRTT)
	steps := []struct {
		seg, hi    uint64
		retx, want bool
		marker     uint64
	}{
		{seg: 0, hi: 0, want: true, marker: 1},                 // the first Data samples
		{seg: 1, hi: 2, want: true, marker: 3},                 // sent after the first sample
		{seg: 2, hi: 4, want: false, marker: 3},                // same flight as segment 1
		{seg: 4, hi: 6, retx: true, want: false, marker: 3},    // Karn: retransmitted
		{seg: 3, hi: 6, want: true, marker: 7},                 // first of the next flight
		{seg: 5, hi: 8, want: false, marker: 7},                // below the marker
		{seg: 9, hi: 9, retx: true, want: false, marker: 7},    // Karn, even above the marker
		{seg: 8, hi: 10, want: true, marker: 11},               // a later segment
		{seg: 20, hi: 30, retx: false, want: true, marker: 31}, // jumps are fine
	}
	for i, st := range steps {
		if got := s.Take(st.seg, st.retx, st.hi); got != st.want || s.Marker() != st.marker {
			t.Errorf("step %d (seg %d): take %v marker %d, want %v %d", i, st.seg, got, s.Marker(), st.want, st.marker)
		}
	}
}

func TestRTTSamplerEveryData(t *testing.T) {
	var s RTTSampler // the zero value samples every Data
	if s.Mode() != SampleEveryData {
		t.Fatalf("zero value mode %v", s.Mode())
	}
	for _, seg := range []uint64{0, 5, 1, 1} {
		if !s.Take(seg, false, 10) {
			t.Errorf("seg %d gave no sample", seg)
		}
	}
	if s.Take(3, true, 10) {
		t.Error("a retransmitted segment gave a sample")
	}
}

func TestParseSampleMode(t *testing.T) {
	for _, m := range []SampleMode{SampleEveryData, SampleOncePerRTT} {
		got, err := ParseSampleMode(m.String())
		if err != nil || got != m {
			t.Errorf("%v: got %v, %v", m, got, err)
		}
	}
	if _, err := ParseSampleMode("sometimes"); err == nil {
		t.Error("ParseSampleMode accepted sometimes")
	}
}
