package aqm

import (
	"slices"
	"testing"
	"time"
)

func TestDropTailLimits(t *testing.T) {
	// Packets of the given sizes arrive in order at 1 ms spacing into an
	// empty queue; then the queue is drained.
	tests := []struct {
		name       string
		lim        Limits
		sizes      []int
		wantAccept []bool
		wantOut    []uint64 // ids in dequeue order (id = arrival index + 1)
		wantStats  Stats
	}{
		{
			name:       "unlimited",
			sizes:      []int{1000, 1000, 1000},
			wantAccept: []bool{true, true, true},
			wantOut:    []uint64{1, 2, 3},
			wantStats:  Stats{Enqueued: 3, Dequeued: 3, MaxLen: 3, MaxBytes: 3000},
		},
		{
			name:       "packet limit",
			lim:        Limits{Packets: 2},
			sizes:      []int{1000, 1000, 1000, 10},
			wantAccept: []bool{true, true, false, false},
			wantOut:    []uint64{1, 2},
			wantStats:  Stats{Enqueued: 2, Dequeued: 2, TailDrops: 2, MaxLen: 2, MaxBytes: 2000},
		},
		{
			name:       "byte limit admits a smaller packet after a larger is refused",
			lim:        Limits{Bytes: 2500},
			sizes:      []int{1000, 1000, 1000, 500, 1},
			wantAccept: []bool{true, true, false, true, false},
			wantOut:    []uint64{1, 2, 4},
			wantStats:  Stats{Enqueued: 3, Dequeued: 3, TailDrops: 2, MaxLen: 3, MaxBytes: 2500},
		},
		{
			name:       "both limits, the tighter one wins",
			lim:        Limits{Packets: 3, Bytes: 2500},
			sizes:      []int{100, 100, 100, 100},
			wantAccept: []bool{true, true, true, false},
			wantOut:    []uint64{1, 2, 3},
			wantStats:  Stats{Enqueued: 3, Dequeued: 3, TailDrops: 1, MaxLen: 3, MaxBytes: 300},
		},
		{
			name:       "packet larger than the byte limit",
			lim:        Limits{Bytes: 1000},
			sizes:      []int{1001, 1000},
			wantAccept: []bool{false, true},
			wantOut:    []uint64{2},
			wantStats:  Stats{Enqueued: 1, Dequeued: 1, TailDrops: 1, MaxLen: 1, MaxBytes: 1000},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewDropTail(tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			var accept []bool
			for i, size := range tt.sizes {
				accept = append(accept, q.Enqueue(testItem(uint64(i+1), size), ms(float64(i))))
			}
			if !slices.Equal(accept, tt.wantAccept) {
				t.Errorf("accepted %v, want %v", accept, tt.wantAccept)
			}
			var out []uint64
			for {
				it, ok := q.Dequeue(time.Second)
				if !ok {
					break
				}
				out = append(out, idOf(it))
			}
			if !slices.Equal(out, tt.wantOut) {
				t.Errorf("dequeued %v, want %v", out, tt.wantOut)
			}
			if q.Stats() != tt.wantStats {
				t.Errorf("stats %+v, want %+v", q.Stats(), tt.wantStats)
			}
			if q.Len() != 0 || q.Bytes() != 0 {
				t.Errorf("drained queue has len %d bytes %d, want 0 0", q.Len(), q.Bytes())
			}
		})
	}
}

func TestDropTailStampsEnqueueTime(t *testing.T) {
	q, err := NewDropTail(Limits{})
	if err != nil {
		t.Fatal(err)
	}
	it := testItem(1, 100)
	it.Enqueued = 99 * time.Second
	q.Enqueue(it, 3*time.Millisecond)
	if q.Len() != 1 || q.Bytes() != 100 {
		t.Errorf("len %d bytes %d, want 1 100", q.Len(), q.Bytes())
	}
	got, ok := q.Dequeue(10 * time.Millisecond)
	if !ok || got.Enqueued != 3*time.Millisecond || got.Pkt.CongestionMark != 0 {
		t.Errorf("dequeued %+v ok=%v, want Enqueued 3ms, unmarked", got, ok)
	}
}

