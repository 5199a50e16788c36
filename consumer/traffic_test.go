package consumer

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"

	enc "github.com/named-data/ndnd/std/encoding"

	"github.com/ndncc/ndncc/ndn"
)

// appNet is a face that answers a traffic application's Interests after
// delay, unless drop says the Interest is lost.
type appNet struct {
	s     *fakeSched
	t     *Traffic
	delay time.Duration
	drop  func(seq uint64, attempt int) bool
	nack  bool // answer with a Nack instead of Data
	sent  []appSent
	count map[uint64]int
}

type appSent struct {
	at  time.Duration
	seq uint64
}

func (n *appNet) Send(p ndn.Packet) {
	in := p.Interest
	c := in.Name[len(in.Name)-1]
	if c.Typ != enc.TypeSequenceNumNameComponent {
		panic("the application sent a name without a sequence number: " + in.Name.String())
	}
	seq := c.NumberVal()
	attempt := n.count[seq]
	n.count[seq]++
	n.sent = append(n.sent, appSent{n.s.Now(), seq})
	if n.drop != nil && n.drop(seq, attempt) {
		return
	}
	n.s.After(n.delay, func() {
		if n.nack {
			n.t.OnPacket(ndn.Packet{Interest: in, Nack: ndn.NackCongestion})
			return
		}
		n.t.OnPacket(ndn.Packet{Data: &ndn.Data{Name: in.Name, ContentLen: 100}})
	})
}

// runApp runs an application of opts on a fresh network until limit.
func runApp(t *testing.T, opts TrafficOptions, delay, limit time.Duration, drop func(uint64, int) bool) (*Traffic, *appNet, bool) {
	t.Helper()
	s := &fakeSched{}
	n := &appNet{s: s, delay: delay, drop: drop, count: map[uint64]int{}}
	done := false
	prefix, _ := ndn.ParseName("/app")
	tr, err := NewTraffic(TrafficConfig{Prefix: prefix, Options: opts, Rand: rand.New(rand.NewPCG(1, 2)), OnDone: func() { done = true }}, s, n)
	if err != nil {
		t.Fatal(err)
	}
	n.t = tr
	s.After(0, tr.Start)
	s.run(limit)
	return tr, n, done
}

