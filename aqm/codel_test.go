package aqm

import (
	"math"
	"slices"
	"testing"
	"time"
)

// codelOp is one step of a scripted CoDel run. If enq > 0 it enqueues enq
// packets of 1000 bytes at time at (ids continue from the last enqueue,
// starting at 1). Otherwise it dequeues at time at and checks the returned
// id (0: queue empty), whether it is marked, the cumulative AQM drops and
// marks, and the control state Dropping, Count and DropNext.
type codelOp struct {
	at       time.Duration
	enq      int
	want     uint64
	marked   bool
	drops    uint64
	marks    uint64
	dropping bool
	count    int
	dropNext time.Duration
}

func enqOp(at time.Duration, n int) codelOp { return codelOp{at: at, enq: n} }

func runCoDelScript(t *testing.T, q *CoDel, ops []codelOp) {
	t.Helper()
	next := uint64(1)
	for i, op := range ops {
		if op.enq > 0 {
			next = enqueueN(t, q, next, op.enq, op.at)
			continue
		}
		it, ok := q.Dequeue(op.at)
		got := uint64(0)
		if ok {
			got = idOf(it)
		}
		st, stats := q.State(), q.Stats()
		if got != op.want || (it.Pkt.CongestionMark == 1) != op.marked ||
			stats.AQMDrops != op.drops || stats.Marks != op.marks ||
			st.Dropping != op.dropping || st.Count != op.count || st.DropNext != op.dropNext {
			t.Errorf("op %d: dequeue at %v: got id %d marked %v drops %d marks %d dropping %v count %d dropNext %v (%d ns)\n"+
				"                       want id %d marked %v drops %d marks %d dropping %v count %d dropNext %v",
				i, op.at, got, it.Pkt.CongestionMark == 1, stats.AQMDrops, stats.Marks,
				st.Dropping, st.Count, st.DropNext, int64(st.DropNext),
				op.want, op.marked, op.drops, op.marks, op.dropping, op.count, op.dropNext)
		}
	}
}

// Control-law instants used below: 100 ms/sqrt(k) truncated to whole
// nanoseconds is 100000000, 70710678, 57735026, 50000000, 44721359,
// 40824829, 37796447 for k = 1..7.
const (
	t275 = 275710678 * time.Nanosecond // 205 ms + 100ms/sqrt(2)
	t333 = 333445704 * time.Nanosecond // t275 + 100ms/sqrt(3)
	t383 = 383445704 * time.Nanosecond // t333 + 100ms/sqrt(4)
	t428 = 428167063 * time.Nanosecond // t383 + 100ms/sqrt(5)
	t468 = 468991892 * time.Nanosecond // t428 + 100ms/sqrt(6)
	t506 = 506788339 * time.Nanosecond // t468 + 100ms/sqrt(7)
	t280 = 280710678 * time.Nanosecond // 210 ms + 100ms/sqrt(2)
	t338 = 338445704 * time.Nanosecond // t280 + 100ms/sqrt(3)
	t476 = 476710678 * time.Nanosecond // 406 ms + 100ms/sqrt(2)
)

// A standing queue: 100 packets arrive at 0 and are dequeued slowly, so
// every sojourn time equals the dequeue time.
var standingQueueDrop = []codelOp{
	enqOp(0, 100),
	// Below target: nothing happens.
	{at: ms(4), want: 1},
	// At target: the interval starts (first above time 105 ms).
	{at: ms(5), want: 2},
	{at: ms(104.999999), want: 3},
	// A full interval above target: drop 4, enter dropping, count 1.
	{at: ms(105), want: 5, drops: 1, dropping: true, count: 1, dropNext: ms(205)},
	{at: ms(204), want: 6, drops: 1, dropping: true, count: 1, dropNext: ms(205)},
	// Drops spaced 100 ms, 70.7 ms, 57.7 ms, 50 ms.
	{at: ms(205), want: 8, drops: 2, dropping: true, count: 2, dropNext: t275},
	{at: t275 - 1, want: 9, drops: 2, dropping: true, count: 2, dropNext: t275},
	{at: t275, want: 11, drops: 3, dropping: true, count: 3, dropNext: t333},
	{at: t333, want: 13, drops: 4, dropping: true, count: 4, dropNext: t383},
	// Late dequeue: the pseudocode's loop drops 14, 15 and 16 at once.
	{at: ms(500), want: 17, drops: 7, dropping: true, count: 7, dropNext: t506},
}

