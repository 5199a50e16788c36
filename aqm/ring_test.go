package aqm

import (
	"slices"
	"testing"

	"github.com/ndncc/ndncc/ndn"
)

func TestRingOrderAcrossWrapAndGrowth(t *testing.T) {
	// Each step pushes push items (ids continue from the last push) and
	// then pops pop items; popped ids, length, bytes and capacity are
	// checked after every step. Item i has size i.
	type step struct {
		push, pop  int
		wantPopped []uint64
		wantLen    int
		wantBytes  int
		wantCap    int
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"empty pop", []step{
			{0, 1, nil, 0, 0, 0},
		}},
		{"first push allocates the minimum", []step{
			{1, 0, nil, 1, 1, 16},
			{0, 2, []uint64{1}, 0, 0, 16},
		}},
		{"wrap without growth", []step{
			{12, 10, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 2, 11 + 12, 16},
			{14, 0, nil, 16, 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26, 16},
			{0, 3, []uint64{11, 12, 13}, 13, 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26, 16},
		}},
		{"growth while wrapped keeps order", []step{
			{16, 10, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 6, 11 + 12 + 13 + 14 + 15 + 16, 16},
			{11, 0, nil, 17, 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20 + 21 + 22 + 23 + 24 + 25 + 26 + 27, 32},
			{0, 18, []uint64{11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27}, 0, 0, 32},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r ring
			next := uint64(1)
			for i, s := range tt.steps {
				for range s.push {
					r.push(testItem(next, int(next)))
					next++
				}
				var popped []uint64
				for range s.pop {
					it, ok := r.pop()
					if !ok {
						break
					}
					popped = append(popped, idOf(it))
				}
				if !slices.Equal(popped, s.wantPopped) {
					t.Errorf("step %d: popped %v, want %v", i, popped, s.wantPopped)
				}
				if r.len() != s.wantLen || r.bytes != s.wantBytes || len(r.buf) != s.wantCap {
					t.Errorf("step %d: len %d bytes %d cap %d, want %d %d %d",
						i, r.len(), r.bytes, len(r.buf), s.wantLen, s.wantBytes, s.wantCap)
				}
			}
		})
	}
}

func TestRingPopReleasesPacket(t *testing.T) {
	var r ring
	it := testItem(7, 100)
	it.Pkt.Data = &ndn.Data{}
	r.push(it)
	if _, ok := r.pop(); !ok {
		t.Fatal("pop of a one-item ring failed")
	}
	if s := r.buf[0]; s.Pkt.Data != nil || idOf(s) != 0 || s.Size != 0 {
		t.Errorf("slot still holds %+v after pop, want the zero Item", s)
	}
}

func TestRingSteadyStateDoesNotAllocate(t *testing.T) {
	var r ring
	for i := range 100 {
		r.push(testItem(uint64(i), 1))
	}
	allocs := testing.AllocsPerRun(1000, func() {
		r.push(testItem(1, 1))
		r.pop()
	})
	if allocs != 0 {
		t.Errorf("push+pop allocates %v times, want 0", allocs)
	}
}
