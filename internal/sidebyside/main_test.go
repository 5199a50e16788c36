package main

import (
	"io"
	"strings"
	"testing"
)

func TestNsPerOp(t *testing.T) {
	tests := []struct {
		name    string
		out     string
		want    float64
		wantErr bool
	}{
		{"one result", "goos: linux\nBenchmarkLinear10MiB \t      60\t  23473581 ns/op\t    135998 events/op\nPASS\n", 23473581, false},
		{"fractional", "BenchmarkEvent-2 \t1000000\t        42.5 ns/op\n", 42.5, false},
		{"none", "PASS\n", 0, true},
		{"two", "BenchmarkA \t1\t5 ns/op\nBenchmarkB \t1\t6 ns/op\n", 0, true},
		{"failed", "--- FAIL: BenchmarkLinear10MiB\n    transfer incomplete\nFAIL\n", 0, true},
	}
	for _, tt := range tests {
		got, err := nsPerOp([]byte(tt.out))
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("%s: nsPerOp = %v, %v; want %v, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestMedian(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	}
	for _, tt := range tests {
		in := append([]float64(nil), tt.in...)
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
		for i := range in {
			if in[i] != tt.in[i] {
				t.Errorf("median reordered its argument: %v, was %v", tt.in, in)
			}
		}
	}
}

func TestRunRejectsBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"a.test", "a", "b.test"},
		{"-rounds", "0", "a.test", "a", "b.test", "b"},
		{"-n", "0", "a.test", "a", "b.test", "b"},
		{"-cpu", "-1", "a.test", "a", "b.test", "b"},
		{"-rounds", "1", "/nonexistent/a.test", ".", "/nonexistent/b.test", "."},
	} {
		if err := run(args, io.Discard); err == nil {
			t.Errorf("run(%s): no error", strings.Join(args, " "))
		}
	}
}

// The report's sets are the ratio of the medians of five runs of each
// build; its last line is the median of the rounds' ratios.
func TestReport(t *testing.T) {
	var olds, news []sample
	for _, r := range []struct{ o, n float64 }{{100, 90}, {120, 100}, {80, 100}, {110, 100}, {105, 100}, {200, 100}} {
		olds = append(olds, sample{cpuMS: r.o, nsOp: 2 * r.o})
		news = append(news, sample{cpuMS: r.n, nsOp: 2 * r.n})
	}
	var b strings.Builder
	report(&b, olds, news)
	// rounds 1-5: medians 105 and 100; all six rounds' ratios
	// 1.111, 1.2, 0.8, 1.1, 1.05, 2: median (1.1+1.111)/2 = 1.106
	for _, want := range []string{"rounds 1-5                     1.050                 1.050", "all, median                    1.106                 1.106"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "rounds 6-") {
		t.Errorf("report has a set of fewer than five rounds:\n%s", b.String())
	}
}