func mustTraffic(t *testing.T, app string, params map[string]string) TrafficOptions {
	t.Helper()
	o, err := ParseTrafficParams(app, params)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestZipfMandelbrotMatchesItsFormula(t *testing.T) {
	for _, tc := range []struct {
		n    uint64
		s, q float64
	}{
		{10, 0.7, 0.7}, {100, 1.0, 0}, {50, 0.5, 5}, {1, 0.7, 0.7}, {20, 0, 0}, // s = 0: uniform
	} {
		z := NewZipfMandelbrot(tc.n, tc.s, tc.q)
		h := 0.0
		for j := uint64(1); j <= tc.n; j++ {
			h += math.Pow(float64(j)+tc.q, -tc.s)
		}
		for i := uint64(1); i <= tc.n; i++ {
			want := math.Pow(float64(i)+tc.q, -tc.s) / h
			if got := z.P(i); math.Abs(got-want) > 1e-12 {
				t.Errorf("N=%d s=%v q=%v: P(%d) = %v, want %v", tc.n, tc.s, tc.q, i, got, want)
			}
		}
		if z.P(0) != 0 || z.P(tc.n+1) != 0 {
			t.Errorf("N=%d: ranks outside 1..N have probability %v, %v", tc.n, z.P(0), z.P(tc.n+1))
		}
	}
}

// TestZipfAppDrawsTheDistribution checks the contents a zipf application
// asks for, with a fixed seed, against the Zipf–Mandelbrot formula: each
// rank's share within 4 standard errors, and a chi-square statistic below
// its 99.9% quantile.
func TestZipfAppDrawsTheDistribution(t *testing.T) {
	const n, draws = 10, 20000
	opts := mustTraffic(t, AppZipf, map[string]string{"rate": "1000", "contents": "10", "s": "0.7", "q": "0.7", "count": "20000"})
	tr, net, done := runApp(t, opts, time.Millisecond, 30*time.Second, nil)
	if !done || tr.Stats().Data != draws {
		t.Fatalf("done %v, %d Data, want %d", done, tr.Stats().Data, draws)
	}
	counts := make([]float64, n+1)
	for _, s := range net.sent {
		if s.seq < 1 || s.seq > n {
			t.Fatalf("content %d outside 1..%d", s.seq, n)
		}
		counts[s.seq]++
	}
	h := 0.0
	for j := 1; j <= n; j++ {
		h += math.Pow(float64(j)+0.7, -0.7)
	}
	chi2 := 0.0
	for i := 1; i <= n; i++ {
		p := math.Pow(float64(i)+0.7, -0.7) / h
		exp := p * draws
		se := math.Sqrt(draws * p * (1 - p))
		if math.Abs(counts[i]-exp) > 4*se {
			t.Errorf("content %d asked %v times, want %.0f ± %.0f", i, counts[i], exp, 4*se)
		}
		chi2 += (counts[i] - exp) * (counts[i] - exp) / exp
	}
	if chi2 > 27.88 { // chi-square, 9 degrees of freedom, 99.9%
		t.Errorf("chi-square %.2f over 27.88: the draws do not follow the distribution", chi2)
	}
	if counts[1] <= counts[n] {
		t.Errorf("rank 1 asked %v times, rank %d %v: not decreasing", counts[1], n, counts[n])
	}
}

func TestTrafficApps(t *testing.T) {
	for _, tc := range []struct {
		name   string
		app    string
		params map[string]string
		limit  time.Duration
		drop   func(seq uint64, attempt int) bool
		// want
		sent      []appSent // nil: not checked
		interests uint64
		data      uint64
		timeouts  uint64
		done      bool
	}{
		{
			name: "cbr at 10/s for 1 s", app: AppCBR, params: map[string]string{"rate": "10"}, limit: 950 * time.Millisecond,
			interests: 10, data: 10,
			sent: []appSent{{0, 0}, {100 * time.Millisecond, 1}, {200 * time.Millisecond, 2}, {300 * time.Millisecond, 3}, {400 * time.Millisecond, 4},
				{500 * time.Millisecond, 5}, {600 * time.Millisecond, 6}, {700 * time.Millisecond, 7}, {800 * time.Millisecond, 8}, {900 * time.Millisecond, 9}},
		},
		{
			name: "cbr with a count ends", app: AppCBR, params: map[string]string{"rate": "100", "count": "5"}, limit: 10 * time.Second,
			interests: 5, data: 5, done: true,
		},
		{
			name: "cbr retransmits a lost Interest at its next turn", app: AppCBR, params: map[string]string{"rate": "10", "count": "3"}, limit: 10 * time.Second,
			drop:      func(seq uint64, attempt int) bool { return seq == 1 && attempt == 0 },
			interests: 4, data: 3, timeouts: 1, done: true,
			// RTO 1 s before any sample... the first Data's sample sets it
			// to 200 ms (min-rto): seq 1, sent at 100 ms, times out by the
			// check at 300 ms and goes at the next turn, 300 ms
			sent: []appSent{{0, 0}, {100 * time.Millisecond, 1}, {200 * time.Millisecond, 2}, {300 * time.Millisecond, 1}},
		},
		{
			name: "batches at their times", app: AppBatches, params: map[string]string{"batches": "1s 3 2500ms 2"}, limit: 10 * time.Second,
			interests: 5, data: 5, done: true,
			sent: []appSent{{time.Second, 0}, {time.Second, 1}, {time.Second, 2}, {2500 * time.Millisecond, 3}, {2500 * time.Millisecond, 4}},
		},
		{
			name: "batches retransmit at the timeout", app: AppBatches, params: map[string]string{"batches": "0s 2"}, limit: 10 * time.Second,
			drop:      func(seq uint64, attempt int) bool { return seq == 0 && attempt == 0 },
			interests: 3, data: 2, timeouts: 1, done: true,
			sent: []appSent{{0, 0}, {0, 1}, {time.Second, 0}}, // the RTO before any sample is 1 s; the check runs every 50 ms
		},
		{
			name: "zipf names contents 1..N", app: AppZipf, params: map[string]string{"rate": "50", "contents": "3", "count": "40"}, limit: 10 * time.Second,
			interests: 40, data: 40, done: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := mustTraffic(t, tc.app, tc.params)
			tr, net, done := runApp(t, opts, 10*time.Millisecond, tc.limit, tc.drop)
			st := tr.Stats()
			if st.Interests != tc.interests || st.Data != tc.data || st.Timeouts != tc.timeouts || done != tc.done || st.Complete != tc.done {
				t.Errorf("interests %d data %d timeouts %d done %v complete %v, want %d %d %d %v", st.Interests, st.Data, st.Timeouts, done, st.Complete,
					tc.interests, tc.data, tc.timeouts, tc.done)
			}
			if tc.sent != nil {
				if len(net.sent) != len(tc.sent) {
					t.Fatalf("sent %v, want %v", net.sent, tc.sent)
				}
				for i := range tc.sent {
					if net.sent[i] != tc.sent[i] {
						t.Errorf("Interest %d: %v, want %v", i, net.sent[i], tc.sent[i])
					}
				}
			}
			if tc.app == AppZipf {
				for _, s := range net.sent {
					if s.seq < 1 || s.seq > 3 {
						t.Errorf("content %d outside 1..3", s.seq)
					}
				}
			}
			if st.Data > 0 && (st.DelayMean() < 10*time.Millisecond || st.RTTMin != 10*time.Millisecond) {
				t.Errorf("mean delay %v, RTT min %v: want at least the network's 10 ms, and 10 ms", st.DelayMean(), st.RTTMin)
			}
		})
	}
}