func TestLimitsValidate(t *testing.T) {
	tests := []struct {
		lim  Limits
		want string
	}{
		{Limits{}, ""},
		{Limits{Packets: 32, Bytes: 200000}, ""},
		{Limits{Packets: -1}, "aqm: packet limit -1 is negative (0 means unlimited)"},
		{Limits{Bytes: -5}, "aqm: byte limit -5 is negative (0 means unlimited)"},
	}
	for _, tt := range tests {
		err := tt.lim.Validate()
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%+v.Validate() = %q, want %q", tt.lim, got, tt.want)
		}
	}
}

// benchmarkSteadyState enqueues and dequeues one packet per iteration on a
// queue holding backlog packets, advancing time by step each iteration.
func benchmarkSteadyState(b *testing.B, q Queue, backlog int, step time.Duration) {
	var now time.Duration
	for i := range backlog {
		q.Enqueue(testItem(uint64(i), 1000), now)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		now += step
		q.Enqueue(testItem(uint64(i), 1000), now)
		q.Dequeue(now)
	}
}

// steadyStateAllocs is benchmarkSteadyState's loop under
// testing.AllocsPerRun.
func steadyStateAllocs(q Queue, backlog int, step time.Duration) float64 {
	var now time.Duration
	for i := range backlog {
		q.Enqueue(testItem(uint64(i), 1000), now)
	}
	return testing.AllocsPerRun(10000, func() {
		now += step
		q.Enqueue(testItem(1, 1000), now)
		q.Dequeue(now)
	})
}

func TestDropTailSteadyStateDoesNotAllocate(t *testing.T) {
	q, err := NewDropTail(Limits{Packets: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if a := steadyStateAllocs(q, 64, time.Millisecond); a != 0 {
		t.Errorf("Enqueue+Dequeue allocates %v times, want 0", a)
	}
}

func BenchmarkDropTail(b *testing.B) {
	q, err := NewDropTail(Limits{Packets: 1000})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkSteadyState(b, q, 64, time.Millisecond)
}

// Pass on an empty queue is Enqueue then Dequeue: the same packet out, the
// same counters, the same drops and marks told to the drop handler.
func TestPassIsEnqueueDequeue(t *testing.T) {
	disciplines := []struct {
		name string
		make func(Limits) Queue
	}{
		{"droptail", func(lim Limits) Queue { q, _ := NewDropTail(lim); return q }},
		{"codel", func(lim Limits) Queue { q, _ := NewCoDel(Mark, DefaultCoDelParams(), lim); return q }},
		{"backlog marker", func(lim Limits) Queue {
			q, _ := NewBacklogMarker(BacklogParams{ThresholdBytes: 1, Interval: time.Millisecond, Marking: MarkEvery}, lim)
			q.CheckAtEnqueue()
			return q
		}},
	}
	for _, d := range disciplines {
		for _, tc := range []struct {
			name string
			lim  Limits
			size int
		}{
			{"unlimited", Limits{}, 1000},
			{"fits", Limits{Packets: 1, Bytes: 1000}, 1000},
			{"too big", Limits{Bytes: 999}, 1000},
		} {
			t.Run(d.name+"/"+tc.name, func(t *testing.T) {
				a, b := d.make(tc.lim), d.make(tc.lim)
				var droppedA, droppedB []uint64
				a.SetDropHandler(func(it Item) { droppedA = append(droppedA, idOf(it)) })
				b.SetDropHandler(func(it Item) { droppedB = append(droppedB, idOf(it)) })
				for i := range uint64(3) {
					now := time.Duration(i) * time.Millisecond
					it := testItem(i+1, tc.size)
					want, wantOK := Item{}, a.Enqueue(it, now)
					wantAdmitted := wantOK
					if wantOK {
						want, wantOK = a.Dequeue(now)
					}
					got := it
					admitted, ok := b.Pass(&got, now)
					if admitted != wantAdmitted || ok != wantOK {
						t.Fatalf("packet %d: Pass admitted %v, ok %v; Enqueue %v, Dequeue %v", i+1, admitted, ok, wantAdmitted, wantOK)
					}
					if ok && (idOf(got) != idOf(want) || got.Size != want.Size || got.Enqueued != want.Enqueued || got.Pkt.CongestionMark != want.Pkt.CongestionMark) {
						t.Fatalf("packet %d: Pass = %+v; Enqueue+Dequeue = %+v", i+1, got, want)
					}
				}
				if a.Stats() != b.Stats() || !slices.Equal(droppedA, droppedB) {
					t.Errorf("stats %+v, drops %v; Enqueue+Dequeue: %+v, %v", b.Stats(), droppedB, a.Stats(), droppedA)
				}
			})
		}
	}
}
