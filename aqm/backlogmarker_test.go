package aqm

import (
	"slices"
	"testing"
	"time"
)

// markOp is one step of a scripted BacklogMarker run. If enq > 0 it
// enqueues enq packets of 1000 bytes at time at (ids continue from the last
// enqueue, starting at 1). Otherwise it dequeues at time at, times times
// (default 1), and checks the returned ids (want, want+1, ...; 0: empty),
// whether each is marked, and the cumulative mark count.
type markOp struct {
	at     time.Duration
	enq    int
	times  int
	want   uint64
	marked bool
	marks  uint64
}

func runMarkerScript(t *testing.T, q *BacklogMarker, ops []markOp) {
	t.Helper()
	next := uint64(1)
	for i, op := range ops {
		if op.enq > 0 {
			next = enqueueN(t, q, next, op.enq, op.at)
			continue
		}
		for j := range max(op.times, 1) {
			it, ok := q.Dequeue(op.at)
			got, want := uint64(0), uint64(0)
			if ok {
				got = idOf(it)
			}
			if op.want != 0 {
				want = op.want + uint64(j)
			}
			if got != want || (it.Pkt.CongestionMark == 1) != op.marked || q.Stats().Marks != op.marks {
				t.Errorf("op %d.%d: dequeue at %v: got id %d marked %v marks %d, want id %d marked %v marks %d",
					i, j, op.at, got, it.Pkt.CongestionMark == 1, q.Stats().Marks, want, op.marked, op.marks)
			}
		}
	}
}

