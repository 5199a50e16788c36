package aqm

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

// config returns what a queue built by New was configured with.
func config(q Queue) any {
	switch q := q.(type) {
	case *DropTail:
		return q.lim
	case *CoDel:
		return struct {
			Mode   Mode
			Params CoDelParams
			Lim    Limits
		}{q.Mode(), q.Params(), q.lim}
	case *BacklogMarker:
		return struct {
			Params BacklogParams
			Lim    Limits
		}{q.Params(), q.lim}
	}
	return nil
}

func TestDisciplines(t *testing.T) {
	want := []string{"droptail", "codel-drop", "codel-mark", "threshold-mark"}
	if got := Disciplines(); !slices.Equal(got, want) {
		t.Errorf("Disciplines() = %q, want %q", got, want)
	}
}

func TestNew(t *testing.T) {
	lim := Limits{Packets: 32}
	tests := []struct {
		name       string
		discipline string
		params     map[string]string
		want       any
	}{
		{"droptail", "droptail", nil, lim},
		{"codel-drop defaults", "codel-drop", nil, config(mustCoDel(Drop, DefaultCoDelParams(), lim))},
		{"codel-mark defaults", "codel-mark", map[string]string{}, config(mustCoDel(Mark, DefaultCoDelParams(), lim))},
		{"codel-mark all params", "codel-mark", map[string]string{"target": "7ms", "interval": "50ms", "mtu": "9000"},
			config(mustCoDel(Mark, CoDelParams{Target: 7 * time.Millisecond, Interval: 50 * time.Millisecond, MTU: 9000}, lim))},
		{"threshold-mark defaults", "threshold-mark", nil,
			config(mustMarker(BacklogParams{ThresholdBytes: 65536, Interval: 100 * time.Millisecond}, lim))},
		{"threshold-mark all params", "threshold-mark",
			map[string]string{"threshold-bytes": "51200", "threshold-packets": "10", "socket-threshold-bytes": "50000", "interval": "20ms", "marking": "spaced"},
			config(mustMarker(BacklogParams{ThresholdBytes: 51200, ThresholdPackets: 10, SocketThresholdBytes: 50000, Interval: 20 * time.Millisecond}, lim))},
		{"threshold-mark marking every packet", "threshold-mark",
			map[string]string{"threshold-bytes": "50000", "marking": "every"},
			config(mustMarker(BacklogParams{ThresholdBytes: 50000, Interval: 100 * time.Millisecond, Marking: MarkEvery}, lim))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := New(tt.discipline, tt.params, lim)
			if err != nil {
				t.Fatal(err)
			}
			if got := config(q); got != tt.want {
				t.Errorf("configured %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestEveryDescribedParamIsUsed sets each described parameter to a value
// other than its default and checks that the built queue differs from one
// built with defaults only.
func TestEveryDescribedParamIsUsed(t *testing.T) {
	// A value other than the default for each parameter that takes a word.
	words := map[string]string{"marking": "every"}
	for _, name := range Disciplines() {
		info, err := Describe(name)
		if err != nil {
			t.Fatal(err)
		}
		def, err := New(name, nil, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range info.Params {
			v, word := words[p.Name]
			if !word {
				v = "7ms"
				if _, err := strconv.Atoi(p.Default); err == nil {
					v = "12345"
				} else if _, err := time.ParseDuration(p.Default); err != nil {
					t.Fatalf("%s %s: default %q is neither an integer nor a duration", name, p.Name, p.Default)
				}
			}
			q, err := New(name, map[string]string{p.Name: v}, Limits{})
			if err != nil {
				t.Fatalf("%s %s=%s: %v", name, p.Name, v, err)
			}
			if config(q) == config(def) {
				t.Errorf("%s: setting %s=%s changed nothing", name, p.Name, v)
			}
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		discipline string
		params     map[string]string
		lim        Limits
		want       string
	}{
		{"red", nil, Limits{},
			`aqm: unknown queue discipline "red" (accepted: droptail, codel-drop, codel-mark, threshold-mark)`},
		{"droptail", map[string]string{"target": "5ms"}, Limits{},
			`aqm: discipline "droptail" has no parameter "target" (accepted: none)`},
		{"codel-mark", map[string]string{"threshold-bytes": "1", "Target": "5ms"}, Limits{},
			`aqm: discipline "codel-mark" has no parameter "Target" (accepted: target, interval, mtu)`},
		{"threshold-mark", map[string]string{"mtu": "1500"}, Limits{},
			`aqm: discipline "threshold-mark" has no parameter "mtu" (accepted: threshold-bytes, threshold-packets, socket-threshold-bytes, interval, marking)`},
		{"codel-drop", map[string]string{"target": "5"}, Limits{},
			`aqm: codel-drop parameter target="5": want a duration such as 5ms or 100ms: time: missing unit in duration "5"`},
		{"codel-drop", map[string]string{"mtu": "1.5k"}, Limits{},
			`aqm: codel-drop parameter mtu="1.5k": want a decimal integer: strconv.Atoi: parsing "1.5k": invalid syntax`},
		{"codel-drop", map[string]string{"interval": "-1ms"}, Limits{},
			`aqm: codel interval -1ms must be positive`},
		{"threshold-mark", map[string]string{"marking": "nfd"}, Limits{},
			`aqm: threshold-mark parameter marking: aqm: marking "nfd": want spaced or every`},
		{"threshold-mark", map[string]string{"threshold-packets": "-3"}, Limits{},
			`aqm: threshold-packets -3 must not be negative (0 means use threshold-bytes)`},
		{"droptail", nil, Limits{Packets: -1},
			`aqm: packet limit -1 is negative (0 means unlimited)`},
	}
	for _, tt := range tests {
		_, err := New(tt.discipline, tt.params, tt.lim)
		if err == nil || err.Error() != tt.want {
			t.Errorf("New(%q, %v, %+v) error\n  %v\nwant\n  %s", tt.discipline, tt.params, tt.lim, err, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	info, err := Describe("codel-mark")
	if err != nil {
		t.Fatal(err)
	}
	want := "codel-mark: CoDel (RFC 8289) setting the NDNLPv2 CongestionMark instead of dropping, plus the queue limits\n" +
		"    target (default 5ms): acceptable standing queue delay (sojourn time)\n" +
		"    interval (default 100ms): time the delay must stay at or above target before acting; base spacing of the control law\n" +
		"    mtu (default 1500): bytes: never drop or mark while at most this much stays queued (0 disables)\n"
	if got := info.String(); got != want {
		t.Errorf("Describe(codel-mark).String() =\n%s\nwant\n%s", got, want)
	}
	info, err = Describe("threshold-mark")
	if err != nil {
		t.Fatal(err)
	}
	wantParams := []Param{
		{"threshold-bytes", "65536", "mark while more than this many bytes stay queued behind the sent packet (at most half the byte limit, if any)"},
		{"threshold-packets", "0", "if positive, measure the backlog in packets instead, at most half the packet limit if any (0 = use threshold-bytes)"},
		{"socket-threshold-bytes", "0", "with threshold-packets: also mark while more than this many bytes wait in the socket below the queue (TCP tunnels, paper 002; 0 = off)"},
		{"interval", "100ms", "how long the backlog stays above the threshold before the first mark; the k-th mark follows the previous one after interval/sqrt(k+1) (marking = spaced)"},
		{"marking", "spaced", "spaced: NFD's marks, the first after interval above the threshold; every: mark every packet sent while above the threshold (paper 002's hackathon NFD)"},
	}
	if !slices.Equal(info.Params, wantParams) {
		t.Errorf("Describe(threshold-mark).Params = %+v, want %+v", info.Params, wantParams)
	}
	if _, err := Describe("fq-codel"); err == nil {
		t.Error("Describe(fq-codel) succeeded, want an error")
	}
}

func mustCoDel(mode Mode, p CoDelParams, lim Limits) *CoDel {
	q, err := NewCoDel(mode, p, lim)
	if err != nil {
		panic(err)
	}
	return q
}

func mustMarker(p BacklogParams, lim Limits) *BacklogMarker {
	q, err := NewBacklogMarker(p, lim)
	if err != nil {
		panic(err)
	}
	return q
}

// TestDropHandlerSeesEveryDrop overloads each discipline (one 1000-byte
// packet in per ms, one out per 2 ms, a 100-packet limit) and checks that
// every packet is either dequeued or handed to the drop handler, exactly
// once, and that the handler sees the tail drops and the AQM drops.
func TestDropHandlerSeesEveryDrop(t *testing.T) {
	tests := []struct {
		discipline string
		aqmDrops   bool // the discipline drops at dequeue under this load
	}{
		{"droptail", false},
		{"codel-drop", true},
		{"codel-mark", false},
		{"threshold-mark", false},
	}
	for _, tt := range tests {
		t.Run(tt.discipline, func(t *testing.T) {
			q, err := New(tt.discipline, nil, Limits{Packets: 100})
			if err != nil {
				t.Fatal(err)
			}
			var dropped []uint64
			q.SetDropHandler(func(it Item) { dropped = append(dropped, idOf(it)) })
			var out []uint64
			dequeue := func(now time.Duration) bool {
				it, ok := q.Dequeue(now)
				if ok {
					out = append(out, idOf(it))
				}
				return ok
			}
			const n = 1000
			for i := range n {
				now := time.Duration(i) * time.Millisecond
				accepted := q.Enqueue(testItem(uint64(i), 1000), now)
				if !accepted && (len(dropped) == 0 || dropped[len(dropped)-1] != uint64(i)) {
					t.Fatalf("packet %d refused without reaching the handler", i)
				}
				if i%2 == 1 {
					dequeue(now)
				}
			}
			for dequeue(n * time.Millisecond) {
			}
			st := q.Stats()
			if st.TailDrops == 0 || (st.AQMDrops > 0) != tt.aqmDrops {
				t.Fatalf("tail drops %d, AQM drops %d: the load does not exercise the drops tested", st.TailDrops, st.AQMDrops)
			}
			if uint64(len(dropped)) != st.TailDrops+st.AQMDrops {
				t.Errorf("handler got %d packets, the queue dropped %d (tail %d, AQM %d)", len(dropped), st.TailDrops+st.AQMDrops, st.TailDrops, st.AQMDrops)
			}
			all := append(slices.Clone(out), dropped...)
			slices.Sort(all)
			for i, id := range all {
				if id != uint64(i) {
					t.Fatalf("packet %d is missing or reported twice: every packet must be dequeued or dropped, once", i)
				}
			}
			if len(all) != n {
				t.Fatalf("%d packets accounted for, want %d", len(all), n)
			}
		})
	}
}