func TestTrafficNacksAreCounted(t *testing.T) {
	s := &fakeSched{}
	n := &appNet{s: s, delay: time.Millisecond, nack: true, count: map[uint64]int{}}
	prefix, _ := ndn.ParseName("/app")
	tr, err := NewTraffic(TrafficConfig{Prefix: prefix, Options: mustTraffic(t, AppCBR, map[string]string{"rate": "10", "count": "2"}), Rand: rand.New(rand.NewPCG(1, 2))}, s, n)
	if err != nil {
		t.Fatal(err)
	}
	n.t = tr
	s.After(0, tr.Start)
	s.run(500 * time.Millisecond)
	st := tr.Stats()
	if st.Nacks != 2 || st.Data != 0 || tr.Done() {
		t.Errorf("nacks %d data %d done %v, want 2 Nacks, no Data, not done (a Nacked Interest waits for its timeout)", st.Nacks, st.Data, tr.Done())
	}
}

func TestTrafficRandomizedIntervals(t *testing.T) {
	for _, mode := range []string{"uniform", "exponential"} {
		opts := mustTraffic(t, AppCBR, map[string]string{"rate": "100", "randomize": mode, "count": "4000"})
		_, net, done := runApp(t, opts, time.Millisecond, 200*time.Second, nil)
		if !done {
			t.Fatalf("%s: not done", mode)
		}
		mean := float64(net.sent[len(net.sent)-1].at-net.sent[0].at) / float64(len(net.sent)-1)
		if math.Abs(mean-float64(10*time.Millisecond)) > 0.05*float64(10*time.Millisecond) {
			t.Errorf("%s: mean interval %v, want 10 ms ± 5%%", mode, time.Duration(mean))
		}
	}
}

func TestParseTrafficParamsErrors(t *testing.T) {
	for _, tc := range []struct {
		app    string
		params map[string]string
		key    string // the ParamError's, or "" for another error
		want   string
	}{
		{"cbr", map[string]string{"rate": "0"}, "rate", "above 0"},
		{"cbr", map[string]string{"contents": "10"}, "contents", "no such parameter"},
		{"zipf", map[string]string{"contents": "0"}, "contents", "from 1"},
		{"zipf", map[string]string{"s": "-1"}, "s", "≥ 0"},
		{"cbr", map[string]string{"randomize": "poisson"}, "randomize", "none, uniform or exponential"},
		{"batches", map[string]string{}, "batches", "required"},
		{"batches", map[string]string{"batches": "1s"}, "batches", "pairs"},
		{"batches", map[string]string{"batches": "2s 1 1s 1"}, "batches", "before the batch ahead"},
		{"batches", map[string]string{"batches": "1s 0"}, "batches", "from 1"},
		{"cbr", map[string]string{"lifetime": "0s"}, "lifetime", "positive"},
		{"cbr", map[string]string{"min-rto": "20s"}, "min-rto", "rto"},
		{"ftp", nil, "", "unknown app"},
	} {
		_, err := ParseTrafficParams(tc.app, tc.params)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %v: error %v, want one containing %q", tc.app, tc.params, err, tc.want)
			continue
		}
		var pe *ParamError
		if got := errors.As(err, &pe); got != (tc.key != "") || (got && pe.Key != tc.key) {
			t.Errorf("%s %v: error %v names key %v, want %q", tc.app, tc.params, err, pe, tc.key)
		}
	}
}

func TestParseBatchesAcceptsNdnSIMsForm(t *testing.T) {
	got, err := ParseBatches("1 10 2.5 20 3s 1")
	if err != nil {
		t.Fatal(err)
	}
	want := []Batch{{time.Second, 10}, {2500 * time.Millisecond, 20}, {3 * time.Second, 1}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("batch %d: %v, want %v", i, got[i], want[i])
		}
	}
}

// TestTrafficParamsAreDocumented checks that docs/scenario.md's table of
// the traffic applications' parameters has a row for each, with its
// default.
func TestTrafficParamsAreDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/scenario.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	for _, p := range trafficParams() {
		def := "`" + p.def + "`"
		if p.def == "" {
			def = "required"
		}
		found := false
		for _, l := range lines {
			if strings.HasPrefix(l, "| `") && strings.Contains(strings.SplitN(l, "|", 3)[1], "`"+p.name+"`") && strings.Contains(l, def) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("docs/scenario.md has no row for parameter %s with its default %s", p.name, def)
		}
	}
}