func TestBacklogMarker(t *testing.T) {
	tests := []struct {
		name string
		p    BacklogParams
		ops  []markOp
	}{
		{"byte backlog: first mark after 100 ms above, then 70.7, 57.7, 50 ms", DefaultBacklogParams(), []markOp{
			{at: 0, enq: 100},
			// 99000 bytes stay queued: above 64 KiB, a period begins.
			{at: 0, want: 1, marks: 0},
			{at: ms(50), want: 2, marks: 0},
			{at: ms(100) - 1, want: 3, marks: 0},
			{at: ms(100), want: 4, marked: true, marks: 1},
			{at: 170710678 - 1, want: 5, marks: 1},
			{at: 170710678, want: 6, marked: true, marks: 2},
			{at: 228445704, want: 7, marked: true, marks: 3},
			{at: 278445704, want: 8, marked: true, marks: 4},
			// Next due at 323.167063 ms.
			{at: ms(300), times: 26, want: 9, marks: 4},
			// 65000 bytes stay: at or below 64 KiB, the period ends.
			{at: ms(320), want: 35, marks: 4},
			{at: ms(330), want: 36, marks: 4},
			{at: ms(400), enq: 2},
			// 65000 bytes again after the arrivals.
			{at: ms(400), want: 37, marks: 4},
			{at: ms(401), enq: 5},
			// 69000 bytes: a new period begins, its first mark due at 501 ms.
			{at: ms(401), want: 38, marks: 4},
			{at: ms(501) - 1, times: 2, want: 39, marks: 4},
			{at: ms(501), want: 41, marked: true, marks: 5},
		}},
		{"marks fall due from the schedule, not from the last dequeue", DefaultBacklogParams(), []markOp{
			{at: 0, enq: 100},
			{at: 0, want: 1, marks: 0},
			// Due at 100 ms, 170.7 ms, 228.4 ms: dequeues at 1 s catch up.
			{at: ms(1000), want: 2, marked: true, marks: 1},
			{at: ms(1000), want: 3, marked: true, marks: 2},
			{at: ms(1000), want: 4, marked: true, marks: 3},
		}},
		{"packet backlog (TCP mode), threshold exclusive", BacklogParams{ThresholdPackets: 10, Interval: ms(100)}, []markOp{
			{at: 0, enq: 12},
			// 11 packets stay: a period begins.
			{at: 0, want: 1, marks: 0},
			// 10 packets stay: not above, the period ends.
			{at: ms(1), want: 2, marks: 0},
			{at: ms(2), enq: 2},
			// 11 stay: a new period, its first mark due at 103 ms.
			{at: ms(3), want: 3, marks: 0},
			{at: ms(50), enq: 1},
			{at: ms(103), want: 4, marked: true, marks: 1},
		}},
		{"every: each packet above the byte threshold, no spacing", BacklogParams{ThresholdBytes: 3000, Interval: ms(100), Marking: MarkEvery}, []markOp{
			{at: 0, enq: 8},
			// 7000, 6000, 5000, 4000 bytes stay: all marked, 1 ns apart.
			{at: 0, want: 1, marked: true, marks: 1},
			{at: 1, want: 2, marked: true, marks: 2},
			{at: 1, want: 3, marked: true, marks: 3},
			{at: 1, want: 4, marked: true, marks: 4},
			// 3000 bytes stay: at the threshold, not above.
			{at: 2, want: 5, marks: 4},
			{at: 3, enq: 2},
			// 4000 bytes again: marked at once, then not at 3000.
			{at: 3, want: 6, marked: true, marks: 5},
			{at: 4, want: 7, marks: 5},
		}},
		{"every: each packet above the packet threshold (paper 002's TCP faces)", BacklogParams{ThresholdPackets: 10, Interval: ms(100), Marking: MarkEvery}, []markOp{
			{at: 0, enq: 14},
			// 13, 12, 11 packets stay, at any spacing.
			{at: 0, want: 1, marked: true, marks: 1},
			{at: ms(1), want: 2, marked: true, marks: 2},
			{at: ms(500), want: 3, marked: true, marks: 3},
			// 10 stay: not above.
			{at: ms(500), want: 4, marks: 3},
		}},
		{"byte threshold exclusive", BacklogParams{ThresholdBytes: 3000, Interval: ms(100)}, []markOp{
			{at: 0, enq: 5},
			// 4000 bytes stay: a period begins.
			{at: 0, want: 1, marks: 0},
			// 3000 bytes stay: the period ends before its first mark.
			{at: ms(200), want: 2, marks: 0},
			{at: ms(200), times: 3, want: 3, marks: 0},
			{at: ms(200), want: 0, marks: 0},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewBacklogMarker(tt.p, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			runMarkerScript(t, q, tt.ops)
			if q.Stats().AQMDrops != 0 {
				t.Errorf("dropped %d packets at dequeue", q.Stats().AQMDrops)
			}
		})
	}
}

func TestBacklogMarkerTailDrop(t *testing.T) {
	q, err := NewBacklogMarker(DefaultBacklogParams(), Limits{Packets: 2})
	if err != nil {
		t.Fatal(err)
	}
	var accept []bool
	for i := range 3 {
		accept = append(accept, q.Enqueue(testItem(uint64(i+1), 1000), 0))
	}
	if want := []bool{true, true, false}; !slices.Equal(accept, want) {
		t.Errorf("accepted %v, want %v", accept, want)
	}
	if want := (Stats{Enqueued: 2, TailDrops: 1, MaxLen: 2, MaxBytes: 2000}); q.Stats() != want {
		t.Errorf("stats %+v, want %+v", q.Stats(), want)
	}
}

func TestBacklogMarkerMarksEveryPacketType(t *testing.T) {
	for name, pkt := range map[string]Item{
		"interest": {Pkt: ndnInterest(), Size: 1000},
		"nack":     {Pkt: ndnNack(), Size: 1000},
		"data":     {Pkt: ndnData(), Size: 1000},
	} {
		q, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 1, Interval: ms(100), Marking: MarkEvery}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for range 3 {
			q.Enqueue(pkt, 0)
		}
		if got, _ := q.Dequeue(0); got.Pkt.CongestionMark != 1 {
			t.Errorf("%s: CongestionMark %d, want 1", name, got.Pkt.CongestionMark)
		}
	}
}

func TestNewBacklogMarkerRejects(t *testing.T) {
	tests := []struct {
		p    BacklogParams
		lim  Limits
		want string
	}{
		{BacklogParams{ThresholdBytes: -1, Interval: ms(100)}, Limits{}, "aqm: threshold-bytes -1 must not be negative"},
		{BacklogParams{ThresholdPackets: -1, Interval: ms(100)}, Limits{}, "aqm: threshold-packets -1 must not be negative (0 means use threshold-bytes)"},
		{BacklogParams{ThresholdBytes: 1}, Limits{}, "aqm: marking interval 0s must be positive"},
		{BacklogParams{ThresholdBytes: 1, Interval: ms(100), Marking: 2}, Limits{}, "aqm: unknown marking Marking(2) (want spaced or every)"},
		{DefaultBacklogParams(), Limits{Bytes: -1}, "aqm: byte limit -1 is negative (0 means unlimited)"},
	}
	for _, tt := range tests {
		_, err := NewBacklogMarker(tt.p, tt.lim)
		if err == nil || err.Error() != tt.want {
			t.Errorf("NewBacklogMarker(%+v, %+v) error %v, want %q", tt.p, tt.lim, err, tt.want)
		}
	}
}

