package fw

import (
	"testing"
	"time"
)

func TestDeadNonceList(t *testing.T) {
	type op struct {
		at   time.Duration
		add  uint64 // key to add (0: none)
		has  []uint64
		want []bool
		size int
	}
	for _, tc := range []struct {
		name     string
		lifetime time.Duration
		capacity int
		ops      []op
	}{{
		name: "forgotten after the lifetime", lifetime: 100 * ms, capacity: 8,
		ops: []op{
			{at: 0, add: 1, has: []uint64{1, 2}, want: []bool{true, false}, size: 1},
			{at: 50 * ms, add: 2, has: []uint64{1, 2}, want: []bool{true, true}, size: 2},
			{at: 99 * ms, has: []uint64{1, 2}, want: []bool{true, true}, size: 2},
			{at: 100 * ms, has: []uint64{1, 2}, want: []bool{false, true}, size: 1},
			{at: 150 * ms, has: []uint64{1, 2}, want: []bool{false, false}, size: 0},
		},
	}, {
		name: "bounded: the oldest goes first", lifetime: time.Second, capacity: 2,
		ops: []op{
			{at: 0, add: 1, size: 1},
			{at: 1 * ms, add: 2, size: 2},
			{at: 2 * ms, add: 3, has: []uint64{1, 2, 3}, want: []bool{false, true, true}, size: 2},
		},
	}, {
		name: "a key added twice stays until its last copy goes", lifetime: 100 * ms, capacity: 8,
		ops: []op{
			{at: 0, add: 5, size: 1},
			{at: 60 * ms, add: 5, size: 2},
			{at: 100 * ms, has: []uint64{5}, want: []bool{true}, size: 1},
			{at: 160 * ms, has: []uint64{5}, want: []bool{false}, size: 0},
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDeadNonceList(tc.lifetime, tc.capacity)
			for i, o := range tc.ops {
				if o.add != 0 {
					d.add(o.add, o.at)
				}
				for j, k := range o.has {
					if got := d.has(k, o.at); got != o.want[j] {
						t.Errorf("op %d: has(%d) = %v, want %v", i, k, got, o.want[j])
					}
				}
				if d.size() != o.size {
					t.Errorf("op %d: size %d, want %d", i, d.size(), o.size)
				}
			}
		})
	}
}

func TestDeadNonceKeyDependsOnNameAndNonce(t *testing.T) {
	keys := map[uint64]bool{}
	for h := uint64(0); h < 100; h++ {
		for n := uint32(0); n < 100; n++ {
			keys[deadNonceKey(h*0x9e3779b97f4a7c15, n)] = true
		}
	}
	if len(keys) != 10000 {
		t.Errorf("%d distinct keys for 10000 (name, nonce) pairs", len(keys))
	}
}