// The same in Mark mode: the packet Drop mode drops is marked and sent,
// at the same instants with the same count and next-signal time; the
// three drops of one late dequeue become marks on three dequeues.
var standingQueueMark = []codelOp{
	enqOp(0, 100),
	{at: ms(4), want: 1},
	{at: ms(5), want: 2},
	{at: ms(104.999999), want: 3},
	{at: ms(105), want: 4, marked: true, marks: 1, dropping: true, count: 1, dropNext: ms(205)},
	{at: ms(204), want: 5, marks: 1, dropping: true, count: 1, dropNext: ms(205)},
	{at: ms(205), want: 6, marked: true, marks: 2, dropping: true, count: 2, dropNext: t275},
	{at: t275 - 1, want: 7, marks: 2, dropping: true, count: 2, dropNext: t275},
	{at: t275, want: 8, marked: true, marks: 3, dropping: true, count: 3, dropNext: t333},
	{at: t333, want: 9, marked: true, marks: 4, dropping: true, count: 4, dropNext: t383},
	{at: ms(500), want: 10, marked: true, marks: 5, dropping: true, count: 5, dropNext: t428},
	{at: ms(500), want: 11, marked: true, marks: 6, dropping: true, count: 6, dropNext: t468},
	{at: ms(500), want: 12, marked: true, marks: 7, dropping: true, count: 7, dropNext: t506},
	{at: ms(500), want: 13, marks: 7, dropping: true, count: 7, dropNext: t506},
}