func TestBacklogMarkerSteadyStateDoesNotAllocate(t *testing.T) {
	q, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 10, Interval: ms(100)}, Limits{Packets: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if a := steadyStateAllocs(q, 64, time.Millisecond); a != 0 {
		t.Errorf("Enqueue+Dequeue allocates %v times, want 0", a)
	}
}

func BenchmarkBacklogMarker(b *testing.B) {
	q, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 10, Interval: ms(100)}, Limits{Packets: 1000})
	if err != nil {
		b.Fatal(err)
	}
	benchmarkSteadyState(b, q, 64, time.Millisecond)
}

func TestBacklogMarkerThresholdCappedAtHalfTheLimit(t *testing.T) {
	pkts10 := BacklogParams{ThresholdPackets: 10, Interval: ms(100)}
	tests := []struct {
		name string
		p    BacklogParams
		lim  Limits
		want int
	}{
		{"no limit: as configured", DefaultBacklogParams(), Limits{}, 65536},
		{"byte limit below twice the threshold", DefaultBacklogParams(), Limits{Bytes: 46368}, 23184},
		{"byte limit of exactly twice the threshold", DefaultBacklogParams(), Limits{Bytes: 131072}, 65536},
		{"byte limit above twice the threshold", DefaultBacklogParams(), Limits{Bytes: 131073}, 65536},
		{"odd byte limit rounds down", DefaultBacklogParams(), Limits{Bytes: 46369}, 23184},
		{"packet limit only: byte threshold as configured", DefaultBacklogParams(), Limits{Packets: 32}, 65536},
		{"packet limit caps a packet threshold", pkts10, Limits{Packets: 12}, 6},
		{"packet limit of twice the threshold", pkts10, Limits{Packets: 20}, 10},
		{"byte limit only: packet threshold as configured", pkts10, Limits{Bytes: 1000}, 10},
		{"both limits: the packet one caps a packet threshold", pkts10, Limits{Packets: 12, Bytes: 100}, 6},
		{"both limits: the byte one caps a byte threshold", DefaultBacklogParams(), Limits{Packets: 2, Bytes: 10000}, 5000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewBacklogMarker(tt.p, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			if got := q.Threshold(); got != tt.want {
				t.Errorf("Threshold() = %d, want %d", got, tt.want)
			}
			if q.Params() != tt.p {
				t.Errorf("Params() = %+v, want the configured %+v", q.Params(), tt.p)
			}
		})
	}
}

// TestBacklogMarkerMarksAFullSmallQueue keeps a queue full for 300 ms: every
// millisecond one packet is dequeued and one arrives. A queue whose limit
// is at most the configured threshold must still mark, at the schedule's
// instants 100, 170.7, 228.4 and 278.4 ms (dequeues at 100, 171, 229 and
// 279 ms).
func TestBacklogMarkerMarksAFullSmallQueue(t *testing.T) {
	tests := []struct {
		name  string
		p     BacklogParams
		lim   Limits
		size  int
		fill  int
		marks uint64
	}{
		// 32 x 1449 B = 46,368 B: 44,919 B stay behind each dequeue,
		// below 64 KiB but above the 23,184 B cap.
		{"byte limit below the byte threshold", DefaultBacklogParams(), Limits{Bytes: 32 * 1449}, 1449, 32, 4},
		// 9 packets stay: not above 10, above the cap of 5.
		{"packet limit at the packet threshold", BacklogParams{ThresholdPackets: 10, Interval: ms(100)}, Limits{Packets: 10}, 1000, 10, 4},
		// A packet limit does not cap a byte threshold: 31 x 1449 B stay.
		{"packet limit with a byte threshold", DefaultBacklogParams(), Limits{Packets: 32}, 1449, 32, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewBacklogMarker(tt.p, tt.lim)
			if err != nil {
				t.Fatal(err)
			}
			id := uint64(1)
			for ; id <= uint64(tt.fill); id++ {
				if !q.Enqueue(testItem(id, tt.size), 0) {
					t.Fatalf("enqueue of %d refused", id)
				}
			}
			for i := range 300 {
				now := ms(float64(i))
				if _, ok := q.Dequeue(now); !ok {
					t.Fatalf("dequeue at %v: queue empty", now)
				}
				if !q.Enqueue(testItem(id, tt.size), now) {
					t.Fatalf("enqueue of %d at %v refused", id, now)
				}
				id++
			}
			if got := q.Stats(); got.Marks != tt.marks || got.TailDrops != 0 {
				t.Errorf("marks %d tail drops %d, want %d and 0", got.Marks, got.TailDrops, tt.marks)
			}
		})
	}
}

// TestBacklogMarkerExternalBacklog checks that bytes queued beyond the
// marker (a socket's send buffer, as a live runtime reports them) count in
// the backlog, and that CapThreshold caps the threshold at half a send
// buffer, as NFD does. The marker marks every packet above the threshold
// (MarkEvery), so one dequeue shows the threshold's verdict.
func TestBacklogMarkerExternalBacklog(t *testing.T) {
	tests := []struct {
		name     string
		capacity int // CapThreshold's argument; 0: not called
		queued   int // 1000-byte packets enqueued
		external int
		marked   bool
		thresh   int
	}{
		{"own queue below the threshold, nothing beyond", 0, 10, 0, false, DefaultThresholdBytes},
		{"own queue below, socket buffer tips it over", 0, 10, 60_000, true, DefaultThresholdBytes},
		{"exactly at the threshold is not above it", 0, 1, DefaultThresholdBytes - 1000, false, DefaultThresholdBytes},
		{"one byte above", 0, 1, DefaultThresholdBytes - 999, true, DefaultThresholdBytes},
		{"a 64 KiB send buffer halves the threshold", 64 << 10, 1, 40_000, true, 32 << 10},
		{"a 1 MiB send buffer leaves it", 1 << 20, 1, 40_000, false, DefaultThresholdBytes},
		{"a negative backlog counts as none", 0, 100, -1 << 20, true, DefaultThresholdBytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := DefaultBacklogParams()
			p.Marking = MarkEvery
			q, err := NewBacklogMarker(p, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.capacity > 0 {
				q.CapThreshold(tc.capacity)
			}
			if q.Threshold() != tc.thresh {
				t.Errorf("threshold %d, want %d", q.Threshold(), tc.thresh)
			}
			enqueueN(t, q, 1, tc.queued+1, 0) // the dequeued packet plus the queued ones
			q.SetExternalBacklog(tc.external)
			it, ok := q.Dequeue(0)
			if !ok || (it.Pkt.CongestionMark > 0) != tc.marked {
				t.Errorf("dequeued %v, marked %v; want marked %v", ok, it.Pkt.CongestionMark > 0, tc.marked)
			}
		})
	}
}

// TestBacklogMarkerExternalBacklogIgnoredInPackets checks that a marker
// measuring packets is not moved by external bytes or a send buffer.
func TestBacklogMarkerExternalBacklogIgnoredInPackets(t *testing.T) {
	q, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 10, Interval: DefaultMarkInterval}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	q.CapThreshold(4)
	q.SetExternalBacklog(1 << 30)
	enqueueN(t, q, 1, 5, 0)
	if it, _ := q.Dequeue(0); it.Pkt.CongestionMark > 0 || q.Threshold() != 10 {
		t.Errorf("marked %v with threshold %d; want unmarked, 10 packets", it.Pkt.CongestionMark > 0, q.Threshold())
	}
}

// TestBacklogMarkerSocketThreshold checks paper 002's TCP rule: with the
// backlog in packets and SocketThresholdBytes set, the queue also counts
// as congested while the socket below it holds more than that many bytes.
func TestBacklogMarkerSocketThreshold(t *testing.T) {
	for _, tc := range []struct {
		socket int
		want   bool
	}{{50000, false}, {50001, true}} {
		q, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 10, SocketThresholdBytes: 50000, Interval: DefaultMarkInterval, Marking: MarkEvery}, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		enqueueN(t, q, 1, 5, 0) // 4 packets stay: under 10
		q.SetExternalBacklog(tc.socket)
		if it, _ := q.Dequeue(0); (it.Pkt.CongestionMark > 0) != tc.want {
			t.Errorf("socket %d bytes: marked %v, want %v", tc.socket, it.Pkt.CongestionMark > 0, tc.want)
		}
	}
	if _, err := NewBacklogMarker(BacklogParams{ThresholdPackets: 10, SocketThresholdBytes: -1, Interval: DefaultMarkInterval}, Limits{}); err == nil {
		t.Error("negative socket threshold: no error")
	}
}