// A dropping state with three drops, left when a packet below target is
// dequeued (304 ms), then re-entered at 406 ms.
var reentryPrefix = []codelOp{
	enqOp(0, 10),
	{at: ms(10), want: 1},
	{at: ms(110), want: 3, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
	{at: ms(210), want: 5, drops: 2, dropping: true, count: 2, dropNext: t280},
	{at: t280, want: 7, drops: 3, dropping: true, count: 3, dropNext: t338},
	enqOp(ms(300), 5), // 11..15
	{at: ms(301), want: 8, drops: 3, dropping: true, count: 3, dropNext: t338},
	{at: ms(302), want: 9, drops: 3, dropping: true, count: 3, dropNext: t338},
	{at: ms(303), want: 10, drops: 3, dropping: true, count: 3, dropNext: t338},
	// Sojourn 4 ms: leave the dropping state; count is kept.
	{at: ms(304), want: 11, drops: 3, count: 3, dropNext: t338},
	// Sojourn 6 ms: above target again from here (first above 406 ms).
	{at: ms(306), want: 12, drops: 3, count: 3, dropNext: t338},
}

func concat(parts ...[]codelOp) []codelOp { return slices.Concat(parts...) }

func TestCoDelStateMachine(t *testing.T) {
	tests := []struct {
		name string
		mode Mode
		ops  []codelOp
	}{
		{"standing queue, drop", Drop, standingQueueDrop},
		{"standing queue, mark", Mark, standingQueueMark},
		{"re-entry soon after 3 drops resumes at count 2", Drop, concat(reentryPrefix, []codelOp{
			enqOp(ms(400), 3), // 16..18
			// Drop 13. delta = 3-1 = 2 > 1 and 406ms - t338 < 16 intervals.
			{at: ms(406), want: 14, drops: 4, dropping: true, count: 2, dropNext: t476},
			{at: ms(407), want: 15, drops: 4, dropping: true, count: 2, dropNext: t476},
			// Sojourn 8 ms, 2000 bytes still queued: still dropping.
			{at: ms(408), want: 16, drops: 4, dropping: true, count: 2, dropNext: t476},
			// Only 1000 bytes (< one MTU) left behind 17: leave.
			{at: ms(409), want: 17, drops: 4, count: 2, dropNext: t476},
			{at: ms(410), want: 18, drops: 4, count: 2, dropNext: t476},
			{at: ms(411), want: 0, drops: 4, count: 2, dropNext: t476},
		})},
		{"re-entry just under 16 intervals after the last scheduled drop resumes at count 2", Drop, concat(reentryPrefix, []codelOp{
			enqOp(ms(1900), 3),
			{at: t338 + 16*ms(100) - 1, want: 14, drops: 4, dropping: true, count: 2,
				dropNext: t338 + 16*ms(100) - 1 + 70710678},
		})},
		{"re-entry 16 intervals after the last scheduled drop starts at count 1", Drop, concat(reentryPrefix, []codelOp{
			enqOp(ms(1900), 3),
			{at: t338 + 16*ms(100), want: 14, drops: 4, dropping: true, count: 1,
				dropNext: t338 + 17*ms(100)},
		})},
		{"re-entry after a single drop starts at count 1", Drop, []codelOp{
			enqOp(0, 10),
			{at: ms(10), want: 1},
			{at: ms(110), want: 3, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(151), want: 4, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(152), want: 5, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(153), want: 6, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(154), want: 7, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(155), want: 8, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			enqOp(ms(156), 5), // 11..15
			{at: ms(156), want: 9, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(157), want: 10, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(158), want: 11, drops: 1, count: 1, dropNext: ms(210)},
			{at: ms(162), want: 12, drops: 1, count: 1, dropNext: ms(210)},
			enqOp(ms(250), 3), // 16..18
			{at: ms(262), want: 14, drops: 2, dropping: true, count: 1, dropNext: ms(362)},
		}},
		{"leaving inside the drop loop keeps the last scheduled drop time", Drop, []codelOp{
			enqOp(0, 6),
			{at: ms(10), want: 1},
			{at: ms(110), want: 3, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			// Drop 4; only 6 (1000 bytes) stays behind 5, so 5 is sent
			// and the state is left without a new drop time.
			{at: ms(210), want: 5, drops: 2, count: 2, dropNext: ms(210)},
		}},
		{"empty queue leaves the dropping state", Drop, []codelOp{
			enqOp(0, 4),
			{at: ms(10), want: 1},
			{at: ms(110), want: 3, drops: 1, dropping: true, count: 1, dropNext: ms(210)},
			{at: ms(111), want: 4, drops: 1, count: 1, dropNext: ms(210)},
			{at: ms(112), want: 0, drops: 1, count: 1, dropNext: ms(210)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewCoDel(tt.mode, DefaultCoDelParams(), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			runCoDelScript(t, q, tt.ops)
		})
	}
}

// TestCoDelReentryCount pins RFC 8289's re-entry rule at its boundaries:
// on entering the dropping state, count resumes at delta = count -
// lastcount only if delta > 1 and the last scheduled signal (DropNext) is
// less than 16 intervals ago; otherwise it restarts at 1. The state left by
// an earlier dropping state is set directly; the dequeue at 2 s then
// enters the dropping state (the sojourn time has been above target since
// FirstAbove = 0 and 2000 bytes stay queued).
//
// delta == 1 restarts at 1, which is also delta: "delta > 1" and
// "delta > 0" give the same count there, so no test can tell them apart;
// the cases below pin every count the rule can produce.
func TestCoDelReentryCount(t *testing.T) {
	const now = 2 * time.Second
	recent := now - 50*time.Millisecond // well within 16 intervals
	tests := []struct {
		name             string
		count, lastCount int
		dropNext         time.Duration
		want             int
	}{
		{"delta 0 restarts at 1", 1, 1, recent, 1},
		{"delta 1 restarts at 1", 2, 1, recent, 1},
		{"delta 1 above a lastcount of 3 restarts at 1", 4, 3, recent, 1},
		{"delta 2 keeps count - lastcount", 3, 1, recent, 2},
		{"delta 2 above a lastcount of 3 keeps 2", 5, 3, recent, 2},
		{"delta 3 keeps 3", 4, 1, recent, 3},
		{"delta 2 just under 16 intervals keeps 2", 3, 1, now - 16*DefaultCoDelInterval + 1, 2},
		{"delta 2 at 16 intervals restarts at 1", 3, 1, now - 16*DefaultCoDelInterval, 1},
		{"delta 2 with the last signal still ahead keeps 2", 3, 1, now + 30*time.Millisecond, 2},
	}
	for _, tt := range tests {
		for _, mode := range []Mode{Drop, Mark} {
			t.Run(tt.name+"/"+mode.String(), func(t *testing.T) {
				q, err := NewCoDel(mode, DefaultCoDelParams(), Limits{})
				if err != nil {
					t.Fatal(err)
				}
				for id := range uint64(4) {
					q.Enqueue(testItem(id+1, 1000), 0)
				}
				q.st = CoDelState{Above: true, FirstAbove: 0, Count: tt.count, LastCount: tt.lastCount, DropNext: tt.dropNext}
				it, ok := q.Dequeue(now)
				wantID := uint64(1) // marked
				if mode == Drop {
					wantID = 2 // 1 dropped
				}
				if !ok || idOf(it) != wantID {
					t.Fatalf("dequeued id %d (ok %v), want %d", idOf(it), ok, wantID)
				}
				wantNext := now + time.Duration(float64(DefaultCoDelInterval)/math.Sqrt(float64(tt.want)))
				st := q.State()
				if !st.Dropping || st.Count != tt.want || st.LastCount != tt.want || st.DropNext != wantNext {
					t.Errorf("state %+v, want dropping with count %d, lastcount %d, next %v", st, tt.want, tt.want, wantNext)
				}
				if got := q.Stats().AQMDrops + q.Stats().Marks; got != 1 {
					t.Errorf("%d drops and marks, want 1", got)
				}
			})
		}
	}
}

// TestCoDelSteadySojourn feeds a queue in which every packet waits exactly
// the same time: each step (step apart) dequeues one packet and then
// enqueues one, lag packets are in flight, and enqueues are offset by off
// after the step's instant. The queue runs in Mark mode so that its
// contents do not depend on the AQM; the test checks the mark instants.
func TestCoDelSteadySojourn(t *testing.T) {
	tests := []struct {
		name      string
		step      time.Duration
		lag       int
		off       time.Duration
		mtu       int
		wantMarks []time.Duration
	}{
		{"sojourn just below target: never", time.Millisecond, 5, 1, DefaultMTU, nil},
		{"sojourn at target: after one interval, then interval/sqrt(count)", time.Millisecond, 5, 0, DefaultMTU,
			// First above at 5 ms; signals due 105, 205, t275, t333, t383
			// are taken at the next whole-millisecond dequeue.
			[]time.Duration{ms(105), ms(205), ms(276), ms(334), ms(384)}},
		{"long sojourn but only one packet behind: never (MTU rule)", 10 * time.Millisecond, 2, 0, DefaultMTU, nil},
		{"exactly one MTU behind: never", 10 * time.Millisecond, 2, 0, 1000, nil},
		{"the same with the MTU rule off", 10 * time.Millisecond, 2, 0, 999,
			// First above at 20 ms; signals due 120, 220, 290.7, 348.4, 398.4.
			[]time.Duration{ms(120), ms(220), ms(300), ms(350), ms(400)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultCoDelParams()
			p.MTU = tt.mtu
			q, err := NewCoDel(Mark, p, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var marks []time.Duration
			for k := 0; time.Duration(k)*tt.step <= ms(400); k++ {
				now := time.Duration(k) * tt.step
				if k >= tt.lag {
					it, ok := q.Dequeue(now)
					if !ok {
						t.Fatalf("queue empty at %v", now)
					}
					if got := now - it.Enqueued; got != time.Duration(tt.lag)*tt.step-tt.off {
						t.Fatalf("sojourn %v at %v, want %v", got, now, time.Duration(tt.lag)*tt.step-tt.off)
					}
					if it.Pkt.CongestionMark == 1 {
						marks = append(marks, now)
					}
				}
				q.Enqueue(testItem(uint64(k), 1000), now+tt.off)
			}
			if !slices.Equal(marks, tt.wantMarks) {
				t.Errorf("marks at %v, want %v", marks, tt.wantMarks)
			}
			if q.Stats().AQMDrops != 0 {
				t.Errorf("Mark mode dropped %d packets", q.Stats().AQMDrops)
			}
		})
	}
}

// TestCoDelMarkWhereDropWouldDrop runs an overloaded link (1000-byte
// packets arrive every 1 ms, one leaves every 2 ms) for 3 s in both modes
// and checks that the dequeues at which Drop mode drops are exactly those
// at which Mark mode marks, with the same control state after each.
func TestCoDelMarkWhereDropWouldDrop(t *testing.T) {
	type signal struct {
		at       time.Duration
		count    int
		dropNext time.Duration
	}
	run := func(mode Mode) []signal {
		q, err := NewCoDel(mode, DefaultCoDelParams(), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var out []signal
		for k := 0; k <= 3000; k++ {
			now := time.Duration(k) * time.Millisecond
			q.Enqueue(testItem(uint64(k), 1000), now)
			if k%2 != 0 {
				continue
			}
			before := q.Stats().AQMDrops
			it, ok := q.Dequeue(now)
			if !ok {
				t.Fatalf("%v: queue empty at %v", mode, now)
			}
			drops := q.Stats().AQMDrops - before
			if drops > 1 {
				t.Fatalf("%v: %d drops at %v; the comparison needs at most one", mode, drops, now)
			}
			if drops == 1 || it.Pkt.CongestionMark == 1 {
				st := q.State()
				out = append(out, signal{now, st.Count, st.DropNext})
			}
		}
		return out
	}
	drops, marks := run(Drop), run(Mark)
	if len(drops) < 100 {
		t.Fatalf("only %d drops; the scenario does not exercise the control law", len(drops))
	}
	if !slices.Equal(drops, marks) {
		t.Errorf("Drop mode dropped at %v\nMark mode marked at %v", drops, marks)
	}
	// Sojourn reaches 5 ms at the dequeue at 10 ms; the first signal
	// comes one interval later.
	if drops[0] != (signal{ms(110), 1, ms(210)}) {
		t.Errorf("first drop %+v, want at 110ms, count 1, next 210ms", drops[0])
	}
}

func TestCoDelTailDrop(t *testing.T) {
	q, err := NewCoDel(Mark, DefaultCoDelParams(), Limits{Packets: 3, Bytes: 2500})
	if err != nil {
		t.Fatal(err)
	}
	var accept []bool
	for i, size := range []int{1000, 1000, 1000, 400, 1} {
		accept = append(accept, q.Enqueue(testItem(uint64(i+1), size), 0))
	}
	if want := []bool{true, true, false, true, false}; !slices.Equal(accept, want) {
		t.Errorf("accepted %v, want %v", accept, want)
	}
	want := Stats{Enqueued: 3, TailDrops: 2, MaxLen: 3, MaxBytes: 2400}
	if q.Stats() != want {
		t.Errorf("stats %+v, want %+v", q.Stats(), want)
	}
}

func TestCoDelMarksEveryPacketType(t *testing.T) {
	tests := []struct {
		name string
		it   Item
		prev uint64 // CongestionMark before
		want uint64
	}{
		{"interest", Item{Pkt: ndnInterest(), Size: 1000}, 0, 1},
		{"nack", Item{Pkt: ndnNack(), Size: 1000}, 0, 1},
		{"data", Item{Pkt: ndnData(), Size: 1000}, 0, 1},
		{"data already marked at a higher level keeps it", Item{Pkt: ndnData(), Size: 1000}, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewCoDel(Mark, DefaultCoDelParams(), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			tt.it.Pkt.CongestionMark = tt.prev
			for range 4 {
				q.Enqueue(tt.it, 0)
			}
			q.Dequeue(ms(10))
			got, _ := q.Dequeue(ms(110))
			if got.Pkt.CongestionMark != tt.want || q.Stats().Marks != 1 {
				t.Errorf("CongestionMark %d with %d marks counted, want %d and 1",
					got.Pkt.CongestionMark, q.Stats().Marks, tt.want)
			}
		})
	}
}

func TestNewCoDelRejects(t *testing.T) {
	p := DefaultCoDelParams()
	tests := []struct {
		name string
		mode Mode
		p    CoDelParams
		lim  Limits
		want string
	}{
		{"bad mode", Mode(7), p, Limits{}, "aqm: codel mode Mode(7) is neither drop nor mark"},
		{"zero target", Drop, CoDelParams{Interval: p.Interval, MTU: p.MTU}, Limits{}, "aqm: codel target 0s must be positive"},
		{"zero interval", Drop, CoDelParams{Target: p.Target, MTU: p.MTU}, Limits{}, "aqm: codel interval 0s must be positive"},
		{"negative mtu", Drop, CoDelParams{Target: p.Target, Interval: p.Interval, MTU: -1}, Limits{}, "aqm: codel mtu -1 must not be negative"},
		{"negative limit", Mark, p, Limits{Packets: -2}, "aqm: packet limit -2 is negative (0 means unlimited)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewCoDel(tt.mode, tt.p, tt.lim)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestCoDelSteadyStateDoesNotAllocate(t *testing.T) {
	for _, mode := range []Mode{Drop, Mark} {
		q, err := NewCoDel(mode, DefaultCoDelParams(), Limits{Packets: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if a := steadyStateAllocs(q, 64, time.Millisecond); a != 0 {
			t.Errorf("%v: Enqueue+Dequeue allocates %v times, want 0", mode, a)
		}
	}
}

func BenchmarkCoDel(b *testing.B) {
	for _, mode := range []Mode{Drop, Mark} {
		b.Run(mode.String(), func(b *testing.B) {
			q, err := NewCoDel(mode, DefaultCoDelParams(), Limits{Packets: 1000})
			if err != nil {
				b.Fatal(err)
			}
			benchmarkSteadyState(b, q, 64, time.Millisecond)
		})
	}
}