// TestBacklogMarkerEveryWithSocketBacklog checks the hackathon scheme on
// a face whose backlog is mostly in the socket: every packet sent while
// the socket holds more than the threshold is marked, none once it drains.
func TestBacklogMarkerEveryWithSocketBacklog(t *testing.T) {
	tests := []struct {
		name   string
		p      BacklogParams
		socket []int // SetExternalBacklog before each Dequeue
		marked []bool
	}{
		{"UDP: 50 KB of socket backlog, bytes",
			BacklogParams{ThresholdBytes: 50000, Interval: DefaultMarkInterval, Marking: MarkEvery},
			// 3000 bytes stay in the queue on top of the socket's.
			[]int{48000, 47001, 47000, 60000, 0},
			[]bool{true, true, false, true, false}},
		{"TCP: 10 packets or 50 KB unsent in the socket",
			BacklogParams{ThresholdPackets: 10, SocketThresholdBytes: 50000, Interval: DefaultMarkInterval, Marking: MarkEvery},
			[]int{50001, 50001, 50000, 90000, 0},
			[]bool{true, true, false, true, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := NewBacklogMarker(tc.p, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var marks uint64
			// Three packets stay queued behind each one dequeued.
			next := enqueueN(t, q, 1, 4, 0)
			for i, ext := range tc.socket {
				q.SetExternalBacklog(ext)
				it, ok := q.Dequeue(0)
				if !ok || (it.Pkt.CongestionMark > 0) != tc.marked[i] {
					t.Errorf("dequeue %d with %d socket bytes: ok %v marked %v, want marked %v",
						i, ext, ok, it.Pkt.CongestionMark > 0, tc.marked[i])
				}
				if tc.marked[i] {
					marks++
				}
				next = enqueueN(t, q, next, 1, 0)
			}
			if q.Stats().Marks != marks {
				t.Errorf("%d marks counted, want %d", q.Stats().Marks, marks)
			}
		})
	}
}

// TestBacklogMarkerEmptyQueueWithExternalBacklog checks that a Dequeue
// that finds the queue empty marks nothing, counts no mark and leaves the
// congestion period as it was, however large the backlog beyond the queue:
// NFD checks the backlog only when it sends a packet.
func TestBacklogMarkerEmptyQueueWithExternalBacklog(t *testing.T) {
	q, err := NewBacklogMarker(DefaultBacklogParams(), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	q.SetExternalBacklog(1 << 20)
	enqueueN(t, q, 1, 1, 0)
	if it, ok := q.Dequeue(0); !ok || it.Pkt.CongestionMark != 0 {
		t.Errorf("the first packet: ok %v, marked %v; want it unmarked, the start of a period", ok, it.Pkt.CongestionMark > 0)
	}
	q.SetExternalBacklog(0)
	if _, ok := q.Dequeue(ms(50)); ok || q.Stats().Marks != 0 {
		t.Errorf("empty dequeue: ok %v, marks %d", ok, q.Stats().Marks)
	}
	q.SetExternalBacklog(1 << 20)
	enqueueN(t, q, 2, 1, ms(100))
	if it, ok := q.Dequeue(ms(100)); !ok || it.Pkt.CongestionMark == 0 || q.Stats().Marks != 1 {
		t.Errorf("the packet at 100 ms: ok %v, marked %v, marks %d; want the period's first mark", ok, it.Pkt.CongestionMark > 0, q.Stats().Marks)
	}
}

// backlogStep is one packet of a backlog trace: sent at time at with
// backlog bytes queued behind it (or, with empty, a Dequeue that finds no
// packet).
type backlogStep struct {
	at      time.Duration
	backlog int
	empty   bool
}

// every returns one step per gap from first to last (inclusive), each with
// the given backlog.
func every(first, last, gap time.Duration, backlog int) []backlogStep {
	var out []backlogStep
	for at := first; at <= last; at += gap {
		out = append(out, backlogStep{at: at, backlog: backlog})
	}
	return out
}

// TestBacklogMarkerFollowsNFDSchedule replays backlog traces through the
// marker and checks the exact times of the marks against NFD 24.07's rule
// (GenericLinkService::checkCongestionLevel, threshold 64 KiB, base
// interval 100 ms): a period begins with the first packet sent above the
// threshold, its first mark is due one interval later, the k-th mark is
// followed by one due interval/sqrt(k+1) after the previous due time, and
// a packet sent at or below the threshold ends the period. Due times from
// the start of a period: 100, 170.710678, 228.445704, 278.445704,
// 323.167063, 363.991892, 401.788339 ms.
func TestBacklogMarkerFollowsNFDSchedule(t *testing.T) {
	const above, at = DefaultThresholdBytes + 1, DefaultThresholdBytes
	cat := func(parts ...[]backlogStep) []backlogStep { return slices.Concat(parts...) }
	tests := []struct {
		name  string
		trace []backlogStep
		marks []time.Duration
	}{
		{"sustained backlog, a packet every 10 ms",
			every(0, ms(420), ms(10), above),
			[]time.Duration{ms(100), ms(180), ms(230), ms(280), ms(330), ms(370), ms(410)}},
		{"a packet at the threshold ends the period; the next starts over",
			cat(every(0, ms(90), ms(10), above), []backlogStep{{at: ms(95), backlog: at}}, every(ms(100), ms(300), ms(10), above)),
			[]time.Duration{ms(200), ms(280)}},
		{"backlogs that drain within 100 ms are never marked",
			cat(every(0, ms(90), ms(10), above), []backlogStep{{at: ms(95)}},
				every(ms(100), ms(190), ms(10), above), []backlogStep{{at: ms(195)}},
				every(ms(200), ms(299), ms(11), above), []backlogStep{{at: ms(300)}}),
			nil},
		{"sparse sends catch up with the schedule",
			[]backlogStep{{at: 0, backlog: above}, {at: ms(1000), backlog: above}, {at: ms(1000), backlog: above}, {at: ms(1000), backlog: above}, {at: ms(1000), backlog: 0}, {at: ms(1001), backlog: above}},
			[]time.Duration{ms(1000), ms(1000), ms(1000)}},
		{"an empty dequeue neither ends nor starts a period",
			[]backlogStep{{at: 0, backlog: above}, {at: ms(60), empty: true}, {at: ms(99), backlog: above}, {at: ms(100), backlog: above}, {at: ms(150), empty: true}, {at: ms(171), backlog: above}},
			[]time.Duration{ms(100), ms(171)}},
		{"the first due time counts from the first packet above, not from the first after it",
			[]backlogStep{{at: ms(5), backlog: above}, {at: ms(104), backlog: above}, {at: ms(105), backlog: above}, {at: ms(175), backlog: above}, {at: ms(176), backlog: above}},
			[]time.Duration{ms(105), ms(176)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := NewBacklogMarker(DefaultBacklogParams(), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			var got []time.Duration
			id := uint64(1)
			for _, s := range tt.trace {
				if !s.empty {
					id = enqueueN(t, q, id, 1, s.at) // the packet sent; nothing stays behind it
				}
				q.SetExternalBacklog(s.backlog)
				it, ok := q.Dequeue(s.at)
				if ok == s.empty {
					t.Fatalf("dequeue at %v: ok %v, want %v", s.at, ok, !s.empty)
				}
				if it.Pkt.CongestionMark > 0 {
					got = append(got, s.at)
				}
			}
			if !slices.Equal(got, tt.marks) {
				t.Errorf("marks at %v, want %v", got, tt.marks)
			}
			if q.Stats().Marks != uint64(len(tt.marks)) {
				t.Errorf("Stats().Marks %d, want %d", q.Stats().Marks, len(tt.marks))
			}
		})
	}
}

// TestBacklogMarkerCheckAtEnqueue checks NFD's point of decision: after
// CheckAtEnqueue each packet is judged as it is enqueued, by the backlog
// ahead of it (queued packets plus the external backlog), on NFD's
// schedule; the mark stays on that packet, so it leaves behind the
// backlog that caused it, and Dequeue changes nothing.
func TestBacklogMarkerCheckAtEnqueue(t *testing.T) {
	type enq struct {
		at       time.Duration
		external int  // SetExternalBacklog before the Enqueue
		deq      int  // packets dequeued (at at) before the Enqueue
		marked   bool // whether this packet is marked
	}
	tests := []struct {
		name  string
		p     BacklogParams
		lim   Limits
		steps []enq
	}{
		{"the backlog ahead, not behind, starts a period; the first mark after 100 ms", DefaultBacklogParams(), Limits{}, []enq{
			// 65 packets of 1000 bytes ahead make 65000 bytes: not above 64 KiB.
			{at: 0, external: 65_000},
			// 65000 + 1000 queued: above, a period begins (first mark due at 100 ms).
			{at: ms(10), external: 65_000},
			{at: ms(110) - 1, external: 65_000},
			{at: ms(110), external: 65_000, marked: true},
			// The next due at 180.7 ms.
			{at: ms(180), external: 65_000},
			{at: ms(181), external: 65_000, marked: true},
		}},
		{"a packet sent into an emptied backlog ends the period", DefaultBacklogParams(), Limits{}, []enq{
			{at: 0, external: 70_000},         // period begins: due at 100 ms
			{at: ms(50), external: 0, deq: 1}, // nothing ahead: the period ends
			{at: ms(100), external: 70_000},   // a new period begins: due at 200 ms
			{at: ms(150), external: 70_000},   //
			{at: ms(200), external: 70_000, marked: true},
		}},
		{"the queue's own bytes ahead count", DefaultBacklogParams(), Limits{}, []enq{
			{at: 0, external: 61_000},
			{at: 0, external: 61_000},
			{at: 0, external: 61_000},
			{at: 0, external: 61_000},
			{at: 0, external: 61_000},
			// 5000 bytes ahead in the queue + 61000: above 64 KiB; period begins.
			{at: 0, external: 61_000},
			{at: ms(100), external: 61_000, marked: true},
		}},
		{"every: each packet sent above the threshold", BacklogParams{ThresholdBytes: 1500, Interval: ms(100), Marking: MarkEvery}, Limits{}, []enq{
			{at: 0}, {at: 0}, // 0 and 1000 bytes ahead
			{at: 0, marked: true}, // 2000
			{at: 0, deq: 3},       // 0
			{at: 0, external: 2000, marked: true},
		}},
		{"packets: the queued packets ahead", BacklogParams{ThresholdPackets: 2, Interval: ms(100), Marking: MarkEvery}, Limits{}, []enq{
			{at: 0}, {at: 0}, {at: 0}, // 0, 1, 2 ahead
			{at: 0, marked: true}, // 3 ahead
		}},
		{"a refused packet changes nothing", BacklogParams{ThresholdBytes: 500, Interval: ms(100), Marking: MarkEvery}, Limits{Packets: 2}, []enq{
			{at: 0}, {at: 0, marked: true},
			{at: 0, marked: false}, // refused: the limit holds 2
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q, err := NewBacklogMarker(tc.p, tc.lim)
			if err != nil {
				t.Fatal(err)
			}
			q.CheckAtEnqueue()
			if !q.ChecksAtEnqueue() {
				t.Fatal("ChecksAtEnqueue false after CheckAtEnqueue")
			}
			var want []uint64
			wantMarks := 0
			drained := map[uint64]bool{}
			for i, s := range tc.steps {
				id := uint64(i + 1)
				for range s.deq {
					it, ok := q.Dequeue(s.at)
					if !ok {
						t.Fatalf("step %d: nothing to dequeue", i)
					}
					drained[idOf(it)] = it.Pkt.CongestionMark > 0
				}
				q.SetExternalBacklog(s.external)
				if ok := q.Enqueue(testItem(id, 1000), s.at); !ok {
					if s.marked {
						t.Errorf("step %d: refused, want it marked", i)
					}
					continue
				}
				if s.marked {
					want = append(want, id)
					wantMarks++
				}
				if got := int(q.Stats().Marks); got != wantMarks {
					t.Errorf("step %d at %v: %d marks, want %d", i, s.at, got, wantMarks)
				}
			}
			for {
				it, ok := q.Dequeue(ms(10_000))
				if !ok {
					break
				}
				drained[idOf(it)] = it.Pkt.CongestionMark > 0
			}
			var got []uint64
			for id, m := range drained {
				if m {
					got = append(got, id)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("marked ids %v, want %v", got, want)
			}
			if int(q.Stats().Marks) != len(want) {
				t.Errorf("%d marks after the drain, want %d (Dequeue must not mark)", q.Stats().Marks, len(want))
			}
		})
	}
}
